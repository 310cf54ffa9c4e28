"""``mn.renderer``: Python functions that draw a tool's result, or its arguments as they stream.

A renderer maps a tool's JSON result (a server tool's, a sub-agent's, a client tool's) to a display
object: a DataFrame, a figure, an image, ``IPython.display.HTML``, anything :mod:`.rich` draws.
Registered for everyone (``mn.renderer(name, fn)``) or for one stream (``agent.stream(...,
renderers={name: fn})``, ``mn.view(path, renderers=...)``), it is applied by the reducer when the
result arrives (core/display.py), so live views, replays, transcripts and export pages all show it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar, overload

from ..core.display import Drawer
from .rich import display_of

ArgsSpec = Mapping[str, str] | Callable[[Any], Any]
"""``{"query": "sql"}``: that argument drawn as code in that language as it streams; or a function
of the partial arguments (a dict, or None before any parse) to a display object."""
LANGUAGES = frozenset({"sql", "python", "json", "markdown"})
Draw = TypeVar("Draw", bound=Callable[[Any], Any])


@dataclass(frozen=True, slots=True)
class Renderer:
    """How one tool's calls draw: ``result`` maps its JSON result to a display object; ``args``
    says how its arguments draw as they stream (:data:`ArgsSpec`)."""

    tool_name: str
    result: Callable[[Any], Any] | None = None
    args: ArgsSpec | None = None

    def draw_result(self, result: Any) -> dict[str, Any] | None:
        """The result's display (a RichDisplay dict); a renderer that raises gives its error."""
        if self.result is None:
            return None
        try:
            shown = self.result(result)
        except Exception as error:  # said on the card; the JSON stays one click away
            return {"data": None, "source": "renderer", "preview": None, "error": _message(error)}
        return display_of(shown, "renderer")

    def draw_args(self, args: Any) -> dict[str, Any] | None:
        """How the arguments so far draw (an ArgsDisplay dict)."""
        spec = self.args
        if spec is None:
            return None
        if isinstance(spec, Mapping):
            field, language = next(iter(spec.items()))
            return {"field": field, "language": language, "display": None}
        try:
            shown = display_of(spec(args), "renderer")
        except Exception as error:
            shown = {"data": None, "source": "renderer", "preview": None, "error": _message(error)}
        return {"field": None, "language": None, "display": shown}


_registered: dict[str, Renderer] = {}
_DECORATE: Any = object()  # no function given: ``@mn.renderer(name)`` (None removes one)


@overload
def renderer(tool_name: str) -> Callable[[Draw], Draw]: ...
@overload
def renderer(tool_name: str, *, args: ArgsSpec) -> Renderer: ...
@overload
def renderer(
    tool_name: str, fn: Callable[[Any], Any] | None, *, args: ArgsSpec | None = None
) -> Renderer | None: ...
def renderer(
    tool_name: str, fn: Callable[[Any], Any] | None = _DECORATE, *, args: ArgsSpec | None = None
) -> Any:
    """Draw the tool ``tool_name``'s calls, in every view from now on (``agent.stream(...,
    renderers={name: fn})`` for one stream only):

    - ``mn.renderer("search", fn)`` (or ``@mn.renderer("search")``): ``fn(result)`` maps the tool's
      JSON result to what its card shows (a DataFrame, a figure, ``IPython.display.HTML``...), when
      the result arrives, live, in replays, transcripts and export pages. If it raises, the card
      says why and the JSON stays one click away.
    - ``args={"query": "sql"}``: that argument is highlighted as code while it streams (``sql``,
      ``python``, ``json``, ``markdown``); ``args=fn``: ``fn(partial_args)`` is drawn instead, as
      often as the arguments are parsed again while they stream.

    ``mn.renderer(name, None)`` removes what was registered for ``name``. Returns the
    :class:`Renderer` (or, given no function and no ``args``, a decorator that registers the
    function it decorates and gives it back).
    """
    if fn is None and args is None:
        _registered.pop(tool_name, None)
        return None
    if fn is _DECORATE:
        if args is None:
            return lambda function: (renderer(tool_name, function), function)[1]
        fn = None
    if isinstance(args, Mapping):
        if len(args) != 1:
            raise ValueError(
                f"args= names one argument and its language, e.g. {{'query': 'sql'}}, not {args!r}"
            )
        language = next(iter(args.values()))
        if language not in LANGUAGES:
            raise ValueError(f"{language!r} is not one of {', '.join(sorted(LANGUAGES))}")
    made = Renderer(tool_name, fn, args)
    _registered[tool_name] = made
    return made


def drawer(renderers: Mapping[str, Any] | None = None) -> Drawer:
    """A run's drawer (core/display.py): ``renderers`` (``{name: fn}`` or ``{name: Renderer}``) first,
    then those registered with :func:`renderer` (read when a result arrives: one registered later
    serves later results)."""
    own = {name: _as_renderer(name, value) for name, value in (renderers or {}).items()}

    def find(tool_name: str) -> Renderer | None:
        return own.get(tool_name) or _registered.get(tool_name)

    def result(tool_name: str, value: Any) -> dict[str, Any] | None:
        found = find(tool_name)
        return None if found is None else found.draw_result(value)

    def args(tool_name: str, value: Any) -> dict[str, Any] | None:
        found = find(tool_name)
        return None if found is None else found.draw_args(value)

    return Drawer(result=result, args=args)


def registered_drawer() -> Drawer:
    """The drawer of every run made without one: the renderers registered with :func:`renderer`."""
    return _GLOBAL


def _as_renderer(name: str, value: Any) -> Renderer:
    if isinstance(value, Renderer):
        return value
    if callable(value):
        return Renderer(name, value)
    raise TypeError(
        f"renderers={{{name!r}: ...}} takes a function or mn.renderer(...), not {type(value).__name__}"
    )


def _message(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"


_GLOBAL = drawer()
