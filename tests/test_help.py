"""``help()`` documents what users receive: every field of every result type, with a sentence, and
every public method of the public classes (issue 17)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import pydoc
import typing
from collections.abc import Iterator
from typing import Any

import pydantic
import pytest

import mastra_notebook as mn
from mastra_notebook.client.chat import Chat
from mastra_notebook.client.mastra import Agent, Workflow, WorkflowRun
from mastra_notebook.client.session import RunSession
from mastra_notebook.client.transport import MastraError, Transport
from mastra_notebook.core.result import ErrorInfo, Step, Tripwire
from mastra_notebook.core.timing import StepTiming
from mastra_notebook.runs.batch import Batch, Job
from mastra_notebook.widget.conversation import Conversation
from mastra_notebook.widget.gallery import Gallery, Pages, Tile
from mastra_notebook.widget.streamview import KeptRun

# The chunk models mirror Mastra's wire format (its own names and payloads): documented by Mastra,
# not here. The result types are what this package makes of them.
CHUNKS = {mn.InvalidChunk, mn.UnknownChunk}
PUBLIC = [
    *(value for name in mn.__all__ if inspect.isclass(value := getattr(mn, name)) and value not in CHUNKS),
    *(value for name in mn.results.__all__ if inspect.isclass(value := getattr(mn.results, name))),
    Agent, Workflow, WorkflowRun, RunSession, Transport, MastraError, Chat, Gallery, Tile, Conversation,
    Batch, Job, Pages, KeptRun,
]  # fmt: skip


def models_within(model: type[pydantic.BaseModel], seen: set[type]) -> Iterator[type[pydantic.BaseModel]]:
    """``model`` and every model its fields hold, to any depth (a RunResult's ToolCall, its Decision...)."""
    if model in seen:
        return
    seen.add(model)
    yield model
    for field in model.model_fields.values():
        for inner in _types_in(field.annotation):
            if inspect.isclass(inner) and issubclass(inner, pydantic.BaseModel):
                yield from models_within(inner, seen)


def _types_in(annotation: Any) -> Iterator[Any]:
    yield annotation
    for arg in typing.get_args(annotation):
        yield from _types_in(arg)


RESULT_TYPES = sorted(
    {m for cls in PUBLIC if issubclass(cls, pydantic.BaseModel) for m in models_within(cls, set())},
    key=lambda m: m.__name__,
)


def test_the_result_types_are_all_walked() -> None:
    names = {model.__name__ for model in RESULT_TYPES}
    for model in (mn.RunResult, Step, mn.ToolCall, mn.Usage, mn.Decision, ErrorInfo, Tripwire, StepTiming):
        assert model.__name__ in names
    assert {"Timing", "Cost", "WorkflowStep", "Source", "File"} <= names


@pytest.mark.parametrize("model", RESULT_TYPES, ids=lambda m: m.__name__)
def test_help_shows_every_field_with_a_sentence(model: type[pydantic.BaseModel]) -> None:
    shown = pydoc.render_doc(model, renderer=pydoc.plaintext)
    undocumented = [
        name for name, field in model.model_fields.items() if not (field.description or "").strip()
    ]
    assert not undocumented, f"{model.__name__}: fields without a description: {undocumented}"
    for name, field in model.model_fields.items():
        assert f"\n |      {name}: " in shown, f"help({model.__name__}) does not list {name}"
        first_words = " ".join((field.description or "").split()[:4])
        assert first_words in " ".join(shown.replace("|", " ").split()), (model.__name__, name)


def public_members(cls: type) -> Iterator[tuple[str, Any]]:
    """The methods and properties a user calls, defined in this package (not ipywidgets' or pydantic's)."""
    for klass in cls.__mro__:
        if not klass.__module__.startswith("mastra_notebook"):
            continue
        for name, value in vars(klass).items():
            if name.startswith("_") or name in cls.__dict__.get("__pydantic_fields__", {}):
                continue
            function = value.fget if isinstance(value, property) else getattr(value, "__func__", value)
            if inspect.isfunction(function):
                yield f"{klass.__name__}.{name}", function


@pytest.mark.parametrize("cls", PUBLIC, ids=lambda c: c.__name__)
def test_every_public_class_and_method_has_a_docstring(cls: type) -> None:
    assert (cls.__dict__.get("__doc__") or "").strip(), f"{cls.__name__} has no docstring"
    missing = sorted({name for name, function in public_members(cls) if not (function.__doc__ or "").strip()})
    assert not missing, f"public methods without a docstring: {missing}"


def package_classes() -> Iterator[type]:
    """Every class the package's modules define under a public name, internal layers included."""
    for module_info in pkgutil.walk_packages(mn.__path__, "mastra_notebook."):
        if module_info.name.endswith("__main__"):
            continue
        module = importlib.import_module(module_info.name)
        for name, value in vars(module).items():
            if inspect.isclass(value) and value.__module__ == module.__name__ and not name.startswith("_"):
                yield value


def test_every_method_in_the_package_has_a_docstring() -> None:
    """A maintainer reads the core and the layers too: their classes' public methods say what they do."""
    missing = sorted(
        f"{cls.__module__}.{name}"
        for cls in package_classes()
        for name, function in public_members(cls)
        if not (function.__doc__ or "").strip()
    )
    assert not missing, f"methods without a docstring: {missing}"
