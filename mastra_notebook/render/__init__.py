"""Drawing a run: the static HTML transcript (``static/``, the Python mirror of js/src/render/), the
transcript page (``transcript.py``) and the timeline's layout (``timeline.py``). Reads core's node
trees and results; core never imports it."""
