"""Issue 33, item 2, against the bundled Mastra server stopped mid-experiment and started again (a
server of this test's own, on its own port): the queue pauses ("waiting for the server") instead of
failing every queued run, goes on once the server answers, and ``exp.retry()`` runs again the run the
stop cut off. The units (tests/test_budget.py) check the same on a fake transport, probe by probe."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlparse

import pytest

import mastra_notebook as mn

from ..helpers import wait_until
from .conftest import launcher

pytestmark = pytest.mark.server

INPUTS = ["Where is NASA based?", "Who founded IBM?", "Why is the sky blue?", "How tall is Everest?"]
SLOW = {"paced": {"instructions": "Answer in plain words. Pace 150 ms."}}  # a run streams a while


class Restartable:
    """The bundled server, stopped and started again on the same port."""

    def __init__(self) -> None:
        self.launch = launcher()
        self.process, self.url = self.launch.start_server(port=0, timeout=120)

    def stop(self) -> None:
        self.launch.stop_server(self.process)

    def start_again(self) -> None:
        self.process, _ = self.launch.start_server(port=urlparse(self.url).port, timeout=120)


@pytest.fixture
def server() -> Iterator[Restartable]:
    started = Restartable()
    try:
        yield started
    finally:
        started.stop()


def test_a_server_stopped_mid_experiment_pauses_the_queue_and_retry_completes_it(
    server: Restartable,
) -> None:
    client = mn.MastraClient(server.url, retries=1, backoff_ms=50)
    exp = client.agent("dynamic").experiment(INPUTS, SLOW, concurrency=1, view=False)
    wait_until(lambda: exp.cells[1].status == "running", "the second run streams", timeout=120)
    server.stop()
    wait_until(lambda: exp.batch.waiting, "the queue waits for the server", timeout=120)
    assert "waiting for the server" in repr(exp)
    assert [cell.status for cell in exp.cells[2:]] == ["queued", "queued"]  # none burnt through
    cut = exp.cells[1].outcome()
    assert cut.failure == "transport"

    server.start_again()
    exp.wait(300)  # the probe finds it answering: the queue goes on
    assert not exp.batch.waiting
    assert [cell.status for cell in exp.cells] == ["finished", cut.status, "finished", "finished"]
    exp.retry().wait(300)
    assert [cell.status for cell in exp.cells] == ["finished"] * 4
