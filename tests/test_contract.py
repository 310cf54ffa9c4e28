"""The widget's contract with the browser (mastra_notebook/widget/contract.py) is the one the views
keep: their synced traits are the declared ones, and the browser's messages are read through the
declared union (a known kind of the wrong shape is refused, an unknown kind ignored)."""

from __future__ import annotations

from typing import Any

import anywidget
import pytest

from mastra_notebook.widget import contract
from mastra_notebook.widget.replay import ReplayView
from mastra_notebook.widget.streamview import StreamView

ANYWIDGET_OWN = {"_esm", "_css", "_anywidget_id"}


def _synced(widget: type[Any]) -> set[str]:
    base = set(anywidget.AnyWidget.class_traits(sync=True)) | ANYWIDGET_OWN
    return set(widget.class_traits(sync=True)) - base


@pytest.mark.parametrize(
    ("widget", "traits"), [(StreamView, contract.ViewTraits), (ReplayView, contract.ReplayTraits)]
)
def test_the_views_sync_the_declared_traits(widget: type[Any], traits: type[contract.ViewTraits]) -> None:
    assert _synced(widget) == set(contract.trait_names(traits))


def test_the_traits_defaults_are_the_declared_ones() -> None:
    for name, trait in StreamView.class_traits(sync=True).items():
        if name in contract.trait_names(contract.ViewTraits):
            declared = contract.synced(contract.ViewTraits, name)
            assert (type(trait), trait.default_value) == (type(declared), declared.default_value), name


def test_every_browser_kind_is_declared_once() -> None:
    kinds = [model.model_fields["t"].annotation.__args__[0] for model in contract.BROWSER_MODELS]
    assert len(kinds) == len(set(kinds)) == 14


@pytest.mark.parametrize(
    "content",
    [
        {"t": "hello"},
        {"t": "resync", "seq": 3},
        {"t": "approve", "tool_call_id": "c1"},
        {"t": "decline", "tool_call_id": "c1", "reason": None},
        {"t": "label", "thumbs": "up", "score": 3, "comment": None},
        {"t": "seek", "position": 4},
        {"t": "chunk-json", "i": 0},
        {"t": "request", "id": "n1"},
        {"t": "inspect", "open": True},
    ],
)
def test_what_the_browser_sends_is_read(content: dict[str, Any]) -> None:
    msg = contract.browser_message(content)
    assert msg is not None
    assert msg.model_dump().items() >= content.items()


@pytest.mark.parametrize("content", [None, "hello", [], {"t": "unheard-of"}, {"no": "kind"}])
def test_what_is_no_message_is_ignored(content: Any) -> None:
    assert contract.browser_message(content) is None


@pytest.mark.parametrize(
    ("content", "wrong"),
    [
        ({"t": "seek", "position": "3"}, "position"),
        ({"t": "seek", "position": True}, "position"),
        ({"t": "chunk-json", "i": 1.5}, "i"),
        ({"t": "approve"}, "tool_call_id"),
        ({"t": "label", "thumbs": "sideways"}, "thumbs"),
    ],
)
def test_a_known_kind_of_the_wrong_shape_is_refused(content: dict[str, Any], wrong: str) -> None:
    with pytest.raises(ValueError, match=wrong):
        contract.browser_message(content)
