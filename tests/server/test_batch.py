"""A batch of prompts at bounded concurrency against the real server, into a live gallery."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import mastra_notebook as mn

from ..conftest import RecordingComm

pytestmark = pytest.mark.server
CITIES = ["Paris", "Berlin", "Tokyo", "Lisbon", "Madrid", "Rome", "Oslo", "Vienna", "Prague", "Dublin"]


def test_twenty_prompts_at_concurrency_four(client: mn.MastraClient, recording_comm: RecordingComm) -> None:
    prompts = [f"What is the weather in {CITIES[i % 10]}?" for i in range(20)]

    async def scenario() -> tuple[Any, int]:
        batch = client.agent("weather").stream_many(prompts, concurrency=4)
        most = 0
        while not all(tile.job.ended for tile in batch.tiles):
            running = sum(tile.result.chunk_count > 0 and not tile.job.ended for tile in batch.tiles)
            most = max(most, running)
            await asyncio.sleep(0.005)
        await batch
        return batch, most

    batch, most_at_once = asyncio.run(scenario())
    results = batch.results
    assert [r.status for r in results] == ["finished"] * 20
    for prompt, result in zip(prompts, results, strict=True):
        city = prompt.removeprefix("What is the weather in ").removesuffix("?")
        assert result.tool_calls[0].args == {"city": city}
    assert most_at_once <= 4
    assert batch.counts() == {"queued": 0, "running": 0, "done": 20, "stopped": 0, "error": 0}
    assert batch.summary().startswith("20 done · ")
    assert [tile.title for tile in batch.tiles] == prompts  # each tile titled by its prompt
    assert not any(tile.job.queued for tile in batch.tiles)
    frame = mn.to_dataframe(batch)
    assert list(frame["prompt"]) == prompts
    assert (frame["tool_call_count"] == 1).all()
