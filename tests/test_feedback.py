"""Human labels (issue 20 item 5): thumbs, a score and a comment on a run, on its result, in its
DataFrame row, in its saved recording, and sent to Mastra's feedback route (a fake server under the
client's transport here; tests/server/test_feedback.py against the real one)."""

from __future__ import annotations

import asyncio
import json
import math
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest

import mastra_notebook as mn
from mastra_notebook.core import feedback
from mastra_notebook.core.feedback import Feedback, mastra_records
from tests.conftest import fixture_path
from tests.helpers import replay

TEXT = fixture_path("plain-text").read_bytes()
TRACE = "0123456789abcdef0123456789abcdef"


def root_of(view: mn.StreamView) -> dict[str, Any]:
    """The run's root node as the browser's store holds it (the view's ops replayed)."""
    return dict(replay(view.run.snapshot())["root"])


def final_root(view: mn.StreamView) -> dict[str, Any]:
    """The run's root node in the final state the view saved (``_final``: what a reopened notebook shows)."""
    return dict(replay(json.loads(view._final)["ops"])["root"])


def ended_view() -> mn.StreamView:
    view = mn.view(fixture_path("plain-text"))
    view.wait(60)
    return view


# ---- the label itself --------------------------------------------------------------------------


def test_a_label_is_checked_as_it_is_made() -> None:
    made = feedback.make("up", 4, "  clear and short  ")
    assert (made.thumbs, made.score, made.comment) == ("up", 4.0, "clear and short")
    assert made.at is not None
    assert made.at.tzinfo is not None
    assert feedback.make(True).thumbs == "up"
    assert feedback.make(False).thumbs == "down"
    assert feedback.make(comment="   ").comment is None
    assert feedback.make().empty
    for thumbs in ("yes", 1, "UP"):
        with pytest.raises(ValueError, match="thumbs"):
            feedback.make(thumbs)
    for score in (math.nan, math.inf, "4", True):
        with pytest.raises(ValueError, match="score"):
            feedback.make(score=score)
    with pytest.raises(ValueError, match="comment"):
        feedback.make(comment=3)


def test_mastra_gets_one_record_per_signal_in_the_shape_of_its_create_feedback_body() -> None:
    label = feedback.make("down", 2.5, "wrong city")
    thumbs, rating = mastra_records(label, TRACE, "run-1")
    assert thumbs == {
        "feedback": {
            "traceId": TRACE,
            "runId": "run-1",
            "feedbackSource": "user",
            "feedbackType": "thumbs",
            "value": 0,
            "comment": "wrong city",
            "metadata": {"client": "mastra-notebook"},
        }
    }
    assert (rating["feedback"]["feedbackType"], rating["feedback"]["value"]) == ("rating", 2.5)
    assert "comment" not in rating["feedback"]  # said once
    (comment,) = mastra_records(feedback.make(comment="why?"), TRACE)
    assert (comment["feedback"]["feedbackType"], comment["feedback"]["value"]) == ("comment", "why?")
    assert "runId" not in comment["feedback"]
    assert mastra_records(feedback.make(), TRACE) == []
    # a review's category is a record of its own, its name the value; a comment rides on it if alone
    (category,) = mastra_records(feedback.make(category="wrong tool", comment="asked twice"), TRACE)
    assert category["feedback"]["feedbackType"] == "category"
    assert (category["feedback"]["value"], category["feedback"]["comment"]) == ("wrong tool", "asked twice")
    assert not feedback.make(category="wrong tool").empty


# ---- on a view of a recording: kept in the notebook ----------------------------------------------


def test_a_label_lands_on_the_result_the_view_and_the_dataframe() -> None:
    pd = pytest.importorskip("pandas")
    view = ended_view()
    label = view.label(thumbs="up", score=4, comment="good answer")
    assert view.result.feedback == label
    assert (label.sent_to_mastra, label.reason) == (False, feedback.NO_TRACE)
    root = root_of(view)
    assert root["feedback"]["thumbs"] == "up"
    assert root["feedback"]["comment"] == "good answer"
    assert root["feedback_note"].startswith("kept in the notebook: this run names no Mastra trace")
    assert final_root(view)["feedback"] == root["feedback"]  # the saved state has it too

    frame = mn.to_dataframe([view, ended_view()])
    assert isinstance(frame, pd.DataFrame)
    labelled, plain = frame.to_dict("records")
    assert (labelled["feedback_thumbs"], labelled["feedback_score"]) == ("up", 4.0)
    assert (labelled["feedback_comment"], labelled["feedback_sent"]) == ("good answer", False)
    assert all(pd.isna(plain[k]) for k in ("feedback_thumbs", "feedback_score", "feedback_comment"))


def test_a_later_label_replaces_the_earlier_and_an_empty_one_clears_it() -> None:
    view = ended_view()
    view.label(thumbs="up")
    view.label(thumbs="down", comment="on second thought")
    assert (view.result.feedback.thumbs, view.result.feedback.comment) == ("down", "on second thought")  # type: ignore[union-attr]
    cleared = view.label()
    assert cleared.empty
    assert view.result.feedback is None
    assert root_of(view)["feedback"] is None
    assert mn.collect(view.recording.lines()).feedback is None  # cleared when read back too


def test_a_label_is_saved_with_the_recording_and_read_back(tmp_path: Path) -> None:
    view = ended_view()
    before = view.result
    label = view.label(thumbs="down", score=1, comment="missed the question")
    path = view.save(tmp_path / "run.jsonl")
    last = orjson.loads(path.read_bytes().splitlines()[-1])
    assert last["type"] == feedback.FEEDBACK_TYPE
    assert "mnReceivedMs" not in last
    for again in (mn.view(path).wait(60), mn.collect(path)):
        assert again.feedback == label
        # the label is no chunk of the stream: the run reads as before
        assert (again.chunk_count, again.text, again.status) == (
            before.chunk_count,
            before.text,
            before.status,
        )
        assert again.timing == before.timing
    reopened = mn.view(path)
    reopened.wait(60)
    assert reopened.label(thumbs="up").thumbs == "up"  # relabelled: the latest wins when read back
    assert mn.collect(reopened.recording.lines()).feedback.thumbs == "up"  # type: ignore[union-attr]


def test_a_label_on_a_gallery_tile_stays_with_its_kept_run() -> None:
    view = ended_view()
    kept = view.kept()
    tile_view = mn.StreamView()
    tile_view.show_kept(kept, title="tile")
    tile_view.label(thumbs="up")
    assert kept.run.result.feedback is not None
    assert kept.run.result.feedback.thumbs == "up"
    assert feedback.read(kept.recording.chunk(len(kept.recording) - 1)) is not None


def test_a_kept_run_with_no_view_is_labelled_and_a_view_showing_it_later_shows_the_label() -> None:
    kept = ended_view().kept()
    label = kept.label(thumbs="down", comment="off the page")
    assert kept.run.result.feedback == label
    assert len(kept.touched) == len(kept.recording)  # the inspector's links stay one per chunk
    shown = mn.StreamView()
    shown.show_kept(kept, title="tile")
    assert final_root(shown)["feedback"]["comment"] == "off the page"


async def test_a_gallery_tile_labelled_after_its_end_shows_it_on_its_result_and_dataframe() -> None:
    pytest.importorskip("pandas")
    from mastra_notebook.widget.gallery import Gallery

    def start() -> tuple[mn.StreamView, Any]:
        view = mn.StreamView(title="tile")

        async def work() -> None:
            for record in TEXT.splitlines():
                view.feed(record)

        return view, work

    gallery = Gallery(2, page_size=1)  # the second tile is off the page: labelled with no view open
    for index in range(2):
        gallery.submit(start, prompt=f"prompt {index}")
    await gallery.batch
    shown, off_page = gallery.tiles
    view = gallery.open(shown)  # its full view below the grid, drawn from what it kept
    assert view is not None
    view.label(thumbs="up")
    assert off_page.kept is not None
    off_page.kept.label(thumbs="down", score=1)
    frame = mn.to_dataframe(gallery)
    assert list(frame["feedback_thumbs"]) == ["up", "down"]
    assert (shown.result.feedback.thumbs, off_page.result.feedback.score) == ("up", 1.0)  # type: ignore[union-attr]


def test_the_footer_control_labels_through_the_view_s_message() -> None:
    view = ended_view()
    view._on_browser_message(view, {"t": "label", "thumbs": "down", "score": None, "comment": "too long"}, [])
    assert view.result.feedback is not None
    assert (view.result.feedback.thumbs, view.result.feedback.comment) == ("down", "too long")
    view._on_browser_message(view, {"t": "label", "thumbs": "sideways"}, [])  # a bad value: said in the view
    assert any("label failed" in (p.text or "") for p in view.result.parts if p.kind == "banner")
    assert view.result.feedback.thumbs == "down"


# ---- a client's run: sent to Mastra's feedback route, or kept with the reason --------------------


class FeedbackServer:
    """A Mastra server under the transport: it streams a plain answer and takes feedback (or answers
    ``status`` to it: 501 is a server with no observability store)."""

    def __init__(
        self, status: int = 200, message: str = "Observability storage domain is not available"
    ) -> None:
        self.status, self.message = status, message
        self.stream_bodies: list[dict[str, Any]] = []
        self.feedback: list[dict[str, Any]] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        body = orjson.loads(request.content) if request.content else {}
        if request.url.path == "/api/observability/feedback":
            self.feedback.append(body)
            if self.status != 200:
                return httpx.Response(self.status, json={"error": self.message})
            return httpx.Response(200, json={"success": True})
        self.stream_bodies.append(body)
        return httpx.Response(200, content=TEXT)


def client_of(server: FeedbackServer) -> mn.MastraClient:
    return mn.MastraClient("http://mastra.test", wire=httpx.MockTransport(server), backoff_ms=0)


def test_a_label_is_sent_with_the_run_s_trace_id() -> None:
    server = FeedbackServer()
    view = client_of(server).agent("a").stream("hello")
    result = view.wait(60)
    label = view.label(thumbs="up", score=5, comment="spot on")
    assert (label.sent_to_mastra, label.reason) == (True, None)
    assert result.trace_id == server.stream_bodies[0]["tracingOptions"]["traceId"]
    assert [body["feedback"]["traceId"] for body in server.feedback] == [result.trace_id] * 2
    assert server.feedback[0]["feedback"]["runId"] == result.run_id
    assert root_of(view)["feedback_note"] == "sent to Mastra"


@pytest.mark.parametrize(
    ("status", "message"),
    [
        (501, "Observability storage domain is not available"),  # no observability storage at all
        (404, "Not Found"),  # a server older than the route
        (500, "This storage provider does not support creating feedback"),  # @mastra/libsql's domain
    ],
)
def test_a_server_without_observability_keeps_the_label_in_the_notebook_and_says_so(
    status: int, message: str
) -> None:
    server = FeedbackServer(status, message)
    view = client_of(server).agent("a").stream("hello")
    view.wait(60)
    label = view.label(thumbs="down")
    assert label.sent_to_mastra is False
    assert label.reason is not None
    assert "keeps no feedback" in label.reason
    assert "observability: new Observability(" in label.reason  # what to turn on
    assert "InMemoryStore does" in label.reason
    assert root_of(view)["feedback_note"].startswith(
        "kept in the notebook: Mastra's server keeps no feedback"
    )


def test_the_footer_control_sends_without_blocking_and_shows_sending_first() -> None:
    async def scenario() -> tuple[str, Feedback | None, list[dict[str, Any]]]:
        server = FeedbackServer()
        view = client_of(server).agent("a").stream("hello")
        await view
        view._on_browser_message(view, {"t": "label", "thumbs": "up", "score": 3, "comment": ""}, [])
        sending = root_of(view)["feedback_note"]
        assert view._labels.sending is not None
        await view._labels.sending  # type: ignore[misc]
        return sending, view.result.feedback, server.feedback

    sending, label, sent = asyncio.run(scenario())
    assert sending == "sending to Mastra…"
    assert label is not None
    assert (label.thumbs, label.score, label.sent_to_mastra) == ("up", 3.0, True)
    assert len(sent) == 2


# ---- the saved notebook's transcript ----------------------------------------------------------------


def test_the_transcript_shows_the_label_and_a_result_read_back_from_json_keeps_it() -> None:
    from mastra_notebook.render.transcript import render_html

    view = ended_view()
    view.label(thumbs="down", score=2, comment="<b>too</b> long")
    for result in (view.result, mn.RunResult.model_validate_json(view.result.model_dump_json())):
        page = render_html(result)
        assert "thumbs down · 2 · \N{LEFT DOUBLE QUOTATION MARK}&lt;b&gt;too&lt;/b&gt; long" in page
        assert "kept in the notebook: this run names no Mastra trace" in page
        assert "<b>too</b>" not in page
    assert "data-feedback" not in render_html(ended_view().result)  # no label: no row


# ---- an experiment's cells ------------------------------------------------------------------------


async def test_an_experiment_cell_s_label_reaches_its_dataframe_and_is_saved_with_it(
    tmp_path: Path, recording_comm: object
) -> None:
    pytest.importorskip("pandas")
    from mastra_notebook.analysis.outcomes import items_of
    from mastra_notebook.widget.experiment_view import Experiment

    def start(item: Any, variant: str, repeat: int) -> tuple[mn.StreamView, Any]:
        view = mn.StreamView(title="agent fake")

        async def work() -> None:
            for record in TEXT.splitlines():
                view.feed(record)

        return view, work

    exp = await Experiment(items_of(["q1", "q2"]), {"a": {}, "b": {}}, start=start, name="labels")
    cell = exp.cells_of(1, "b")[0]
    assert cell.kept is not None
    label = cell.kept.label(thumbs="down", comment="wrong")
    frame = exp.to_dataframe()
    labelled = frame[(frame["input_index"] == 1) & (frame["variant"] == "b")]
    assert list(labelled["feedback_thumbs"]) == ["down"]
    assert frame["feedback_thumbs"].isna().sum() == 3

    exp.save(tmp_path / "exp")
    reopened = mn.load_experiment(tmp_path / "exp")
    again = reopened.cells_of(1, "b")[0]
    assert again.result.feedback == label  # the saved result
    assert again.keep().run.result.feedback == label  # and its recording's line, read back
    assert list(reopened.to_dataframe()["feedback_thumbs"].fillna("")) == list(
        frame["feedback_thumbs"].fillna("")
    )


def test_another_server_error_keeps_the_label_and_says_what_the_server_said() -> None:
    server = FeedbackServer(500, "database is locked")
    view = client_of(server).agent("a").stream("hello")
    view.wait(60)
    label = view.label(score=3)
    assert label.sent_to_mastra is False
    assert label.reason is not None
    assert "database is locked" in label.reason
    assert "labelling again sends it again" in label.reason
