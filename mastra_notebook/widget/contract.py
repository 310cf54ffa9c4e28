"""The widget's contract with the browser, typed once: the synced traits and the custom messages both
ways (docs/view-protocol.md). The nodes the messages carry are typed in ``core/nodes.py``.

``StreamView`` builds its traitlets from :class:`ViewTraits` (:func:`synced`), sends the messages
declared here (mypy checks their keys) and reads the browser's through :func:`browser_message`, the
one parser of :data:`BrowserMessage`. ``scripts/contract.py`` writes the TypeScript the widget reads
(``js/src/contract.generated.ts``) from this module and the node schema; a test fails when the
checked-in file differs.

Values the browser sends are untrusted: a message of an unknown kind is ignored; one whose fields are
not of their declared type (strictly: no number for a string, no bool for an int) is refused, and the
view says so.
"""

from __future__ import annotations

import typing
from typing import Annotated, Any, Literal

import traitlets
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from typing_extensions import NotRequired, TypedDict  # pydantic validates TypedDicts of these on 3.10, 3.11

from ..render import DEFAULT_MAX_HEIGHT

# ---- traits: synced model state, small and not growing ------------------------------------------


class ReplayState(TypedDict, total=False):
    """A replay's position (``ReplayView``); empty until the replay publishes it."""

    total: int
    """How many chunks the recording holds."""
    position: int
    """How many of them the view shows."""
    playing: bool
    """It plays (else it is paused)."""
    speed: float
    """Its pace against the recorded one."""
    marks: dict[str, list[int]]
    """Where each moment begins (``step``, ``tool-call``, ``sub-agent``: chunk indexes, core/moments.py):
    the bar's next and previous step and next tool call."""
    pause_at: str
    """The moment playback stops before (``mn.replay(path, pause_at=...)``), or ``""``."""
    held: str
    """The moment the replay is held before, hidden until revealed (``""``: not held)."""


class ViewTraits(BaseModel):
    """The traits every view syncs (``model.get`` in the browser)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    final: str = Field("", alias="_final")
    """Empty while running; when the run ends, the final snapshot message as JSON text, so a saved
    notebook with widget state renders the run without a kernel."""
    streaming: bool = False
    """The Stop button shows while true."""
    can_approve: bool = False
    """The view can continue a run (a live client view): approval buttons."""
    can_label: bool = Field(True, alias="_can_label")
    """The footer's label control sends labels to the kernel (a live view's)."""
    title: str = ""
    """A header line (agent or workflow id), may be empty."""
    subtitle: str = ""
    """A second, muted header item: what was asked (the prompt's first line)."""
    queued: bool = False
    """The view waits for its turn (a gallery tile not started yet)."""
    max_height: str = DEFAULT_MAX_HEIGHT
    """A CSS length: a taller view scrolls inside itself; ``""`` for no limit."""
    view_key: str = ""
    """Names this view's transcripts: where the view draws, it hides them (and only them)."""
    present: bool = Field(False, alias="_present")
    """Present mode, for a projector (``view.present()``): larger type, a compact header, no label
    row, token counts or raw JSON (the class ``mn-present`` on the view's root)."""


class ReplayTraits(ViewTraits):
    """A replay's traits (``ReplayView``): a view's, and its position."""

    replay: ReplayState = Field(default_factory=ReplayState)
    """``{total, position, playing, speed}``: the replay bar."""


TRAIT_MODELS: tuple[type[ViewTraits], ...] = (ViewTraits, ReplayTraits)


def trait_names(model: type[ViewTraits]) -> list[str]:
    """The synced names of ``model``'s traits (an alias where Python names it otherwise)."""
    return [info.alias or name for name, info in model.model_fields.items()]


def synced(model: type[ViewTraits], name: str) -> Any:
    """The synced traitlet of trait ``name`` (its synced name) as ``model`` declares it."""
    for field, info in model.model_fields.items():
        if (info.alias or field) == name:
            default = info.get_default(call_default_factory=True)
            if info.annotation is bool:
                return traitlets.Bool(default).tag(sync=True)
            if info.annotation is str:
                return traitlets.Unicode(default).tag(sync=True)
            return traitlets.Dict(default).tag(sync=True)
    raise KeyError(f"{model.__name__} declares no trait {name!r}")


# ---- kernel -> browser --------------------------------------------------------------------------

AddOp = tuple[Literal["add"], str | None, dict[str, Any]]
"""Create a node (its fields) and append its id to its parent's children (the root's parent: null)."""
AppendOp = tuple[Literal["append"], str, str, str]
"""``node[field] += text`` (string fields: ``text``, ``args_text``)."""
SetOp = tuple[Literal["set"], str, str, Any]
"""``node[field] = value``."""
PushOp = tuple[Literal["push"], str, str, Any]
"""``node[field].push(value)`` (list fields; created if missing)."""
Op = AddOp | AppendOp | SetOp | PushOp
"""A change of the node tree (JSON arrays; ``core/tree.py`` makes them as lists)."""


class SnapshotMsg(TypedDict):
    """The whole tree: the store resets to it (on hello, resync, a replay's seek back)."""

    t: Literal["snapshot"]
    seq: int
    """The seq of the last batch it includes."""
    ops: list[Op]
    """``add`` ops that rebuild the tree."""
    another_run: NotRequired[bool]
    """The tree of another run than the one drawn (a grid's detail area showing the next run): the
    view forgets what the reader opened or folded by hand. Absent for the same run (a hello, a
    resync, a replay's seek back), whose cards the reader left open stay open."""


class OpsMsg(TypedDict):
    """A batch of changes, applied when its seq follows the last one."""

    t: Literal["ops"]
    seq: int
    """Numbered from 1."""
    ops: list[Op]


class ChunksMsg(TypedDict):
    """The inspector's rows from ``start`` on (all on opening, then the new ones after each batch)."""

    t: Literal["chunks"]
    start: int
    entries: list[dict[str, Any]]
    """``{i, ms, type, from, path, nodes, error?, raw?, outer?}`` per chunk."""


class ChunkJsonReplyMsg(TypedDict):
    """A chunk's JSON, as the inspector's row asked."""

    t: Literal["chunk-json"]
    i: int
    json: Any


class RequestReplyMsg(TypedDict):
    """A step's request, as its Request toggle asked (``core/request_bounded.py``)."""

    t: Literal["request"]
    id: str
    """The step node's id."""
    request: Any
    """The request, bounded; null when there is none."""
    reason: NotRequired[str | None]
    """Why there is none."""
    where: str | None
    """Where the whole request is: ``result.steps[i].request``."""


KernelMessage = SnapshotMsg | OpsMsg | ChunksMsg | ChunkJsonReplyMsg | RequestReplyMsg
"""What the kernel sends (anywidget custom messages)."""


# ---- browser -> kernel --------------------------------------------------------------------------


class Asked(BaseModel):
    """A message from the browser, validated strictly; extra keys are ignored."""

    model_config = ConfigDict(strict=True, frozen=True, use_attribute_docstrings=True)


class HelloMsg(Asked):
    """On every render (a new view, a second display, a page reload): the kernel sends a snapshot."""

    t: Literal["hello"]


class ResyncMsg(Asked):
    """A gap in the seqs: the kernel sends a snapshot."""

    t: Literal["resync"]
    seq: int
    """The last seq the view applied."""


class StopMsg(Asked):
    """The Stop button."""

    t: Literal["stop"]


class ApproveMsg(Asked):
    """A tool card's Approve button (only when the trait ``can_approve`` is true)."""

    t: Literal["approve"]
    tool_call_id: str


class DeclineMsg(Asked):
    """A tool card's Decline, with the reason typed (or null)."""

    t: Literal["decline"]
    tool_call_id: str
    reason: str | None = None


class PlayMsg(Asked):
    """A replay's play button."""

    t: Literal["play"]


class PauseMsg(Asked):
    """A replay's pause button."""

    t: Literal["pause"]


class SeekMsg(Asked):
    """A replay's scrubber or step buttons: show the state after ``position`` chunks."""

    t: Literal["seek"]
    position: int


class SpeedMsg(Asked):
    """A replay's speed control: play at ``speed`` times the recorded pace."""

    t: Literal["speed"]
    speed: float


class RevealMsg(Asked):
    """A replay held before a moment (``pause_at``): show it, and play on to the next."""

    t: Literal["reveal"]


class InspectMsg(Asked):
    """The inspector opened or closed: while open, the kernel sends ``chunks``."""

    t: Literal["inspect"]
    open: bool


class LabelMsg(Asked):
    """The footer's label control."""

    t: Literal["label"]
    thumbs: Literal["up", "down"] | None = None
    score: float | None = None
    comment: str | None = None


class ChunkJsonMsg(Asked):
    """An inspector row clicked: the kernel answers with the chunk's JSON."""

    t: Literal["chunk-json"]
    i: int
    """The chunk's index."""


class RequestMsg(Asked):
    """A step's Request toggle opened: the kernel answers with the request."""

    t: Literal["request"]
    id: str
    """The step node's id."""


BrowserMessage = Annotated[
    HelloMsg
    | ResyncMsg
    | StopMsg
    | ApproveMsg
    | DeclineMsg
    | PlayMsg
    | PauseMsg
    | SeekMsg
    | SpeedMsg
    | RevealMsg
    | InspectMsg
    | LabelMsg
    | ChunkJsonMsg
    | RequestMsg,
    Field(discriminator="t"),
]
"""What the browser sends."""

_BROWSER: TypeAdapter[BrowserMessage] = TypeAdapter(BrowserMessage)


BROWSER_MODELS: tuple[type[Asked], ...] = typing.get_args(typing.get_args(BrowserMessage)[0])
BROWSER_KINDS: frozenset[str] = frozenset(
    typing.get_args(model.model_fields["t"].annotation)[0] for model in BROWSER_MODELS
)


def browser_message(content: Any) -> BrowserMessage | None:
    """``content`` as the browser message it is; None when it is none (not an object, or of no kind
    declared here). ValueError when it is of a declared kind but not of its shape: what is wrong."""
    if not isinstance(content, dict) or content.get("t") not in BROWSER_KINDS:
        return None
    try:
        return _BROWSER.validate_python(content)
    except ValidationError as error:
        wrong = (f"{'.'.join(map(str, e['loc'][1:]))}: {e['msg']}" for e in error.errors())
        raise ValueError("; ".join(wrong)) from None
