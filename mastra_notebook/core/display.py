"""How a tool call draws as data (issue 21): core asks, the notebook answers.

When a tool's result arrives, or its arguments parse again as they stream, the reducer asks the
run's :class:`Drawer` for the call's ``display`` (a ``RichDisplay`` as a dict: core/nodes.py) and
``args_display`` (an ``ArgsDisplay``). Core knows no renderer and no MIME type: the notebook's
drawer (``mn.renderer``'s registry, mastra_notebook/render/renderers.py) is wired in when the
package is imported (``draw_with``), and whoever makes a ``Run`` may pass its own.

A client tool's own display rides on its result chunk (``DISPLAY_KEY``): the kernel made it from
the Python object the tool returned, and a recording keeps it, so a replay draws it too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

DISPLAY_KEY = "mnDisplay"  # a result chunk's display, made by the notebook for its client tools

DrawResult = Callable[[str, Any], "dict[str, Any] | None"]
"""``(tool_name, result)`` to the result's display (a RichDisplay dict), or None: drawn as JSON."""
DrawArgs = Callable[[str, Any], "dict[str, Any] | None"]
"""``(tool_name, partial arguments)`` to how they draw as they stream (an ArgsDisplay dict), or None."""


def _nothing(tool_name: str, value: Any) -> None:
    return None


@dataclass(frozen=True, slots=True)
class Drawer:
    """What draws a run's tool calls as data. Neither function may raise (a renderer's error is
    its display's ``error``)."""

    result: DrawResult = _nothing
    args: DrawArgs = _nothing


NO_DRAWER = Drawer()
_wired: list[Drawer] = []


def draw_with(drawer: Drawer) -> None:
    """Set the drawer a ``Run`` uses when it is given none (the package sets the notebook's at
    import: mastra_notebook/__init__.py)."""
    _wired[:] = [drawer]


def wired_drawer() -> Drawer:
    """The drawer set by ``draw_with``, or one that draws nothing."""
    return _wired[0] if _wired else NO_DRAWER
