"""Helpers the tests share (no test module imports another's): the browser store's view of the ops,
timed recordings, headless notebooks, condition waits, the HTML tables of the catalogue, and all a
reader can see of a view."""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import nbformat
import orjson
import pytest
from nbclient import NotebookClient

import mastra_notebook as mn
from mastra_notebook.client.tools import ToolSession
from mastra_notebook.core.framing import iter_records
from mastra_notebook.core.recording import TIME_KEY
from mastra_notebook.render.transcript import transcript_class
from mastra_notebook.widget.transcripts import LOST_WIDGET_RULE

ROOT = Path(__file__).resolve().parents[1]
REQUEST_MS = 120.0  # a timed recording's first chunk comes this long after the request was sent
GAP_MS = 7.0  # then one chunk every 7 ms


# ---- the browser's store ------------------------------------------------------------------------


def replay(ops: list[list[Any]]) -> dict[str, Any]:
    """What a browser store would hold after applying ``ops`` (the protocol in docs/)."""
    nodes: dict[str, dict[str, Any]] = {}
    for op in ops:
        if op[0] == "add":
            node = dict(op[2])
            node["children"] = []
            nodes[node["id"]] = node
            if op[1] is not None:
                nodes[op[1]]["children"].append(node["id"])
        elif op[0] == "append":
            nodes[op[1]][op[2]] = (nodes[op[1]].get(op[2]) or "") + op[3]
        elif op[0] == "set":
            nodes[op[1]][op[2]] = op[3]
        elif op[0] == "push":
            nodes[op[1]][op[2]] = [*nodes[op[1]].get(op[2], []), op[3]]
    return nodes


def browser_state(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """Apply protocol messages as the js/ store does (in order, snapshots reset)."""
    ops: list[list[Any]] = []
    last = 0
    for msg in messages:
        if msg["t"] == "snapshot":
            ops, last = list(msg["ops"]), msg["seq"]
        elif msg["t"] == "ops":
            assert msg["seq"] == last + 1, "a gap in the sequence"
            ops += msg["ops"]
            last = msg["seq"]
    return replay(ops)


# ---- recordings and notebooks -------------------------------------------------------------------


def timed(path: Path, out: Path, request_ms: float = REQUEST_MS, gap_ms: float = GAP_MS) -> Path:
    """The stream as a recording with arrival times (ms since the request was sent): the first chunk
    ``request_ms`` after the request, then one every ``gap_ms``."""
    lines = []
    for index, record in enumerate(iter_records(path.read_bytes())):
        try:
            chunk = orjson.loads(record)
        except orjson.JSONDecodeError:
            lines.append(bytes(record))  # kept as it came: it stays invalid
            continue
        if isinstance(chunk, dict):
            chunk[TIME_KEY] = request_ms + gap_ms * index
        lines.append(orjson.dumps(chunk))
    out.write_bytes(b"\n".join(lines) + b"\n")
    return out


def kernel_sees_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel started from this test imports this checkout's package."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))


def execute(cells: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Run ``cells`` headless (nbclient, widget state stored) and read the saved notebook back."""
    kernel_sees_the_package(monkeypatch)
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in cells])
    NotebookClient(
        notebook,
        timeout=60,
        kernel_name="python3",
        store_widget_state=True,
        resources={"metadata": {"path": str(tmp_path)}},
    ).execute()
    path = tmp_path / "saved.ipynb"
    nbformat.write(notebook, path)
    return nbformat.read(path, as_version=4)


def wait_until(condition: Callable[[], bool], what: str, timeout: float = 60, every: float = 0.002) -> None:
    """Poll ``condition`` every ``every`` seconds until it holds (a condition wait, not a wait for time
    to pass); ``timeout`` is generous, for the slowest machine, not a bound the test asserts."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(every)


# ---- what a reader sees -------------------------------------------------------------------------


class _StartTags(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    handle_startendtag = handle_starttag


def start_tags(html: str) -> list[tuple[str, dict[str, str | None]]]:
    """Every start tag of ``html`` with its attributes, in order (to find anything live)."""
    parser = _StartTags()
    parser.feed(html)
    parser.close()
    return parser.tags


class _Elements(HTMLParser):
    """Each element's tag, attributes and whole text (its descendants' too), in document order."""

    VOID = frozenset(
        ("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr")
    )

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, dict[str, str | None], list[str]]] = []
        self.open: list[tuple[str, list[str]]] = []  # the open elements: tag and text parts

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        parts: list[str] = []
        self.found.append((tag, dict(attrs), parts))
        if tag not in self.VOID:
            self.open.append((tag, parts))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, dict(attrs), []))

    def handle_endtag(self, tag: str) -> None:
        while self.open:  # an unclosed element ends with its parent
            if self.open.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        for _, parts in self.open:
            parts.append(data)


def texts_of(html: str, name: str = "", **attrs: str) -> list[str]:
    """The text of every element of ``html`` with the class ``name`` (if given) and the attributes
    ``attrs`` (``data_stat="tokens"``: ``data-stat="tokens"``), in order, whitespace squeezed: what a
    test reads of a page the kernel drew (the static transcript), as a browser's selector would."""
    parser = _Elements()
    parser.feed(html)
    parser.close()
    wanted = {key.replace("_", "-"): value for key, value in attrs.items()}
    return [
        re.sub(r"\s+", " ", "".join(parts)).strip()
        for _, found, parts in parser.found
        if (not name or name in (found.get("class") or "").split())
        and all(found.get(key) == value for key, value in wanted.items())
    ]


class Cells(HTMLParser):
    """Every table's rows as lists of cell texts, and the tags met (to find anything live)."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.tags: set[str] = set()
        self.bdi = 0
        self.in_cell = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.bdi += tag == "bdi"
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self.rows[-1].append("")
            self.in_cell = True

    def handle_endtag(self, tag: str) -> None:
        self.in_cell = self.in_cell and tag not in ("td", "th")

    def handle_data(self, data: str) -> None:
        if self.in_cell:
            self.rows[-1][-1] += data


def parse(html: str) -> Cells:
    cells = Cells()
    cells.feed(html)
    return cells


def row_of(cells: Cells, first: str) -> list[str]:
    return next(row for row in cells.rows if row and row[0] == first)


# ---- what a notebook saves of a displayed widget --------------------------------------------------


class Displayed:
    """What IPython's ``display`` is given (replaced by this): each output's bundle, and each update
    of the outputs shown with a handle."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.outputs: list[dict[str, Any]] = []
        self.updates: list[dict[str, Any]] = []
        monkeypatch.setattr("IPython.display.display", self._display)

    def _display(
        self, bundle: dict[str, Any], raw: bool = False, display_id: bool = False, metadata: Any = None
    ) -> Any:
        self.outputs.append(bundle)
        return self if display_id else None

    def update(self, bundle: dict[str, Any], raw: bool = False) -> None:
        self.updates.append(bundle)

    def saved_face(self, view_key: str) -> str:
        """The saved HTML of the one view displayed, checked to be shown as a run's transcript is: the
        widget first, saying nothing where it cannot draw (no HTML, an empty text/plain), then the
        HTML as an output of its own (see ``_face``)."""
        widget, face = self.outputs
        assert set(widget) == {"application/vnd.jupyter.widget-view+json", "text/plain"}
        assert widget["text/plain"] == ""
        return _face(face, view_key)

    def updated_face(self, view_key: str) -> str:
        """The saved HTML as last updated (see ``_face``)."""
        assert self.updates, "the saved HTML was never updated"
        return _face(self.updates[-1], view_key)


def _face(bundle: dict[str, Any], view_key: str) -> str:
    """``bundle``'s HTML, checked to be a view's saved face: under the rule hiding the widget's output
    above it while it holds no view, its top element named by the view's key (hidden where it draws)."""
    assert set(bundle) == {"text/html"}
    html = str(bundle["text/html"])
    assert html.startswith(LOST_WIDGET_RULE)
    (_, first), *_ = start_tags(html.removeprefix(LOST_WIDGET_RULE))
    assert set(transcript_class([view_key]).split()) <= set(str(first.get("class")).split())
    return html


# ---- a workflow's run -----------------------------------------------------------------------------

WEATHER_REPORT_DONE = [("fetch-forecast", "success"), ("write-report", "success")]  # server/'s weatherReport


def step_statuses(result: mn.RunResult) -> list[tuple[str, str]]:
    """A workflow run's steps, each as (name, status)."""
    assert result.workflow is not None
    return [(step.step_name, step.status) for step in result.workflow.steps]


def everything_shown(view: mn.StreamView, tmp_path: Path) -> str:
    """All a user or a reader of a saved notebook can see of a view."""
    saved = view.save(tmp_path / "run.jsonl").read_text()
    error = view.result.error.message if view.result.error else ""
    state = json.dumps(view.get_state(), default=str)
    return "\n".join(
        [repr(view), error, json.dumps(view._transcript()), state, saved, view.result.model_dump_json()]
    )


def remote_addresses(html: str) -> list[tuple[str, str, str]]:
    """Every attribute of ``html`` that holds a remote address, but a link's ``href``: what a browser
    would fetch by itself when the card is opened (a table cell's ``background`` is a tracking beacon).
    Whitespace and control characters are read out first, as a browser reads them out of a URL."""
    found = []
    for tag, attrs in start_tags(html):
        for name, value in attrs.items():
            if tag == "a" and name == "href":
                continue
            text = re.sub(r"[\x00-\x20]", "", value or "").lower()
            # a data: URL loads nothing (its base64 may hold "//")
            remote = re.search(r"https?:", text) or (not text.startswith("data:") and "//" in text)
            if remote or (name == "style" and "url(" in text):
                found.append((tag, name, value or ""))
    return found


# ---- a scored run ---------------------------------------------------------------------------------

# The bundled server's scores of the dynamic agent's "What is Paris?" by three of its Mastra scorers,
# and a Python scorer's: tests/test_page_facts.py draws them, tests/server/test_page_facts.py holds
# the server to them.
PARIS_SCORERS = ["answer-length", "completeness-scorer", "judge-answers-question"]
PARIS_SCORES = [
    mn.Score(scorer="answer-length", score=0.7, reason="14 words; score 0.7", source="mastra"),
    mn.Score(scorer="completeness-scorer", score=1.0, source="mastra"),
    mn.Score(scorer="judge-answers-question", score=1.0, source="mastra"),
    mn.Score(scorer="mentions Paris", score=1.0, passed=True, threshold=1, source="notebook"),
]
PARIS_BADGES = [
    "answer-length 0.7",
    "completeness-scorer 1",
    "judge-answers-question 1",
    "mentions Paris 1 ✓",
]


# ---- a client tool's round, as the client runs it --------------------------------------------------


def client_round(function: Any, args: dict[str, Any]) -> tuple[mn.Run, list[dict[str, Any]]]:
    """One round of a client tool, as the client runs it: the model's call, then the tool in the kernel."""
    session, _ = ToolSession.make([function], {"messages": []}, "/api/agents/a/stream")
    run = mn.Run()
    run.start()
    name = next(iter(session.tools))
    for chunk in (
        {"type": "start", "runId": "r", "payload": {}},
        {"type": "tool-call", "runId": "r", "payload": {"toolCallId": "c1", "toolName": name, "args": args}},
        {"type": "finish", "runId": "r", "payload": {"stepResult": {"reason": "tool-calls"}}},
    ):
        run.feed(chunk)
    sent: list[dict[str, Any]] = []

    def feed(chunk: dict[str, Any]) -> None:
        sent.append(chunk)
        run.feed(chunk)

    assert asyncio.run(session.next_request(run, feed)) is not None
    return run, sent


def stopped_by_max_tokens_within_one_wave(
    exp: Any, limit: int, concurrency: int
) -> tuple[list[Any], list[Any]]:
    """An experiment a ``max_tokens=limit`` budget stopped, ``concurrency`` runs at a time, on the
    scripted models (mocks genai-prices does not price, so ``max_cost_usd`` says it cannot be checked):
    the runs after the crossing never ran, the budget says the figure of the run whose end reached the
    limit, and only the runs running then were counted after it. Its (finished, stopped) cells."""
    ran = [cell for cell in exp.cells if cell.status == "finished"]
    stopped = [cell for cell in exp.cells if cell.status != "finished"]
    assert ran
    assert stopped  # far more runs than the limit
    assert {cell.outcome().failure for cell in stopped} == {"stopped"}
    most = max(cell.result.usage_with_nested.total_tokens for cell in ran)
    budget = exp.batch.budget
    said = budget.said()
    found = re.fullmatch(
        rf"stopped by max_tokens={limit} at ([\d,]+) tokens · max_cost_usd cannot be checked for "
        rf"{len(ran)} runs with unknown cost",
        said,
    )
    assert found, said
    crossed_at = int(found.group(1).replace(",", ""))
    assert limit <= crossed_at < limit + most  # the run whose end reached it
    assert budget.tokens <= crossed_at + (concurrency - 1) * most  # then only the runs running then
    assert said in repr(exp)
    assert said in exp.summary().attrs["notes"]
    return ran, stopped
