"""The hostile-input corpus: streams that break naive readers.

Deep nesting (agent-in-agent ``tool-output`` envelopes, network execution events), values nested deeper
than orjson writes (254 levels), ids reused the way real providers reuse them, quadratic traps (40,000
argument deltas of one call), one 60 MB event arriving in 16 KiB pieces, bodies of blank lines, and a
model text that tries to break out of the export page's embedded JSON.

Every builder returns a stream as JSON Lines (a list of lines, as bytes), as one body (bytes), or, for
the 60 MB event, as an iterator of 16 KiB pieces made lazily. :data:`CORPUS` names each entry with the
number of records (lines or SSE events) that ``chunk_count + len(invalid)`` must account for.

Deep values cannot go through ``orjson.dumps`` (it stops at 254 levels): they are written as text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import orjson

RUN_ID = "run-hostile"
BOTTOM = "bottom"  # the innermost text (or value) of every deep entry
ORJSON_MAX_LOADS_DEPTH = 1024  # orjson.loads refuses deeper JSON: such a line can only be invalid
ORJSON_MAX_DUMPS_DEPTH = 254  # orjson.dumps refuses deeper values


# ---- small helpers ------------------------------------------------------------------------------


def chunk(
    type_: str, payload: Any = None, *, run_id: str | None = RUN_ID, from_: str | None = "AGENT"
) -> dict:
    """A Mastra chunk ``{type, runId, from, payload}`` (keys left out when None)."""
    value: dict[str, Any] = {"type": type_}
    if run_id is not None:
        value["runId"] = run_id
    if from_ is not None:
        value["from"] = from_
    if payload is not None:
        value["payload"] = payload
    return value


def dumps(value: Any) -> bytes:
    return orjson.dumps(value)


def body(lines: list[bytes]) -> bytes:
    """JSON Lines: one line per chunk, newline-terminated."""
    return b"\n".join(lines) + b"\n"


def sse(lines: list[bytes], *, done: bool = True) -> bytes:
    """The same chunks as Mastra's agent HTTP answer: ``data: <json>`` events, then ``data: [DONE]``."""
    events = b"".join(b"data: " + line + b"\n\n" for line in lines)
    return events + (b"data: [DONE]\n\n" if done else b"")


def opening(run_id: str = RUN_ID) -> list[bytes]:
    return [
        dumps(chunk("start", {"id": "hostile-agent", "messageId": "msg-1"}, run_id=run_id)),
        dumps(chunk("step-start", {"messageId": "msg-1", "warnings": []}, run_id=run_id)),
    ]


def step_finish(reason: str = "stop", *, output_tokens: int = 5) -> bytes:
    usage = {"inputTokens": 10, "outputTokens": output_tokens, "totalTokens": 10 + output_tokens}
    return dumps(
        chunk(
            "step-finish",
            {
                "messageId": "msg-1",
                "stepResult": {"reason": reason, "isContinued": reason == "tool-calls"},
                "output": {"usage": usage},
                "metadata": {"modelId": "hostile-model", "id": "resp-1"},
            },
        )
    )


def finish(reason: str = "stop", *, output_tokens: int = 5) -> bytes:
    usage = {"inputTokens": 10, "outputTokens": output_tokens, "totalTokens": 10 + output_tokens}
    return dumps(chunk("finish", {"stepResult": {"reason": reason}, "output": {"usage": usage}}))


def text(text_id: str, *pieces: str, end: bool = True) -> list[bytes]:
    """``text-start``, one ``text-delta`` per piece, ``text-end``."""
    lines = [dumps(chunk("text-start", {"id": text_id}))]
    lines += [dumps(chunk("text-delta", {"id": text_id, "text": piece})) for piece in pieces]
    if end:
        lines.append(dumps(chunk("text-end", {"type": "text-end", "id": text_id})))
    return lines


def reasoning(reasoning_id: str, *pieces: str) -> list[bytes]:
    lines = [dumps(chunk("reasoning-start", {"id": reasoning_id}))]
    lines += [dumps(chunk("reasoning-delta", {"id": reasoning_id, "text": piece})) for piece in pieces]
    lines.append(dumps(chunk("reasoning-end", {"id": reasoning_id})))
    return lines


def tool_call(call_id: str, tool_name: str, args: Any, *, streamed: bool = True) -> list[bytes]:
    """A tool call as chat-completions providers stream it: input start, argument deltas, end, call."""
    lines: list[bytes] = []
    if streamed:
        args_text = orjson.dumps(args).decode()
        third = max(1, len(args_text) // 3)
        pieces = [args_text[:third], args_text[third : 2 * third], args_text[2 * third :]]
        lines.append(
            dumps(chunk("tool-call-input-streaming-start", {"toolCallId": call_id, "toolName": tool_name}))
        )
        lines += [
            dumps(
                chunk("tool-call-delta", {"argsTextDelta": p, "toolCallId": call_id, "toolName": tool_name})
            )
            for p in pieces
        ]
        lines.append(dumps(chunk("tool-call-input-streaming-end", {"toolCallId": call_id})))
    lines.append(dumps(chunk("tool-call", {"toolCallId": call_id, "toolName": tool_name, "args": args})))
    return lines


def tool_result(call_id: str, tool_name: str, args: Any, result: Any) -> bytes:
    return dumps(
        chunk("tool-result", {"toolCallId": call_id, "toolName": tool_name, "args": args, "result": result})
    )


def deep_list_text(n: int, leaf: str = BOTTOM) -> bytes:
    """``[[[...["bottom"]...]]]``: a list nested ``n`` deep, as JSON text."""
    return b"[" * n + orjson.dumps(leaf) + b"]" * n


def deep_list(n: int, leaf: str = BOTTOM) -> list[Any]:
    value: Any = leaf
    for _ in range(n):
        value = [value]
    return value


def list_depth(value: Any) -> tuple[int, Any]:
    """How many single-item lists wrap the innermost value, and that value (no recursion)."""
    depth = 0
    while isinstance(value, list) and len(value) == 1:
        value, depth = value[0], depth + 1
    return depth, value


# ---- deep tool-output envelopes (agent in agent in agent ...) -----------------------------------


def _envelope_affixes(n: int, call_prefix: str) -> tuple[list[bytes], list[bytes]]:
    """Text before and after the innermost chunk of ``n`` nested ``tool-output`` envelopes."""
    before, after = [], []
    for level in range(n):
        run_id, from_ = (RUN_ID, "USER") if level == 0 else (f"{RUN_ID}-sub-{level}", "AGENT")
        before.append(
            b'{"type":"tool-output","runId":'
            + dumps(run_id)
            + b',"from":'
            + dumps(from_)
            + b',"payload":{"output":'
        )
        after.append(b',"toolCallId":' + dumps(f"{call_prefix}{level}") + b',"toolName":"agent-x"}}')
    return before, after[::-1]


def deep_tool_output_lines(n: int, call_prefix: str = "call-deep-") -> list[bytes]:
    """A supervisor calls tool ``agent-x``; its sub-agent calls ``agent-x``, ... ``n`` agents deep; the
    innermost agent streams ``text-start``, two ``text-delta`` ("bot", "tom"), ``text-end``.

    Each envelope adds two JSON levels: above 511 envelopes orjson cannot read the deep lines.
    """
    before, after = _envelope_affixes(n, call_prefix)
    prefix, suffix = b"".join(before), b"".join(after)
    inner_run = f"{RUN_ID}-sub-{n}"
    innermost = [
        chunk("text-start", {"id": "t"}, run_id=inner_run),
        chunk("text-delta", {"id": "t", "text": BOTTOM[:3]}, run_id=inner_run),
        chunk("text-delta", {"id": "t", "text": BOTTOM[3:]}, run_id=inner_run),
        chunk("text-end", {"id": "t"}, run_id=inner_run),
    ]
    return [
        *opening(),
        *tool_call(f"{call_prefix}0", "agent-x", {"prompt": "go deeper"}),
        *(prefix + dumps(inner) + suffix for inner in innermost),
        tool_result(f"{call_prefix}0", "agent-x", {"prompt": "go deeper"}, {"text": BOTTOM}),
        step_finish("tool-calls"),
        finish(),
    ]


def deep_tool_output_chunks(n: int, call_prefix: str = "call-deep-") -> list[dict[str, Any]]:
    """The same stream as dicts, for ``run.feed(dict)``: no JSON parser limits the depth here."""
    lines = deep_tool_output_lines(1, call_prefix)  # the shallow lines, decoded below
    items: list[dict[str, Any]] = []
    for line in lines:
        value = orjson.loads(line)
        if value["type"] == "tool-output":
            inner = value["payload"]["output"]
            for level in range(n - 1, -1, -1):  # innermost envelope first: no recursion
                run_id, from_ = (RUN_ID, "USER") if level == 0 else (f"{RUN_ID}-sub-{level}", "AGENT")
                inner = chunk(
                    "tool-output",
                    {"output": inner, "toolCallId": f"{call_prefix}{level}", "toolName": "agent-x"},
                    run_id=run_id,
                    from_=from_,
                )
            value = inner
        items.append(value)
    return items


def deep_tool_output_max() -> list[bytes]:
    """As many envelopes as orjson reads (511: two levels each, within 1,024)."""
    return deep_tool_output_lines((ORJSON_MAX_LOADS_DEPTH - 2) // 2)


# ---- deep network execution events ---------------------------------------------------------------


def deep_execution_event_lines(n: int) -> list[bytes]:
    """A network runs an agent whose stream is a network event, ``n`` levels deep: each
    ``agent-execution-event-<type>`` carries the whole inner chunk as its payload (one JSON level each),
    whose ``runId`` names the execution. Every level is named after the innermost chunk's type
    (``agent-execution-event-text-delta``): Mastra would repeat the prefix per level, which makes the
    line quadratic in ``n`` (11 MB at 1,000) without testing anything more."""
    innermost = [
        chunk("text-start", {"id": "t"}, run_id=f"exec-{n}"),
        chunk("text-delta", {"id": "t", "text": BOTTOM[:3]}, run_id=f"exec-{n}"),
        chunk("text-delta", {"id": "t", "text": BOTTOM[3:]}, run_id=f"exec-{n}"),
        chunk("text-end", {"id": "t"}, run_id=f"exec-{n}"),
    ]
    deep: list[bytes] = []
    for inner in innermost:
        outer_type = dumps(f"agent-execution-event-{inner['type']}")
        before = [
            b'{"type":'
            + outer_type
            + b',"from":"NETWORK","runId":'
            + dumps(RUN_ID if i == 0 else f"exec-{i}")
            + b',"payload":'
            for i in range(n)
        ]
        deep.append(b"".join(before) + dumps(inner) + b"}" * n)
    start = {"agentId": "x", "runId": "exec-1", "args": {"prompt": "go deeper"}}
    return [
        dumps(
            chunk("routing-agent-start", {"agentId": "routing-agent", "runId": "route-0"}, from_="NETWORK")
        ),
        dumps(chunk("agent-execution-start", start, from_="NETWORK")),
        *deep,
        dumps(
            chunk(
                "agent-execution-end", {"agentId": "x", "runId": "exec-1", "result": BOTTOM}, from_="NETWORK"
            )
        ),
        dumps(chunk("network-execution-event-finish", {"result": BOTTOM}, from_="NETWORK")),
    ]


# ---- values nested deeper than orjson writes ----------------------------------------------------


def deep_value_lines(n: int) -> list[bytes]:
    """A tool result, a custom tool output and a ``data-x`` chunk, each a list nested ``n`` deep."""
    deep = deep_list_text(n)
    return [
        *opening(),
        *tool_call("call-deep-value", "deepTool", {"n": n}),
        b'{"type":"tool-output","runId":"run-hostile","from":"USER","payload":{"output":'
        + deep
        + b',"toolCallId":"call-deep-value","toolName":"deepTool"}}',
        b'{"type":"tool-result","runId":"run-hostile","from":"AGENT","payload":{"toolCallId":"call-deep-value",'
        b'"toolName":"deepTool","args":{"n":' + str(n).encode() + b'},"result":' + deep + b"}}",
        b'{"type":"data-x","id":"deep-data","data":' + deep + b"}",
        step_finish("tool-calls"),
        *text("txt-after", "The value is deep."),
        finish(),
    ]


# ---- reused ids (what real providers do) ----------------------------------------------------------

STEP1_TEXT = "Let me check the weather."
STEP2_TEXT = "It is sunny in Paris."


def reused_text_id_lines() -> list[bytes]:
    """OpenAI chat completions through Mastra's router: the text is ``txt-0`` in every step, and step 1's
    ``text-end`` comes after its tool-input chunks."""
    args = {"city": "Paris"}
    step1 = text("txt-0", "Let me check ", "the weather.", end=False)
    step1 += tool_call("call_0", "getWeather", args)
    step1.insert(len(step1) - 1, dumps(chunk("text-end", {"type": "text-end", "id": "txt-0"})))
    return [
        *opening(),
        *step1,
        tool_result("call_0", "getWeather", args, {"city": "Paris", "conditions": "sunny"}),
        step_finish("tool-calls"),
        dumps(chunk("step-start", {"messageId": "msg-1", "warnings": []})),
        *text("txt-0", "It is sunny ", "in Paris."),
        step_finish("stop"),
        finish(),
    ]


def reused_reasoning_id_lines() -> list[bytes]:
    """Anthropic numbers blocks per message: reasoning ``"0"`` and text ``"1"`` in both steps."""
    args = {"city": "Paris"}
    return [
        *opening(),
        *reasoning("0", "I need ", "the weather."),
        *text("1", STEP1_TEXT),
        *tool_call("toolu_01", "getWeather", args),
        tool_result("toolu_01", "getWeather", args, {"conditions": "sunny"}),
        step_finish("tool-calls"),
        dumps(chunk("step-start", {"messageId": "msg-2", "warnings": []})),
        *reasoning("0", "Now I ", "can answer."),
        *text("1", STEP2_TEXT),
        step_finish("stop"),
        finish(),
    ]


def reused_id_after_end_lines() -> list[bytes]:
    """In one step, a text id and a reasoning id used again after their ``*-end``."""
    return [
        *opening(),
        *reasoning("r", "first thought"),
        *text("t", "first part"),
        *reasoning("r", "second thought"),
        *text("t", "second part"),
        step_finish("stop"),
        finish(),
    ]


def reused_tool_call_id_lines() -> list[bytes]:
    """OpenAI-compatible servers number tool calls per step: ``call_0`` in step 1 and in step 2."""
    paris, lyon = {"city": "Paris"}, {"city": "Lyon"}
    return [
        *opening(),
        *text("txt-0", "Paris first."),
        *tool_call("call_0", "getWeather", paris),
        tool_result("call_0", "getWeather", paris, {"city": "Paris", "highC": 21}),
        step_finish("tool-calls"),
        dumps(chunk("step-start", {"messageId": "msg-1", "warnings": []})),
        *text("txt-0", "Now Lyon."),
        *tool_call("call_0", "getWeather", lyon),
        tool_result("call_0", "getWeather", lyon, {"city": "Lyon", "highC": 23}),
        step_finish("tool-calls"),
        dumps(chunk("step-start", {"messageId": "msg-1", "warnings": []})),
        *text("txt-0", "Both are warm."),
        step_finish("stop"),
        finish(),
    ]


GHOST_OUTPUT = "ghost-output-value"
GHOST_RESULT = "ghost-result-value"


def orphan_result_lines() -> list[bytes]:
    """A ``tool-output`` and a ``tool-result`` for an id no call ever had."""
    return [
        *opening(),
        *text("txt-0", "Nothing was called."),
        dumps(
            chunk(
                "tool-output",
                {"output": {"note": GHOST_OUTPUT}, "toolCallId": "call_ghost", "toolName": "ghost"},
                from_="USER",
            )
        ),
        tool_result("call_ghost", "ghost", None, {"note": GHOST_RESULT}),
        step_finish("stop"),
        finish(),
    ]


# ---- quadratic traps ---------------------------------------------------------------------------------

ARG_DELTAS = 40_000


def _pieces_of(text_value: str, n: int) -> list[str]:
    size, rest = divmod(len(text_value), n)
    pieces, at = [], 0
    for i in range(n):
        step = size + (1 if i < rest else 0)
        pieces.append(text_value[at : at + step])
        at += step
    return pieces


def big_args(n: int = ARG_DELTAS) -> dict[str, Any]:
    """Arguments whose JSON text is about 8 characters per delta."""
    items, length, i = [], 12, 0
    while length < 8 * n:
        items.append(i)
        length += len(str(i)) + 1
        i += 1
    return {"items": items}


def arg_delta_lines(n: int = ARG_DELTAS) -> list[bytes]:
    """One tool call whose arguments arrive in ``n`` ``tool-call-delta`` chunks (the text keeps growing)."""
    args = big_args(n)
    pieces = _pieces_of(orjson.dumps(args).decode(), n)
    head = b'{"type":"tool-call-delta","runId":"run-hostile","from":"AGENT","payload":{"argsTextDelta":'
    tail = b',"toolCallId":"call_big","toolName":"bigTool"}}'
    return [
        *opening(),
        dumps(chunk("tool-call-input-streaming-start", {"toolCallId": "call_big", "toolName": "bigTool"})),
        *(head + dumps(piece) + tail for piece in pieces),
        dumps(chunk("tool-call-input-streaming-end", {"toolCallId": "call_big"})),
        dumps(chunk("tool-call", {"toolCallId": "call_big", "toolName": "bigTool", "args": args})),
        tool_result("call_big", "bigTool", None, {"count": len(args["items"])}),
        step_finish("tool-calls"),
        finish(),
    ]


def text_delta_lines(n: int = ARG_DELTAS) -> list[bytes]:
    """The yardstick for :func:`arg_delta_lines`: ``n`` text deltas of the same sizes."""
    pieces = _pieces_of(orjson.dumps(big_args(n)).decode(), n)
    head = b'{"type":"text-delta","runId":"run-hostile","from":"AGENT","payload":{"id":"txt-0","text":'
    return [
        *opening(),
        dumps(chunk("text-start", {"id": "txt-0"})),
        *(head + dumps(piece) + b"}}" for piece in pieces),
        dumps(chunk("text-end", {"id": "txt-0"})),
        step_finish("stop"),
        finish(),
    ]


# ---- one 60 MB event, arriving in 16 KiB pieces ------------------------------------------------------

BIG_EVENT_BYTES = 60 * 1024 * 1024
PIECE = 16 * 1024
_ROW = "x" * 1000


def _big_result_rows(size: int) -> Iterator[bytes]:
    """``"row-000001 xxxx…"`` strings of about 1 KB, as JSON, until ``size`` bytes."""
    written, i = 0, 0
    while written < size:
        row = b'"row-%06d ' % i + _ROW.encode() + b'"'
        yield row if i == 0 else b"," + row
        written += len(row) + 1
        i += 1


def big_event_json(size: int = BIG_EVENT_BYTES) -> bytes:
    """The big event alone: a ``tool-result`` whose result is ``size`` bytes of 1 KB strings."""
    return b"".join(_big_event_parts(size))


def _big_event_parts(size: int) -> Iterator[bytes]:
    yield b'{"type":"tool-result","runId":"run-hostile","from":"AGENT","payload":{"toolCallId":"call_big",'
    yield b'"toolName":"bigTool","args":{},"result":['
    yield from _big_result_rows(size)
    yield b"]}}"


def big_event_pieces(size: int = BIG_EVENT_BYTES, piece: int = PIECE) -> Iterator[bytes]:
    """An SSE body (start, tool call, the big tool result, finish, [DONE]) in ``piece``-byte pieces,
    made as it is read: at most about one piece and one row in memory here."""
    head = opening() + tool_call("call_big", "bigTool", {}, streamed=False)
    buffer = bytearray(sse(head, done=False) + b"data: ")

    def parts() -> Iterator[bytes]:
        yield from _big_event_parts(size)
        yield b"\n\n" + sse([step_finish("tool-calls"), finish()])

    for part in parts():
        buffer += part
        while len(buffer) >= piece:
            yield bytes(buffer[:piece])
            del buffer[:piece]
    if buffer:
        yield bytes(buffer)


# start, step-start, tool-call, the big tool-result, step-finish, finish ([DONE] is no record)
BIG_EVENT_RECORDS = 6


# ---- blank lines ---------------------------------------------------------------------------------------

MB = 1024 * 1024


def plain_lines() -> list[bytes]:
    return [*opening(), *text("txt-0", "Hello ", "after the blank lines."), step_finish(), finish()]


def blank_body(size: int = MB) -> bytes:
    """A body that is only blank lines."""
    return b"\n" * size


def blank_crlf_body(size: int = MB) -> bytes:
    return b"\r\n" * (size // 2)


def blank_prefix_jsonl(size: int = MB) -> bytes:
    """1 MB of blank lines, then a short JSON Lines stream."""
    return b"\n" * size + body(plain_lines())


def blank_prefix_sse(size: int = MB) -> bytes:
    """1 MB of blank lines, then a short SSE stream."""
    return b"\n" * size + sse(plain_lines())


def pieces(data: bytes, size: int = PIECE) -> Iterator[bytes]:
    """``data`` in ``size``-byte pieces, as an HTTP body arrives."""
    for at in range(0, len(data), size):
        yield data[at : at + size]


# ---- the export page breaker -----------------------------------------------------------------------------

BREAKER_TEXT = "<!--<script>"
BREAKER_TAIL = "</script><script>document.title='pwned'</script><!--"


def export_breaker_lines() -> list[bytes]:
    """Model text, a tool name and a tool result that try to end or comment out the page's scripts."""
    args = {"q": "<!--<script>"}
    return [
        *opening(),
        *text("txt-0", BREAKER_TEXT, " and ", BREAKER_TAIL),
        *tool_call("call_0", "<img src=x onerror=alert(1)>", args),
        tool_result("call_0", "<img src=x onerror=alert(1)>", args, {"html": "<!--<script>-->"}),
        b'{"type":"data-<script>","data":"</script><!--<script>"}',
        step_finish("stop"),
        finish(),
    ]


# ---- the corpus ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One corpus entry: ``build()`` gives a list of JSON lines, a body, or an iterator of pieces."""

    build: Callable[[], list[bytes] | bytes | Iterator[bytes]]
    records: int | None = None  # lines/events to account for; None: the number of lines built
    heavy: bool = False  # too big for every output path: feed and account only
    no_chunk: bool = False  # a body with no chunk at all (the CLI says "not a stream")

    def expected_records(self, built: Any) -> int:
        if self.records is not None:
            return self.records
        assert isinstance(built, list), "a body needs its record count in the corpus"
        return len(built)


CORPUS: dict[str, Case] = {
    "deep-tool-output-250": Case(lambda: deep_tool_output_lines(250)),
    "deep-tool-output-511": Case(deep_tool_output_max),
    "deep-tool-output-1000": Case(lambda: deep_tool_output_lines(1000)),
    "deep-execution-event-1000": Case(lambda: deep_execution_event_lines(1000)),
    "deep-value-300": Case(lambda: deep_value_lines(300)),
    "deep-value-1000": Case(lambda: deep_value_lines(1000)),
    "reused-text-id": Case(reused_text_id_lines),
    "reused-reasoning-id": Case(reused_reasoning_id_lines),
    "reused-id-after-end": Case(reused_id_after_end_lines),
    "reused-tool-call-id": Case(reused_tool_call_id_lines),
    "orphan-tool-result": Case(orphan_result_lines),
    "arg-deltas-40k": Case(arg_delta_lines),
    "big-event-60mb": Case(big_event_pieces, records=BIG_EVENT_RECORDS, heavy=True),
    "blank-lines": Case(blank_body, records=0, no_chunk=True),
    "blank-crlf-lines": Case(blank_crlf_body, records=0, no_chunk=True),
    "blank-prefix-jsonl": Case(blank_prefix_jsonl, records=len(plain_lines())),
    "blank-prefix-sse": Case(blank_prefix_sse, records=len(plain_lines())),
    "export-breaker": Case(export_breaker_lines),
}
