"""Option values without pydantic where a value needs no conversion.

Typer (0.29) coerces every option it parses through a pydantic TypeAdapter, built the first
time the option is processed, even when it was not given: importing pydantic and building the
adapters is ~0.1 s of CPU at every start, more than some commands cost. A text option's value
from the command line is already the text, a number written in digits is ``int`` or ``float`` of
them, and a default is already of its type:
``QuickGroup`` gives those parameters a coercion that returns exactly what the adapter would,
and hands any other value (a number with a sign or a bound, a float, a file, a parser) to
Typer's own coercion, built then. An option left out is never coerced (Typer returns None or
() before asking). Where Typer's internals are not the ones this was written for, nothing is
changed."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import typer.core

from engramdb.schema_errors import sentences

try:
    from typer._coercion import RuntimeParam, TypeDescriptor, build_runtime_param
except ImportError:  # another Typer: its own coercion, unchanged
    RuntimeParam = None  # type: ignore[assignment,misc]

DIGITS = re.compile(r"[0-9]{1,18}")
DECIMAL = re.compile(r"[0-9]{1,15}(\.[0-9]{1,15})?")


def _plain(descriptor: Any) -> str | None:
    """Which quick coercion fits: "str", "list[str]", "bool", "int", "float", or None (Typer's
    own)."""
    info = descriptor.parameter_info
    if descriptor.file_annotation is not None or info.parser is not None:
        return None
    annotation = descriptor.annotation
    if annotation is str:
        return "str"
    if annotation is bool:   # a flag left out is None (a given one is True: not coerced)
        return "bool"
    if annotation == list[str]:
        return "list[str]"
    if annotation in (int, float) and info.min is None and info.max is None:
        return annotation.__name__
    return None


if RuntimeParam is not None:

    @dataclass(frozen=True)
    class QuickParam(RuntimeParam):
        descriptor: TypeDescriptor
        plain: str

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            if self.plain == "str" and type(value) is str:
                return value
            if (self.plain == "list[str]" and isinstance(value, list | tuple)
                    and all(type(item) is str for item in value)):
                return list(value)
            if self.plain == "bool" and type(value) is bool:
                return value
            if self.plain == "int" and type(value) is int:   # its default
                return value
            if self.plain == "int" and type(value) is str and DIGITS.fullmatch(value):
                return int(value)
            if self.plain == "float" and type(value) is float:
                return value
            if self.plain == "float" and type(value) is str and DECIMAL.fullmatch(value):
                return float(value)
            full = build_runtime_param(self.descriptor)   # Typer's: pydantic loads now
            param._runtime_param = full
            return full._coerce_value(value, param=param, ctx=ctx)


def quicken(param: Any) -> None:
    """Give ``param`` the quick coercion if its type is a plain one and Typer has not built
    its own yet."""
    descriptor = getattr(param, "type_descriptor", None)
    if (RuntimeParam is None or descriptor is None
            or getattr(param, "_runtime_param", "") is not None):
        return
    plain = _plain(descriptor)
    if plain is not None:
        param._runtime_param = QuickParam(
            parameter_info=descriptor.parameter_info, annotation=descriptor.annotation,
            descriptor=descriptor, plain=plain)


def in_words(error: typer.BadParameter) -> None:
    """A value Typer's validator refused, said as the HTTP and MCP doors say it (``k must be
    a whole number, not the text 'many'``), not in the validator's words."""
    errors = getattr(error.__cause__, "errors", None)
    if callable(errors) and error.param is not None and error.param.name:
        error.message = sentences([{**e, "loc": (error.param.name,)} for e in errors()])


class Quick:
    """A command whose parameters (its --help among them) get the quick coercion before it
    parses its arguments."""

    params: list[Any]

    def make_context(self, info_name: str | None, args: list[str],
                     parent: Any = None, **extra: Any) -> Any:
        for param in self.params:
            quicken(param)
        try:
            return super().make_context(info_name, args, parent=parent,  # type: ignore[misc]
                                        **extra)
        except typer.BadParameter as error:
            in_words(error)
            raise

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)  # type: ignore[misc]
        if option is not None:
            quicken(option)
        return option


class QuickGroup(Quick, typer.core.TyperGroup):
    pass


class QuickCommand(Quick, typer.core.TyperCommand):
    pass
