"""One HTTP path (issue 18): every request of every public client call goes through the client's
Transport, the only module that imports httpx; retries, auth and redaction are tested once here, for
every endpoint, against a fake Mastra server under the transport (an httpx.MockTransport)."""

from __future__ import annotations

import ast
import asyncio
import importlib
import inspect
import pkgutil
import re
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest

import mastra_notebook as mn
from mastra_notebook.client.session import RunSession
from mastra_notebook.client.transport import MastraError, Retry, Transport, retry_after

from .conftest import RecordingComm, fixture_path
from .fake_clock import run_on_fake_clock
from .helpers import wait_until

PACKAGE = Path(mn.__file__).parent
TOKEN, HEADER_SECRET = "tok-Secret-91f2", "hdr-Secret-5c7e"


def _records(chunks: list[dict[str, Any]] | Path) -> bytes:
    if isinstance(chunks, Path):
        return b"".join(line.strip() + b"\x1e" for line in chunks.read_bytes().splitlines() if line.strip())
    return b"".join(orjson.dumps(chunk) + b"\x1e" for chunk in chunks)


def _chunk(kind: str, run: str = "r1", who: str = "AGENT", **payload: Any) -> dict[str, Any]:
    return {"type": kind, "runId": run, "from": who, "payload": payload}


TEXT = _records(fixture_path("plain-text"))
APPROVAL = _records(fixture_path("tool-approval"))
WORKFLOW = _records(fixture_path("workflow-stream"))
SUSPENDED_TOOL = _records([
    _chunk("start"),
    _chunk("tool-call", toolCallId="c1", toolName="askUser", args={}),
    _chunk("tool-call-suspended", toolCallId="c1", toolName="askUser", suspendPayload={"question": "?"}),
])  # fmt: skip
CLIENT_TOOL = _records([
    _chunk("start"),
    _chunk("tool-call", toolCallId="t1", toolName="lookup", args={"city": "Oslo"}),
    _chunk("finish", stepResult={"reason": "tool-calls"}, output={}),
])  # fmt: skip
SUSPENDED_STEP = _records([
    _chunk("workflow-start", "w1", "WORKFLOW", workflowId="w"),
    _chunk("workflow-step-start", "w1", "WORKFLOW", stepName="request"),
    _chunk("workflow-step-suspended", "w1", "WORKFLOW", stepName="request", suspendPayload={}),
])  # fmt: skip


def lookup(city: str) -> dict[str, Any]:
    """The weather in a city."""
    return {"city": city, "temperature": 7}


@dataclass
class FakeMastra:
    """A Mastra server under the client's transport: it answers each route, and counts what came.
    ``fail(request)``: an answer that replaces the usual one (a 503, a 500 that echoes secrets)."""

    seen: list[httpx.Request] = field(default_factory=list)
    fail: Callable[[httpx.Request], httpx.Response | None] = lambda request: None
    hang: asyncio.Event | None = None

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.seen.append(request)
        return self.fail(request) or self.answer(request)

    def answer(self, request: httpx.Request) -> httpx.Response:
        path, method = request.url.path, request.method
        body = orjson.loads(request.content) if request.content else {}
        if method == "GET":
            listed = {
                "/api/agents": {"a": {"name": "A", "provider": "mock", "modelId": "m"}},
                "/api/agents/a": {"name": "A", "tools": {}},
                "/api/workflows": {"w": {"name": "W", "stepGraph": []}},
                "/api/workflows/w": {"steps": {"request": {"resumeSchema": '{"type":"object"}'}}},
                "/api/workflows/w/runs": {"runs": [{"runId": "r9", "status": "success"}], "total": 1},
                "/api/workflows/w/runs/r9": {"runId": "r9", "status": "success"},
                "/api/memory/status": {"result": True},
                "/api/memory/threads": {"threads": [{"id": "t1"}]},
                "/api/memory/threads/t1/messages": {"messages": [{"role": "user", "content": "hi"}]},
                "/api/scores/scorers": {},  # a run that names no scorers looks for its agent's own
            }
            if path.endswith("/working-memory"):  # a chat's turn reads it when it ends
                return httpx.Response(200, json={"workingMemory": "# User", "workingMemoryTemplate": None})
            return httpx.Response(200, json=listed[path])
        if path.endswith(("/cancel", "/clone")):
            return httpx.Response(200, json={"message": "ok"})
        if path == "/api/workflows/w/stream":
            data = body.get("inputData") or {}
            if data.get("hang"):
                return httpx.Response(200, content=self._hanging(WORKFLOW.split(b"\x1e")[0] + b"\x1e"))
            return httpx.Response(200, content=SUSPENDED_STEP if data.get("suspend") else WORKFLOW)
        if path.startswith("/api/workflows/w/"):  # resume-stream, observe
            return httpx.Response(200, content=WORKFLOW)
        last = (body.get("messages") or [{}])[-1]
        prompt = last.get("content") if last.get("role") == "user" else None
        content = {"approve me": APPROVAL, "ask me": SUSPENDED_TOOL, "use a tool": CLIENT_TOOL}
        return httpx.Response(200, content=content.get(prompt, TEXT))  # type: ignore[arg-type]

    async def _hanging(self, first: bytes) -> AsyncIterator[bytes]:
        yield first
        await asyncio.Event().wait()  # until the client closes the stream


def client_of(server: FakeMastra, **options: Any) -> mn.MastraClient:
    wire = httpx.MockTransport(server)
    return mn.MastraClient("http://mastra.test", wire=wire, backoff_ms=0, **options)


def waited(value: Any) -> list[Any]:
    """What a call gave, as a list: a view as its final result, a batch's results as they are."""
    if isinstance(value, mn.StreamView):
        return [value.wait(60)]
    return value if isinstance(value, list) and value and isinstance(value[0], mn.RunResult) else [value]


def no_run_failed(outcome: list[Any]) -> None:
    for result in outcome:
        if isinstance(result, mn.RunResult):
            assert result.error is None, result.error


def _decided(client: mn.MastraClient, prompt: str, decide: Callable[[mn.StreamView], None]) -> Any:
    view = client.agent("a").stream(prompt)
    view.wait(60)
    decide(view)
    return view


def _workflow_step_resumed(client: mn.MastraClient) -> Any:
    view = client.workflow("w").stream({"suspend": True}, run_id="w1")
    view.wait(60)
    view.resume({"approved": True})
    return view


def _workflow_stopped(client: mn.MastraClient) -> Any:
    view = client.workflow("w").stream({"hang": True}, run_id="w1")
    wait_until(lambda: view.result.chunk_count > 0, "the workflow streams", timeout=60)
    view.stop()
    controls = view.controls
    assert isinstance(controls, RunSession)
    cancelling = controls.cancelling
    assert cancelling is not None
    wait_until(cancelling.done, "the cancel's answer", timeout=60)
    return view


def _chat_turns(client: mn.MastraClient) -> Any:
    chat = client.agent("a").chat()
    chat.send("hi").wait(60)
    return chat.fork()


# Every public call that talks to the server: its name, the call, and the request that is its own
# (METHOD path): the one a fault is put on, the others being what it needs first.
ENDPOINTS: list[tuple[str, Callable[[mn.MastraClient], Any], str]] = [
    ("agents", lambda c: c.agents(), "GET /api/agents"),
    ("workflows", lambda c: c.workflows(), "GET /api/workflows"),
    ("get", lambda c: c.get("/api/agents/a"), "GET /api/agents/a"),
    ("agent.info", lambda c: c.agent("a").info(), "GET /api/memory/status"),
    ("agent.threads", lambda c: c.agent("a").threads(), "GET /api/memory/threads"),
    ("agent.thread", lambda c: c.agent("a").thread("t1"), "GET /api/memory/threads/t1/messages"),
    ("agent.chat", lambda c: c.agent("a").chat(), "GET /api/memory/status"),
    ("chat.send+fork", _chat_turns, "POST /api/memory/threads/[^/]+/clone"),
    ("agent.stream", lambda c: c.agent("a").stream("hi"), "POST /api/agents/a/stream"),
    ("client tools", lambda c: c.agent("a").stream("use a tool", tools=[lookup]), "POST /api/agents/a/stream"),
    ("agent.network", lambda c: c.agent("a").network("hi"), "POST /api/agents/a/network"),
    ("agent.stream_many", lambda c: c.agent("a").stream_many(["x", "y"]).wait(60), "POST /api/agents/a/stream"),
    ("view.approve", lambda c: _decided(c, "approve me", lambda v: v.approve()),
     "POST /api/agents/a/approve-tool-call"),
    ("view.decline", lambda c: _decided(c, "approve me", lambda v: v.decline(reason="no")),
     "POST /api/agents/a/decline-tool-call"),
    ("view.resume", lambda c: _decided(c, "ask me", lambda v: v.resume({"answer": "x"})),
     "POST /api/agents/a/resume-stream"),
    ("workflow.stream", lambda c: c.workflow("w").stream({}), "POST /api/workflows/w/stream"),
    ("workflow view.resume", _workflow_step_resumed, "POST /api/workflows/w/resume-stream"),
    ("workflow view.stop", _workflow_stopped, "POST /api/workflows/w/runs/w1/cancel"),
    ("workflow.runs", lambda c: c.workflow("w").runs(per_page=5), "GET /api/workflows/w/runs"),
    ("run.info", lambda c: c.workflow("w").run("r9").info(), "GET /api/workflows/w/runs/r9"),
    ("run.view", lambda c: c.workflow("w").run("r9").view(), "POST /api/workflows/w/observe"),
]  # fmt: skip
IDS = [name for name, _, _ in ENDPOINTS]


def _is(request: httpx.Request, target: str) -> bool:
    method, path = target.split(" ", 1)
    return request.method == method and re.fullmatch(path, request.url.path) is not None


@pytest.mark.parametrize(("name", "call", "target"), ENDPOINTS, ids=IDS)
def test_every_request_goes_through_the_transport(
    recording_comm: RecordingComm, name: str, call: Callable[[mn.MastraClient], Any], target: str
) -> None:
    server = FakeMastra()
    client = client_of(server)
    no_run_failed(waited(call(client)))
    assert any(_is(request, target) for request in server.seen), [str(r.url) for r in server.seen]
    # the wire saw only what the transport sent: once a request a view makes beside its stream (the
    # workflow's steps) has reached the wire too, as the call may return before it does
    wait_until(lambda: client.transport.sent == len(server.seen), "the wire saw what the transport sent")


@pytest.mark.parametrize(("name", "call", "target"), ENDPOINTS, ids=IDS)
def test_a_503_is_retried_on_every_endpoint(
    recording_comm: RecordingComm, name: str, call: Callable[[mn.MastraClient], Any], target: str
) -> None:
    failed: list[httpx.Request] = []

    def once(request: httpx.Request) -> httpx.Response | None:
        if _is(request, target) and not failed:
            failed.append(request)
            return httpx.Response(503, json={"error": "Service Unavailable"})
        return None

    server = FakeMastra(fail=once)
    no_run_failed(waited(call(client_of(server))))
    assert failed
    assert sum(_is(request, target) for request in server.seen) >= 2  # sent again after the 503


@pytest.mark.parametrize(("name", "call", "target"), ENDPOINTS, ids=IDS)
def test_every_request_is_signed(
    recording_comm: RecordingComm, name: str, call: Callable[[mn.MastraClient], Any], target: str
) -> None:
    server = FakeMastra()
    waited(call(client_of(server, token=TOKEN, headers={"X-Team": "notebooks"})))
    assert server.seen
    for request in server.seen:
        assert request.headers["authorization"] == f"Bearer {TOKEN}"
        assert request.headers["x-team"] == "notebooks"


@pytest.mark.parametrize(("name", "call", "target"), ENDPOINTS, ids=IDS)
def test_secrets_echoed_by_the_server_are_hidden_on_every_endpoint(
    recording_comm: RecordingComm, name: str, call: Callable[[mn.MastraClient], Any], target: str
) -> None:
    def echo(request: httpx.Request) -> httpx.Response | None:
        if not _is(request, target):
            return None
        said = f"refused {request.headers['authorization']} with {request.headers['x-api-key']}"
        return httpx.Response(500, json={"error": said})

    server = FakeMastra(fail=echo)
    client = client_of(server, token=TOKEN, headers={"X-Api-Key": HEADER_SECRET})
    try:
        outcome = waited(call(client))
    except MastraError as error:
        shown, status = str(error), error.status_code
    else:
        assert all(isinstance(r, mn.RunResult) for r in outcome), outcome  # only runs fail without raising
        shown, status = "\n".join(r.model_dump_json() for r in outcome), 500
    assert status == 500
    assert "refused Bearer <hidden> with <hidden>" in shown
    assert TOKEN not in shown
    assert HEADER_SECRET not in shown


def test_one_error_format() -> None:
    client = client_of(FakeMastra(fail=lambda r: httpx.Response(404, json={"error": "Thread not found"})))
    with pytest.raises(
        MastraError, match=r"^GET /api/memory/threads/t1/messages answered HTTP 404: Thread not"
    ):
        client.agent("a").thread("t1")
    refused = mn.MastraClient("http://127.0.0.1:9", retries=0)
    with pytest.raises(
        MastraError, match=r"^GET /api/agents: cannot connect to the Mastra server at http://127"
    ):
        refused.agents()

    def moved(request: httpx.Request) -> httpx.Response:
        return httpx.Response(307, headers={"location": "https://elsewhere.test/api/agents"})

    with pytest.raises(MastraError, match=r"a redirect to https://elsewhere.test/api/agents \(not followed"):
        client_of(FakeMastra(fail=moved)).agents()
    result = client_of(FakeMastra(fail=moved)).agent("a").stream("hi").wait(60)
    assert result.error is not None
    assert result.error.status_code == 307


def _modules() -> list[str]:
    return [m.name for m in pkgutil.walk_packages([str(PACKAGE)], "mastra_notebook.")]


def test_only_the_transport_imports_httpx() -> None:
    importers = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            names += [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
            if any(name == "httpx" or name.startswith("httpx.") for name in names):
                importers.add(path.relative_to(PACKAGE).as_posix())
    assert importers == {"client/transport.py"}


def test_no_view_subclass_adds_http() -> None:
    subclasses = []
    for name in _modules():
        if not name.startswith("mastra_notebook.client"):
            continue
        module = importlib.import_module(name)
        subclasses += [
            f"{name}.{c.__name__}"
            for c in vars(module).values()
            if inspect.isclass(c) and issubclass(c, mn.StreamView) and c is not mn.StreamView
        ]
    assert subclasses == []


def test_a_retry_after_lengthens_the_wait_within_the_bound() -> None:
    """A 503's ``Retry-After`` is waited (not the shorter backoff), never beyond ``max_backoff_ms``;
    the same retry loop serves ``call`` and ``send``."""
    answers = iter([
        httpx.Response(503, headers={"Retry-After": "2"}),
        httpx.Response(503, headers={"Retry-After": "60"}),
        httpx.Response(200, json={"ok": True}),
    ])  # fmt: skip
    wire = httpx.MockTransport(lambda request: next(answers))
    transport = Transport("http://mastra.test", wire=wire, retry=Retry(3, 100, 5000))
    waited: list[float] = []

    async def sleep(seconds: float) -> None:
        waited.append(seconds)

    transport.sleep = sleep
    assert transport.call("GET", "/api/agents") == {"ok": True}
    assert waited == [2.0, 5.0]
    assert transport.sent == 3


def test_retry_after_as_a_date() -> None:
    response = httpx.Response(503, headers={"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"})
    assert retry_after(response, now=1445412470.0) == 10.0
    assert retry_after(httpx.Response(503)) is None
    assert retry_after(httpx.Response(503, headers={"Retry-After": "soon"})) is None


def test_a_blocking_call_from_inside_a_running_loop() -> None:
    """``call`` from a coroutine (a cell's code on the kernel's loop) answers without blocking that loop
    forever: the request runs on the package's own loop."""
    wire = httpx.MockTransport(lambda request: httpx.Response(200, json={"path": request.url.path}))
    transport = Transport("http://mastra.test", wire=wire)

    async def cell() -> Any:
        return transport.call("GET", "/api/agents")

    assert run_on_fake_clock(cell()) == {"path": "/api/agents"}
