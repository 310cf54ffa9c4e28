"""A real OTLP receiver: Phoenix (arize-phoenix from PyPI), started from a venv of its own, is sent a run
(its steps, a tool call, a Python score and a person's label) and read back over its REST API: the
span names, parents, attributes and evaluation events; the spans it gives back, read by ``mn.view``,
are the run again.

Phoenix is heavy (about 150 packages), so it lives in ``.venv-otel/``, installed by scripts/test.sh's
background job, which runs this file with ``MN_OTEL_VENV=.venv-otel``; without it this test is
skipped (``MN_OTEL_VENV=.venv-otel pytest tests/test_otel_receiver.py`` runs it here).
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest

import mastra_notebook as mn
from mastra_notebook.core import otlp

from .conftest import RecordingComm
from .otel_runs import carried, timed_run

pytest.importorskip("opentelemetry.sdk", reason="the otel extra (the test dependency group has it)")
VENV = os.environ.get("MN_OTEL_VENV")
pytestmark = pytest.mark.skipif(
    not VENV,
    reason="a real receiver (Phoenix) runs in scripts/test.sh's background job, which installs it into "
    ".venv-otel/ and sets MN_OTEL_VENV",
)
STARTUP = 240.0  # seconds Phoenix may take to answer (its imports and database, on a busy machine)
MASTRA_TRACE, MASTRA_ROOT = "5e" * 16, "a1" * 8  # a trace a Mastra server would have started


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def phoenix(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Phoenix server of its own (a fresh database, free ports): its base URL."""
    assert VENV is not None
    port, grpc = free_port(), free_port()
    folder = tmp_path_factory.mktemp("phoenix")
    env = {**os.environ, "PHOENIX_WORKING_DIR": str(folder), "PHOENIX_HOST": "127.0.0.1",
           "PHOENIX_PORT": str(port), "PHOENIX_GRPC_PORT": str(grpc), "PHOENIX_TELEMETRY_ENABLED": "false"}  # fmt: skip
    log = (folder / "phoenix.log").open("wb")
    server = subprocess.Popen([str(Path(VENV) / "bin" / "phoenix"), "serve"], env=env, stdout=log, stderr=log)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP
        while True:  # a condition wait: until it answers, or it died, or the time is up
            assert server.poll() is None, (folder / "phoenix.log").read_text()[-3000:]
            try:
                if httpx.get(f"{url}/v1/projects", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, (folder / "phoenix.log").read_text()[-3000:]
            time.sleep(0.5)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def spans_of(url: str, trace_id: str, count: int) -> list[dict[str, Any]]:
    """The trace's spans as Phoenix gives them back, once it stored ``count`` of them (it ingests
    in the background)."""
    deadline = time.monotonic() + 60
    while True:
        answer = httpx.get(f"{url}/v1/projects/default/spans", params={"trace_id": trace_id, "limit": 100})
        answer.raise_for_status()
        found: list[dict[str, Any]] = answer.json()["data"]
        if len(found) >= count or time.monotonic() > deadline:
            return found
        time.sleep(0.25)


def test_phoenix_stores_the_spans_and_gives_back_the_run(
    phoenix: str, tmp_path: Path, recording_comm: RecordingComm
) -> None:
    from mastra_notebook.otel import OtelRun, export_otel

    run = timed_run(tmp_path).model_copy(update={"trace_id": MASTRA_TRACE})
    exported = export_otel(
        OtelRun(run, parent_span_id=MASTRA_ROOT), phoenix
    )  # the base URL: /v1/traces added
    assert exported.trace_ids == (MASTRA_TRACE,)  # the run joins Mastra's trace
    stored = spans_of(phoenix, MASTRA_TRACE, exported.spans)
    by_name: dict[str, list[dict[str, Any]]] = {}
    for span in stored:
        by_name.setdefault(span["name"], []).append(span)
    assert sorted(by_name) == ["chat mock-weather", "execute_tool getWeather", "invoke_agent weather"]
    (root,) = by_name["invoke_agent weather"]
    assert root["parent_id"] == MASTRA_ROOT  # under the server's root span
    children = [s for s in stored if s["parent_id"] == root["context"]["span_id"]]
    assert sorted(s["name"] for s in children) == ["chat mock-weather"] * 2 + ["execute_tool getWeather"]
    (tool,) = by_name["execute_tool getWeather"]
    assert tool["attributes"][otlp.TOOL_NAME] == "getWeather"
    assert tool["attributes"][otlp.TOOL_CALL_ID] == "call_weather_1"
    assert '"temperatureC":18' in tool["attributes"][otlp.TOOL_RESULT]
    chats = sorted(by_name["chat mock-weather"], key=lambda s: s["start_time"])
    assert [c["attributes"]["gen_ai.usage.input_tokens"] for c in chats] == [19, 60]
    assert [c["attributes"][otlp.FINISH_REASONS] for c in chats] == [["tool-calls"], ["stop"]]
    # Phoenix reads the GenAI conventions: its own kinds and token counts come from them
    assert (root["span_kind"], chats[0]["span_kind"], tool["span_kind"]) == ("AGENT", "LLM", "TOOL")
    assert chats[0]["attributes"]["llm.token_count.prompt"] == 19
    evaluations = {e["attributes"][otlp.EVALUATION_NAME]: e["attributes"] for e in root["events"]}
    assert {e["name"] for e in root["events"]} == {otlp.EVALUATION}
    assert evaluations["exact"][otlp.EVALUATION_VALUE] == 1.0  # the Python score
    assert evaluations["exact"][otlp.EVALUATION_LABEL] == "pass"
    assert evaluations["label"][otlp.EVALUATION_LABEL] == "up"  # the person's label
    assert evaluations["label"][otlp.EVALUATION_EXPLANATION] == "good answer"

    # the spans as Phoenix gives them back (OTLP, its proto names), read by mn.view: the run again
    answer = httpx.get(f"{phoenix}/v1/projects/default/spans/otlpv1", params={"trace_id": MASTRA_TRACE})
    answer.raise_for_status()
    given_back = {"resourceSpans": [{"scopeSpans": [{"spans": answer.json()["data"]}]}]}
    (tmp_path / "from-phoenix.json").write_bytes(orjson.dumps(given_back))
    view = mn.view(tmp_path / "from-phoenix.json")
    assert carried(view.wait(timeout=60)) == carried(run)
    exported_file = tmp_path / "exported.json"  # and the export itself, as a file
    exported_file.write_bytes(orjson.dumps(exported.document))
    assert carried(mn.view(exported_file).wait(timeout=60)) == carried(run)
