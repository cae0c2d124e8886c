"""What every arbo command shares: reading inputs, reporting errors on stderr, exit statuses.

Typer is imported where a function needs it, not here: `arbo check` runs without it (cli/direct.py).
"""

from __future__ import annotations

import errno
import io
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, NoReturn, TypeVar

from arbo_notation.errors import ArboError, NotationError, visible
from arbo_notation.runtime.sources import decode, read_text, refuse_endless

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

T = TypeVar("T")
R = TypeVar("R")

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_USAGE = 2


def read_input(path: str) -> tuple[str, str]:
    """The text of a file, or of standard input for '-', with the name to show in messages."""
    if path == "-":
        refuse_endless(sys.stdin.buffer, "<stdin>")
        return decode(sys.stdin.buffer.read(), "<stdin>"), "<stdin>"
    return read_text(path)


def fail(message: str, status: int = EXIT_INVALID) -> NoReturn:
    """Print one message on stderr and leave with the given status."""
    import typer

    echo_text(f"arbo: {message}", err=True)
    raise typer.Exit(status)


def is_an_input(out: str, inputs: list[str]) -> str | None:
    """The input among ``inputs`` that ``out`` names (the same file, by any path), else None."""
    if out == "-" or not os.path.exists(out):
        return None
    for path in inputs:
        if path != "-" and os.path.exists(path) and os.path.samefile(path, out):
            return path
    return None


def refuse_writing_over_input(out: str | None, inputs: list[str]) -> None:
    """Leave (exit 2) when ``out`` names one of the records read: a picture or a page written
    over its record would lose the record."""
    read = is_an_input(out, inputs) if out is not None else None
    if read is not None:
        fail(f"-o {out}: is the record read ({read}): write to another file", EXIT_USAGE)


def echo_text(text: str, *, err: bool = False, nl: bool = True) -> None:
    """Print ``text`` on stdout (or stderr) as a terminal may get it: whatever of a record's text or
    a path it holds goes through errors.visible, so none of it is a terminal command. The one way
    every command prints such text (records themselves, as fmt writes them, go by write_data)."""
    stream = sys.stderr if err else sys.stdout
    stream.write(visible(text, "\n") + ("\n" if nl else ""))
    stream.flush()


def say_skipped(path: str, what: str) -> None:
    """The line on stderr for an entry of a folder that is not a regular file, left out of the
    folder's records (runtime/sources.records_under): every command that reads folders says it so."""
    echo_text(f"arbo: {path}: skipped: {what}, not a regular file", err=True)


def say_wrote(path: str | os.PathLike[str], what: str = "") -> None:
    """The one line a command gives on stderr for a file or folder it wrote: ``arbo: wrote PATH``,
    then what it holds in brackets (tests/cli/test_cli_conventions.py holds every command to it)."""
    echo_text(f"arbo: wrote {os.fspath(path)}{f' ({what})' if what else ''}", err=True)


def write_data(text: str) -> None:
    """Write record text to standard output exactly as it is, UTF-8, whether that is a terminal,
    a pipe or a file (click's echo strips colour sequences when it is not a terminal: a record
    written by fmt or convert must hold the same bytes as one written with --in-place)."""
    sys.stdout.flush()
    stream = getattr(sys.stdout, "buffer", None)
    if stream is None:  # a text-only stream (an embedding application's): the text as it is
        sys.stdout.write(text)
        return
    stream.write(text.encode("utf-8", "surrogateescape"))
    stream.flush()


def echo_error(error: ArboError) -> None:
    """A located notation error as a compiler shows it; any other as one line."""
    echo_text(error.show() if isinstance(error, NotationError) else f"arbo: {error}", err=True)


def drop_stdout() -> None:
    """Point standard output at /dev/null, so that Python's last flush at exit finds no broken pipe."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, ValueError, OSError):
        return  # not a real file (a test's runner)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, fd)
    os.close(null)


class _ClosedOutput(io.TextIOBase):
    """Standard output when the command was started with it closed: every write fails, as a write
    to a closed descriptor does, so that the command ends as on a full disk."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "it is closed")


def hold_closed_stdout() -> None:
    """When standard output was closed at start, keep descriptor 1 taken (on /dev/null: a file
    the command opens must not become its output, nor a child's) and make writing to it fail."""
    if sys.stdout is not None:
        return
    try:
        os.fstat(1)
    except OSError:
        null = os.open(os.devnull, os.O_WRONLY)
        if null != 1:
            os.dup2(null, 1)
            os.close(null)
    sys.stdout = _ClosedOutput()


def unwritable_output(error: OSError) -> None:
    """Say in one line on stderr that a command's output could not be written (or, for an error
    that names its file, which file)."""
    what = f"{error.filename}" if error.filename is not None else "cannot write to standard output"
    try:
        sys.stderr.write(visible(f"arbo: {what}: {error.strerror or error}", "\n") + "\n")
        sys.stderr.flush()
    except (AttributeError, OSError):
        pass  # no stderr either: the status alone tells


#: From this much record text on, a command reading a collection shows a progress bar on a terminal.
PROGRESS_FROM_BYTES = 16 << 20


def corpus_progress(files: list[str], label: str) -> AbstractContextManager[Callable[[int], None] | None]:
    """A context giving ``advance(chars)`` to a progress bar on stderr when it is a terminal and
    the files are big, else None."""
    import contextlib

    size = sum(os.path.getsize(f) for f in files if f != "-" and os.path.isfile(f))
    if size < PROGRESS_FROM_BYTES or not sys.stderr.isatty():
        return contextlib.nullcontext(None)

    import typer

    @contextlib.contextmanager
    def bar() -> Iterator[Callable[[int], None]]:
        with typer.progressbar(length=size, label=label, file=sys.stderr) as progress:
            yield progress.update

    return bar()


def judged_in_order(
    judge: Callable[[T], R], items: Sequence[T], jobs: int, *, run: str, label: str, least: int = 1
) -> list[R]:
    """``judge`` of each item, in order, in this process (``jobs`` 1) or a pool of workers (the
    same results either way; a worker lost: WorkerLost naming the ``run``), with a progress bar
    labelled ``label`` on stderr when it is a terminal and there are ``least`` items or more. A TERM, a HUP or a Ctrl-C ends the run at once,
    workers and all, with the signal's status (analyse and puzzles judge so)."""
    import contextlib

    import typer

    # deferred: the pool's modules (multiprocessing) only for the commands that judge
    from arbo_notation.runtime.workers import ending_with_the_workers, in_order, jobs_for, worker_pool

    workers = jobs_for(jobs, len(items))
    results: list[R] = []
    with contextlib.ExitStack() as stack:
        bar = None
        if len(items) >= least and sys.stderr.isatty():
            bar = stack.enter_context(typer.progressbar(length=len(items), label=label, file=sys.stderr))
        stream: Iterator[R]
        if workers <= 1:
            stack.enter_context(ending_with_the_workers())
            stream = map(judge, items)
        else:
            pool = stack.enter_context(worker_pool(workers, run))
            stream = in_order(pool, judge, items, workers * 2)
        for result in stream:
            results.append(result)
            if bar is not None:
                bar.update(1)
    return results


def text_table(head: list[str], rows: list[list[str]], align: str) -> str:
    """Columns padded to their widths, each to the left (``l`` in ``align``) or the right."""
    widths = [max(len(row[i]) for row in [head, *rows]) for i in range(len(head))]
    lines = []
    for row in [head, *rows]:
        cells = [
            cell.ljust(width) if side == "l" else cell.rjust(width)
            for cell, width, side in zip(row, widths, align, strict=False)
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines) + "\n"


def plural(count: int, word: str) -> str:
    """``3 games``, ``1 game``: the count with its word."""
    return f"{count:,} {word}{'' if count == 1 else 's'}"
