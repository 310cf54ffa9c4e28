"""The short texts a card shows, written once, here, and shipped as node fields.

The kernel writes them into the node (``captions_of``) and the one renderer (the widget's, live and
in the kernel's static transcript) shows them as they are:

- a tool's folded arguments, ``args_summary`` (``city="Paris", days=3``);
- a tool's or workflow step's folded outcome, ``outcome`` (``→ 18``, ``→ error: ...``);
- how long a tool call, step or reasoning took, ``duration`` (``1.3 s``), what measured it,
  ``duration_source`` (``trace``: the server's span; ``arrival``: its chunks' arrival) and a
  tooltip that says so, ``duration_title``; and a person's wait, the decision's ``waited`` (``8.7 s``);
- a file's size, ``size_label`` (``1.5 KB``);
- a tool's result shown cut for its size, ``result_cut``: what was cut, the whole size, and where
  the whole value is in Python.

Each is bounded (a one-line summary, at most 80 characters), and built lazily: a summary of a list
of 60,000 rows reads the few rows its line has room for. What a person expands (arguments, results,
structured output as JSON) is formatted by the renderer: shipped, it would repeat every value on the
wire a second time.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .numbers import format_duration, to_fixed
from .request import ModelRequest
from .status_words import status_word


def scalar_text(value: Any) -> str:
    """A JSON scalar as a line shows it: ``null``, ``true``, ``18``, ``0.5``, ``"Paris"``."""
    if value is None or value is True or value is False:
        return "null" if value is None else ("true" if value else "false")
    if isinstance(value, float):
        return number_text(value)
    if isinstance(value, int):
        return str(value)
    return json.dumps(value if isinstance(value, str) else str(value), ensure_ascii=False)


def number_text(value: float) -> str:
    """A number as JSON writes it, a whole float without its ``.0`` (``18``, ``0.1``, ``1e+21``)."""
    if not math.isfinite(value):
        return "null"
    return str(int(value)) if value == int(value) and abs(value) < 1e16 else repr(value)


def human_size(size: float) -> str:
    """``1.5 KB``: one decimal under 10 of a unit, none above."""
    units = ["B", "KB", "MB", "GB", "TB"]
    n, i = float(size), 0
    while n >= 1024 and i < len(units) - 1:
        n /= 1024
        i += 1
    return f"{number_text(n)} B" if i == 0 else f"{to_fixed(n, 1 if n < 10 else 0)} {units[i]}"


def value_cut(size: int, shown: int, where: str | None, returned: bool) -> dict[str, Any]:
    """A card's note on a value shown cut for its ``size`` (bytes of JSON; about ``shown`` bytes
    kept): what was cut, and ``where`` the whole is in Python (None: somewhere in the run's result).
    ``returned``: a client tool's, whose ``.value`` is the object its function returned."""
    note = (
        f"Cut for the view: {human_size(size)} of JSON in all, about {human_size(shown)} shown here "
        "(long lists, objects and strings end where marked). The whole value stays in the kernel"
    )
    if where is None:
        return {"note": note + ", in the run's result (view.result).", "where": None}
    said = " that ran this run (the Python object the tool returned):" if returned else ", in"
    return {"note": note + said, "where": where}


# ---- one-line summaries -----------------------------------------------------------------------

# Direction controls (embeddings, overrides, isolates, marks): a one-line summary drops them.
_BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def truncate(text: str, maximum: int) -> str:
    """``text`` cut to ``maximum`` characters, the last one an ellipsis."""
    return text if len(text) <= maximum else text[: max(0, maximum - 1)] + "…"


def excerpt(text: str, limit: int = 160) -> str:
    """``text`` on one line (its whitespace runs as single spaces), cut at ``limit`` characters
    with an ellipsis."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def summarize_text(text: str, maximum: int = 80) -> str:
    """The first line of ``text``, without direction controls, cut to ``maximum`` characters."""
    line = text[: maximum + 1].split("\n", 1)[0]
    if len(line) < len(text):
        line = line[: maximum - 1] + "…"
    return truncate(_BIDI_CONTROLS.sub("", line), maximum)


def _join_short(parts: Iterable[str], maximum: int) -> str:
    """Parts joined by commas while they fit in ``maximum``; past it ``…``. Reads no part further."""
    out = ""
    for i, part in enumerate(parts):
        joined = part if i == 0 else f"{out}, {part}"
        if len(joined) > maximum and i > 0:
            return f"{out}, …"
        out = joined
    return out


def _summary_of(value: Any, maximum: int, depth: int) -> str:
    if isinstance(value, str):
        return json.dumps(summarize_text(value, max(8, maximum - 2)), ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        if depth > 0:
            return f"[{len(value)}]"
        return "[" + _join_short((_summary_of(item, 24, depth + 1) for item in value), maximum - 2) + "]"
    if isinstance(value, dict):
        if depth > 0:
            return "{}" if not value else "{…}"
        parts = (f"{key}: {_summary_of(item, 24, depth + 1)}" for key, item in value.items())
        return "{" + _join_short(parts, maximum - 2) + "}"
    return scalar_text(value)


def summarize_value(value: Any, maximum: int = 60) -> str:
    """A folded card's one-line form of a value: ``{city: "Paris", temperatureC: 18, …}``."""
    return truncate(_BIDI_CONTROLS.sub("", _summary_of(value, maximum, 0)), maximum)


def summarize_args(args: Any, maximum: int = 48) -> str:
    """Arguments as ``city="Paris", days=3`` (an object), or the value's summary."""
    if not isinstance(args, dict):
        return "" if args is None else summarize_value(args, maximum)
    parts = (f"{key}={_summary_of(item, 24, 1)}" for key, item in args.items())
    return truncate(_BIDI_CONTROLS.sub("", _join_short(parts, maximum)), maximum)


# ---- a node's labels --------------------------------------------------------------------------


def _num(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value if math.isfinite(value) else None


def _error_text(error: Any) -> str | None:
    """What a summary reads of an error: ``name: message``, else as much of the error's JSON as a
    first line needs (its opening bracket, and whether more follows)."""
    if error is None:
        return None
    if isinstance(error, dict) and isinstance(error.get("message"), str):
        name = error.get("name")
        return (
            f"{name}: {error['message']}"
            if isinstance(name, str) and name and name != "Error"
            else error["message"]
        )
    if isinstance(error, str):
        return error
    if isinstance(error, (dict, list)):
        return ("{" if isinstance(error, dict) else "[") + (
            "\n" if error else ("}" if isinstance(error, dict) else "]")
        )
    return scalar_text(error)


def flat_records(value: Any) -> list[dict[str, Any]] | None:
    """A list of objects whose values are all scalars (what a query or a DataFrame's records give):
    the result both renderers draw as a table (rich.ts ``flatRecords``)."""
    if not isinstance(value, list) or not value:
        return None
    scalar = (str, int, float, bool, type(None))
    if not all(isinstance(row, dict) and all(isinstance(v, scalar) for v in row.values()) for row in value):
        return None
    return value if any(value) else None


def table_rows(value: Any) -> int | None:
    """How many rows a tabular result holds: flat records, or a Python tool's bounded form of a
    larger table (``{records, total_rows}``, render/rich.py ``model_form``); None when not a table."""
    if isinstance(value, dict) and flat_records(value.get("records")) is not None:
        total = value.get("total_rows")
        if isinstance(total, int) and not isinstance(total, bool) and total >= 0:
            return total
    records = flat_records(value)
    return None if records is None else len(records)


# The result shapes of a file or an image (AI SDK, Mastra and MCP parts) both renderers draw as one.
PART_TYPES = frozenset({"image", "file", "media", "image-data", "file-data", "image-url", "file-url"})


def media_type_of(part: Mapping[str, Any]) -> str:
    """A part's media type, as the SDKs spell its key, lower case ("" when none)."""
    for key in ("mediaType", "mimeType", "media_type"):
        if isinstance(part.get(key), str):
            return str(part[key]).lower()
    return ""


def media_caption(value: Any) -> str | None:
    """An image or file result said by what it is (``image (image/png)``, ``file report.pdf``), not
    by its base64 text; None when the result is neither a part nor a ``data:`` URL."""
    if isinstance(value, str) and value.startswith("data:image/"):
        return f"image ({value[5:].split(';', 1)[0].split(',', 1)[0]})"
    if not isinstance(value, Mapping) or value.get("type") not in PART_TYPES:
        return None
    kind, media = str(value["type"]).split("-", 1)[0], media_type_of(value)
    name = value.get("filename") or value.get("name")
    if kind == "media":
        kind = "image" if media.startswith("image/") else "file"
    if isinstance(name, str) and name:
        return f"{kind} {summarize_text(name, 40)}"
    return f"{kind} ({media})" if media else kind


def rows_caption(value: Any) -> str | None:
    """A tabular result said by its size, ``57 rows`` (``1 row``); None when not a table."""
    rows = table_rows(value)
    return None if rows is None else f"{rows:,} row{'' if rows == 1 else 's'}"


def outcome_line(error: Any, value: Any) -> str:
    """A folded card's ``→ {temp: 21}`` or ``→ error: message`` ("" while nothing came out)."""
    message = _error_text(error)
    if message is not None:
        return f"→ error: {summarize_text(message)}"
    return "" if value is None else f"→ {summarize_value(value, 80)}"


def _result_outcome(error: Any, result: Any) -> str:
    """A tool's outcome: a table's is its row count (``→ 57 rows``), which fits a folded head where
    its records' summary (``→ [{…}, {…}, …``) says nothing; an image's or file's is what it is."""
    said = None if error is not None else rows_caption(result) or media_caption(result)
    return outcome_line(error, result) if said is None else f"→ {said}"


# What each duration is measured by: a card's and a bar's tooltip, and ``ToolCall.timing_source``.
TRACE_SOURCE = "by Mastra's trace: its span on the server"
ARRIVAL_SOURCE = "by its chunks' arrival in the notebook, network included (trace() reads the server's spans)"


def duration_ms(fields: Mapping[str, Any]) -> tuple[float, str] | None:
    """How long a tool call, step or reasoning took, in ms, and what says so: ``"trace"`` (the
    server's span, ``trace_start`` to ``trace_end``, once Mastra's trace is known) or ``"arrival"``
    (its chunks' arrival, without the time a person spent deciding)."""
    start, end = _num(fields.get("trace_start")), _num(fields.get("trace_end"))
    if start is not None and end is not None:
        return max(0.0, end - start), "trace"
    start, end = _num(fields.get("started_at")), _num(fields.get("ended_at"))
    if start is None or end is None:
        return None
    decision = fields.get("decision")
    waited = _num(decision.get("waited_ms")) if isinstance(decision, dict) else None
    return max(0.0, end - start - (waited or 0)), "arrival"


def duration(fields: Mapping[str, Any]) -> dict[str, Any]:
    """A card's duration (``1.3 s``), what it is measured by (``duration_source``) and its tooltip."""
    found = duration_ms(fields)
    if found is None:
        return {"duration": None, "duration_source": None, "duration_title": None}
    ms, source = found
    return {
        "duration": format_duration(ms),
        "duration_source": source,
        "duration_title": TRACE_SOURCE if source == "trace" else ARRIVAL_SOURCE,
    }


def waited(waited_ms: Any) -> str | None:
    """A decision's ``waited``: how long the person took."""
    ms = _num(waited_ms)
    return None if ms is None else format_duration(ms)


def _tool(fields: Mapping[str, Any], nested: bool) -> dict[str, Any]:
    status = fields.get("status") if isinstance(fields.get("status"), str) else "running"
    args, args_text = fields.get("args"), fields.get("args_text")
    if args is not None:
        args_summary: str | None = summarize_args(args)
    elif isinstance(args_text, str) and args_text and status != "streaming-args":
        args_summary = summarize_text(args_text, 48)
    else:
        args_summary = None  # the arguments still stream
    if status == "denied":
        reason = fields.get("denied_reason")
        declined = f"→ {status_word(status)}"
        outcome = f"{declined}: {summarize_text(reason)}" if isinstance(reason, str) and reason else declined
    else:
        result = fields.get("result")
        # a sub-agent's result is {text, subAgentThreadId, ...}: its text says what came out
        answer = result.get("text") if nested and isinstance(result, dict) else None
        outcome = (
            outcome_line(fields.get("error"), answer)
            if isinstance(answer, str)
            else _result_outcome(fields.get("error"), result)
        )
    return {"args_summary": args_summary, "outcome": outcome, **duration(fields)}


def _workflow_step(fields: Mapping[str, Any], nested: bool) -> dict[str, Any]:
    return {"outcome": outcome_line(fields.get("error"), fields.get("output")), **duration(fields)}


def _step(fields: Mapping[str, Any], nested: bool) -> dict[str, Any]:
    return duration(fields)


def _reasoning(fields: Mapping[str, Any], nested: bool) -> dict[str, Any]:
    return {"duration": duration(fields)["duration"]}


def _file(fields: Mapping[str, Any], nested: bool) -> dict[str, Any]:
    size = _num(fields.get("size"))
    return {"size_label": None if size is None else human_size(size)}


Labeller = Callable[[Mapping[str, Any], bool], dict[str, Any]]

# Each kind's labels, and the fields they are written from (a change to one writes them again).
LABELS: dict[str, tuple[frozenset[str], Labeller]] = {
    "tool": (
        frozenset(
            {
                "status",
                "args",
                "args_text",
                "denied_reason",
                "result",
                "error",
                "started_at",
                "ended_at",
                "decision",
                "trace_start",
                "trace_end",
            }
        ),
        _tool,
    ),
    "workflow-step": (frozenset({"output", "error", "started_at", "ended_at", "decision"}), _workflow_step),
    "step": (frozenset({"started_at", "ended_at", "trace_start", "trace_end"}), _step),
    "reasoning": (frozenset({"started_at", "ended_at"}), _reasoning),
    "file": (frozenset({"size"}), _file),
}


def captions_of(kind: str, fields: Mapping[str, Any], nested: bool = False) -> dict[str, Any]:
    """The captions of a node of ``kind`` with ``fields`` (``nested``: a run is nested under it)."""
    entry = LABELS.get(kind)
    return {} if entry is None else entry[1](fields, nested)


def inputs_of(kind: str) -> frozenset[str]:
    """The fields a node of ``kind`` has its captions written from."""
    entry = LABELS.get(kind)
    return frozenset() if entry is None else entry[0]


# ---- a step's request: the "Request" toggle's folded label --------------------------------------


def new_messages_from(request: ModelRequest, previous: ModelRequest | None) -> int:
    """Where this step's new messages begin in ``request.messages``: after the messages the step
    before it was given (tool calls and results since), else at the last user message (this turn's
    prompt); what comes before is history (earlier turns, memory), shown folded."""
    count = len(request.messages)
    if previous is not None and 0 < len(previous.messages) <= count:
        return len(previous.messages)
    users = [i for i, message in enumerate(request.messages) if message.role == "user"]
    return users[-1] if users else 0


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def request_summary(request: ModelRequest, history: int = 0) -> str:
    """The folded "Request" toggle's label: ``system · 6 messages (4 history) · 2 tools ·
    temperature 0.3`` (``history``: the messages before this step's new ones)."""
    bits = ["system"] if request.system else []
    messages = _plural(len(request.messages), "message")
    if request.provider is None and not request.messages:  # a body of no known shape: shown as sent
        bits.append("body as sent")
    else:
        bits.append(f"{messages} ({history} history)" if history > 0 else messages)
    if request.tools:
        bits.append(_plural(len(request.tools), "tool"))
    if request.settings.temperature is not None:
        bits.append(f"temperature {number_text(request.settings.temperature)}")
    if request.source == "trace":
        bits.append("from the trace")
    return truncate(" · ".join(bits), 80)
