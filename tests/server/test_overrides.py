"""Overrides, on purpose (issue 19, item 3), against the bundled server: ``instructions``,
``system``, ``context``, ``model_settings``, ``request_context`` and ``model`` go as Mastra's body
fields, the run keeps them, and each one shows in what the model was given: from the stream with
redaction off, from the trace with the server's default redaction."""

from __future__ import annotations

import os

import pytest

import mastra_notebook as mn

pytestmark = pytest.mark.server

PROMPT = "What is the weather in Paris?"


@pytest.fixture
def unredacted(unredacted_url: str) -> mn.MastraClient:
    """A client of the server started with MASTRA_REDACT=0 (conftest)."""
    return mn.MastraClient(unredacted_url)


def test_instructions_show_in_the_request_from_the_stream_with_redaction_off(
    unredacted: mn.MastraClient,
) -> None:
    result = unredacted.agent("weather").stream(PROMPT, instructions="Answer like a forecaster.").wait(60)
    assert result.status == "finished"
    first = result.steps[0].request
    assert first is not None
    assert first.source == "stream"
    assert first.system == "Answer like a forecaster."  # the override, not the agent's own
    assert result.overrides == {"instructions": "Answer like a forecaster."}


def test_instructions_show_in_the_request_from_the_trace_with_redaction_on(client: mn.MastraClient) -> None:
    view = client.agent("weather").stream(PROMPT, instructions="Answer like a forecaster.")
    result = view.wait(60)
    assert result.steps[0].request is None  # the server redacted step-start's body
    assert "redact" in (result.steps[0].request_reason or "")
    view.trace(timeout=30)
    steps = view.result.steps
    assert [step.request.source if step.request else None for step in steps] == ["trace", "trace"]
    assert steps[0].request is not None
    assert steps[0].request.system == "Answer like a forecaster."
    assert [tool.name for tool in steps[0].request.tools] == ["getWeather"]


def test_every_override_shows_in_the_request(unredacted: mn.MastraClient) -> None:
    context = [{"role": "user", "content": "I like rain."}, {"role": "assistant", "content": "Noted."}]
    result = (
        unredacted.agent("weather")
        .stream(
            PROMPT,
            instructions="Answer like a forecaster.",
            system="Use metric units.",
            context=context,
            model_settings={"temperature": 0.25, "max_output_tokens": 321},
        )
        .wait(60)
    )
    assert result.status == "finished"
    request = result.steps[0].request
    assert request is not None
    assert request.system == "Answer like a forecaster.\n\nUse metric units."
    assert [(m.role, m.text) for m in request.messages] == [
        ("user", "I like rain."),
        ("assistant", "Noted."),
        ("user", PROMPT),
    ]
    assert (request.settings.temperature, request.settings.max_tokens) == (0.25, 321)
    assert set(result.overrides) == {"instructions", "system", "context", "model_settings"}


def test_the_request_context_drives_the_dynamic_agent_and_info_shows_what_it_resolves(
    unredacted: mn.MastraClient,
) -> None:
    context = {"style": "pirate", "model": "mock-dynamic-detailed"}
    agent = unredacted.agent("dynamic")
    info = agent.info(request_context=context)
    assert info.instructions == "Answer in pirate."
    assert info.model == "mock-provider/mock-dynamic-detailed"
    assert "for this request context" in info._repr_html_()
    default = agent.info()
    assert (default.instructions, default.model) == (
        "Answer in plain words.",
        "mock-provider/mock-dynamic-brief",
    )

    result = agent.stream("What is Paris?", request_context=context).wait(60)
    assert result.text.startswith("Arr! You asked")
    request = result.steps[0].request
    assert request is not None
    assert request.system == "Answer in pirate."
    assert request.settings.model == "mock-dynamic-detailed"
    assert result.overrides == {"request_context": context}


@pytest.mark.skipif(bool(os.environ.get("OPENAI_API_KEY")), reason="the server could serve OpenAI here")
def test_a_model_the_server_cannot_serve_ends_the_view_with_mastra_s_message(client: mn.MastraClient) -> None:
    result = client.agent("weather").stream(PROMPT, model="openai/gpt-4o-mini").wait(60)
    assert result.status == "error"
    assert result.error is not None
    assert "Could not find API key process.env.OPENAI_API_KEY for model id openai/gpt-4o-mini" in (
        result.error.message
    )
    assert result.overrides == {"model": "openai/gpt-4o-mini"}
