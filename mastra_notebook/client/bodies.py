"""What a request to Mastra carries: a prompt as ``messages``, snake_case options as its camelCase
body fields (as ``@mastra/client-js`` sends them).

The options a call takes are declared once, here: :data:`AGENT_BODY` and :data:`WORKFLOW_BODY`
(Mastra's body fields, by their snake_case names) and the call's own keyword parameters. Mastra's
server lets any other field through and ignores it, so a misspelt option would run as if never
given: :func:`checked` refuses it before anything is sent, naming the closest known option. A body
field this table does not know yet goes in ``extra_body={"fieldName": ...}``, sent as given.
"""

from __future__ import annotations

import difflib
import functools
import inspect
import re
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any, ParamSpec, TypeVar

# Mastra's body of POST /api/agents/:id/stream (and /generate), by snake_case name: @mastra/server's
# agentExecutionBodySchema, ``messages`` aside (the prompt). The one list of what stream() passes on.
AGENT_BODY = frozenset({
    "instructions", "system", "context", "memory", "run_id", "save_per_step", "request_context",
    "versions", "max_steps", "stop_when", "model", "provider_options", "model_settings", "active_tools",
    "toolsets", "client_tools", "tool_choice", "require_tool_approval", "scorers", "return_scorer_data",
    "tracing_options", "output", "structured_output", "until_idle",
})  # fmt: skip
# POST /api/workflows/:id/stream: streamWorkflowBodySchema, ``inputData`` aside (stream()'s input_data).
WORKFLOW_BODY = frozenset({
    "resource_id", "initial_state", "request_context", "tracing_options", "per_step", "close_on_suspend",
})  # fmt: skip
EXTRA_BODY = "extra_body"  # Mastra body fields the tables above do not know yet, sent as given


class UnknownOption(TypeError):
    """An option no call of this package knows (``instructons=``): raised before any request. A
    TypeError, as Python's own for an unexpected keyword argument, which it extends: it names the
    closest known option."""


P = ParamSpec("P")
R = TypeVar("R")
_NAMED = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)


def refuse_unknown(given: Iterable[str], known: Collection[str], where: str) -> None:
    """Raise :class:`UnknownOption` when a name of ``given`` is neither in ``known`` nor the
    camelCase spelling of one (``maxSteps`` is ``max_steps``), naming the closest known option
    (``unknown option 'instructons': did you mean 'instructions'?``)."""
    spelled = {camel(name) for name in known}
    unknown = [name for name in given if name not in known and name not in spelled]
    if not unknown:
        return
    said, guessed = [], True
    for name in unknown:
        close = difflib.get_close_matches(name, sorted(known), n=1)
        said.append(f"{name!r}: did you mean {close[0]!r}?" if close else f"{name!r}")
        guessed = guessed and bool(close)
    hatch = (  # a name like none known may be a Mastra field newer than the table
        f" (a Mastra body field this package does not know yet goes in {EXTRA_BODY}={{...}})"
        if EXTRA_BODY in known and not guessed
        else ""
    )
    noun = "option" if len(unknown) == 1 else "options"
    raise UnknownOption(f"{where}: unknown {noun} {'; '.join(said)}{hatch}")


def known_options(call: Callable[..., Any]) -> frozenset[str] | None:
    """The keyword options ``call`` takes: those :func:`checked` gave it, else its named parameters;
    None when it takes any ``**options`` unchecked (nothing can be refused on its behalf)."""
    known = getattr(call, "known_options", None)
    if isinstance(known, frozenset):
        return known
    named, more = _parameters(call)
    return None if more else named


def refuse_unknown_to(call: Callable[..., Any], given: Iterable[str], where: str) -> None:
    """:func:`refuse_unknown` against what ``call`` takes, when that is known."""
    known = known_options(call)
    if known is not None:
        refuse_unknown(given, known, where)


def _parameters(call: Callable[..., Any]) -> tuple[frozenset[str], bool]:
    """``call``'s named keyword parameters, and whether it takes ``**more``."""
    parameters = inspect.signature(call).parameters.values()
    named = frozenset(p.name for p in parameters if p.kind in _NAMED and p.name != "self")
    return named, any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters)


def checked(
    body: Collection[str] = (), *, passes_to: Callable[..., Any] | None = None
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """A call that refuses an option it does not know before it runs (:func:`refuse_unknown`): it
    knows its own keyword parameters, Mastra's ``body`` fields when it sends them (and
    ``extra_body``), and the options of ``passes_to`` when its ``**options`` go there."""

    def decorate(call: Callable[P, R]) -> Callable[P, R]:
        known, _ = _parameters(call)
        if body:
            known |= {*body, EXTRA_BODY}
        if passes_to is not None:
            known |= known_options(passes_to) or frozenset()
        owner, _, name = call.__qualname__.rpartition(".")
        where = f"{owner.lower()}.{name}()" if owner else f"{name}()"

        @functools.wraps(call)
        def check_then_call(*args: P.args, **kwargs: P.kwargs) -> R:
            refuse_unknown(kwargs, known, where)
            return call(*args, **kwargs)

        vars(check_then_call)["known_options"] = known
        return check_then_call

    return decorate


def camel(name: str) -> str:
    """``max_steps`` -> ``maxSteps``; a name already in camelCase is left alone."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def _schema(value: Any) -> Any:
    """A pydantic model class becomes its JSON schema; anything else is passed as given."""
    if isinstance(value, type) and hasattr(value, "model_json_schema"):
        return value.model_json_schema()
    return value


# Options whose own keys are Mastra's too (``model_settings={"max_output_tokens": 200}``); the keys
# of ``request_context`` are the user's, passed as given.
_CAMEL_KEYS = ("model_settings", "tracing_options")
_TRACE_ID = re.compile(r"[0-9a-f]{32}")


def body_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """snake_case keyword options as Mastra's camelCase body fields: ``request_context`` ->
    ``requestContext``, ``model_settings`` -> ``modelSettings`` (its keys too: ``max_output_tokens``
    -> ``maxOutputTokens``)... ``extra_body={"someField": ...}`` is merged in last, as given: the
    fields Mastra has that the tables here do not know yet. The names are checked by the calls
    (:func:`checked`), not here."""
    extra = options.get(EXTRA_BODY)
    if extra is not None and not isinstance(extra, Mapping):
        raise TypeError(f"{EXTRA_BODY}= is a mapping of Mastra body fields, not {type(extra).__name__}")
    body = {camel(name): value for name, value in options.items() if name != EXTRA_BODY}
    for name in _CAMEL_KEYS:
        given = options.get(name)
        if isinstance(given, Mapping):
            body[camel(name)] = {camel(str(key)): value for key, value in given.items()}
    output = options.get("structured_output")
    if isinstance(output, Mapping):
        body["structuredOutput"] = {camel(k): (_schema(v) if k == "schema" else v) for k, v in output.items()}
    elif output is not None:  # a bare model class or JSON schema
        body["structuredOutput"] = {"schema": _schema(output)}
    return {**body, **(extra or {})}


def chosen_trace_id(body: Mapping[str, Any]) -> str | None:
    """The trace id the caller chose (``tracing_options={"trace_id": ...}``), when Mastra takes it
    (32 lowercase hex digits: the server silently replaces any other)."""
    options = body.get("tracingOptions")
    chosen = options.get("traceId") if isinstance(options, Mapping) else None
    return chosen if isinstance(chosen, str) and _TRACE_ID.fullmatch(chosen) else None


def messages(prompt: Any) -> Any:
    """A prompt as Mastra's ``messages``; what is neither text nor messages goes as given, for the
    server to judge (its 400 names the field)."""
    if isinstance(prompt, str):
        return [{"role": "user", "content": prompt}]
    if isinstance(prompt, Mapping):
        return [dict(prompt)]
    return list(prompt) if isinstance(prompt, (list, tuple)) else prompt
