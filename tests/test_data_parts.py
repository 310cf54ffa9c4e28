"""Mastra's named data parts in the static transcript (js/src/render/data.ts, run in the kernel; the
widget's half is js/test/data-parts.test.ts): each says what it is, the sandbox's output is a
terminal-like block, and every untrusted string is inert."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest

from mastra_notebook.render.transcript import render_ops

HOSTILE = '<img src=x onerror="alert(1)"><script>alert(1)</script>\u202eevil'


class _Tags(HTMLParser):
    """The tags of a fragment and its text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text += data


def _drawn(type_: str, data: Any) -> _Tags:
    """The data part's card, as the transcript draws it."""
    html = render_ops(
        [
            ["add", None, {"id": "root", "kind": "run", "status": "finished"}],
            ["add", "root", {"id": "d", "kind": "data", "type": type_, "data": data}],
        ]
    )
    card = html[html.index('data-node-id="d"') - 50 :]
    tags = _Tags()
    tags.feed(card[card.index("<") :])
    return tags


@pytest.mark.parametrize(
    ("type_", "data", "kind", "name"),
    [
        ("data-sandbox-stdout", {"output": "ok\n", "toolCallId": "c"}, "Sandbox", "stdout"),
        ("data-sandbox-stderr", {"output": "bad\n"}, "Sandbox", "stderr"),
        (
            "data-sandbox-exit",
            {"exitCode": 0, "success": True, "executionTimeMs": 12.4},
            "Sandbox",
            "exited in 12 ms",
        ),
        (
            "data-signal",
            {"id": "tasks", "type": "state", "tagName": "current-task-list"},
            "Signal",
            "state current-task-list",
        ),
        ("data-tripwire", {"reason": "no", "processorId": "guard"}, "Tripwire", "blocked by guard: no"),
        ("data-tripwire", {"tripwireReason": "old shape"}, "Tripwire", "blocked: old shape"),
        ("data-structured-output", {"object": {"a": 1}}, "Structured output", "the final object"),
        (
            "data-token-limit-reached",
            {"limit": 50, "tokens": 53},
            "Token limit",
            "output withheld past 50 tokens (53 counted)",
        ),
        (
            "data-om-observation-start",
            {"tokensToObserve": 116},
            "Observational memory",
            "observing 116 tokens",
        ),
    ],
)
def test_each_part_says_what_it_is(type_: str, data: Any, kind: str, name: str) -> None:
    text = _drawn(type_, data).text
    assert kind in text
    assert name in text


def test_a_part_of_the_users_own_stays_generic_json() -> None:
    text = _drawn("data-progress", {"pct": 10}).text
    assert "Data" in text
    assert "data-progress" in text
    assert '"pct"' in text


def _pre(tags: _Tags) -> dict[str, str | None]:
    return next(attrs for tag, attrs in tags.tags if tag == "pre")


def test_the_sandbox_draws_a_terminal_stderr_tinted_and_an_exit_badge() -> None:
    out = _drawn("data-sandbox-stdout", {"output": "line 1\nline 2\n"})
    err = _drawn("data-sandbox-stderr", {"output": "oops\n"})
    assert "monospace" in (_pre(out).get("style") or "")
    assert "line 1\nline 2\n" in out.text
    assert "229,83,75" in (_pre(err).get("style") or "")
    assert "229,83,75" not in (_pre(out).get("style") or "")
    failed = _drawn("data-sandbox-exit", {"exitCode": 2, "success": False})
    assert "exit 2" in failed.text
    badge = next(attrs for tag, attrs in failed.tags if "mn-badge" in (attrs.get("class") or ""))
    assert "mn-tone-error" in (badge.get("class") or "")


@pytest.mark.parametrize(
    ("type_", "data"),
    [
        ("data-sandbox-stdout", {"output": HOSTILE}),
        ("data-sandbox-stderr", {"output": HOSTILE}),
        ("data-signal", {"type": HOSTILE, "tagName": HOSTILE}),
        ("data-tripwire", {"reason": HOSTILE, "processorId": HOSTILE}),
        ("data-structured-output", {"object": {"x": HOSTILE}}),
        ("data-token-limit-reached", {"limit": HOSTILE, "processorId": HOSTILE}),
        ("data-sandbox-exit", {"exitCode": HOSTILE}),
    ],
)
def test_hostile_strings_stay_inert(type_: str, data: Any) -> None:
    tags = _drawn(type_, data)
    assert not any(t in {"img", "script"} for t, _ in tags.tags)
    assert not any(k.startswith("on") for _, attrs in tags.tags for k in attrs)
    if type_ not in {"data-sandbox-exit", "data-token-limit-reached"}:
        assert "<script>" in tags.text  # said as text
