"""The static HTML transcript, for the widget layer (it lives in core, where ``RunResult`` shows it too)."""

from __future__ import annotations

from ..core.static import transcript_class
from ..core.transcript import render_html, render_snapshot

__all__ = ["render_html", "render_snapshot", "transcript_class"]
