"""An experiment's agreement shown (``exp.agreement(scorer, labels)``): its data sent to one anywidget
drawn by ``js/src/views/agreement.ts`` (the review queue's bundle), a button on each run where the
raters disagree; a click opens the review queue at that run (``agreement.review(at=key)``), or of
them all, below the agreement. A saved notebook shows the same drawing, without buttons.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anywidget
import ipywidgets
import traitlets

from ..analysis.agreement import Agreement
from .bundle import packaged, shared_module

__all__ = ["AgreementView", "AgreementWidget"]


class AgreementWidget(anywidget.AnyWidget):
    """The agreement in the browser (``agreement``: ``Agreement.state``), drawn by
    ``js/src/views/agreement.ts``; a click sends ``{"review": n}`` (-1: all)."""

    _esm = traitlets.Unicode(
        shared_module((Path(__file__).parent.parent / "static" / "review.js").read_text(), packaged().css)
    ).tag(sync=True)
    agreement = traitlets.Dict().tag(sync=True)


class AgreementView:
    """The agreement's widget and, under it, the review queue a click opened."""

    def __init__(self, agreement: Agreement) -> None:
        self.agreement = agreement
        self.widget = AgreementWidget(agreement=agreement.state(reviewable=True))
        self.widget.on_msg(self._on_message)
        self.reviewing = ipywidgets.VBox()  # the review queue opened last
        self.review: Any = None
        self.box = ipywidgets.VBox([self.widget, self.reviewing])
        self.box.add_class("mn-agreement-view")

    def _on_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        chosen = content.get("review") if isinstance(content, dict) else None
        if isinstance(chosen, int) and not isinstance(chosen, bool):
            self.open(chosen)

    def open(self, number: int) -> Any:
        """The review queue of the runs they disagree on, shown under the agreement at the one
        numbered ``number`` in the list (-1: where the queue resumes); the review."""
        keys = self.agreement.keys
        at = keys[number] if 0 <= number < len(keys) else None
        self.review = self.agreement.review(at=at)
        self.reviewing.children = (self.review.view.widget,)
        return self.review

    def bundle(self, **_kwargs: Any) -> dict[str, Any]:
        """The view's MIME bundle with the agreement as HTML beside it (a saved notebook's)."""
        return {
            "application/vnd.jupyter.widget-view+json": {
                "version_major": 2, "version_minor": 0, "model_id": self.box.model_id,
            },
            "text/plain": repr(self.agreement),
            "text/html": self.agreement._repr_html_(),
        }  # fmt: skip
