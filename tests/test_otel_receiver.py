"""A real OTLP receiver: MLflow (or Phoenix), installed from PyPI into a venv of its own and started as
a server, is sent a run (its steps, a tool call, a Python score and a person's label) and read back
over its REST API: the span names, parents, attributes and evaluation events; the spans it gives back
(both give OTLP spans, with proto field names), read by ``mn.view``, are the run again.

A receiver is heavy (MLflow about 90 packages, Phoenix about 150), so it lives in ``.venv-otel/``,
installed by scripts/test.sh's background job, which runs this file with ``MN_OTEL_VENV=.venv-otel``;
without it this test is skipped. ``MN_OTEL_RECEIVER=phoenix`` (arize-phoenix in that venv) tries the
other receiver: ``MN_OTEL_VENV=... MN_OTEL_RECEIVER=phoenix pytest tests/test_otel_receiver.py``.
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
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
RECEIVER = os.environ.get("MN_OTEL_RECEIVER", "mlflow")
pytestmark = pytest.mark.skipif(
    not VENV,
    reason="a real receiver (MLflow) runs in scripts/test.sh's background job, which installs it into "
    ".venv-otel/ and sets MN_OTEL_VENV",
)
STARTUP = 240.0  # seconds a receiver may take to answer (its imports and database, on a busy machine)
MASTRA_TRACE, MASTRA_ROOT = "5e" * 16, "a1" * 8  # a trace a Mastra server would have started


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass(frozen=True)
class Receiver:
    """A receiver that runs: where to send spans (and with which headers), and how to read a trace's
    spans back as OTLP spans."""

    url: str
    name: str

    @property
    def headers(self) -> dict[str, str]:
        return {"x-mlflow-experiment-id": "0"} if self.name == "mlflow" else {}

    def spans(self, trace_id: str) -> list[dict[str, Any]]:
        """The trace's spans as the receiver gives them back (OTLP, proto field names)."""
        if self.name == "mlflow":
            answer = httpx.get(f"{self.url}/api/3.0/mlflow/traces/get", params={"trace_id": f"tr-{trace_id}"})
            return list(answer.json().get("trace", {}).get("spans", [])) if answer.status_code == 200 else []
        answer = httpx.get(f"{self.url}/v1/projects/default/spans/otlpv1", params={"trace_id": trace_id})
        answer.raise_for_status()
        return list(answer.json()["data"])


def command(name: str, port: int, folder: Path) -> tuple[list[str], dict[str, str]]:
    assert VENV is not None
    bin_dir = Path(VENV).resolve() / "bin"
    if name == "mlflow":
        store = f"sqlite:///{folder / 'mlflow.db'}"
        return [str(bin_dir / "mlflow"), "server", "--host", "127.0.0.1", "--port", str(port),
                "--backend-store-uri", store, "--workers", "1"], {"MLFLOW_DISABLE_TELEMETRY": "true"}  # fmt: skip
    env = {"PHOENIX_WORKING_DIR": str(folder), "PHOENIX_HOST": "127.0.0.1", "PHOENIX_PORT": str(port),
           "PHOENIX_GRPC_PORT": str(free_port()), "PHOENIX_TELEMETRY_ENABLED": "false"}  # fmt: skip
    return [str(bin_dir / "phoenix"), "serve"], env


@pytest.fixture(scope="module")
def receiver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Receiver]:
    """A receiver server of its own (a fresh database, a free port)."""
    port = free_port()
    folder = tmp_path_factory.mktemp(RECEIVER)
    argv, env = command(RECEIVER, port, folder)
    log_path = folder / "server.log"
    log = log_path.open("wb")
    server = subprocess.Popen(argv, env={**os.environ, **env}, cwd=folder, stdout=log, stderr=log)
    url = f"http://127.0.0.1:{port}"
    health = f"{url}/health" if RECEIVER == "mlflow" else f"{url}/v1/projects"
    try:
        deadline = time.monotonic() + STARTUP
        while True:  # a condition wait: until it answers, or it died, or the time is up
            assert server.poll() is None, log_path.read_text()[-3000:]
            try:
                if httpx.get(health, timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, log_path.read_text()[-3000:]
            time.sleep(0.5)
        yield Receiver(url, RECEIVER)
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def stored(receiver: Receiver, trace_id: str, count: int) -> list[dict[str, Any]]:
    """The trace's spans, once the receiver stored ``count`` of them (it may ingest in the background)."""
    deadline = time.monotonic() + 60
    while True:
        found = receiver.spans(trace_id)
        if len(found) >= count or time.monotonic() > deadline:
            return found
        time.sleep(0.25)


def test_the_receiver_stores_the_spans_and_gives_back_the_run(
    receiver: Receiver, tmp_path: Path, recording_comm: RecordingComm
) -> None:
    from mastra_notebook.otel import OtelRun, export_otel

    run = timed_run(tmp_path).model_copy(update={"trace_id": MASTRA_TRACE})
    # the base URL: /v1/traces is added
    # MLflow's first request imports its tracing: a minute on a busy machine
    exported = export_otel(
        OtelRun(run, parent_span_id=MASTRA_ROOT), receiver.url, headers=receiver.headers, timeout=120
    )
    assert exported.trace_ids == (MASTRA_TRACE,)  # the run joins Mastra's trace
    given_back = {
        "resourceSpans": [{"scopeSpans": [{"spans": stored(receiver, MASTRA_TRACE, exported.spans)}]}]
    }
    spans = otlp.spans_of([given_back])
    assert {s.trace_id for s in spans} == {MASTRA_TRACE}
    by_name: dict[str, list[otlp.SpanIn]] = {}
    for span in spans:
        by_name.setdefault(span.name, []).append(span)
    assert sorted(by_name) == ["chat mock-weather", "execute_tool getWeather", "invoke_agent weather"]
    (root,) = by_name["invoke_agent weather"]
    assert root.parent_id == MASTRA_ROOT  # under the server's root span
    children = [s for s in spans if s.parent_id == root.span_id]
    assert sorted(s.name for s in children) == ["chat mock-weather"] * 2 + ["execute_tool getWeather"]
    (tool,) = by_name["execute_tool getWeather"]
    assert tool.attributes[otlp.TOOL_NAME] == "getWeather"
    assert tool.attributes[otlp.TOOL_CALL_ID] == "call_weather_1"
    result = tool.attributes[otlp.TOOL_RESULT]  # JSON text; MLflow gives it back as a structured value
    assert (orjson.loads(result) if isinstance(result, str) else result)["temperatureC"] == 18
    chats = by_name["chat mock-weather"]
    assert [c.attributes["gen_ai.usage.input_tokens"] for c in chats] == [19, 60]
    assert [c.attributes[otlp.FINISH_REASONS] for c in chats] == [["tool-calls"], ["stop"]]

    def us(ns: int) -> int:  # Phoenix keeps a time to the microsecond, through a float
        return round(ns / 1000)

    assert (us(root.start_ns), us(root.end_ns)) == (
        us(otlp.ns(run.started_at, 0)),
        us(otlp.ns(run.finished_at, 0)),
    )
    evaluations = {a[otlp.EVALUATION_NAME]: a for name, _, a in root.events if name == otlp.EVALUATION}
    assert evaluations["exact"][otlp.EVALUATION_VALUE] == 1.0  # the Python score
    assert evaluations["exact"][otlp.EVALUATION_LABEL] == "pass"
    assert evaluations["label"][otlp.EVALUATION_LABEL] == "up"  # the person's label
    assert evaluations["label"][otlp.EVALUATION_EXPLANATION] == "good answer"

    # the spans as the receiver gives them back, read by mn.view: the run again
    (tmp_path / "given-back.json").write_bytes(orjson.dumps(given_back))
    assert carried(mn.view(tmp_path / "given-back.json").wait(timeout=60)) == carried(run)
    (tmp_path / "exported.json").write_bytes(orjson.dumps(exported.document))  # the export itself, as a file
    assert carried(mn.view(tmp_path / "exported.json").wait(timeout=60)) == carried(run)
