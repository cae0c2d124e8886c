"""`arbo fmt`: rewrite records in the canonical form, or check that they are in it."""

from __future__ import annotations

import os
import stat
from typing import Callable, Iterator, List

import typer

from arbo_notation.errors import ArboError, NotationError, NotationErrors
from arbo_notation.notation.reading.reader import parse_all, read_pieces
from arbo_notation.notation.reading.split import GameText, stream_games
from arbo_notation.notation.writer import format_game, format_games
from arbo_notation.runtime.atomic import FileBusy, FileChanged, LockRefused, fingerprint, rewrite_unchanged
from arbo_notation.runtime.gcpause import gc_paused
from arbo_notation.runtime.sources import normalise, text_blocks
from arbo_notation.runtime.spool import Spool, same_text
from arbo_notation.cli.common import EXIT_INVALID, EXIT_USAGE, echo_error, echo_text, fail, read_input, write_data


def canonical_text(text: str, name: str) -> str:
    """The canonical form of a whole record file; NotationErrors when any game cannot be read."""
    with gc_paused():  # every record is kept
        outcome = parse_all(text, name)
    if outcome.errors:
        raise NotationErrors(outcome.errors)
    return format_games(outcome.games)


def _sources(path: str) -> tuple[str, Iterator[str | GameText], Callable[[], Iterator[str]]]:
    """A file's name, its games as stream_games cuts them, and its text as read (for --check)."""
    if path == "-":
        text, name = read_input(path)
        return name, stream_games([normalise(text)]), lambda: iter([text])
    return path, stream_games(text_blocks(path)), lambda: text_blocks(path, normalised=False)


def format_file(name: str, pieces: Iterator[str | GameText], out: Spool) -> list[NotationError]:
    """Write the canonical form of a file's games into ``out``, a game at a time (as
    canonical_text gives it whole); the syntax errors, when there are any (then ``out`` is not
    to be used)."""
    errors: list[NotationError] = []
    first = True
    for span, game in read_pieces(pieces, name):
        errors.extend(span.errors)
        if game is not None and not errors:
            out.write(format_game(game) if first else "\n" + format_game(game))
            first = False
    return errors


def fmt(
    files: List[str] = typer.Argument(..., help="Record files ('-' reads standard input).", metavar="FILE..."),
    check: bool = typer.Option(False, "--check", help="Write nothing; exit 1 naming each file not in canonical form."),
    in_place: bool = typer.Option(False, "--in-place", "-i", help="Rewrite the files instead of printing."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="With --in-place: do not list the files rewritten."),
) -> None:
    """Print records in the canonical .arb form (or rewrite them with --in-place).

    The canonical form keeps every comment, glyph, variation and header key; formatting it again
    changes nothing. A file with a syntax error is reported and left as it is. With --in-place,
    each file rewritten is named on stderr, then a count such as "2 files reformatted, 1 unchanged".

    Examples:

        arbo fmt game.arb

        arbo fmt --check samples/*.arb

        arbo fmt --in-place game.arb
    """
    if check and in_place:
        fail("--check and --in-place exclude each other", EXIT_USAGE)
    if in_place and "-" in files:
        fail("--in-place cannot rewrite standard input", EXIT_USAGE)
    if in_place:
        _refuse_special_files(files)
    failed = False
    counts = {"reformatted": 0, "unchanged": 0, "not formatted": 0}
    for path in files:
        with Spool() as formatted:
            try:
                if in_place:
                    read = fingerprint_of(path)
                name, pieces, original = _sources(path)
                errors = format_file(name, pieces, formatted)
                if errors:
                    raise NotationErrors(errors)
                if check or in_place:
                    same = same_text(formatted.pieces(), original())
            except ArboError as error:
                _report(error)
                failed = True
                counts["not formatted"] += 1
                continue
            if check:
                if not same:
                    echo_text(f"would reformat {name}", err=True)
                    failed = True
            elif in_place:
                if same:
                    counts["unchanged"] += 1
                    continue
                try:
                    rewrite_unchanged(path, formatted.pieces(), read)
                except OSError as error:
                    echo_text(f"arbo: {not_rewritten(name, error)}", err=True)
                    counts["not formatted"] += 1
                    failed = True
                    continue
                counts["reformatted"] += 1
                if not quiet:
                    echo_text(f"reformatted {name}", err=True)
            else:
                for piece in formatted.pieces():  # a game at a time, as one echo of the whole
                    write_data(piece)
    if in_place and not quiet:
        typer.echo(fmt_summary(counts), err=True)
    raise typer.Exit(EXIT_INVALID if failed else 0)


def fmt_summary(counts: dict[str, int]) -> str:
    """'2 files reformatted, 1 unchanged' (and how many could not be formatted, if any)."""
    changed = counts["reformatted"]
    parts = [f"{changed} file{'' if changed == 1 else 's'} reformatted", f"{counts['unchanged']} unchanged"]
    if counts["not formatted"]:
        parts.append(f"{counts['not formatted']} not formatted")
    return ", ".join(parts)


def fingerprint_of(path: str) -> bytes:
    """The file's fingerprint, taken before it is read; none (b"") when it cannot be read, which
    the reading then reports as it does any file."""
    try:
        return fingerprint(path)
    except OSError:
        return b""


def not_rewritten(path: str, error: OSError) -> str:
    """Why a record was not rewritten in place (rewrite_unchanged's refusal, or the write's
    error), in one line; the file is left as it was."""
    if isinstance(error, FileBusy):
        by = f" ({error.holder})" if error.holder else ""
        return f"{path}: not rewritten: another arbo is writing it{by}, such as arbo record; run again when it is done"
    if isinstance(error, FileChanged):
        return f"{path}: not rewritten: it changed since it was read (a turn recorded meanwhile?); run again"
    if isinstance(error, LockRefused):
        return f"{path}: not rewritten: its lock file {error.lock} {error.reason}; remove it if no arbo is writing the file"
    return f"{path}: cannot be written ({error.strerror or error})"


def _refuse_special_files(files: list[str]) -> None:
    """Leave (exit 2) when a file to rewrite is a pipe, a socket or a device: only a regular file
    can be replaced by its new copy (and reading a pipe such as /dev/stdin may wait for ever)."""
    for path in files:
        try:
            mode = os.stat(path).st_mode
        except OSError:
            continue  # missing or unreadable: reported with the others when it is read
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)) or _names_a_stream(path):  # a folder: unreadable
            fail(f"{path}: --in-place rewrites regular files only, and this is not one", EXIT_USAGE)


def _names_a_stream(path: str) -> bool:
    """Whether ``path`` reaches its file through /dev or /proc (/dev/stdin, /dev/fd/0,
    /proc/self/fd/1): a stream this process was given, even when it is a regular file
    (``arbo fmt -i /dev/stdin < game.arb`` would rewrite game.arb)."""
    seen = 0
    current = os.path.abspath(path)
    while seen < 40:  # the kernel's own bound on a chain of links
        if current.startswith(("/dev/", "/proc/")):
            return True
        if not os.path.islink(current):
            return False
        current = os.path.join(os.path.dirname(current), os.readlink(current))
        seen += 1
    return False


def _report(error: ArboError) -> None:
    errors = getattr(error, "errors", None)
    for single in errors if errors else [error]:
        echo_error(single)


def register(app: typer.Typer) -> None:
    app.command()(fmt)
