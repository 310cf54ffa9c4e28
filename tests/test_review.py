"""Issue 31's review queue (``exp.review``): the rubric checks what a reviewer gives, the queue's
order puts disagreements first, each label is written into the experiment's folder as it is made and
read back by ``load_experiment`` (the queue resumes at the first unlabelled item), labels feed
``exp.agreement`` and Mastra's feedback, and hostile text in an input is drawn inert."""

from __future__ import annotations

import asyncio
import json
import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

import mastra_notebook as mn
from mastra_notebook.analysis.outcomes import Item, Outcome
from mastra_notebook.analysis.review import REVIEW_FILE, Book, Label, Place, Rubric, ordered, places
from mastra_notebook.core.feedback import NO_TRACE, Feedback
from mastra_notebook.core.run import never_ran
from mastra_notebook.runs.experiment import Experiment, load_experiment

from .fake_clock import on_fake_clock
from .made_experiments import experiment_of, result, score


def two_variants(inputs: int = 4, repeats: int = 1) -> tuple[list[Outcome], list[Item]]:
    """``inputs`` inputs, variants "a" and "b", every run passing "exact" but input 2's second
    repeat of "b" (its repeats disagree) when there are two."""
    items = [Item(f"question {i}", f"answer {i}") for i in range(inputs)]
    outcomes = []
    for i in range(inputs):
        for variant in ("a", "b"):
            for r in range(repeats):
                value = 0.0 if (i, variant, r) == (2, "b", 1) else 1.0
                made = result(f"{variant} says {i}", scores=[score("exact", value, 0.5)])
                outcomes.append(Outcome(i, variant, r, "finished", made))
    return outcomes, items


# ---- the rubric -----------------------------------------------------------------------------------


def test_a_rubric_refuses_what_it_cannot_ask_by_key() -> None:
    with pytest.raises(ValueError, match="scale"):
        Rubric(scale=(1, 10))  # 10 is not one key
    with pytest.raises(ValueError, match="scale"):
        Rubric(scale=(3, 3))
    with pytest.raises(ValueError, match="once each"):
        Rubric(categories=["wrong", "wrong"])
    with pytest.raises(ValueError, match="at most 9"):
        Rubric(categories=[f"c{i}" for i in range(10)])
    with pytest.raises(ValueError, match=r"(?i)extra"):
        Rubric(stars=5)  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="1 to 60 characters"):
        Rubric(categories=["  "])
    assert Rubric(categories=[" terse "]).categories == ("terse",)


def test_a_rubric_checks_a_label_s_values() -> None:
    rubric = Rubric(thumbs=True, scale=(1, 5), categories=["wrong", "terse"], comment=True)
    made = rubric.values(thumbs="up", score=4, category="terse", comment="  fine  ")
    assert made.model_dump() == {
        "thumbs": "up",
        "score": 4,
        "category": "terse",
        "comment": "fine",
        "choice": None,
    }
    for bad in ({"score": 6}, {"score": 0}, {"score": 2.5}, {"score": True}, {"thumbs": "sideways"},
                {"category": "long"}, {"choice": "a"}):  # fmt: skip
        with pytest.raises(ValueError, match=r"thumbs|score|scale|category|choice"):
            rubric.values(**bad)
    assert rubric.values(choice="tie", pairwise=True).choice == "tie"
    with pytest.raises(ValueError, match="thumbs"):
        Rubric(scale=(1, 5)).values(thumbs="up")
    with pytest.raises(ValueError, match="comment"):
        Rubric(thumbs=True, comment=False).values(comment="no")


# ---- the order ------------------------------------------------------------------------------------


def test_disagreements_first_repeats_that_disagree_then_input_order() -> None:
    outcomes, _items = two_variants(inputs=4, repeats=2)
    listed = places(outcomes, ["a", "b"], None)
    assert [(p.item, p.variants, p.repeat) for p in listed[:4]] == [
        (0, ("a",), 0), (0, ("a",), 1), (0, ("b",), 0), (0, ("b",), 1)]  # fmt: skip
    first = ordered(listed, outcomes)
    # input 2's "b" repeats disagree (one passed, one failed): both come first, the rest as listed
    assert first[:2] == [Place(2, ("b",), 0), Place(2, ("b",), 1)]
    assert first[2:] == [p for p in listed if p not in first[:2]]
    assert ordered(listed, outcomes, order="input") == listed
    with pytest.raises(ValueError, match="order"):
        ordered(listed, outcomes, order="random")


def test_disagreements_first_a_judge_against_a_scorer() -> None:
    outcomes, items = two_variants(inputs=3)

    # the scorer ties every pair (both pass, score 1); a judge preferring "b" on input 1 disagrees there
    def judge(input: Any, first: str, second: str, *, expected: Any = None) -> str:
        if input != "question 1":
            return "tie"
        return "first" if first.startswith("b") else "second"

    exp = experiment_of(outcomes, items)
    verdicts = exp.pairwise("a", "b", judge=judge)
    review = exp.review(pairwise=verdicts, rubric=Rubric(comment=True))
    assert review.pairwise
    assert [p.item for p in review.queue] == [1, 0, 2]
    single = exp.review()  # a single review reads the judge's verdicts kept on the experiment
    assert [(p.item, p.variants) for p in single.queue[:2]] == [(1, ("a",)), (1, ("b",))]


# ---- labels, kept and resumed ---------------------------------------------------------------------


def test_a_label_is_written_as_it_is_made_and_the_queue_resumes_after_it(tmp_path: Path) -> None:
    outcomes, items = two_variants(inputs=5)
    exp = experiment_of(outcomes, items)
    exp.save(tmp_path)
    review = exp.review(rubric=Rubric(thumbs=True, scale=(1, 5)), order="input", reviewer="ana")
    assert review.progress == "1 of 10"
    review.label(thumbs="up", score=4)
    review.label(score=2, comment="too short")
    review.skip()
    assert review.progress == "4 of 10"
    written = json.loads((tmp_path / REVIEW_FILE).read_text())  # already on disk, no save asked
    assert len(written["labels"]) == 3
    assert not list(tmp_path.glob(f".{REVIEW_FILE}.*"))  # the temporary file was renamed over it

    again = load_experiment(tmp_path)  # a new kernel
    assert len(again.book) == 3
    first = again.book.get(Place(0, ("a",), 0), "ana")
    assert first is not None
    assert first.values.thumbs == "up"
    assert first.values.score == 4
    assert first.reviewer == "ana"
    assert first.sent_to_mastra is False
    resumed = again.review(rubric=Rubric(thumbs=True, scale=(1, 5)), order="input")
    assert resumed.position == 3
    assert resumed.progress == "4 of 10"
    assert again.review_labels() == {(0, "a", 0): True, (0, "b", 0): 2}
    assert again.review_labels("score") == {(0, "a", 0): 4, (0, "b", 0): 2}


def test_labels_are_kept_in_memory_until_saved_then_written(tmp_path: Path) -> None:
    outcomes, items = two_variants(inputs=2)
    exp = experiment_of(outcomes, items)
    review = exp.review(order="input")
    assert "stay in this kernel" in review.note()
    review.label(thumbs="down")
    exp.save(tmp_path)
    assert len(json.loads((tmp_path / REVIEW_FILE).read_text())["labels"]) == 1
    review.label(thumbs="up")  # after the save: written at once
    assert len(json.loads((tmp_path / REVIEW_FILE).read_text())["labels"]) == 2


def test_a_label_the_rubric_refuses_is_not_kept() -> None:
    outcomes, items = two_variants(inputs=1)
    review = experiment_of(outcomes, items).review(rubric=Rubric(scale=(1, 5)))
    with pytest.raises(ValueError, match="off the rubric's scale"):
        review.label(score=7)
    with pytest.raises(ValueError, match="gives something"):
        review.label()
    assert review.labels == []
    assert review.position == 0


def test_the_labels_feed_agreement_with_a_scorer() -> None:
    outcomes, items = two_variants(inputs=2)
    passes = [True, True, False, True]  # the scorer fails input 1's "a"
    outcomes = [Outcome(o.item, o.variant, o.repeat, o.status,
                        result("x", scores=[score("exact", float(p), 0.5)])) for o, p in zip(outcomes, passes, strict=True)]  # fmt: skip
    exp = experiment_of(outcomes, items)
    review = exp.review(order="input")
    for thumbs in ("up", "down", "down", "up"):
        review.label(thumbs=thumbs)
    found = exp.agreement("exact", exp.review_labels())
    # by hand: agree on 3 of 4 (po 0.75); scorer passes 3/4, labels 2/4: pe 3/4·2/4 + 1/4·2/4 = 0.5
    assert found.n == 4
    assert [key for key, *_ in found.disagreements] == [(0, "b", 0)]
    assert found.kappa == pytest.approx((0.75 - 0.5) / (1 - 0.5))
    assert exp.agreement("exact", review).kappa == found.kappa  # the review itself, as its labels
    assert exp.rescore([]).review_labels() == exp.review_labels()  # a rescored copy keeps them


def test_pairwise_labels_read_as_verdicts_for_agreement() -> None:
    outcomes, items = two_variants(inputs=3)
    exp = experiment_of(outcomes, items)
    review = exp.review(pairwise=("a", "b"), order="input")
    for choice in ("a", "tie", "b"):
        review.label(choice=choice)
    assert exp.review_labels(pairwise=True) == {(0, 0): "a", (1, 0): "tie", (2, 0): "b"}
    assert "not sent to Mastra" in review.note()
    assert review.labels[0].reason == NO_TRACE


def test_two_reviewers_label_the_same_runs_each_on_their_own_and_agree_by_hand(tmp_path: Path) -> None:
    outcomes, items = two_variants(inputs=4)
    exp = experiment_of(outcomes, items)
    exp.save(tmp_path)
    ana = exp.review(rubric={"thumbs": True}, order="input", reviewer="ana")
    for thumbs in ("up", "up", "up", "up", "down", "down", "up", "down"):
        ana.label(thumbs=thumbs)
    assert exp.review(order="input").reviewer == "ana"  # named nobody: the one reviewer goes on
    ben = exp.review(order="input", reviewer="ben")
    assert ben.progress == "1 of 8"  # ana's labels are hers: ben starts at the first run
    assert ben.label_of(ben.queue[0]) is None
    for thumbs in ("up", "up", "down", "up", "down", "up", "up", "down"):
        ben.label(thumbs=thumbs)
    assert ana.labels[2].values.thumbs == "up"  # ben's "down" on the same run replaced nothing

    again = load_experiment(tmp_path)  # each reviewer's labels written as they were made
    assert len(again.book) == 16
    with pytest.raises(ValueError, match=r"2 reviewers .*'ana', 'ben'.*reviewer="):
        again.review_labels()  # whose? it does not mix them
    assert again.review_labels(reviewer="ben")[1, "a", 0] is False
    assert again.review(order="input").reviewer is None  # two reviewers: a third, unnamed, starts afresh
    agreed = again.agreement(again.review(reviewer="ana"), again.review(reviewer="ben"))
    # by hand: both up on 0 1 3 6, both down on 4 7, ana only up on 2, ben only up on 5: p_o = 6/8;
    # each up on 5 of 8: p_e = (5/8)^2 + (3/8)^2 = 34/64; kappa = (48/64 - 34/64) / (30/64) = 7/15
    assert agreed.names == ("ana", "ben")
    assert "ana and ben on 8 runs" in agreed._repr_html_()
    assert agreed.kappa == pytest.approx(7 / 15)
    assert agreed.confusion.to_numpy().tolist() == [[2, 1], [1, 4]]  # rows: ana's down, up
    assert agreed.keys == [(1, "a", 0), (2, "b", 0)]  # input 1's a is the third run, input 2's b the sixth
    assert again.agreement("exact", again.review_labels(reviewer="ana")).n == 8


def test_a_pairwise_judge_against_a_pairwise_review_through_the_experiment() -> None:
    outcomes, items = two_variants(inputs=4)
    exp = experiment_of(outcomes, items)

    def prefers_a_but_on_three(input: Any, first: str, second: str, *, expected: Any = None) -> str:
        wanted = "b" if "3" in first else "a"  # both answers end with the input's number
        return "first" if first.startswith(wanted) else "second"

    judged = exp.pairwise("a", "b", judge=prefers_a_but_on_three)
    assert judged.verdicts() == {(0, 0): "a", (1, 0): "a", (2, 0): "a", (3, 0): "b"}
    review = exp.review(pairwise=judged, order="input")
    for choice in ("a", "a", "b", "b"):
        review.label(choice=choice)
    agreed = exp.agreement(judged, review)
    # by hand: agree on 3 of 4; the judge says a 3/4, the person 2/4: p_e = 3/8 + 1/8; kappa 0.5
    assert agreed.names == ("judge (a vs b)", "review")
    assert agreed.kappa == pytest.approx(0.5)
    assert agreed.disagreements == [((2, 0), "a", "b")]
    assert "judge (a vs b) and review on 4 pairs: Cohen's kappa 0.500" in agreed._repr_html_()
    assert exp.agreement(judged, exp.review_labels(pairwise=True)).kappa == agreed.kappa
    again = agreed.review()  # the pair they disagree on, side by side, one click away
    assert again.pairwise
    assert again.queue == [Place(2, ("a", "b"), 0)]
    with pytest.raises(KeyError, match="no scorer 'judge'"):
        exp.agreement("judge", review)  # a name that is no scorer is said so, not "nothing in common"


class Sender:
    """Mastra's feedback as a test sees it: what was sent, and it answers stored."""

    def __init__(self) -> None:
        self.sent: list[Feedback] = []
        self.records: list[dict[str, Any]] = []

    def send(self, label: Feedback) -> Feedback:
        self.sent.append(label)
        return label.model_copy(update={"sent_to_mastra": True, "reason": None})

    async def asend(self, label: Feedback) -> Feedback:
        return self.send(label)

    def send_records(self, bodies: list[dict[str, Any]]) -> tuple[bool, str | None]:
        self.records.extend(body["feedback"] for body in bodies)
        return True, None


class Client:
    """A client's feedback for a trace id (``MastraClient.feedback``), recorded."""

    def __init__(self) -> None:
        self.senders: dict[str, Sender] = {}

    def feedback(self, trace_id: str, run_id: str | None = None) -> Sender:
        return self.senders.setdefault(trace_id, Sender())

    def agent(self, agent_id: str) -> Any:
        raise AssertionError("no agent is asked")


def traced_experiment(folder: Path) -> tuple[Experiment, Client]:
    """Two inputs by variants a and b, each run traced ("trace-<input>-<variant>"), saved into
    ``folder`` and loaded with a client whose feedback a test reads."""
    outcomes, items = two_variants(inputs=2)
    traced = [Outcome(o.item, o.variant, o.repeat, o.status,
                      o.result.model_copy(update={"trace_id": f"trace-{o.item}-{o.variant}"})) for o in outcomes]  # fmt: skip
    experiment_of(traced, items).save(folder)
    client = Client()
    return load_experiment(folder, client=client), client


def test_labels_go_to_mastra_s_feedback_with_each_run_s_trace_id(tmp_path: Path) -> None:
    exp, client = traced_experiment(tmp_path)
    review = exp.review(rubric=Rubric(thumbs=True, scale=(1, 5)), order="input")
    assert "sent to Mastra's feedback" in review.note()
    made = review.label(thumbs="up", score=5, comment="right")
    assert made.sent_to_mastra is True
    assert made.trace_ids == ("trace-0-a",)
    (sent,) = client.senders["trace-0-a"].sent
    assert (sent.thumbs, sent.score, sent.comment) == ("up", 5.0, "right")
    assert exp.result_of(0, "a", 0).feedback is not None  # on the run: its tile shows it
    assert load_experiment(tmp_path).book.get(Place(0, ("a",), 0)).sent_to_mastra is True  # type: ignore[union-attr]


def test_a_pair_s_choice_goes_to_each_run_s_trace_as_a_preference(tmp_path: Path) -> None:
    exp, client = traced_experiment(tmp_path)
    review = exp.review(pairwise=("a", "b"), order="input")
    assert "a preference on each run's trace" in review.note()
    made = review.label(choice="b", comment="b names it")
    assert made.sent_to_mastra is True
    assert made.trace_ids == ("trace-0-a", "trace-0-b")
    a_side, b_side = client.senders["trace-0-a"].records, client.senders["trace-0-b"].records
    assert [(r["feedbackType"], r["value"], r["comment"]) for r in a_side + b_side] == [
        ("preference", 0, "b names it"), ("preference", 1, "b names it")]  # fmt: skip
    assert a_side[0]["metadata"]["otherTraceId"] == "trace-0-b"
    review.label(choice="tie")
    assert [
        r["value"] for r in client.senders["trace-1-a"].records + client.senders["trace-1-b"].records
    ] == [0.5, 0.5]


@on_fake_clock
async def test_the_view_s_labels_are_sent_without_blocking_and_kept_once_answered(tmp_path: Path) -> None:
    exp, client = traced_experiment(tmp_path)
    review = exp.review(rubric=Rubric(thumbs=True, scale=(1, 5)), order="input")
    changes: list[str] = []
    review.listeners.append(lambda: changes.append(review.progress))
    made = review.label(score=3, wait=False)
    assert made.sent_to_mastra is None
    assert review.progress == "2 of 4"
    assert client.senders["trace-0-a"].sent == []  # not sent yet: the loop has not run
    await asyncio.gather(*review.sending)
    assert [label.score for label in client.senders["trace-0-a"].sent] == [3.0]
    kept = load_experiment(tmp_path).book.get(Place(0, ("a",), 0))
    assert kept is not None
    assert kept.sent_to_mastra is True
    assert changes == ["2 of 4", "2 of 4"]  # moved on, then the answer
    unanswered = review.label(score=2, wait=False)  # the kernel stops before Mastra answers it
    again = load_experiment(tmp_path, client=client)
    assert again.book.get(unanswered.place).sent_to_mastra is None  # type: ignore[union-attr]
    reopened = again.review(rubric=Rubric(thumbs=True, scale=(1, 5)), order="input")  # sends it again
    assert reopened.progress == "3 of 4"
    await asyncio.gather(*reopened.sending)
    assert again.book.get(unanswered.place).sent_to_mastra is True  # type: ignore[union-attr]
    review.go(0)
    review.label(score=4, wait=False)  # labelled again while the first answer is on its way
    first = review.sending[-1]
    review.go(0)
    review.label(score=5)
    await first
    assert review.book.get(Place(0, ("a",), 0)).values.score == 5  # type: ignore[union-attr]


def test_without_a_trace_the_queue_says_labels_stay_here() -> None:
    outcomes, items = two_variants(inputs=1)
    review = experiment_of(outcomes, items).review()
    assert re.findall(r"[.!?](?:\s|$)", review.note()) == ["."]
    assert "not sent to Mastra" in review.note()
    assert review.label(thumbs="up").sent_to_mastra is False


def test_to_dataset_keeps_the_label_as_ground_truth() -> None:
    outcomes, items = two_variants(inputs=3)
    exp = experiment_of(outcomes, items)
    review = exp.review(rubric=Rubric(categories=["right", "wrong"], comment=False), order="input")
    review.label(category="right")
    review.skip()
    review.label(category="wrong")

    class Made:
        def create_dataset(self, name: str, rows: list[dict[str, Any]]) -> Any:
            return name, rows

    name, rows = exp.to_dataset("reviewed", client=Made())
    assert name == "reviewed"
    assert (
        rows
        == [{"input": "question 1", "expected": "wrong"}, {"input": "question 0", "expected": "right"}][::-1]
    )
    _, kept = exp.to_dataset(
        "wrong only", where=lambda label: label.values.category == "wrong", client=Made()
    )
    assert kept == [{"input": "question 1", "expected": "wrong"}]
    with pytest.raises(ValueError, match="client"):
        exp.to_dataset("nowhere")


def test_a_book_reads_back_what_it_wrote(tmp_path: Path) -> None:
    book = Book(folder=tmp_path)
    book.add(
        Label(
            item=3,
            variants=("a", "b"),
            repeat=1,
            reviewer="x",
            values=Rubric().values(choice="b", pairwise=True),
        )
    )
    again = Book.read(tmp_path)
    assert list(again.labels) == [("x", Place(3, ("a", "b"), 1))]
    assert again.given(reviewer="x") == {(3, 1): "b"}
    (tmp_path / REVIEW_FILE).write_text(json.dumps({"format": "other", "labels": []}))
    with pytest.raises(ValueError, match="format"):
        Book.read(tmp_path)


# ---- drawn ----------------------------------------------------------------------------------------


HOSTILE = [
    '<img src=x onerror="alert(1)"><script>alert(2)</script>',
    '</bdi>\u202eevil <a href="javascript:x">',
]


class Tags(HTMLParser):
    """The tags and attributes an HTML fragment makes."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attributes: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attributes.extend(attrs)


@pytest.mark.parametrize("hostile", HOSTILE)
def test_hostile_text_in_an_input_is_drawn_inert(hostile: str) -> None:
    from mastra_notebook.widget.review import review_html, review_state

    items = [Item(hostile, hostile)]
    outcomes = [Outcome(0, "a", 0, "finished", result(hostile))]
    review = experiment_of(outcomes, items).review(reviewer=hostile)
    state = review_state(review)
    assert state["input"] == hostile[:4000]
    assert state["runs"][0]["ops"]
    html = review_html(review)
    tags = Tags()
    tags.feed(html)
    assert not {"script", "img", "a"} & set(tags.tags)
    assert not [
        name for name, value in tags.attributes if name.startswith("on") or "javascript" in (value or "")
    ]
    assert "1 of 1" in html
    assert unescape(html).count(hostile) >= 2


def test_the_widget_hands_the_browser_s_messages_to_the_queue() -> None:
    from mastra_notebook.widget.review import ReviewView

    outcomes, items = two_variants(inputs=2)
    review = experiment_of(outcomes, items).review(rubric=Rubric(thumbs=True, scale=(1, 5)), order="input")
    view = ReviewView(review)
    assert view.widget.state["progress"] == "1 of 4"
    assert view.widget.state["input"] == "question 0"
    view.handle({"label": {"score": 3, "thumbs": None, "comment": "", "category": None, "choice": None}})
    assert view.widget.state["progress"] == "2 of 4"
    view.handle({"go": "previous"})
    assert view.widget.state["given"]["score"] == 3
    assert "kept here" in view.widget.state["status"]
    view._on_message(view.widget, {"label": {"score": 9}}, [])
    assert "off the rubric's scale" in view.widget.state["error"]
    view.handle({"skip": True})
    view.handle({"go": "next"})
    assert view.widget.state["progress"] == "3 of 4"
    assert mn.Rubric is Rubric


def test_a_rubric_given_as_a_dict_is_checked_as_a_rubric() -> None:
    outcomes, items = two_variants(inputs=2)
    exp = experiment_of(outcomes, items)
    review = exp.review({"thumbs": True, "scale": (1, 5)}, order="input")
    assert review.rubric == Rubric(thumbs=True, scale=(1, 5))
    with pytest.raises(ValueError, match="stars"):
        exp.review({"stars": 5})


def test_an_agreements_disagreeing_runs_open_the_review_queue_at_each_one_click_away() -> None:
    from mastra_notebook.widget.agreement import AgreementView

    outcomes, items = two_variants(inputs=3)
    failed = result("a says 2", scores=[score("exact", 0.0, 0.5)])  # the scorer fails input 2's a only
    outcomes = [
        Outcome(2, "a", 0, "finished", failed) if (o.item, o.variant) == (2, "a") else o for o in outcomes
    ]
    exp = experiment_of(outcomes, items)
    first = exp.review(rubric=Rubric(thumbs=True, comment=True, scale=(1, 5)), order="input")
    for thumbs in ("up", "down", "up", "down", "down", "up"):  # a person fails 0's b, 1's b and 2's a
        first.label(thumbs=thumbs)
    agreed = exp.agreement("exact", exp.review_labels())
    assert agreed.keys == [(0, "b", 0), (1, "b", 0)]
    again = agreed.review()  # the runs they disagree on, as the last review asked them
    assert [place.key for place in again.queue] == agreed.keys
    assert again.rubric.scale == (1, 5)
    assert again.progress == "done: 2 of 2 labelled"  # both were labelled: nothing left to resume at
    at = agreed.review(at=(1, "b", 0))
    assert (at.progress, at.place.key if at.place else None) == ("2 of 2", (1, "b", 0))
    assert [p.key for p in exp.review(only=[(2, "a", 0)]).queue] == [(2, "a", 0)]
    with pytest.raises(KeyError, match="not in this review's queue"):
        agreed.review(at=(2, "a", 0))

    view = AgreementView(agreed)  # the view: a button per disagreeing run, and one for all of them
    state = view.widget.agreement
    assert state["reviewable"] is True
    assert [d["place"] for d in state["disagreements"]] == ["#1 · b", "#2 · b"]
    assert (state["disagreements"][1]["first"], state["disagreements"][1]["second"]) == ("True", "False")
    view._on_message(view.widget, {"review": 1}, [])  # the second run's button
    assert view.review.place.key == (1, "b", 0)
    assert view.reviewing.children == (view.review.view.widget,)  # shown under the agreement
    view._on_message(view.widget, {"review": -1}, [])  # "review all"
    assert [place.key for place in view.review.queue] == agreed.keys
    bundle = agreed._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert "Where they disagree:" in bundle["text/html"]
    assert "<button" not in bundle["text/html"]  # a saved notebook's drawing has no buttons

    alone = mn.analysis.agreement.agreement({1: "a", 2: "b", 3: "a"}, {1: "a", 2: "a", 3: "b"})  # no queue
    assert alone.state(reviewable=True)["reviewable"] is False
    assert "application/vnd.jupyter.widget-view+json" not in alone._repr_mimebundle_()
    with pytest.raises(ValueError, match="only an experiment's agreement"):
        alone.review()


def test_a_resumed_review_asks_what_the_last_one_asked(tmp_path: Path) -> None:
    outcomes, items = two_variants(inputs=2)
    exp = experiment_of(outcomes, items)
    exp.save(tmp_path)
    exp.review({"thumbs": True, "scale": (1, 5), "categories": ["wrong"]}, order="input").label(score=3)
    again = load_experiment(tmp_path).review()  # a new kernel, no rubric given
    assert again.rubric == Rubric(thumbs=True, scale=(1, 5), categories=("wrong",))
    assert again.progress == "2 of 4"
    assert again.label(score=4, category="wrong").values.score == 4


def test_runs_that_never_started_are_neither_judged_nor_reviewed() -> None:
    outcomes, items = two_variants(inputs=3)
    stopped = never_ran("stopped before its turn").result
    failed = result("half").model_copy(update={"status": "error"})
    outcomes = [o if o.item == 0 else Outcome(o.item, o.variant, o.repeat, "aborted", stopped)
                for o in outcomes]  # fmt: skip
    outcomes[1] = Outcome(0, "b", 0, "error", failed)  # input 0's b failed: its a stands alone
    exp = experiment_of(outcomes, items)
    judged = exp.pairwise("a", "b", judge=lambda *_, **__: "first")
    assert judged.judged == []  # no pair both answered: nothing judged, no ties of empty answers
    assert [place.key for place in exp.review(order="input").queue] == [(0, "a", 0), (0, "b", 0)]
    with pytest.raises(KeyError, match="no variant 'nope'"):
        exp.compare_variants("a", "nope")
