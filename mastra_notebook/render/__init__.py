"""Drawing a run in the kernel: the static transcript (``transcript.py``), drawn by the widget's own
TypeScript renderers in an embedded engine (``engine.py``), and what a tool's result becomes before it
is drawn (``rich.py``, ``renderers.py``). Reads core's node trees and results; core never imports it."""

DEFAULT_MAX_HEIGHT = "70vh"  # a taller view scrolls inside itself (a CSS length; the client's default too)
