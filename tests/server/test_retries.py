"""Retries with backoff (as client-js does them), headers and a bearer token, against the real server
behind a flaky proxy: a retry happens only before any chunk, so it never starts a second run."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

import mastra_notebook as mn
from mastra_notebook.client.transport import Retry

from ..helpers import everything_shown, wait_until
from .faults import Proxy, fault_server, flaky_proxy

pytestmark = pytest.mark.server
ROOT = Path(__file__).resolve().parents[2]


def unique_prompt() -> str:
    return f"count me {uuid.uuid4()}"  # the counter agent counts its runs per prompt


def _attempts_then_one_run(proxy: Proxy) -> int:
    """How many connections the stream took: those refused or answered 503, then the one that ran.
    Requests after it (the agent's scorers, read once the run ended) are not the stream's."""
    streams = [line for line in proxy.requests if line.startswith("POST /api/agents/counter/stream")]
    assert len(streams) == 1, proxy.requests  # one run reached the server
    assert proxy.requests[0] == streams[0]  # and the first request through was the stream
    return proxy.connections - proxy.forwarded + 1


def test_two_refused_connections_then_one_run(mastra_url: str) -> None:
    with flaky_proxy(mastra_url, refuse=2) as proxy:
        result = mn.MastraClient(proxy.url).agent("counter").stream(unique_prompt()).wait(30)
    assert result.status == "finished", result.error
    assert _attempts_then_one_run(proxy) == 3  # exactly three attempts, one reached the server
    assert result.text == "Run 1 for this prompt."  # the model ran once for it


def test_503_twice_then_one_run(mastra_url: str) -> None:
    prompt = unique_prompt()
    client = mn.MastraClient(mastra_url)
    with flaky_proxy(mastra_url, unavailable=2) as proxy:
        result = mn.MastraClient(proxy.url).agent("counter").stream(prompt).wait(30)
    assert result.status == "finished", result.error
    assert _attempts_then_one_run(proxy) == 3
    assert result.text == "Run 1 for this prompt."
    again = client.agent("counter").stream(prompt).wait(30)
    assert again.text == "Run 2 for this prompt."  # the counter does count: the retries did not run it


def test_retries_used_up_say_so(mastra_url: str) -> None:
    with flaky_proxy(mastra_url, unavailable=5) as proxy:
        client = mn.MastraClient(proxy.url, retries=1, backoff_ms=10)
        result = client.agent("counter").stream(unique_prompt()).wait(30)
    assert proxy.connections == 2
    assert proxy.forwarded == 0
    assert result.status == "error"
    assert result.error is not None
    assert result.error.status_code == 503
    assert result.error.message == "Service Unavailable: try again after 2 attempts (HTTP 503)"


def test_no_retry_once_a_chunk_arrived() -> None:
    with fault_server() as url, flaky_proxy(url) as proxy:  # /drop/ sends three chunks, then drops
        result = mn.MastraClient(proxy.url).agent("drop").stream("hi").wait(30)
    assert proxy.connections == 1
    assert result.status == "incomplete"
    assert result.text == "Hello world"  # the chunks that came are kept
    (banner,) = [p.text or "" for p in result.parts if p.kind == "banner"]
    assert banner.startswith("the connection to the Mastra server was lost (not retried: the run had begun)")


def test_a_refused_connection_is_retried_then_reported() -> None:
    client = mn.MastraClient("http://127.0.0.1:9", retries=2, backoff_ms=1)  # nothing listens there
    result = client.agent("weather").stream("hi").wait(30)
    assert result.status == "error"
    assert result.error is not None
    assert result.error.message.startswith(
        "cannot connect to the Mastra server at http://127.0.0.1:9 after 3 attempts (ConnectError, ConnectError)"
    )


def test_listing_is_retried_too(mastra_url: str) -> None:
    with flaky_proxy(mastra_url, refuse=1, unavailable=1) as proxy:
        agents = mn.MastraClient(proxy.url, backoff_ms=1).agents()
    assert "counter" in agents
    assert proxy.connections == 3


def test_backoff_doubles_from_300_ms_to_5_s() -> None:
    assert Retry().delays() == [0.3, 0.6, 1.2]
    assert Retry(retries=7).delays() == [0.3, 0.6, 1.2, 2.4, 4.8, 5.0, 5.0]
    assert Retry(retries=0).delays() == []
    with pytest.raises(ValueError, match="retries must be a whole number"):
        mn.MastraClient("http://127.0.0.1:9", retries=-1)


def test_bearer_token_is_sent_and_never_shown(tmp_path: Path) -> None:
    token = "Secret-tok-9f3c1"  # the fault server's /auth/ agent wants "Authorization: Bearer secret..."
    with fault_server() as url:
        client = mn.MastraClient(url, token=token, headers={"X-Team": "notebooks"})
        signed_in = client.agent("auth").stream("hi")
        assert signed_in.wait(60).status == "finished"
        assert signed_in.result.text == "Hello world"
        refused = mn.MastraClient(url, token="wrong-token-value").agent("auth").stream("hi")
        assert refused.wait(60).error is not None
    assert refused.result.error is not None
    assert (refused.result.error.status_code, refused.result.error.message) == (401, "Unauthorized")
    shown = [everything_shown(signed_in, tmp_path), everything_shown(refused, tmp_path)]
    shown += [repr(client), repr(client.auth), str(vars(client)), repr(client.agent("auth"))]
    for secret in (token, token.lower(), "wrong-token-value"):
        assert secret not in "\n".join(shown)
    with pytest.raises(ValueError, match="either token= or an Authorization header"):
        mn.MastraClient(url, token=token, headers={"authorization": "Bearer other"})
    with pytest.raises(ValueError, match="either token= or credentials in the base URL"):
        mn.MastraClient("http://ada:pw@127.0.0.1:9", token=token)


def test_a_saved_notebook_holds_no_token(
    mastra_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A notebook signed in with a token (read from the environment, as it should be), executed
    headless and saved with its widget state, keeps no trace of the token."""
    token = f"tok-{uuid.uuid4()}"
    monkeypatch.setenv("MN_TEST_TOKEN", token)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    code = [
        f"import os\nimport mastra_notebook as mn\nclient = mn.MastraClient({mastra_url!r}, "
        "token=os.environ['MN_TEST_TOKEN'])\nclient",
        "view = client.agent('weather').stream('Weather in Paris?')\nview",
        "view.wait(30)\nclient.agents()",
        "client.agent('weather').info()",
    ]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in code])
    NotebookClient(notebook, timeout=120, kernel_name="python3", store_widget_state=True).execute()
    saved = tmp_path / "signed-in.ipynb"
    nbformat.write(notebook, saved)
    text = saved.read_text()
    assert "Here is what I found" in text  # the run, its table and the card were saved
    assert "getWeather" in text
    assert token not in text


def test_stop_during_a_backoff_ends_the_view() -> None:
    """Stop is not held up by the waits between attempts (here a minute, then two, then four: the
    view's end comes long before the first retry would)."""
    with flaky_proxy("http://127.0.0.1:9", refuse=4) as proxy:
        client = mn.MastraClient(proxy.url, retries=3, backoff_ms=60_000, max_backoff_ms=240_000)
        view = client.agent("weather").stream("hi")
        wait_until(lambda: proxy.connections == 1, "the first attempt was refused")  # now it backs off
        view.stop()
        assert view.wait(30).status == "aborted"
        assert proxy.connections == 1  # no retry was sent
