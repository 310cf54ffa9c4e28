"""The one renderer, run in the kernel.

The static transcript (saved notebooks, the export page's fallback, ``RunResult._repr_html_``, the
CLI's ``render``) is drawn by the live view's own TypeScript renderers: ``js/src/static/transcript.ts``
runs them on a string DOM and writes the result out as script-free HTML. Its bundle,
``static/transcript.js``, runs here in an embedded V8 (mini-racer), as Altair runs the one Vega
bundle through vl-convert. No second renderer exists in Python.

What the bundle returns is HTML the renderers built (text escaped, attributes quoted) with islands of
raw HTML (markdown, a tool's HTML display) standing apart; each island is sanitised here with nh3,
under the one policy the widget gives DOMPurify (``js/src/sanitize-policy.ts``, read from the bundle).

The engine starts at the first transcript, never at import, and is shared by the kernel's threads
under a lock (one V8 isolate: about 20 MB).
"""

from __future__ import annotations

import atexit
import re
import threading
from functools import cached_property
from importlib.resources import files
from typing import TYPE_CHECKING, Any

import nh3
import orjson

if TYPE_CHECKING:
    from py_mini_racer import JSFunction

__all__ = ["StaticHtml", "engine"]

_ISLAND = re.compile(r'<mn-island n="(\d+)"></mn-island>')
# The bundle's views (js/src/static/transcript.ts): a run's transcript, a tool result drawn as data,
# runs' timelines on one axis; the kernel's tables and panels (js/src/views/: render/views.py's data):
# a table view (catalogues, datasets, experiments), mn.compare whole and its step table, a chat turn's
# memory, a user turn, and a chat as one transcript.
_VIEWS = (
    "transcript",
    "rich",
    "timelines",
    "table",
    "pieces",
    "grid",
    "review",
    "agreement",
    "compare",
    "compareSteps",
    "memory",
    "userTurn",
    "conversation",
)


class StaticHtml:
    """The transcript bundle in one V8 context, and nh3 set up from the policy that bundle carries."""

    def __init__(self) -> None:
        from py_mini_racer import JSFunction, MiniRacer  # here: `import mastra_notebook` starts no engine

        self._lock = threading.Lock()
        self._context = MiniRacer()
        source = files("mastra_notebook").joinpath("static/transcript.js").read_text(encoding="utf-8")
        self._context.eval(source)
        self._views: dict[str, JSFunction] = {}
        for name in _VIEWS:
            view = self._context.eval(f"mastraNotebookStatic.{name}")
            assert isinstance(view, JSFunction), name  # the bundle defines each: js/src/static/transcript.ts
            self._views[name] = view
        self._policy: dict[str, Any] = self._read("mastraNotebookStatic.sanitizePolicy")
        self._tag_styles: dict[str, str] = self._read("mastraNotebookStatic.tagStyles")

    def _read(self, name: str) -> Any:
        return orjson.loads(str(self._context.eval(f"JSON.stringify({name})")))

    def close(self) -> None:
        """Ends the V8 isolate and its loop thread."""
        with self._lock:
            self._views.clear()
            self._context.close()

    def draw(self, view: str, **fields: Any) -> str | None:
        """The static HTML of ``view`` (one of ``_VIEWS``) for ``fields``, its raw HTML sanitised;
        None where the view draws nothing (a tool result that is plain JSON)."""
        payload = orjson.dumps(fields, default=str).decode()
        with self._lock:
            drawn = orjson.loads(str(self._views[view](payload)))
        if drawn is None:
            return None
        islands = [self._island(island) for island in drawn["islands"]]
        return _ISLAND.sub(lambda match: islands[int(match[1])], drawn["html"])

    def draw_each(self, view: str, **fields: Any) -> list[str]:
        """The static HTML of each of what ``view`` draws apart (``pieces``), raw HTML sanitised."""
        payload = orjson.dumps(fields, default=str).decode()
        with self._lock:
            drawn = orjson.loads(str(self._views[view](payload)))
        return [self._placed(one["html"], one["islands"]) for one in drawn]

    def _placed(self, html: str, raw: list[str]) -> str:
        """``html`` with each island sanitised and put where it stands."""
        islands = [self._island(island) for island in raw]
        return _ISLAND.sub(lambda match: islands[int(match[1])], html)

    def render(
        self,
        ops: list[Any],
        *,
        title: str = "",
        subtitle: str = "",
        requests: dict[str, Any] | None = None,
        classes: list[str] | None = None,
    ) -> str:
        """A snapshot's ops drawn as the run's transcript: one script-free HTML fragment."""
        html = self.draw(
            "transcript",
            ops=ops,
            title=title,
            subtitle=subtitle,
            requests=requests or {},
            classes=classes or [],
        )
        return html or ""

    @cached_property
    def _nh3_options(self) -> dict[str, Any]:
        policy = self._policy
        dropped = {*policy["urlAttributes"], *policy["toolStrippedAttributes"]}
        attributes = {tag: set(names) - dropped for tag, names in nh3.ALLOWED_ATTRIBUTES.items()}
        attributes.setdefault("a", set()).add("href")
        schemes = tuple(f"{scheme}:" for scheme in policy["linkSchemes"])

        def absolute_links(tag: str, attribute: str, value: str) -> str | None:
            # a link goes somewhere only by an absolute http(s) or mailto address (url.ts safeHref)
            if attribute == "href" and not value.strip().lower().startswith(schemes):
                return None
            return value

        return {
            "tags": set(nh3.ALLOWED_TAGS) - set(policy["forbidTags"]),
            "attributes": attributes,
            "attribute_filter": absolute_links,
            "url_schemes": set(policy["linkSchemes"]),
            "link_rel": "noopener noreferrer nofollow",
            "set_tag_attribute_values": {"a": {"target": "_blank"}},
            "strip_comments": True,
        }

    def sanitize(self, html: str) -> str:
        """Untrusted HTML (markdown's, a tool's) with nothing active left: no script, no remote load,
        no style, class or id of its own, links only to http(s) and mailto."""
        return nh3.clean(html, **self._nh3_options)

    @cached_property
    def _island_options(self) -> dict[str, Any]:
        styled = {tag: {"style": style} for tag, style in self._tag_styles.items()}
        return {**self._nh3_options, "set_tag_attribute_values": {**styled, "a": {"target": "_blank"}}}

    def _island(self, html: str) -> str:
        """An island of the transcript: sanitised, then styled by the palette's tags (pre, code, td...)."""
        return nh3.clean(html, **self._island_options)


_started: list[StaticHtml] = []  # the one engine, once started
_starting = threading.Lock()


def engine() -> StaticHtml:
    """The kernel's one transcript engine, started on first use.

    It is started on a thread of its own: mini-racer runs its calls on the event loop running where
    it is made, and in a kernel a cell runs inside the kernel's loop, which a blocking call would then
    wait on forever. Made where no loop runs, it keeps a loop thread of its own. It is closed at exit:
    left to the garbage collector at interpreter teardown, its loop thread's join could hang.
    """
    with _starting:
        if not _started:
            made: list[StaticHtml | BaseException] = []

            def start() -> None:
                try:
                    made.append(StaticHtml())
                except BaseException as error:  # handed to the caller, raised there
                    made.append(error)

            starter = threading.Thread(target=start, name="mastra-notebook-engine-start")
            starter.start()
            starter.join()
            if isinstance(made[0], BaseException):
                raise made[0]
            _started.append(made[0])
            atexit.register(made[0].close)
        return _started[0]
