"""A chat's memory, turn by turn, in a real JupyterLab against the bundled server: under each answer
of the ``workingMemory`` agent, the messages recalled (folded) and the working memory's diff.
The ``observer`` agent's observational-memory markers say what they are. Screenshots of a turn with
its memory, and of an observation, in light and dark themes."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e


def test_a_chat_turn_shows_what_it_recalled_and_how_working_memory_changed(
    client_notebook: e2e.ClientNotebook,
) -> None:
    page = client_notebook.open(
        "chat-memory",
        'chat = client.agent("workingMemory").chat(resource=f"e2e-{uuid.uuid4().hex[:8]}")\n'
        'for prompt in ("Hi, my name is Ada.", "I live in Lyon. I like <b>jazz</b>.", "What do you know about me?"):\n'
        "    chat.send(prompt).wait(30)\n"
        "chat",
        'observed = client.agent("observer").chat(resource=f"e2e-{uuid.uuid4().hex[:8]}")\n'
        'observed.send("Hello, I am planning a long trip to Japan next spring with my family of four.").wait(30)\n'
        'observed.send("We want to see Kyoto, Osaka and Tokyo, and we like temples and food markets.").wait(30)\n'
        "observed",
        setup="import uuid",
        run=(0, 1),
    )
    conversation = e2e.cell(page, 1).locator(".mn-conversation")
    expect(conversation.locator(".mn-root")).to_have_count(3, timeout=60_000)
    memories = conversation.locator(".mn-turn-memory")
    expect(memories).to_have_count(3, timeout=60_000)
    first, second, third = (memories.nth(i) for i in range(3))
    expect(first.locator("summary")).to_have_text(["Saved 4 messages", "Working memory: +4 -0 lines"])
    expect(second.locator("summary")).to_have_text(
        ["Recalled 2 messages", "Saved 4 messages", "Working memory: +2 -2 lines"]
    )
    expect(third.locator("summary")).to_have_text(
        ["Recalled 4 messages", "Saved 2 messages", "Working memory: unchanged"]
    )
    added = second.locator('[data-mark="added"]')
    expect(added).to_have_text(["+- Location: Lyon", "+- Likes: <b>jazz</b>"])  # text, not markup
    expect(second.locator("b")).to_have_count(0)
    expect(second.locator(".mn-memory-recalled li").first).to_be_hidden()  # folded until opened
    second.locator(".mn-memory-recalled summary").click()
    expect(second.locator(".mn-memory-recalled li")).to_have_count(2)
    expect(second.locator(".mn-memory-recalled li").first).to_contain_text("userHi, my name is Ada.")
    # the memory sits under its answer, above the next prompt
    answer, memory = e2e.view_root(page, 1, 1).bounding_box(), second.bounding_box()
    assert answer is not None
    assert memory is not None
    assert answer["y"] + answer["height"] <= memory["y"] + 1

    # observational memory's markers, each said as what it is
    e2e.run_cells(page, 2)
    observed = e2e.cell(page, 2).locator(".mn-conversation")
    assert e2e.wait_status(e2e.view_root(page, 2, 1), "finished", "error", "aborted") == "finished"
    markers = observed.locator(".mn-root").nth(1).locator(".mn-data")  # the second turn observes the first
    expect(markers.locator(".mn-kind-label").first).to_have_text("Observational memory")
    expect(markers.locator(".mn-name")).to_have_text(
        [
            re.compile(r"^observing \d+ tokens$"),
            re.compile(r"^observed \d+ tokens into \d+ in \d+ ms$"),
            re.compile(r"^status: messages \d+ of 60 tokens before observing$"),
        ]
    )

    turn = page.locator(".mn-conversation .mn-user-turn").nth(1)
    for theme in e2e.shot_themes():
        e2e.set_theme(page, theme)
        turn.evaluate("el => el.scrollIntoView({block: 'start'})")  # the turn and its memory in view
        e2e.painted(page)
        top, bottom = turn.bounding_box(), second.bounding_box()
        assert top is not None
        assert bottom is not None
        clip = {
            "x": bottom["x"] - 8,
            "y": top["y"] - 8,
            "width": bottom["width"] + 16,
            "height": bottom["y"] + bottom["height"] - top["y"] + 16,
        }
        e2e.shoot(page, f"chat-memory-{theme}", clip=clip)
        e2e.screenshot(markers.nth(1), f"chat-memory-observed-{theme}")
    e2e.set_theme(page, "light")
