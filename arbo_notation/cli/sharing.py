"""What `arbo export` and `arbo render` share: reading the games asked for, the --as option, and
writing the output whole (a new file renamed over the old one) or to standard output."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from arbo_notation.errors import ArboError
from arbo_notation.game.tree import GameTree, SetupError, load_tree
from arbo_notation.notation.reading.reader import parse_all
from arbo_notation.runtime.atomic import write_atomic
from arbo_notation.runtime.gcpause import gc_paused
from arbo_notation.runtime.sources import normalise
from arbo_notation.cli.common import EXIT_INVALID, EXIT_USAGE, echo_error, echo_text, fail, read_input, say_wrote

if TYPE_CHECKING:
    from arbo_notation.share.html import UnreadGame

#: Values of --as that mean every hand shown (unless a player has that name), as for `arbo replay`.
OMNISCIENT = ("all", "*", "none")


@dataclass
class Loaded:
    """The games of a file that can be shown, those that cannot (and why), and whether any
    finding (a syntax or rule error) was reported on stderr."""

    name: str
    trees: list[GameTree] = field(default_factory=list)
    unread: list["UnreadGame"] = field(default_factory=list)
    findings: bool = False


def load_games(path: str, game_number: int | None) -> Loaded:
    """Read a record file and replay game ``game_number`` (every game when None).

    Syntax and rule errors go to stderr. Leaves with status 2 for a game number the file does
    not hold, and 1 when the file cannot be read or no game asked for can be shown.
    """
    # deferred: the page's builder (share.html, ~25 ms) is export's alone; render and state load this module too
    from arbo_notation.share.html import UnreadGame

    try:
        text, name = read_input(path)
        with gc_paused():  # every record is kept
            outcome = parse_all(text, name)
    except ArboError as error:
        fail(str(error))
    count = max((span.index for span in outcome.game_spans), default=0)
    if not count:
        for found in outcome.errors:
            echo_error(found)
        fail(f"{name} holds no game")
    if game_number is not None and not 1 <= game_number <= count:
        fail(f"{name} holds {count} game{'s' if count != 1 else ''}; there is no game {game_number}", EXIT_USAGE)
    loaded = Loaded(name)
    wanted = [game_number] if game_number is not None else list(range(1, count + 1))
    records = {record.index: record for record in outcome.games}
    lines = normalise(text).split("\n")  # not splitlines(): U+2028 is no line break in a record
    for found in outcome.errors:
        if not outcome.game_of(found):  # text before the first game
            echo_error(found)
            loaded.findings = True
    for number in wanted:
        errors = [found for found in outcome.errors if outcome.game_of(found) == number]
        if number not in records:
            for found in errors:
                echo_error(found)
            loaded.findings = True
            loaded.unread.append(UnreadGame(number, errors[0].message if errors else "it cannot be read"))
            continue
        try:
            tree = load_tree(records[number], lines)
        except SetupError as error:
            for diagnostic in error.diagnostics:
                echo_text(diagnostic.show(), err=True)
            loaded.findings = True
            loaded.unread.append(UnreadGame(number, str(error)))
            continue
        for diagnostic in tree.diagnostics:
            echo_text(diagnostic.show(), err=True)
        loaded.findings = loaded.findings or not tree.valid
        loaded.trees.append(tree)
    if not loaded.trees:
        fail(f"{name}: no game can be shown" if len(wanted) > 1 else f"game {wanted[0]} of {name} cannot be shown")
    return loaded


def viewer_for(as_player: str | None, trees: list[GameTree]) -> str | None:
    """The player whose view --as asks for (None: every hand); status 2 for a name that is not a
    player of every game shown."""
    if as_player is None:
        return None
    for tree in trees:
        players = tree.lines[()].states[0].players
        if as_player in players:
            continue
        if as_player.lower() in OMNISCIENT:
            return None
        where = f"game {tree.record.index}" if len(trees) > 1 else "this game"
        fail(f"--as {as_player}: not a player of {where} ({', '.join(players)})", EXIT_USAGE)
    return as_player


def write_output(data: str | bytes, out: str | None, what: str = "") -> None:
    """Write the text or bytes to ``out`` whole, saying on stderr what was written (``what``: the
    kind of thing, its size in pixels, ...), or to standard output when ``out`` is None or '-'."""
    if out is None or out == "-":
        if isinstance(data, bytes):
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        else:
            sys.stdout.write(data)
            sys.stdout.flush()
        return
    try:
        write_atomic(out, data)
    except OSError as error:
        fail(f"{out}: cannot be written ({error.strerror or error})", EXIT_INVALID)
    size = len(data) if isinstance(data, bytes) else len(data.encode("utf-8"))
    say_wrote(out, ", ".join(part for part in (what, _size(size)) if part))


def _size(count: int) -> str:
    return f"{count} bytes" if count < 10_000 else f"{count / 1000:.0f} kB"
