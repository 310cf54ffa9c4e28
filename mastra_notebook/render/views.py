"""The kernel's tables and panels as data, drawn by the one renderer.

A catalogue (``client.agents()``), a dataset, an experiment's summary, ``mn.compare`` and a chat's
memory are built here as typed content, not HTML: text, untrusted labels, code, muted notes, diff
segments, badges, tables of such cells. ``js/src/views/`` draws it with the widget's own helpers
(text always as text, every label in ``<bdi dir=auto>``) and ``engine().draw`` writes it out as
script-free HTML styled by the one palette (``js/src/static/palette.ts``).

The shapes mirror ``js/src/views/inline.ts`` (``Inline``, ``Piece``, ``TablePiece``); the constructors
below are the only way the package makes them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, TypeAlias, TypedDict

from typing_extensions import NotRequired

from .engine import engine

__all__ = [
    "Inline",
    "badge",
    "block",
    "button",
    "code",
    "deleted",
    "details",
    "draw",
    "draw_each",
    "inserted",
    "joined",
    "lines",
    "link",
    "muted",
    "pre",
    "progress",
    "span",
    "strong",
    "table",
    "untrusted",
]


class UntrustedText(TypedDict):  # js's {t: "label"}: text from elsewhere, isolated; not a person's label
    t: Literal["label"]
    text: str
    title: NotRequired[str]


class Wrapped(TypedDict):
    t: Literal["code", "muted", "strong", "ins", "del"]
    body: Inline
    title: NotRequired[str]


class Span(TypedDict):
    t: Literal["span"]
    cls: str
    body: Inline
    title: NotRequired[str]
    data: NotRequired[dict[str, str]]
    style: NotRequired[str]


class Block(TypedDict):
    t: Literal["block"]
    cls: NotRequired[str]
    body: Inline
    title: NotRequired[str]
    data: NotRequired[dict[str, str]]
    style: NotRequired[str]


class Button(TypedDict):
    t: Literal["button"]
    cls: str
    body: Inline
    data: NotRequired[dict[str, str]]
    disabled: NotRequired[bool]
    style: NotRequired[str]


class Lines(TypedDict):
    t: Literal["lines"]
    lines: list[Inline]
    more: NotRequired[str]


class Pre(TypedDict):
    t: Literal["pre"]
    text: str
    isolated: NotRequired[bool]


class Details(TypedDict):
    t: Literal["details"]
    summary: Inline
    body: Inline
    open: NotRequired[bool]
    cls: NotRequired[str]


class Link(TypedDict):
    t: Literal["link"]
    text: str
    href: str


class Badge(TypedDict):
    t: Literal["badge"]
    text: str
    status: str


class Progress(TypedDict):
    t: Literal["progress"]
    done: int
    total: int


class Table(TypedDict):
    t: Literal["table"]
    cls: NotRequired[str]
    kind: NotRequired[str]
    heads: NotRequired[list[Inline]]
    rows: list[list[Inline]]
    rowHeads: NotRequired[bool]
    numeric: NotRequired[bool]
    cellStyle: NotRequired[str]


Piece: TypeAlias = (
    "UntrustedText | Wrapped | Span | Block | Button | Lines | Pre | Details | Link | Badge | Progress"
    " | Table"
)
Inline: TypeAlias = "str | list[Inline] | Piece"
"""Text, pieces side by side, or one typed piece."""

DASH = "—"  # a cell with nothing to show


def untrusted(text: Any, title: str | None = None) -> UntrustedText:
    """Untrusted label text, isolated (``<bdi dir=auto>``); ``title``: its whole text on hover."""
    piece: UntrustedText = {"t": "label", "text": str(text)}
    if title is not None:
        piece["title"] = title
    return piece


def code(body: Inline, title: str | None = None) -> Wrapped:
    piece: Wrapped = {"t": "code", "body": body}
    if title is not None:
        piece["title"] = title
    return piece


def muted(body: Inline) -> Wrapped:
    return {"t": "muted", "body": body}


def strong(body: Inline) -> Wrapped:
    return {"t": "strong", "body": body}


def inserted(body: Inline) -> Wrapped:
    """What a diff adds."""
    return {"t": "ins", "body": body}


def deleted(body: Inline) -> Wrapped:
    """What a diff removes."""
    return {"t": "del", "body": body}


def span(
    cls: str,
    body: Inline,
    title: str | None = None,
    data: Mapping[str, str] | None = None,
    style: str = "",
) -> Span:
    """A span of the package's own class (``mn-score``), to be found and styled by it; ``style``:
    declarations of its own (kept where the palette's are left out)."""
    piece: Span = {"t": "span", "cls": cls, "body": body}
    if title is not None:
        piece["title"] = title
    if data:
        piece["data"] = dict(data)
    if style:
        piece["style"] = style
    return piece


def block(
    body: Inline,
    cls: str = "",
    data: Mapping[str, str] | None = None,
    *,
    title: str | None = None,
    style: str = "",
) -> Block:
    """A block (a line of its own) of the package's own class."""
    piece: Block = {"t": "block", "body": body}
    if cls:
        piece["cls"] = cls
    if title is not None:
        piece["title"] = title
    if data:
        piece["data"] = dict(data)
    if style:
        piece["style"] = style
    return piece


def button(
    cls: str,
    body: Inline,
    data: Mapping[str, str] | None = None,
    *,
    disabled: bool = False,
    style: str = "",
) -> Button:
    """A button a page's own script acts on (by its ``data-*``): drawn only with ``controls``
    (:func:`draw_each`); a transcript leaves it out."""
    piece: Button = {"t": "button", "cls": cls, "body": body}
    if data:
        piece["data"] = dict(data)
    if disabled:
        piece["disabled"] = True
    if style:
        piece["style"] = style
    return piece


def lines(items: Sequence[Inline], more: str = "") -> Lines:
    """Pieces one under the other, then ``more`` (what was left out, said) muted."""
    piece: Lines = {"t": "lines", "lines": list(items)}
    if more:
        piece["more"] = more
    return piece


def pre(text: str, *, isolated: bool = False) -> Pre:
    """Preformatted text (JSON, instructions); ``isolated``: in a ``<bdi>`` too."""
    piece: Pre = {"t": "pre", "text": text}
    if isolated:
        piece["isolated"] = True
    return piece


def details(summary: Inline, body: Inline, *, open: bool = False, cls: str = "") -> Details:
    piece: Details = {"t": "details", "summary": summary, "body": body, "open": open}
    if cls:
        piece["cls"] = cls
    return piece


def link(text: str, href: str) -> Link:
    """A link, drawn only to an absolute http(s) or mailto address (else its text alone)."""
    return {"t": "link", "text": text, "href": href}


def badge(text: str, status: str) -> Badge:
    """A status as a badge: ``text`` as shown, coloured by ``status``'s tone (core/status_words.json)."""
    return {"t": "badge", "text": text, "status": status}


def progress(done: int, total: int) -> Progress:
    return {"t": "progress", "done": done, "total": total}


def table(
    heads: Sequence[Inline] | None,
    rows: Sequence[Sequence[Inline]],
    *,
    cls: str = "",
    kind: str = "",
    row_heads: bool = False,
    numeric: bool = False,
    cell_style: str = "",
) -> Table:
    """A table of inline cells; without ``heads``, rows of facts."""
    piece: Table = {"t": "table", "rows": [list(row) for row in rows]}
    if heads:
        piece["heads"] = list(heads)
    if cls:
        piece["cls"] = cls
    if kind:
        piece["kind"] = kind
    if row_heads:
        piece["rowHeads"] = True
    if numeric:
        piece["numeric"] = True
    if cell_style:
        piece["cellStyle"] = cell_style
    return piece


def joined(items: Sequence[Inline], separator: str) -> list[Inline]:
    """``items`` side by side, ``separator`` between each two."""
    out: list[Inline] = []
    for item in items:
        out += [separator, item] if out else [item]
    return out


def draw(body: Inline, cls: str = "", data: Mapping[str, str] | None = None, *, styled: bool = True) -> str:
    """``body`` drawn in a block of class ``cls`` (js/src/views/table.ts), as script-free HTML;
    without the palette's inline styles when not ``styled`` (a piece's own ``style`` stays)."""
    return engine().draw("table", cls=cls, data=dict(data or {}), body=body, styled=styled) or ""


def draw_each(pieces: Sequence[Inline], *, styled: bool = True, controls: bool = False) -> list[str]:
    """Each piece drawn on its own as one element (text in a span), in one call of the engine;
    ``controls``: its buttons kept (a live page's parts, whose script acts on them)."""
    if not pieces:
        return []
    return engine().draw_each("pieces", pieces=list(pieces), styled=styled, controls=controls)
