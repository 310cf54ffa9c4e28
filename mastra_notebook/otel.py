"""Runs sent where the team looks: OpenTelemetry GenAI spans over OTLP/HTTP, through the OpenTelemetry
SDK (``pip install 'mastra-notebook[otel]'``), to Phoenix, MLflow, Langfuse or any OTLP receiver, or
written as an OTLP/JSON file that ``mn.view(path)`` reads back.

``view.export_otel(endpoint)``, ``exp.export_otel(endpoint)`` and ``mn.export_otel(runs, endpoint)``
come here. The spans are core/otlp.py's (``invoke_agent``, ``chat``, ``execute_tool``, nested runs;
scores, labels and pairwise verdicts as ``gen_ai.evaluation.result`` events), timed by the runs' own
times. A run whose Mastra trace id is known (``result.trace_id``) joins that trace, under the server's
root span when that is known too (``view.trace()`` read it), rather than starting a trace of its own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .core import otlp
from .core.files import write_atomically
from .core.result import RunResult
from .core.values import dump, hidden

__all__ = ["Exported", "OtelRun", "export_otel"]

EXTRA = "otel"  # pyproject's optional dependencies that this module needs
_HEX_TRACE = re.compile(r"^[0-9a-f]{32}$")
_HEX_SPAN = re.compile(r"^[0-9a-f]{16}$")


@dataclass(slots=True)
class OtelRun:
    """One run to export: its result, what its span says besides (an experiment's input, variant and
    repeat), more evaluation events (pairwise verdicts), and Mastra's root span id of its trace, when
    known."""

    result: RunResult
    attributes: dict[str, otlp.Attribute] = field(default_factory=dict)
    events: list[otlp.EventOut] = field(default_factory=list)
    parent_span_id: str | None = None


@dataclass(frozen=True, slots=True)
class Exported:
    """What an export sent: where, how many runs and spans, each run's trace id (hex), and the spans
    as one OTLP/JSON document (``mn.view`` reads it, saved to a file)."""

    endpoint: str
    runs: int
    spans: int
    trace_ids: tuple[str, ...]
    document: dict[str, Any] = field(repr=False)

    def __repr__(self) -> str:
        return f"Exported({self.runs} runs, {self.spans} spans to {self.endpoint})"


def _sdk() -> Any:
    try:
        from opentelemetry.exporter.otlp.proto.http import trace_exporter  # noqa: F401
        from opentelemetry.sdk import trace  # noqa: F401
    except ImportError as error:
        raise ImportError(
            f"export_otel needs the OpenTelemetry SDK: pip install 'mastra-notebook[{EXTRA}]' "
            f"(opentelemetry-sdk and opentelemetry-exporter-otlp-proto-http); {error}"
        ) from None


def runs_of(source: Any) -> list[OtelRun]:
    """The runs of ``source``: an experiment (its ``otel_runs()``), a view or stream (its
    ``otel_run()``), a RunResult, or an iterable of them."""
    if isinstance(source, OtelRun):
        return [source]
    if isinstance(source, RunResult):
        return [OtelRun(source)]
    for method in ("otel_runs", "otel_run"):
        given = getattr(source, method, None)
        if callable(given):
            found = given()
            return list(found) if isinstance(found, list) else [found]
    if isinstance(source, Iterable) and not isinstance(source, (str, bytes, Mapping)):
        return [run for item in source for run in runs_of(item)]
    raise TypeError(f"export_otel takes runs (RunResults, views, an experiment), not {type(source).__name__}")


def secrets_of(headers: Mapping[str, str]) -> list[str]:
    """The header values worth hiding (as the transport's: 6 characters or more), longest first."""
    return sorted({value for value in headers.values() if len(value) >= 6}, key=len, reverse=True)


def redactor(redact: Callable[[str], str] | None, headers: Mapping[str, str]) -> Callable[[str], str]:
    """``redact`` (a client transport's), and the export's own header values hidden as well."""
    secrets = secrets_of(headers)

    def hide(text: str) -> str:
        return hidden(redact(text) if redact is not None else text, secrets)

    return hide


def export_otel(
    runs: Any,
    endpoint: str | Path,
    *,
    headers: Mapping[str, str] | None = None,
    redact: Callable[[str], str] | None = None,
    service_name: str = "mastra-notebook",
    timeout: float = 30.0,
) -> Exported:
    """Send ``runs`` (RunResults, views, an experiment, or a list of them) as OpenTelemetry GenAI spans
    to ``endpoint``: an OTLP/HTTP traces URL (``http://localhost:6006/v1/traces``; a URL without a
    path gets ``/v1/traces``), or a file path, written as OTLP/JSON. ``headers``: the receiver's
    (an API key), hidden from what is sent as every secret ``redact`` hides is. Raises when the
    receiver refused the spans or could not be reached (``timeout``: seconds for each request, its
    retries included)."""
    _sdk()
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import ReadableSpan, SpanProcessor, TracerProvider
    from opentelemetry.sdk.trace.id_generator import RandomIdGenerator

    given = runs_of(runs)
    hide = redactor(redact, headers or {})

    class Ids(RandomIdGenerator):
        """The trace id of the run being exported: Mastra's, when known."""

        trace_id: int | None = None

        def generate_trace_id(self) -> int:
            return self.trace_id if self.trace_id is not None else super().generate_trace_id()

    class Kept(SpanProcessor):
        """Every ended span, sent in one request at the end."""

        def __init__(self) -> None:
            self.spans: list[ReadableSpan] = []

        def on_end(self, span: ReadableSpan) -> None:
            self.spans.append(span)

    ids, kept = Ids(), Kept()
    provider = TracerProvider(resource=Resource.create({"service.name": service_name}), id_generator=ids)
    provider.add_span_processor(kept)
    tracer = provider.get_tracer("mastra_notebook")
    trace_ids: list[str] = []
    for run in given:
        root = otlp.run_spans(run.result, attributes=run.attributes, events=run.events, redact=hide)
        trace_ids.append(_emit(tracer, ids, root, run))
    provider.shutdown()
    target = str(endpoint)
    document = otlp_json(kept.spans)
    if re.match(r"^https?://", target):
        _send(kept.spans, _traces_url(target), dict(headers or {}), timeout)
    else:
        write_atomically(Path(target), dump(document).encode())
    return Exported(target, len(given), len(kept.spans), tuple(trace_ids), document)


def _emit(tracer: Any, ids: Any, root: otlp.SpanOut, run: OtelRun) -> str:
    """Start and end ``root``'s spans with their own times; the run's trace id (hex)."""
    from opentelemetry import trace
    from opentelemetry.trace import NonRecordingSpan, SpanContext, SpanKind, Status, StatusCode, TraceFlags

    known = (run.result.trace_id or "").lower()
    ids.trace_id = int(known, 16) if _HEX_TRACE.match(known) and int(known, 16) else None
    context = None
    parent = (run.parent_span_id or "").lower()
    if ids.trace_id is not None and _HEX_SPAN.match(parent) and int(parent, 16):
        remote = SpanContext(ids.trace_id, int(parent, 16), is_remote=True, trace_flags=TraceFlags(1))
        context = trace.set_span_in_context(NonRecordingSpan(remote))
    kinds = {otlp.CHAT: SpanKind.CLIENT}

    def emit(span: otlp.SpanOut, context: Any) -> Any:
        kind = kinds.get(str(span.attributes.get(otlp.OPERATION)), SpanKind.INTERNAL)
        started = tracer.start_span(
            span.name, context=context, kind=kind, attributes=span.attributes, start_time=span.start_ns
        )
        for event in span.events:
            started.add_event(event.name, event.attributes, timestamp=event.at_ns)
        if span.error is not None:
            started.set_status(Status(StatusCode.ERROR, span.error))
        inner = trace.set_span_in_context(started)
        for child in span.children:
            emit(child, inner)
        started.end(end_time=span.end_ns)
        return started

    made = emit(root, context)
    ids.trace_id = None
    return f"{made.get_span_context().trace_id:032x}"


def _traces_url(endpoint: str) -> str:
    """An OTLP/HTTP traces URL: ``endpoint`` as given, or with ``/v1/traces`` when it has no path."""
    scheme, _, rest = endpoint.partition("://")
    return endpoint if "/" in rest.rstrip("/") else f"{scheme}://{rest.rstrip('/')}/v1/traces"


class ExportFailed(RuntimeError):
    """The receiver refused the spans, or could not be reached."""


def _send(spans: Sequence[Any], url: str, headers: dict[str, str], timeout: float) -> None:
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.trace.export import SpanExportResult

    exporter = OTLPSpanExporter(endpoint=url, headers=headers, timeout=timeout)
    try:
        for start in range(0, len(spans), 512):  # one request per 512 spans
            if exporter.export(spans[start : start + 512]) is not SpanExportResult.SUCCESS:
                shown = hidden(url, secrets_of(headers))
                raise ExportFailed(
                    f"the OTLP receiver at {shown} did not take the spans (is it running, and is this "
                    "its traces URL, such as http://localhost:6006/v1/traces?)"
                )
    finally:
        exporter.shutdown()


def otlp_json(spans: Sequence[Any]) -> dict[str, Any]:
    """SDK spans as one OTLP/JSON document (ids in hex, as OTLP/JSON has them)."""
    from google.protobuf.json_format import MessageToDict
    from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans

    document: dict[str, Any] = MessageToDict(encode_spans(spans), use_integers_for_enums=True)
    for resource in document.get("resourceSpans", []):
        for scope in resource.get("scopeSpans", []):
            for span in scope.get("spans", []):
                for key in ("traceId", "spanId", "parentSpanId"):
                    if span.get(key):
                        span[key] = otlp.hex_id(span[key])
    return document
