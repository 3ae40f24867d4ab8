"""The command line's start-up kept to what the command run needs.

A run of `fivedice COMMAND` uses one command, so the console script (`fivedice.cli.main`)
builds the click object of that one only (`lazy_group`): typer builds a command's parameters
from its function's signature, evaluating every annotation, about a millisecond a command,
and `fivedice --help` is the only run that lists them all. The commands are still defined once,
where they are (`app.command(...)` in each group module), and `typer.main.get_command(app)`
still builds them all (tests, tools).

Typer reads every parameter's value through a pydantic `TypeAdapter` built on first use;
pydantic's import alone costs more than answering `fivedice advise` from a cached table.
`read_plain_values` gives the parameters whose values need no pydantic (text, whole numbers
written as digits, lists of text, flags) a reader that returns what pydantic returns; any
other value (` 7`, `3.0`, `x`, a path, a number with bounds) still goes through typer's own
adapter, with its own message when refused.

>>> _plain_int("42"), _plain_int("-7"), _plain_int("3.0"), _plain_int("x")
(42, -7, None, None)
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterator, MutableMapping
from dataclasses import dataclass
from typing import Any

import typer
import typer.main
from typer import _click
from typer.core import TyperCommand

__all__ = ["LazyCommands", "lazy_group", "read_plain_values"]

Command = _click.Command


class LazyCommands(MutableMapping[str, Command]):
    """A group's commands by name, each built (and prepared) the first time it is looked up.

    Listing the names builds nothing; `items()` and `values()` build every command (the group's
    help lists them all).
    """

    def __init__(
        self,
        app: typer.Typer,
        command_class: type[Any] | None,
        prepare: Callable[[Command], None],
    ) -> None:
        self._infos = {_name(info): info for info in app.registered_commands}
        self._names = list(self._infos)  # in the order the commands were registered
        self._built: dict[str, Command] = {}
        self._app = app
        self._command_class = command_class
        self._prepare = prepare

    def __getitem__(self, name: str) -> Command:
        command = self._built.get(name)
        if command is None:
            info = self._infos[name]  # KeyError: no such command (`get` returns None)
            if self._command_class is not None and info.cls in (None, TyperCommand):
                info = copy.copy(info)
                info.cls = self._command_class
            command = typer.main.get_command_from_info(
                info,
                pretty_exceptions_short=self._app.pretty_exceptions_short,
                rich_markup_mode=self._app.rich_markup_mode,
            )
            self._prepare(command)
            self._built[name] = command
        return command

    def __setitem__(self, name: str, command: Command) -> None:
        if name not in self._infos and name not in self._built:
            self._names.append(name)
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        if name not in self._infos and name not in self._built:
            raise KeyError(name)
        self._names.remove(name)
        self._infos.pop(name, None)
        self._built.pop(name, None)

    def __contains__(self, name: object) -> bool:
        return name in self._infos or name in self._built  # without building it

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


def _name(info: typer.models.CommandInfo) -> str:
    if info.name:
        return info.name
    assert info.callback is not None  # typer refuses a command without one
    return typer.main.get_command_name(info.callback.__name__)


def lazy_group(
    app: typer.Typer,
    *,
    group_class: type[Any] | None = None,
    command_class: type[Any] | None = None,
    prepare: Callable[[Command], None] = lambda command: None,
) -> Any:
    """The click group of `app` (its callback and options; of `group_class` if given) whose
    commands are built when looked up, each of `command_class` (where the command has typer's
    default class) and passed to `prepare` once built."""
    shell = copy.copy(app)
    shell.registered_commands = []  # the group alone: its commands come from `app`, lazily
    if group_class is not None:
        shell.info = copy.copy(app.info)
        shell.info.cls = group_class
    group = typer.main.get_command(shell)
    group.commands = LazyCommands(app, command_class, prepare)  # type: ignore[attr-defined]
    return group


_DIGITS = re.compile(r"[+-]?[0-9]{1,18}")  # ASCII digits only: int() would take '٣' and ' 7'


def _plain_int(value: object) -> int | None:
    """A whole number written as plain digits, as pydantic reads it; None for anything else."""
    if type(value) is int:
        return value
    if type(value) is str and _DIGITS.fullmatch(value):
        return int(value)
    return None


def _plain_value(annotation: object, value: object) -> tuple[bool, object]:
    """(True, what typer's pydantic adapter returns for `value`), or (False, None) when only
    the adapter can tell (it then accepts or refuses with its own message)."""
    plain: object = None
    if annotation is str or annotation is bool:
        plain = value if type(value) is annotation else None
    elif annotation is int:
        plain = _plain_int(value)
    elif annotation == list[str] and isinstance(value, tuple | list):
        plain = list(value) if all(type(item) is str for item in value) else None
    return plain is not None, plain


_RuntimeParam: Any = None  # typer's runtime reader base class, once a reader is made


def _reader_class() -> Any:
    """The reader class, made on first use on typer's own base (a typer without pydantic
    readers has none: None)."""
    global _RuntimeParam
    if _RuntimeParam is None:
        try:
            from typer._coercion import RuntimeParam, build_runtime_param
        except ImportError:
            _RuntimeParam = False
            return None

        @dataclass(frozen=True)
        class PlainRuntimeParam(RuntimeParam):
            """Reads plain values itself, anything else through typer's adapter."""

            def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
                known, plain = _plain_value(self.annotation, value)
                if known:
                    return plain
                general = build_runtime_param(param.type_descriptor)
                return general._coerce_value(value, param=param, ctx=ctx)

        _RuntimeParam = PlainRuntimeParam
    return _RuntimeParam or None


def read_plain_values(command: Command) -> None:
    """Gives each parameter of `command` that takes text, a whole number, a list of text or a
    flag (without bounds, choices or files) the pydantic-free reader, before its first value;
    the help option too, if it is made already."""
    params: list[Any] = list(command.params)
    help_option = getattr(command, "_help_option", None)
    if help_option is not None:
        params.append(help_option)
    for param in params:
        descriptor = getattr(param, "type_descriptor", None)
        if descriptor is None or getattr(param, "_runtime_param", False) is not None:
            continue  # not typer's, or a reader is already made
        if descriptor.annotation not in (str, int, bool, list[str]):
            continue
        if descriptor.is_ranged or descriptor.is_choice or descriptor.is_file:
            continue
        if descriptor.is_path:
            continue
        reader = _reader_class()
        if reader is None:
            return
        param._runtime_param = reader(
            parameter_info=descriptor.parameter_info, annotation=descriptor.annotation
        )
