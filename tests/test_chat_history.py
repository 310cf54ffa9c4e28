"""``chat.history[i].memory`` (issue 19, item 5): each turn's RunResult carries what memory did in it,
and stays the turn's RunResult: equal to ``view.result``, drawn and written as a RunResult is."""

from __future__ import annotations

import mastra_notebook as mn
from mastra_notebook.client.chat import TurnResult
from mastra_notebook.core.turn_memory import RecalledMessage, TurnMemory

CHUNKS = [
    {"type": "start", "runId": "r1", "payload": {}},
    {"type": "text-delta", "payload": {"id": "1", "text": "Hello Ada."}},
    {"type": "finish", "payload": {"stepResult": {"reason": "stop"}}},
]
MEMORY = TurnMemory(
    recalled=[RecalledMessage(role="user", text="Hi, my name is Ada.")],
    working_before=None,
    working_after="# User\n- Name: Ada",
)


def test_a_turn_s_result_is_its_run_s_result_with_its_memory() -> None:
    result = mn.collect(CHUNKS)
    turn = TurnResult.of(result, MEMORY)
    assert isinstance(turn, mn.RunResult)
    assert turn.memory == MEMORY
    assert (turn.text, turn.status, turn.run_id) == ("Hello Ada.", "finished", "r1")
    assert turn == result
    assert result == turn
    assert [turn] == [result]
    assert turn != TurnResult.of(mn.collect(CHUNKS[:2]), MEMORY)  # another run: not equal
    assert turn.model_dump() == result.model_dump()  # the memory is the chat's, not in the run's JSON
    assert turn._repr_html_() == result._repr_html_()  # drawn from the same view
    assert TurnResult.of(result, None).memory is None  # a turn still running
