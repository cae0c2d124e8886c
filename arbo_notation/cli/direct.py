"""`arbo check` run straight from plain arguments, without loading typer.

A check is the command run most, at the table after each game and by scripts over many files, and
typer's import alone is some 40 ms of its start-up. The plain forms of its command line (files,
`-q`/`--quiet`, `--json`, `-j N`/`--jobs N`/`-jN`/`--jobs=N`) are read here; anything else (help, a
`--`, an option value to complain of, a shell's completion request, any other command) is left to
the typer app, which reads all of them. tests/cli/test_cli_direct.py holds this reading to typer's on
every command line it accepts, and the whole command's output to the typer path's.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence

from arbo_notation.cli.bounds import MOST_JOBS
from arbo_notation.cli.check import CheckArguments, run_check
from arbo_notation.cli.common import EXIT_OK, drop_stdout

_FLAGS = {"-q": "quiet", "--quiet": "quiet", "--json": "as_json"}
_JOBS = ("-j", "--jobs")

#: The status of a command ended by Ctrl-C, as the typer app leaves (128 + SIGINT).
EXIT_INTERRUPTED = 130


def plain_check_arguments(args: Sequence[str], environ: Mapping[str, str] = os.environ) -> CheckArguments | None:
    """The arguments of ``arbo ARGS`` when it is `arbo check` in a plain form, else None (for typer)."""
    if not args or args[0] != "check" or _completing(environ):
        return None
    files: list[str] = []
    flags: set[str] = set()
    jobs = 0
    rest = iter(args[1:])
    for arg in rest:
        if arg == "-" or not arg.startswith("-"):
            files.append(arg)
        elif arg in _FLAGS:
            flags.add(_FLAGS[arg])
        elif arg in _JOBS:
            value = next(rest, "")
            if not _whole(value):
                return None
            jobs = int(value)
        elif arg.startswith("--jobs=") and _whole(arg[len("--jobs=") :]):
            jobs = int(arg[len("--jobs=") :])
        elif arg.startswith("-j") and _whole(arg[len("-j") :]):
            jobs = int(arg[len("-j") :])
        else:
            return None
    if not files:
        return None
    return CheckArguments(tuple(files), "as_json" in flags, jobs, "quiet" in flags)


def _whole(text: str) -> bool:
    """A -j value read here: a whole number in bounds (typer reports any other)."""
    return text.isascii() and text.isdigit() and int(text) <= MOST_JOBS


def _completing(environ: Mapping[str, str]) -> bool:
    """Whether a shell asks for completions (click's ``_ARBO_COMPLETE``, whatever the program's name)."""
    return any(key.startswith("_") and key.endswith("_COMPLETE") for key in environ)


def run_direct(args: Sequence[str]) -> int | None:
    """Run ``arbo ARGS`` here when it is a plain `arbo check` and return its exit status; None
    when it is for the typer app. Ends as the app's commands do: a reader that stops reading
    ends the command quietly with status 0, Ctrl-C with status 130."""
    arguments = plain_check_arguments(args)
    if arguments is None:
        return None
    try:
        try:
            return run_check(arguments)
        finally:
            sys.stdout.flush()  # what is still buffered: its broken pipe is found here, not at exit
    except BrokenPipeError:
        drop_stdout()
        return EXIT_OK
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
