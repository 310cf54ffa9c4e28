"""Result types whose fields document themselves, in ``help()`` as in their JSON schema.

A field's sentence is the docstring under it (pydantic's ``use_attribute_docstrings``), kept as the
field's ``description``. pydoc shows a class's docstring but not its pydantic fields, so each class's
docstring ends with a "Fields" section made from those descriptions: one source for both.
"""

from __future__ import annotations

import inspect
import textwrap
import types
import typing
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

_INDENT = " " * 8


class Documented(BaseModel):
    """A result type: its fields are listed, each with a sentence, in ``help()``."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)
    _own_doc: ClassVar[str]  # the class's own docstring, before its fields were added

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        cls._own_doc = inspect.cleandoc(cls.__dict__.get("__doc__") or "")
        cls._document()

    @classmethod
    def __pydantic_on_complete__(cls) -> None:  # pydantic 2.12+: again once forward references resolve
        super().__pydantic_on_complete__()
        if "_own_doc" in cls.__dict__:
            cls._document()

    @classmethod
    def _document(cls) -> None:
        own = cls._own_doc
        cls.__doc__ = f"{own}\n\n{fields_section(cls)}" if own else fields_section(cls)


def fields_section(model: type[BaseModel]) -> str:
    """``Fields:`` then each field's name, type and sentence, as pydoc shows a docstring."""
    lines = ["Fields:"]
    for name, field in model.model_fields.items():
        lines.append(f"    {name}: {type_name(field.annotation)}")
        sentence = field.description or ""
        lines.extend(
            textwrap.wrap(
                sentence, 80, initial_indent=_INDENT, subsequent_indent=_INDENT, break_on_hyphens=False
            )
        )
    return "\n".join(lines)


def type_name(annotation: Any) -> str:
    """A field's type as written (``str | None``, ``list[ToolCall]``), without its serializers."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:
        return type_name(args[0])
    if origin in (typing.Union, types.UnionType):
        return " | ".join(type_name(arg) for arg in args)
    if origin is typing.Literal:
        return f"Literal[{', '.join(map(repr, args))}]"
    if origin is not None:
        return f"{getattr(origin, '__name__', origin)}[{', '.join(map(type_name, args))}]"
    if annotation is type(None):
        return "None"
    if isinstance(annotation, typing.ForwardRef):  # not resolved yet (pydantic before 2.12)
        return annotation.__forward_arg__
    return getattr(annotation, "__name__", None) or str(annotation).replace("typing.", "")
