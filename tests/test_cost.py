"""Costs from genai-prices: on real-provider recordings they equal what genai-prices computes for the
usage Mastra itself reports (its own result, ``*.mastra.json``), computed here with the library, not
with the project's code. An unknown model gives None with a reason, never a guess."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest
from genai_prices import Usage, calc_price

import mastra_notebook as mn

from .conftest import FIXTURES, fixture_path

PROVIDERS = FIXTURES / "providers"
PRICED = [
    "anthropic-text",
    "anthropic-thinking",
    "anthropic-tools",
    "anthropic-web-search",
    "openai-chat-text",
    "openai-responses-reasoning",
    "openai-responses-parallel-tools",
    "openai-responses-web-search",
    "google-text",
    "google-tools",
    "router-openai-text",
    "router-openai-tools",
]


def _expected_usd(step: dict[str, Any]) -> float:
    """genai-prices' price for one of Mastra's StepResults: the model that answered, its provider."""
    response = step["response"]
    configured = response.get("modelMetadata") or {}
    model = response.get("modelId") or configured["modelId"]
    provider = configured["modelProvider"].split(".")[0]  # "anthropic.messages" is Anthropic's API
    usage = step["usage"]
    price = calc_price(
        Usage(
            input_tokens=usage.get("inputTokens") or 0,
            cache_read_tokens=usage.get("cachedInputTokens") or 0,
            output_tokens=usage.get("outputTokens") or 0,
            output_reasoning_tokens=usage.get("reasoningTokens") or 0,
        ),
        model,
        provider_id=provider,
    )
    return float(price.total_price)


@pytest.mark.parametrize("name", PRICED)
def test_costs_equal_genai_prices_for_the_usage_mastra_reports(name: str) -> None:
    mastra = json.loads((PROVIDERS / f"{name}.mastra.json").read_text())
    expected = [_expected_usd(step) for step in mastra["steps"]]
    cost = mn.collect(PROVIDERS / f"{name}.jsonl").cost
    assert cost.reason is None
    assert cost.steps_usd == pytest.approx(expected, rel=1e-9)
    assert cost.total_usd == pytest.approx(sum(expected), rel=1e-9)
    assert cost.total_usd is not None
    assert cost.total_usd > 0


def test_cached_and_reasoning_tokens_are_priced() -> None:
    """gpt-5.3-codex read 3,072 of its 7,112 input tokens from the cache: cheaper than all fresh."""
    step = mn.collect(PROVIDERS / "openai-responses-parallel-tools.jsonl").steps[1]
    assert step.usage is not None
    assert step.usage.cached_input_tokens == 3072
    assert step.usage.reasoning_tokens == 64
    fresh = calc_price(Usage(input_tokens=7112, output_tokens=463), "gpt-5.3-codex", provider_id="openai")
    cost = mn.collect(PROVIDERS / "openai-responses-parallel-tools.jsonl").cost
    assert cost.steps_usd[1] is not None
    assert cost.steps_usd[1] < float(fresh.total_price)


def test_an_unknown_model_gives_none_with_a_reason() -> None:
    cost = mn.collect(fixture_path("tool-call")).cost  # the scripted server's "mock-weather"
    assert cost.total_usd is None
    assert cost.steps_usd == [None, None]
    assert cost.reason is not None
    assert "mock-weather" in cost.reason


def test_a_sub_agent_is_priced_and_an_unknown_one_leaves_the_total_unknown() -> None:
    result = mn.collect(fixture_path("agent-as-tool"))
    sub = result.tool_calls[0].children
    assert sub is not None
    assert sub.cost.total_usd is None
    assert "mock-researcher" in (sub.cost.reason or "")
    assert result.cost.total_usd is None
    assert "nested run" in (result.cost.reason or "")


def test_a_router_model_id_names_its_provider() -> None:
    run = mn.Run()
    usage = {"inputTokens": 1000, "outputTokens": 500, "totalTokens": 1500}
    run.feed({"type": "step-start", "runId": "r", "from": "AGENT", "payload": {}})
    run.feed({
        "type": "step-finish", "runId": "r", "from": "AGENT",
        "payload": {"metadata": {"modelId": "openai/gpt-4o"}, "output": {"usage": usage}, "stepResult": {"reason": "stop"}},
    })  # fmt: skip
    expected = calc_price(Usage(input_tokens=1000, output_tokens=500), "gpt-4o", provider_id="openai")
    assert run.result.cost.total_usd == pytest.approx(float(expected.total_price))


def test_a_step_without_usage_is_not_guessed() -> None:
    run = mn.Run()
    run.feed({"type": "step-start", "runId": "r", "from": "AGENT", "payload": {}})
    run.feed({"type": "text-delta", "runId": "r", "from": "AGENT", "payload": {"id": "t", "text": "Hi"}})
    run.end()  # cut before its step-finish: no usage, no model
    cost = run.result.cost
    assert cost.total_usd is None
    assert cost.reason


def test_prices_are_never_fetched(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_network(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a price was fetched")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    run = mn.Run()
    usage = {"inputTokens": 4321, "outputTokens": 765, "totalTokens": 5086}  # priced by no earlier test
    metadata = {"modelMetadata": {"modelId": "gemini-2.5-flash", "modelProvider": "google.generative-ai"}}
    run.feed({"type": "step-start", "runId": "r", "from": "AGENT", "payload": {}})
    run.feed({
        "type": "step-finish", "runId": "r", "from": "AGENT",
        "payload": {"metadata": metadata, "output": {"usage": usage}, "stepResult": {"reason": "stop"}},
    })  # fmt: skip
    assert run.result.cost.total_usd is not None


def test_the_dataframe_has_the_cost_and_timing_columns(tmp_path: Path) -> None:
    view = mn.view()  # a recording saved with its arrival times, as view.save writes it
    for item in mn.read_chunks(PROVIDERS / "google-tools.jsonl"):
        view.feed(item)
    view.end()
    view.save(tmp_path / "google-tools.jsonl")
    runs = [tmp_path / "google-tools.jsonl", fixture_path("tool-call")]
    frame = mn.to_dataframe(runs)
    columns = {"cost_usd", "cost_reason", "tokens_per_second", "tool_time_s", "human_wait_s"}
    columns |= {"time_to_first_token_s", "duration_s"}
    assert columns <= set(frame.columns)
    google = mn.collect(runs[0])
    assert frame.loc[0, "cost_usd"] == pytest.approx(google.cost.total_usd)
    assert frame.loc[0, "tool_time_s"] >= 0  # timed by its recorded arrivals
    # fed at once, then saved: its steps streamed for microseconds, too short for a rate (not 19,669 tok/s)
    assert frame["tokens_per_second"].isna().all()  # the second is untimed: no guess
    assert (
        frame.loc[1, "cost_usd"] is None or frame.loc[1, "cost_usd"] != frame.loc[1, "cost_usd"]
    )  # None/NaN
    assert "mock-weather" in frame.loc[1, "cost_reason"]


def test_compare_shows_each_runs_cost_and_timing() -> None:
    comparison = mn.compare(
        PROVIDERS / "google-tools.jsonl", fixture_path("tool-call"), labels=["gemini", "mock"]
    )
    rows = dict(comparison.rows())
    google = mn.collect(PROVIDERS / "google-tools.jsonl").cost.total_usd
    assert google is not None
    assert rows["cost"][0] == "$0.00329"  # three significant digits
    assert google == pytest.approx(0.003292)
    assert rows["cost"][1].startswith("unknown: ")
    assert "mock-weather" in rows["cost"][1]
    assert {"tokens/s (streaming)", "tool time", "time to first token"} <= set(rows)
    assert "cost" in comparison._repr_html_()


@pytest.mark.parametrize(
    ("usd", "shown"),
    [
        (0.0, "$0.00"),
        (0.000486, "$0.000486"),
        (0.0020625, "$0.00206"),
        (1.234, "$1.23"),
        (1234.5, "$1,234.50"),
    ],
)
def test_usd_is_shown_to_three_significant_digits_below_a_dollar(usd: float, shown: str) -> None:
    from mastra_notebook.core.cost import format_usd

    assert format_usd(usd) == shown


async def test_the_gallery_summary_adds_up_what_it_can_price(recording_comm: Any) -> None:
    from mastra_notebook.widget.gallery import Gallery

    def starter(path: Any) -> Any:
        def start() -> Any:
            view = mn.StreamView(title="agent")

            async def work() -> None:
                for chunk in mn.read_chunks(path):
                    view.feed(chunk)

            return view, work

        return start

    gallery = Gallery(2, page_size=4)
    priced = [PROVIDERS / "google-tools.jsonl", PROVIDERS / "anthropic-text.jsonl"]
    for index, path in enumerate([*priced, fixture_path("tool-call")]):
        gallery.submit(starter(path), prompt=f"prompt {index}", title="agent")
    await gallery
    expected = sum(mn.collect(path).cost.total_usd or 0.0 for path in priced)
    from mastra_notebook.core.cost import format_usd

    assert f" · {format_usd(expected)} (1 run not priced) " in gallery.summary()
