"""How the commands present themselves: metavars a player reads, usage errors in arbo's words (exit 2)."""

from __future__ import annotations

import sys
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable, ClassVar, Iterator, NoReturn, Sequence

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption
from typer.models import ParameterInfo

from arbo_notation.errors import visible
from arbo_notation.cli.common import EXIT_OK, EXIT_USAGE, drop_stdout

# click's values (a context, a parameter, a command, a formatter) are Any here: typer runs on a
# copy of click of its own (typer._click from 0.29), whose names are not typer's public API.

#: The exception family of a usage error, whichever click typer runs on.
UsageError: type[Exception] = typer.BadParameter.__mro__[1]


# -- parsers of option values: each error names the option, in a player's words -------------------


def whole_number(option: str, minimum: int, maximum: int | None = None) -> Callable[[Any], int]:
    """A parser of a whole number from ``minimum`` up (to ``maximum``) for ``option``."""
    if maximum is None:
        bounds = f"{minimum} or more"
    elif maximum - minimum <= 2:
        values = [str(v) for v in range(minimum, maximum + 1)]
        bounds = f"{', '.join(values[:-1])} or {values[-1]}"
    else:
        bounds = f"{minimum} to {maximum}"

    def parse(text: Any) -> int:
        if isinstance(text, int):
            return text
        try:
            value = int(str(text).strip(), 10)
        except ValueError:
            raise typer.BadParameter(f"{option} takes a whole number ({bounds}), not {text!r}") from None
        if maximum is not None and maximum - minimum <= 2 and not minimum <= value <= maximum:
            raise typer.BadParameter(f"{option} must be {bounds}, not {value}")
        if value < minimum:  # (the bound passed, not both: say which side)
            raise typer.BadParameter(f"{option} must be {minimum} or more, not {value}")
        if maximum is not None and value > maximum:
            raise typer.BadParameter(f"{option} must be {maximum} or less, not {value}")
        return value

    parse.bounds = bounds  # type: ignore[attr-defined]  # a function attribute: the option's help shows the range
    return parse


def number_between(option: str, minimum: float, maximum: float) -> Callable[[Any], float]:
    """A parser of a number (a fraction allowed) from ``minimum`` to ``maximum`` for ``option``."""
    bounds = f"{minimum:g} to {maximum:g}"

    def parse(text: Any) -> float:
        if isinstance(text, (int, float)):
            return float(text)
        try:
            value = float(str(text).strip())
        except ValueError:
            raise typer.BadParameter(f"{option} takes a number ({bounds}), not {text!r}") from None
        if not minimum <= value <= maximum:  # NaN too
            raise typer.BadParameter(f"{option} must be {bounds}, not {text.strip()}")
        return value

    parse.bounds = bounds  # type: ignore[attr-defined]  # a function attribute: the option's help shows the range
    return parse


def one_of(option: str, choices: Sequence[str], make: Callable[[str], Any] = str) -> Callable[[Any], Any]:
    """A parser of one of ``choices`` (any case) for ``option``; ``make`` builds the value."""

    def parse(text: Any) -> Any:
        if not isinstance(text, str):
            return text  # already a value (a default)
        wanted = text.strip().lower()
        if wanted not in choices:
            raise typer.BadParameter(f"{option} must be one of {', '.join(choices)}, not {text!r}")
        return make(wanted)

    return parse


def a_path(option: str) -> Callable[[Any], Any]:
    """A parser of a path for ``option``: any text but an empty one, which names no file (a
    folder made of '' would be the current one, a file '' cannot be opened)."""

    def parse(text: Any) -> Any:
        if isinstance(text, str) and not text.strip():
            raise typer.BadParameter(f"{option} takes a path, not {text!r}")
        return text

    return parse


# -- the commands' help and errors ------------------------------------------------------------


def _process_value(self: Any, ctx: Any, value: Any) -> Any:
    """A parameter's value through its own parser (``whole_number``, ``one_of``...), never through
    typer's pydantic adapters: importing pydantic and building them costs more than half a small
    command's start-up, and every option of arbo that is neither text nor a flag has a parser of
    its own, which the adapters would only repeat. This is click's public ``process_value``, the
    step from the value read to the value passed."""
    multiple = self.multiple or self.nargs == -1
    if value is None or (multiple and value in ((), [])):
        if self.required:  # typer's own "missing argument" error
            base = TyperArgument if isinstance(self, TyperArgument) else TyperOption
            return base.process_value(self, ctx, value)
        value = () if multiple else None
    else:
        try:
            value = [self.parse(item) for item in value] if multiple else self.parse(value)
        except typer.BadParameter as error:
            error.ctx, error.param = ctx, self
            raise
    if self.callback is not None:
        value = self.callback(ctx, self, value)
    return value


def _as_read(value: Any) -> Any:
    return value


class _NamedArgument(TyperArgument):
    """An argument shown by its metavar alone (``FILE``, ``[FILE]``, ``FILE...``, never ``<str>``),
    its value read by its parser."""

    parse: Callable[[Any], Any] = staticmethod(_as_read)
    process_value = _process_value

    def display_type_rich(self, ctx: Any) -> str | None:
        return None

    def get_usage_pieces(self, ctx: Any) -> list[str]:
        name = self.metavar or self.name.upper()
        if self.nargs != 1 and not name.endswith("..."):
            name += "..."
        return [name if self.required else f"[{name}]"]


class _ParsedOption(TyperOption):
    """An option whose value its own parser reads; a number's help ends with its range."""

    parse: Callable[[Any], Any] = staticmethod(_as_read)
    process_value = _process_value

    def get_help_record(self, ctx: Any) -> tuple[str, str] | None:
        record = super().get_help_record(ctx)
        bounds = getattr(self.parse, "bounds", None)
        if record is None or bounds is None or bounds in (self.help or ""):
            return record
        names, text = record
        return names, f"{text}  [range: {bounds}]"


def parsers_of(function: Callable[..., Any]) -> dict[str, Callable[[Any], Any]]:
    """Each parameter's parser, by name: its own (``parser=``), else whole numbers for ``int``,
    one of the members for an Enum, the text as read for the rest."""
    import inspect
    import typing

    hints = typing.get_type_hints(function)
    parsers = {}
    for name, parameter in inspect.signature(function).parameters.items():
        info = parameter.default if isinstance(parameter.default, ParameterInfo) else None
        option = next((d for d in (info.param_decls or ()) if d.startswith("--")), None) if info else None
        own = info.parser if info is not None else None
        parsers[name] = own or _plain_parser(hints.get(name), option or f"--{name.replace('_', '-')}")
    return parsers


def _plain_parser(annotation: Any, option: str) -> Callable[[Any], Any]:
    """The parser of an option without one of its own: whole numbers for ``int``, else as read."""
    import typing

    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    base = args[0] if typing.get_origin(annotation) in (typing.Union, list) and args else annotation
    if base is int:
        return whole_number(option, -(1 << 62))  # every option of arbo's own has its parser; a safety net
    if isinstance(base, type) and issubclass(base, Enum):
        return one_of(option, [str(member.value) for member in base], base)
    return lambda value: value


def _tidy(params: list[Any], parsers: dict[str, Callable[[Any], Any]] | None = None) -> list[Any]:
    """Show flags without a type and arguments by their metavar only; read each value with its
    parser in ``parsers`` (by name; as read without one), never with pydantic."""
    for param in params:
        if isinstance(param, (_NamedArgument, _ParsedOption)):
            continue
        if isinstance(param, TyperArgument):
            # typer builds its arguments itself and has no setting for their type column
            param.__class__ = _NamedArgument
        elif isinstance(param, TyperOption):
            param.__class__ = _ParsedOption
        if isinstance(param, (_NamedArgument, _ParsedOption)):
            param.parse = (parsers or {}).get(param.name, _as_read)
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
    return params


def _hint(error: Any) -> str:
    """'--turn' for an option, 'FILE' for an argument: how the error names what was wrong."""
    param = getattr(error, "param", None)
    if param is not None:
        if getattr(param, "param_type_name", "") == "argument":
            return str(param.metavar or param.name.upper())
        names = [o for o in param.opts if o.startswith("--")] or list(param.opts)
        return str(names[0] if names else param.name)
    hint = getattr(error, "param_hint", None)
    if isinstance(hint, (list, tuple)):
        hint = hint[0] if hint else None
    return str(hint).strip("'\"") if hint else ""


def usage_message(error: Any) -> str:
    """A usage error in one line of arbo's words."""
    if isinstance(error, typer.BadParameter) and type(error).__name__ != "MissingParameter":
        message = error.message
        hint = _hint(error)
        if hint and not message.startswith(hint):
            message = f"{hint}: {message}"
    else:
        message = error.format_message()
    message = " ".join(message.split()).rstrip(".")
    if message[:1].isupper() and message[1:2].islower():
        message = message[0].lower() + message[1:]
    ctx = getattr(error, "ctx", None)
    if ctx is not None:
        message += f" (see '{ctx.command_path} --help')"
    return message


def _missing_name(param: Any) -> str:
    """How a bare command names what it lacks: ``argument FILE``, ``option --players``."""
    if getattr(param, "param_type_name", "") == "argument":
        return f"argument {(param.metavar or param.name.upper()).strip('[]').removesuffix('...')}"
    names = [o for o in param.opts if o.startswith("--")] or list(param.opts)
    return f"option {names[0]}"


def _report_bare(ctx: Any, missing: Any) -> NoReturn:
    """A command run with nothing: its usage line, what it lacks, where its help is (as git and
    cargo answer), exit 2; the same for every command, whatever it lacks."""
    typer.echo(
        f"{ctx.get_usage()}\narbo: missing {_missing_name(missing)}\nTry '{ctx.command_path} --help' for help.",
        err=True,
    )
    raise typer.Exit(EXIT_USAGE)


def _report_usage(error: Any) -> NoReturn:
    if type(error).__name__ == "NoArgsIsHelpError":  # bare `arbo`: its help, the commands listed
        typer.echo(error.ctx.get_help(), err=True)
        raise typer.Exit(EXIT_USAGE)
    typer.echo(visible(f"arbo: {usage_message(error)}", "\n"), err=True)  # it may quote what was typed
    raise typer.Exit(EXIT_USAGE)


class ArboCommand(TyperCommand):
    """A command whose help shows metavars a player reads, and whose values its parsers read."""

    #: The parsers of the command's parameters, by name (ArboApp.command sets them).
    parsers: ClassVar[dict[str, Callable[[Any], Any]]] = {}

    def get_params(self, ctx: Any) -> list[Any]:
        return _tidy(super().get_params(ctx), self.parsers)

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if not args and not ctx.resilient_parsing:  # run bare, and not asked for completions
            missing = next((p for p in self.get_params(ctx) if p.required), None)
            if missing is not None:
                _report_bare(ctx, missing)
        return super().parse_args(ctx, args)


@dataclass(frozen=True, slots=True)
class Listing:
    """A command's line in its group's help, as click makes it: its ``short_help`` as it is, else
    its ``help`` (the first sentence is enough) shortened to fit."""

    short_help: str | None = None
    help: str = ""

    def get_short_help_str(self, limit: int) -> str:
        """The line in at most ``limit`` characters (a ``short_help`` is never shortened): click's
        own, of a bare command with this help."""
        return TyperCommand(None, help=self.help, short_help=self.short_help).get_short_help_str(limit)


class LazyCommands(MutableMapping[str, Any]):
    """A group's commands by name, each built by ``load(name)`` when first looked up: the names
    are known at once (for suggestions on a typo), the commands' modules imported when needed."""

    def __init__(self, names: Sequence[str], load: Callable[[str], Any], built: dict[str, Any]) -> None:
        self._names = list(names)
        self._load = load
        self._built = dict(built)
        self._names += [name for name in built if name not in self._names]

    def __getitem__(self, name: str) -> Any:
        command = self._built.get(name)
        if command is None:
            if name not in self._names:
                raise KeyError(name)
            command = self._built[name] = self._load(name)
        return command

    def __setitem__(self, name: str, command: Any) -> None:
        if name not in self._names:
            self._names.append(name)
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        self._names.remove(name)
        self._built.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._names))

    def __len__(self) -> int:
        return len(self._names)

    def __contains__(self, name: object) -> bool:
        return name in self._names


class ArboGroup(TyperGroup):
    """The `arbo` command: its help as its commands', and every usage error as one line, exit 2."""

    #: The commands built on demand (of_commands), with their lines in the help, and how to build one.
    lazy_listings: Mapping[str, Listing] = {}
    lazy_load: Callable[[str], Any] | None = None

    @classmethod
    def of_commands(cls, listings: Mapping[str, Listing], load: Callable[[str], Any]) -> type["ArboGroup"]:
        """A group whose commands (the names of ``listings``) are built by ``load(name)`` when first
        needed; its help lists them by their ``listings``, none built."""
        return type(
            cls.__name__,
            (cls,),
            {"__module__": cls.__module__, "lazy_listings": dict(listings), "lazy_load": staticmethod(load)},
        )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.lazy_load is not None:
            self.commands = LazyCommands(list(self.lazy_listings), self.lazy_load, dict(self.commands))

    def list_commands(self, ctx: Any) -> list[str]:
        return list(self.commands)  # the names, without building the commands

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """The commands listed as typer lists them, but a lazy command by its listing: `arbo --help`
        imports no command's module, so each module imports what its command uses at its top."""
        entries: list[tuple[str, Any]] = []  # a Listing or a built command: each has get_short_help_str
        for name in self.list_commands(ctx):
            entry = self.lazy_listings.get(name) or self.get_command(ctx, name)
            if entry is not None and (isinstance(entry, Listing) or not entry.hidden):
                entries.append((name, entry))
        if entries:
            limit = formatter.width - 6 - max(len(name) for name, _ in entries)
            with formatter.section("Commands"):
                formatter.write_dl([(name, entry.get_short_help_str(limit)) for name, entry in entries])

    def get_params(self, ctx: Any) -> list[Any]:
        return _tidy(super().get_params(ctx))

    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().make_context(*args, **kwargs)
        except UsageError as error:
            _report_usage(error)

    def invoke(self, ctx: Any) -> Any:
        """Run the command; a reader that stops reading (``arbo replay --plain g.arb | head``)
        ends it quietly with status 0, as if all had been read."""
        try:
            try:
                return super().invoke(ctx)
            finally:
                sys.stdout.flush()  # what is still buffered: its broken pipe is found here, not at exit
        except UsageError as error:
            _report_usage(error)
        except BrokenPipeError:
            drop_stdout()
            raise typer.Exit(EXIT_OK) from None


class ArboApp(typer.Typer):
    """A typer app whose commands are ArboCommands unless told otherwise."""

    def command(self, *args: Any, **kwargs: Any) -> Any:
        cls = kwargs.pop("cls", ArboCommand)

        def register(function: Callable[..., Any]) -> Any:
            parsed = type(cls.__name__, (cls,), {"__module__": cls.__module__, "parsers": parsers_of(function)})
            return super(ArboApp, self).command(*args, cls=parsed, **kwargs)(function)

        return register
