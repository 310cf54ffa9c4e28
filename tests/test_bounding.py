"""One way to cut a JSON value to a budget (core/bounding.py), used by a step's request and a trace
span's details: strings, long lists, deep values and many small values are all cut, each cut said."""

from __future__ import annotations

import json

from mastra_notebook.core.bounding import Bounds, bounded

SMALL = Bounds(string=10, value=200, items=5, depth=3)


def test_a_value_within_its_bounds_is_kept_whole() -> None:
    value = {"a": [1, 2.5, None, True], "b": "short"}
    assert bounded(value, SMALL) == (value, False)


def test_a_long_string_keeps_its_head_and_counts_the_rest() -> None:
    assert bounded("x" * 1_234, SMALL) == ("x" * 10 + "… [1,224 more characters]", True)


def test_long_lists_and_objects_say_how_many_entries_were_left_out() -> None:
    kept, cut = bounded({"list": list(range(8)), "object": {str(i): i for i in range(7)}}, SMALL)
    assert cut
    assert kept["list"] == [0, 1, 2, 3, 4, "… 3 more items"]
    assert kept["object"] == {"0": 0, "1": 1, "2": 2, "3": 3, "4": 4, "…": "2 more keys"}


def test_deep_values_are_cut_at_the_depth_bound() -> None:
    assert bounded([[[["deep"]]]], SMALL) == ([[["… [deeper levels cut]"]]], True)


def test_many_small_values_spend_one_budget() -> None:
    # a million numbers in nested lists: each list within its item bound, the whole within the budget
    many = [[list(range(1_000)) for _ in range(1_000)]]
    wide = Bounds(string=100, value=2_000, items=1_000, depth=5)
    kept, cut = bounded(many, wide)
    assert cut
    assert len(json.dumps(kept)) < 3 * wide.value


def test_a_budget_given_by_the_caller_is_shared_by_what_it_spends() -> None:
    # an entry of a list spends one character (its comma), a string its kept characters
    kept, cut = bounded(["abcdef", "ghijkl"], SMALL, chars=10)
    assert kept == ["abcdef", "gh… [4 more characters]"]
    assert cut
