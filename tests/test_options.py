"""Options checked, not dropped (issue 29, item 7): Mastra's server lets any body field through and
ignores it, so a misspelt option would run as if never given. Every call that takes options refuses
one it does not know before anything is sent, naming the closest known one; the known set is the
body builder's table (client/bodies.py) and the calls' own parameters."""

from __future__ import annotations

import re
from typing import Any

import httpx
import orjson
import pytest

import mastra_notebook as mn
from mastra_notebook.client.bodies import AGENT_BODY, EXTRA_BODY, WORKFLOW_BODY, UnknownOption, known_options
from mastra_notebook.client.datasets import Dataset
from mastra_notebook.client.mastra import Agent, Workflow
from mastra_notebook.client.scores import KnownScorers

from .conftest import fixture_path


class FakeMastra:
    """A Mastra server under the client's transport that counts what came: an agent's stream answers
    a recorded run, anything else an empty object."""

    def __init__(self) -> None:
        self.seen: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.seen.append(request)
        if request.url.path.endswith("/stream"):
            return httpx.Response(200, content=fixture_path("plain-text").read_bytes())
        return httpx.Response(200, json={})


def client_of(server: FakeMastra) -> mn.MastraClient:
    return mn.MastraClient("http://mastra.test", wire=httpx.MockTransport(server), backoff_ms=0)


MISSPELT = [
    ("agent.stream", lambda c: c.agent("a").stream("hi", instructons="Be brief."), "instructions"),
    ("agent.stream own", lambda c: c.agent("a").stream("hi", tool_timout=3), "tool_timeout"),
    ("agent.stream_many", lambda c: c.agent("a").stream_many(["x", "y"], model_setings={}), "model_settings"),
    ("agent.experiment", lambda c: c.agent("a").experiment(["x"], repeat=3), "repeats"),
    ("a variant", lambda c: c.agent("a").experiment(["x"], {"terse": {"instructons": "Be brief."}}),
     "instructions"),
    ("a variant's own", lambda c: c.agent("a").experiment(["x"], {"v": {"promt": "Q: {input}"}}), "prompt"),
    ("workflow.stream", lambda c: c.workflow("w").stream({}, request_contxt={}), "request_context"),
    ("agent.chat", lambda c: c.agent("a").chat(max_step=2), "max_steps"),
    ("agent.prepare", lambda c: c.agent("a").prepare("x", scorer=[]), "scorers"),
]  # fmt: skip


@pytest.mark.parametrize(("call", "misspelt", "meant"), MISSPELT, ids=[name for name, _, _ in MISSPELT])
def test_a_misspelt_option_raises_naming_the_closest_and_nothing_is_sent(
    call: str, misspelt: Any, meant: str
) -> None:
    server = FakeMastra()
    with pytest.raises(UnknownOption, match=rf"unknown option '\w+': did you mean '{meant}'\?"):
        misspelt(client_of(server))
    assert server.seen == [], f"{call} sent {[str(r.url) for r in server.seen]} before refusing"


def test_the_error_is_a_type_error_saying_where_and_what() -> None:
    server = FakeMastra()
    with pytest.raises(TypeError) as raised:  # what Python raises for an unknown keyword argument
        client_of(server).agent("a").experiment(["x"], {"terse": {"instructons": "Be brief."}})
    assert str(raised.value) == "variant 'terse': unknown option 'instructons': did you mean 'instructions'?"
    with pytest.raises(TypeError) as raised:
        client_of(server).agent("a").stream("hi", instructons="x", zzz=1)
    assert str(raised.value) == (
        "agent.stream(): unknown options 'instructons': did you mean 'instructions'?; 'zzz'"
        " (a Mastra body field this package does not know yet goes in extra_body={...})"
    )
    assert server.seen == []


def test_a_chat_turn_with_a_misspelt_option_sends_nothing() -> None:
    server = FakeMastra()
    chat = client_of(server).agent("a").chat(memory=False)  # no question to the server
    with pytest.raises(UnknownOption, match=re.escape("chat.send(): unknown option 'instructons'")):
        chat.send("hi", instructons="x")
    assert server.seen == []
    assert chat.views == []


def test_a_dataset_experiment_refuses_before_it_asks_the_server() -> None:
    server = FakeMastra()
    client = client_of(server)
    dataset = Dataset(client.transport, KnownScorers(client.transport), {"id": "d1", "name": "capitals"})
    with pytest.raises(UnknownOption, match=re.escape(
        "dataset.experiment(): unknown option 'request_contxt': did you mean 'request_context'?"
    )):  # fmt: skip
        dataset.experiment("a", request_contxt={"style": "pirate"})
    assert server.seen == []


def test_known_options_are_sent_and_extra_body_goes_as_given() -> None:
    server = FakeMastra()
    client = client_of(server)
    view = client.agent("a").stream(
        "hi", instructions="Be brief.", maxSteps=2, extra_body={"includeRawChunks": True, "x_y": 1}
    )  # camelCase spellings of known fields are those fields, as before
    view.wait(60)
    posted = [r for r in server.seen if r.method == "POST"]
    body = orjson.loads(posted[0].content)
    assert body["instructions"] == "Be brief."
    assert body["maxSteps"] == 2
    assert body["includeRawChunks"] is True
    assert body["x_y"] == 1  # as given: the escape hatch is Mastra's spelling, not converted
    assert EXTRA_BODY not in body
    assert "extraBody" not in body
    with pytest.raises(TypeError, match="extra_body= is a mapping"):
        client.agent("a").stream("hi", extra_body=["includeRawChunks"])


def test_the_known_set_is_the_body_table_and_the_call_parameters() -> None:
    stream = known_options(Agent.stream)
    assert stream is not None
    assert stream >= AGENT_BODY
    assert {"tools", "tool_timeout", "max_tool_rounds", "max_height", "scorers", "renderers"} <= stream
    assert stream - AGENT_BODY == {
        "prompt_or_messages",
        "tools",
        "tool_timeout",
        "max_tool_rounds",
        "max_height",
        "renderers",
        "view",
        EXTRA_BODY,
    }  # scorers= is a body field too
    workflow = known_options(Workflow.stream)
    assert workflow is not None
    assert workflow - WORKFLOW_BODY == {"input_data", "run_id", "max_height", EXTRA_BODY}
