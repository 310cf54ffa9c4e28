"""A shown view's saved-notebook face: its static transcript, kept up to date in every output showing it.

A view is displayed as the widget, then its transcript (script-free HTML: what GitHub, nbviewer and
nbconvert show) as an output of its own. When the run settles only the transcript is updated, so the
live widget is never drawn again. And since headless executors record only the messages of the cell
executing now, the final state and transcript are sent again from the cell that waits for the run, or
after the cell during which it ended (IPython's ``post_run_cell``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

# A notebook saved without its widget state (JupyterLab's default) and reopened: the widget's output
# above a transcript says "Loading widget...", then "Error displaying widget: model not found". The
# transcript below says the run, so that output is hidden: only a widget's output (jupyterlab-manager's
# renderer is a Lumino Panel) just above a transcript, and only while it holds no view (text alone).
# The :has() arguments look at direct children only, so a streaming view's changes restyle nothing
# (benchmarks/latency.py; js/src/transcripts.ts says why a deeper :has() was dropped).
LOST_WIDGET_RULE = (
    "<style>.jp-OutputArea-child:has(+ .jp-OutputArea-child > .jp-OutputArea-output"
    " > .mastra-notebook-transcript) > .jp-OutputArea-output.lm-Panel:not(:has(> *)){display:none}</style>"
)


def saved_face(transcript_html: str) -> dict[str, str]:
    """A transcript's MIME bundle as an output of its own below its widget (see LOST_WIDGET_RULE)."""
    return {"text/html": LOST_WIDGET_RULE + transcript_html}


class Transcripts:
    """The transcript outputs of one view, and the final state still to be sent from a cell."""

    def __init__(
        self, draw: Callable[[], str], resend: Callable[[], None], ended: Callable[[], bool]
    ) -> None:
        """``draw``: the transcript's HTML now; ``resend``: send the view's final state again
        (from the cell running now); ``ended``: whether the run has settled."""
        self._draw, self._resend, self._ended = draw, resend, ended
        self._displays: list[Any] = []  # IPython display handles, updated with the final transcript
        self._unpublished = False  # the run ended; its final state not yet sent again from a cell
        self._shell: Any = None  # the IPython shell whose cells are watched, once shown

    def show(self, widget: Any) -> None:
        """Display ``widget`` (its MIME bundle, or bundle and metadata), saved with an empty text/plain,
        then the transcript as an output of its own, updated when the run settles."""
        from IPython.display import display

        data, metadata = widget if isinstance(widget, tuple) else (widget, {})  # Colab needs the metadata
        # text/plain is what an untrusted notebook and nbconvert show of the widget: the transcript below
        # says the run, so it says nothing (a line like "<StreamView ...>" stood above each transcript)
        display({**data, "text/plain": ""}, metadata=metadata, raw=True)  # type: ignore[no-untyped-call]
        self.add(display(saved_face(self._draw()), raw=True, display_id=True))  # type: ignore[no-untyped-call]

    def add(self, handle: Any) -> None:
        """Keep ``handle`` (a display's: ``update(bundle, raw=True)``) up to date with the transcript;
        in IPython, watch its cells (see ``publish``)."""
        self._displays.append(handle)
        from IPython import get_ipython

        shell = get_ipython()
        if shell is None or self._shell is shell:
            return
        self._shell = shell
        shell.events.register("post_run_cell", self._after_cell)

    def settled(self) -> None:
        """The run settled (or changed after): the transcripts now; the final state, again from a cell."""
        self.update()
        self._unpublished = True

    def update(self) -> None:
        """Bring every transcript output up to date."""
        if self._displays:
            transcript = saved_face(self._draw())
            for handle in self._displays:
                handle.update(transcript, raw=True)

    def publish(self) -> None:
        """Send the final state and transcript again, from the cell running now.

        A background stream's messages carry the parent of the cell that started it, and headless
        executors (nbclient, ``jupyter execute``, ``nbconvert --execute``) record only the messages
        of the cell now executing: what ``wait()`` returns, or a run that ended during a later cell,
        must also be written in that cell's context to reach the saved notebook.
        """
        if not self._ended() or not self._unpublished:
            return
        self._unpublished = False
        self._resend()
        self.update()

    def _after_cell(self, _result: Any = None) -> None:
        """IPython's ``post_run_cell``: a run that ended during (or before) this cell is saved with it."""
        if self._ended():
            self.publish()
            with contextlib.suppress(ValueError, AttributeError):
                self._shell.events.unregister("post_run_cell", self._after_cell)
