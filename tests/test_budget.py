"""Issue 33, items 2 and 3, against a fake Mastra server (an httpx.MockTransport): a budget
(``max_cost_usd``, ``max_tokens``, ``max_seconds``) stops the queued runs once crossed and lets the
running ones finish, and says which limit and at what figure; an unknown cost is said, never counted
as $0; a server that is down pauses the queue until it answers again; each failed tile says who
failed it."""

from __future__ import annotations

import asyncio
import math
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx
import orjson
import pytest

import mastra_notebook as mn
from mastra_notebook.analysis.outcomes import Item
from mastra_notebook.client.bodies import UnknownOption
from mastra_notebook.core.cost import format_usd
from mastra_notebook.runs.budget import Budget
from mastra_notebook.runs.experiment import Experiment
from mastra_notebook.widget import experiment_view

from .conftest import fixture_path
from .helpers import wait_until


def _records(fixture: str, model: str | None = None) -> bytes:
    """A fixture's stream as the server sends it; ``model``: its mock model renamed to a priced one."""
    text = fixture_path(fixture).read_text()
    if model is not None:
        text = text.replace("mock-plain", model).replace("mock-provider", "openai")
    return b"".join(line.strip().encode() + b"\x1e" for line in text.splitlines() if line.strip())


PRICED = _records("plain-text", "gpt-4o")  # 19 in, 93 out: genai-prices' gpt-4o price
UNPRICED = _records("plain-text")  # a mock model: no price
ERROR = _records("error")
RUN_USD = 19 * 2.5e-6 + 93 * 10e-6  # gpt-4o: $2.50 in, $10 out per million tokens
RUN_TOKENS = 112


@dataclass
class FakeMastra:
    """Agent ``a``; its stream answers every prompt with ``answer`` (``agent-error`` prompts with the
    error fixture); ``down``: every request is refused (``refused`` counts them, by path and prompt);
    ``posts`` counts the streams it answered; ``on_post`` is called with each prompt first."""

    answer: bytes = PRICED
    down: bool = False
    agent_errors: set[str] = field(default_factory=set)
    posts: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)
    on_post: Any = None

    def __call__(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        prompt = orjson.loads(request.content)["messages"][-1]["content"] if request.method == "POST" else ""
        if self.down:
            self.refused[prompt or path] += 1
            raise httpx.ConnectError("connection refused", request=request)
        if request.method == "GET":
            listed = {"/api/agents": {"a": {"name": "A"}}, "/api/scores/scorers": {}}
            return httpx.Response(200, json=listed.get(path, {}))
        if self.on_post is not None:
            self.on_post(prompt)
        self.posts[prompt] += 1
        return httpx.Response(200, content=ERROR if prompt in self.agent_errors else self.answer)


def client_of(server: FakeMastra) -> mn.MastraClient:
    return mn.MastraClient("http://mastra.test", wire=httpx.MockTransport(server), backoff_ms=0, retries=1)


def prompts(n: int) -> list[str]:
    return [f"q{i}" for i in range(n)]


def test_the_priced_fixture_costs_what_genai_prices_says() -> None:
    result = mn.collect([orjson.loads(line) for line in PRICED.split(b"\x1e") if line])
    assert result.cost.total_usd == pytest.approx(RUN_USD)
    assert result.usage.total_tokens == RUN_TOKENS


def test_max_cost_usd_stops_the_grid_within_one_wave_of_the_limit() -> None:
    concurrency, limit = 4, 0.005
    exp = (
        client_of(FakeMastra())
        .agent("a")
        .experiment(prompts(40), concurrency=concurrency, view=False, max_cost_usd=limit)
        .wait(30)
    )
    crossing = math.ceil(limit / RUN_USD)  # the run whose end reaches the limit: 6 of them
    finished = [cell for cell in exp.cells if cell.status == "finished"]
    # the runs streaming when it was crossed finish; none starts after
    assert crossing <= len(finished) <= crossing + concurrency - 1
    spent = sum(cell.result.cost.total_usd or 0 for cell in exp.cells)
    assert spent < limit + concurrency * RUN_USD
    said = f"stopped by max_cost_usd=0.005 at {format_usd(crossing * RUN_USD)}"
    assert exp.batch.budget is not None
    assert exp.batch.budget.said() == said
    stopped = [cell for cell in exp.cells if cell.status != "finished"]
    assert len(stopped) == 40 - len(finished)
    assert {cell.outcome().failure for cell in stopped} == {"stopped"}
    assert said in repr(exp)
    summary = exp.summary()
    assert summary.attrs["notes"] == [said]
    assert said in summary.to_string()  # shown above the table's columns
    assert said in experiment_view._progress(exp)  # the grid's summary line
    runs = [run for row in experiment_view.page(exp, [38, 39], offset=38, listed=40)["rows"]
            for tile in row["tiles"] for run in tile["runs"]]  # fmt: skip
    assert [(run["failure"], run["answer"]) for run in runs] == [("stopped", said)] * 2


def test_resume_runs_what_a_budget_stopped_under_the_same_limits_afresh() -> None:
    server = FakeMastra()
    exp = client_of(server).agent("a").experiment(prompts(8), concurrency=1, view=False, max_tokens=300)
    exp.wait(30)
    assert [cell.status for cell in exp.cells] == ["finished"] * 3 + ["aborted"] * 5
    exp.resume().wait(30)
    assert [cell.status for cell in exp.cells] == ["finished"] * 6 + ["aborted"] * 2
    assert exp.batch.budget is not None
    assert exp.batch.budget.said() == "stopped by max_tokens=300 at 336 tokens"
    assert sum(server.posts.values()) == 6


def test_max_tokens_stops_at_the_run_that_reaches_it() -> None:
    exp = (
        client_of(FakeMastra())
        .agent("a")
        .experiment(prompts(10), concurrency=1, view=False, max_tokens=300)
        .wait(30)
    )
    assert [cell.status for cell in exp.cells] == ["finished"] * 3 + ["aborted"] * 7
    assert exp.batch.budget is not None
    assert exp.batch.budget.said() == "stopped by max_tokens=300 at 336 tokens"


def test_the_figure_said_is_the_run_that_crossed_the_limit_however_many_end_before_the_queue_asks() -> None:
    priced = mn.collect([orjson.loads(line) for line in PRICED.split(b"\x1e") if line])
    budget = Budget(max_cost_usd=2.5 * RUN_USD)
    for _ in range(5):  # five runs end in one turn of the loop; the queue asks after them
        budget.spent(priced)
    assert budget.crossed() == f"stopped by max_cost_usd={2.5 * RUN_USD:g} at {format_usd(3 * RUN_USD)}"
    assert budget.cost_usd == pytest.approx(5 * RUN_USD)  # every run counted


def test_max_seconds_on_an_injected_clock() -> None:
    now = [100.0]  # the clock counts from the first start, not from 0

    def four_seconds(prompt: str) -> None:  # each run takes 4 s on the clock
        now[0] += 4

    client = client_of(FakeMastra(on_post=four_seconds))
    variants, start = client.agent("a").experiment_start(None, (), view=False)
    budget = Budget(max_seconds=10, clock=lambda: now[0])
    exp = Experiment([Item(p) for p in prompts(6)], variants, start=start, concurrency=1, budget=budget)
    exp.wait(30)
    assert [cell.status for cell in exp.cells] == ["finished"] * 3 + ["aborted"] * 3  # 0, 4, 8 s: then 12
    assert budget.said() == "stopped by max_seconds=10 at 12.0 s"


def test_an_unknown_cost_is_said_not_counted_as_zero() -> None:
    exp = (
        client_of(FakeMastra(answer=UNPRICED))
        .agent("a")
        .experiment(prompts(5), concurrency=2, view=False, max_cost_usd=0.001)
        .wait(30)
    )
    assert [cell.status for cell in exp.cells] == ["finished"] * 5  # it cannot cross what it cannot count
    assert exp.batch.budget is not None
    assert exp.batch.budget.said() == (
        "$0.00 of max_cost_usd=0.001 · max_cost_usd cannot be checked for 5 runs with unknown cost"
    )
    assert "cannot be checked for 5 runs with unknown cost" in repr(exp)


def test_stream_many_stops_at_its_budget_too() -> None:
    batch = (
        client_of(FakeMastra())
        .agent("a")
        .stream_many(prompts(12), view=False, concurrency=1, max_cost_usd=2.5 * RUN_USD)
    )
    batch.wait(30)
    assert [result.status for result in batch.results] == ["finished"] * 3 + ["aborted"] * 9
    assert f"stopped by max_cost_usd={2.5 * RUN_USD:g} at {format_usd(3 * RUN_USD)}" in repr(batch)


def test_a_gallery_says_its_budget_stop(recording_comm: object) -> None:
    gallery = client_of(FakeMastra()).agent("a").stream_many(prompts(6), concurrency=1, max_tokens=200)
    gallery.wait(30)
    assert [result.status for result in gallery.results] == ["finished"] * 2 + ["aborted"] * 4
    assert "stopped by max_tokens=200 at 224 tokens" in gallery.summary()


def test_misspelled_and_wrong_budgets_are_refused_before_anything_runs() -> None:
    server = FakeMastra()
    agent = client_of(server).agent("a")
    with pytest.raises(UnknownOption, match="max_cost_usd"):
        agent.experiment(prompts(2), view=False, max_cost=0.1)
    with pytest.raises(UnknownOption, match="max_tokens"):
        agent.stream_many(prompts(2), view=False, max_token=100)
    with pytest.raises(ValueError, match="max_seconds must be a positive number"):
        agent.experiment(prompts(2), view=False, max_seconds=0)
    with pytest.raises(ValueError, match="max_cost_usd must be a positive number"):
        agent.stream_many(prompts(2), view=False, max_cost_usd=-1)
    assert not server.posts


def test_a_server_that_is_down_pauses_the_queue_until_it_answers() -> None:
    server = FakeMastra(agent_errors={"q3"})
    client = client_of(server)
    seen: list[tuple[bool, str, list[str]]] = []
    shown: list[Experiment] = []
    returned = threading.Event()

    def goes_down(prompt: str) -> None:  # at q1's first try
        if prompt == "q1" and not server.refused:
            server.down = True
            raise httpx.ConnectError("connection reset", request=httpx.Request("POST", "http://mastra.test"))

    async def pause(seconds: float) -> None:  # the probe's pauses (and the transport's 0 s backoff)
        if seconds > 0:
            # the runs start on the batch's own thread: the probe may pause before experiment() returned
            await asyncio.get_running_loop().run_in_executor(None, returned.wait, 30)
            exp = shown[0]
            seen.append(
                (exp.batch.waiting, repr(exp) + experiment_view._progress(exp), exp.summary().attrs["notes"])
            )
            if len(seen) == 2:
                server.down = False  # back after the second pause
        await asyncio.sleep(0)

    server.on_post = goes_down
    client.transport.sleep = pause
    exp = client.agent("a").experiment(prompts(5), concurrency=1, view=False)
    shown.append(exp)
    returned.set()
    exp.wait(30)
    assert len(seen) == 2
    assert all(waiting for waiting, _, _ in seen)
    assert all("waiting for the server" in said for _, said, _ in seen)  # repr, the grid's line
    assert seen[0][2] == ["waiting for the server"]
    # q1 found the server down (tried twice: the transport's retry); no queued run was started meanwhile
    assert server.refused == Counter({"q1": 1, "/api/agents": 2})
    statuses = [(cell.status, cell.outcome().failure) for cell in exp.cells]
    assert statuses == [("finished", None), ("error", "transport"), ("finished", None),
                        ("error", "agent"), ("finished", None)]  # fmt: skip
    assert not exp.batch.waiting
    assert "waiting" not in repr(exp)
    tiles = [
        row["tiles"][0]["runs"][0] for row in experiment_view.page(exp, range(5), offset=0, listed=5)["rows"]
    ]
    assert [run["failure"] for run in tiles] == ["", "transport", "", "agent", ""]
    exp.retry().wait(30)  # the transport's failure runs again; the agent's does not
    assert [cell.status for cell in exp.cells] == ["finished", "finished", "finished", "error", "finished"]
    assert server.posts["q3"] == 1


def test_stop_while_waiting_for_the_server_stops_the_queue() -> None:
    server = FakeMastra()
    server.on_post = lambda prompt: setattr(server, "down", True)  # down for good after the first run
    exp = client_of(server).agent("a").experiment(prompts(4), concurrency=1, view=False)
    wait_until(lambda: exp.batch.waiting, "the queue waits for the server")
    assert [cell.status for cell in exp.cells] == ["finished", "error", "queued", "queued"]
    exp.stop()
    assert exp.done
    assert not exp.batch.waiting
    assert [cell.outcome().failure for cell in exp.cells] == [None, "transport", "stopped", "stopped"]
