"""Client tools and conversations in a real JupyterLab, against the bundled Mastra server: the tool
card says the tool ran in the notebook, and a displayed chat draws its prompts as user turns above
each answer's view. Screenshots in light and dark themes."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e import helpers as e2e

pytestmark = pytest.mark.e2e

TOOL = '''def lookup(city: str) -> dict:
    """The temperature in a city."""
    return {"city": city, "temperature": 18}'''


def test_a_client_tool_card_and_a_displayed_chat(client_notebook: e2e.ClientNotebook) -> None:
    page = client_notebook.open(
        "client-tools",
        'v = client.agent("toolUser").stream(\'call lookup with {"city": "Paris"}\', tools=[lookup])\nv',
        'chat = client.agent("memoryChat").chat(resource="e2e")\n'
        'chat.send(\'call lookup with {"city": "Oslo"}\', tools=[lookup]).wait(30)\n'
        'chat.send("<b>and</b> what did I ask?").wait(30)\n'
        "chat",
        setup=TOOL,
        run=(0, 1),
    )
    root = e2e.view_root(page, 1)
    assert e2e.wait_status(root, "finished", "error", "aborted", "incomplete") == "finished"
    card = e2e.tool_card(root, "lookup")
    expect(card).to_have_attribute("data-tool-status", "done")
    expect(card.locator(".mn-origin")).to_have_text("ran in the notebook")
    expect(root.locator(".mn-run-root > .mn-parts > .mn-text").last).to_contain_text(
        'lookup returned {"city":"Paris","temperature":18}'
    )
    card.locator(".mn-card-head").first.click()  # open: arguments and result under the head
    expect(card.locator(".mn-result pre")).to_contain_text('"temperature": 18')

    e2e.run_cells(page, 2)
    conversation = e2e.cell(page, 2).locator(".mn-conversation")
    expect(conversation.locator(".mn-root")).to_have_count(2, timeout=60_000)
    for answer in range(2):
        assert e2e.wait_status(e2e.view_root(page, 2, answer), "finished", "error", "aborted") == "finished"
    expect(e2e.cell(page, 2).locator(".mastra-notebook-transcript").first).to_be_hidden()  # the widget draws
    turns = conversation.locator(".mn-user-turn")
    expect(turns).to_have_count(2)
    expect(turns.nth(1)).to_have_text("<b>and</b> what did I ask?")  # a prompt is text, never markup
    expect(turns.nth(1).locator("b")).to_have_count(0)
    second = e2e.view_root(page, 2, 1)
    expect(second.locator(".mn-run-root > .mn-parts > .mn-text").last).to_contain_text(
        re.compile(r'Turn 2: you said "<b>and</b> what did I ask\?"\. Before that you said: "call lookup')
    )
    # each user turn sits above its answer
    first_turn, first_answer = turns.nth(0).bounding_box(), e2e.view_root(page, 2, 0).bounding_box()
    assert first_turn is not None
    assert first_answer is not None
    assert first_turn["y"] + first_turn["height"] <= first_answer["y"] + 1

    for theme in e2e.shot_themes():
        e2e.set_theme(page, theme)
        e2e.screenshot(card, f"client-tool-card-{theme}")
        e2e.screenshot(conversation, f"chat-{theme}")
    e2e.set_theme(page, "light")


def test_approving_a_client_tool_in_the_view_runs_it_in_the_kernel(
    client_notebook: e2e.ClientNotebook,
) -> None:
    page = client_notebook.open(
        "client-tool-approval",
        "v = client.agent('toolUser').stream('call lookup with {\"city\": \"Rome\"}',\n"
        "    tools=[mn.tool(lookup, require_approval=True)])\nv",
        setup=TOOL,
        run=(0, 1),
    )
    root = e2e.view_root(page, 1)
    assert e2e.wait_status(root, "suspended", "finished", "error") == "suspended"
    card = e2e.tool_card(root, "lookup")
    expect(card).to_have_attribute("data-tool-status", "awaiting-approval")
    for theme in e2e.shot_themes():
        e2e.set_theme(page, theme)
        e2e.screenshot(card, f"client-tool-approval-{theme}")
    e2e.set_theme(page, "light")
    card.locator("button.mn-approve").click()
    expect(card).to_have_attribute("data-tool-status", "done", timeout=30_000)
    assert e2e.wait_status(root, "finished", "error", "aborted") == "finished"
    expect(card.locator(".mn-origin")).to_have_text("ran in the notebook")
    expect(root.locator(".mn-run-root > .mn-parts > .mn-text").last).to_contain_text(
        'lookup returned {"city":"Rome","temperature":18}'
    )
