"""`arbo record`: record a game at the table, each turn checked by the engine as it is entered.

In a terminal it opens the record screen (arbo_notation/tui/record.py); with --plain, or when the
input is not a terminal, it reads entries line by line. Only the screen imports textual.
"""

from __future__ import annotations

import datetime
import sys
from typing import IO, Iterable, Optional

import typer

from arbo_notation.errors import caret_excerpt, visible
from arbo_notation.present.report import render_sheet
from arbo_notation.record.session import (
    Accepted,
    EntryError,
    OptionMismatch,
    Phase,
    RecordingError,
    RecordingSession,
    open_session,
)
from arbo_notation.runtime.atomic import FileBusy, LockRefused, held_for_writing
from arbo_notation.cli.new import iso_date, parse_names, parse_players, parse_seat, parse_species, text_option
from arbo_notation.cli.common import EXIT_INVALID, EXIT_USAGE, fail

HELP = """Record a game as it is played: each turn is checked by the rules engine as it is entered, and the record FILE is written after every accepted entry (a new copy renamed over the old one, so FILE is always a valid record, even after a crash).

A new FILE needs --players; the species are chosen at random unless --species gives them (--seed repeats a choice). With --seat the record is written from that player's seat, and the player's dealt hand is asked first; without it, as a referee. An existing FILE is resumed from its last turn; a finished one is refused.

Type each turn in the notation, the turn number and player left out if you like: `d d:Ma3 Ma3@0,1 /Oa5`, or `Ben:Oa5 d Oa5@1,0 /Wi7`. Tab completes what is legal now. Also: `undo` takes back the last turn; `{a comment}` or a glyph such as `!?` goes on the last turn. When the deck runs out, give each hand nobody saw: `reveal Ben Oa2 Ja1 ...` (the hands the record knows are revealed for you); the result line is the engine's scoring.

With --plain, or when standard input is not a terminal, each line of standard input (ended by LF, CRLF or a lone CR) is an entry; each accepted one is answered on standard output with `ok` and what was written, each refused one on standard error with the message `arbo check` would give, and nothing is written for it. When the input ends, a hand the record already determines is revealed without being typed, and if the reveals are not done, standard error says what the record still needs. The exit status is 1 when any entry was refused, else 0 (FILE is always left a valid record).

Examples:

    arbo record tonight.arb --players Ana,Ben --seat Ana

    arbo record tonight.arb

    arbo record club.arb --players Ana,Ben,Cleo --species Bs,Ca,Cb,Dw,Ja,Ma,Oa,Wi --plain < turns.txt
"""


def record(
    file: str = typer.Argument(..., metavar="FILE", help="The record to write, or to resume."),
    players: Optional[str] = typer.Option(
        None, "--players", "-p", metavar="NAME,NAME[,...]", help="The players in seat order, the start player first."
    ),
    species: Optional[str] = typer.Option(
        None,
        "--species",
        metavar="CODE,...",
        help="The species in play (arbo species lists them). [default: at random]",
    ),
    names: Optional[str] = typer.Option(
        None, "--names", metavar="CODE=Name,...", help="Names of species codes arbo does not know, such as Re=Red."
    ),
    seat: Optional[str] = typer.Option(
        None, "--seat", metavar="PLAYER", help="Record from this player's seat: their dealt hand is asked first."
    ),
    seed: Optional[str] = typer.Option(None, "--seed", "-s", help="Seed of the random choice of species."),
    event: Optional[str] = typer.Option(None, "--event", help="The event (tournament, club night...)."),
    site: Optional[str] = typer.Option(None, "--site", help="Where the game is played."),
    date: Optional[str] = typer.Option(None, "--date", help="The date, YYYY-MM-DD. [default: today, for a new FILE]"),
    plain: bool = typer.Option(False, "--plain", help="Read entries as lines of standard input; no screen."),
) -> None:
    if file == "-":
        raise typer.BadParameter("the record is a file to write, not standard input", param_hint="'FILE'")
    table = parse_players(players) if players is not None else None
    event, site = text_option(event, "--event"), text_option(site, "--site")
    species_names = parse_names(names)
    chosen = None
    if species_names and species is None:
        raise typer.BadParameter("names are for the species given with --species", param_hint="'--names'")
    if species is not None:
        if table is None:
            raise typer.BadParameter(
                "give the players too (--players), so the count can be checked", param_hint="'--species'"
            )
        chosen = parse_species(species, len(table), species_names)
    if table is not None:
        parse_seat(seat, table)
    when = iso_date(date) if date is not None else None
    try:
        with held_for_writing(file):
            _record(file, table, chosen, seat, species_names, event, site, when, seed, plain)
    except FileBusy as error:
        by = f" ({error.holder})" if error.holder else ""
        fail(f"{file}: another arbo is writing this file{by}; finish that one first", EXIT_INVALID)
    except LockRefused as error:
        fail(
            f"{file}: not recorded: its lock file {error.lock} {error.reason}; "
            "remove it if no arbo is writing the file",
            EXIT_INVALID,
        )


def _record(
    file: str,
    table: tuple[str, ...] | None,
    chosen: tuple[str, ...] | None,
    seat: str | None,
    species_names: dict[str, str],
    event: str | None,
    site: str | None,
    when: str | None,
    seed: str | None,
    plain: bool,
) -> None:
    """Record into ``file``, held for this process, on the screen or from lines of standard input."""
    try:
        session = open_session(
            file,
            players=table,
            species=chosen,
            seat=seat,
            names=species_names or None,
            event=event,
            site=site,
            date=when or datetime.date.today().isoformat(),
            seed=seed,
        )
    except OptionMismatch as error:
        fail(str(error), EXIT_USAGE)
    except RecordingError as error:
        fail(str(error), EXIT_INVALID)
    for warning in session.warnings:
        typer.echo(warning.show(), err=True)
    if plain or not (sys.stdin.isatty() and sys.stdout.isatty()):
        try:
            status = record_lines(session, _stdin_lines(), sys.stdout, sys.stderr, prompts=sys.stdin.isatty())
        except KeyboardInterrupt:  # Ctrl+C at a terminal: the file holds every entry accepted
            status = 0
        raise typer.Exit(status)
    # deferred: the recording screen (textual, ~190 ms) loads only on a terminal, not for --plain
    from arbo_notation.tui.record import RecordApp

    RecordApp(session).run()


def _stdin_lines(stream: IO[bytes] | None = None) -> Iterable[str | None]:
    """The lines of standard input as text (None for a line that is not UTF-8). A line ends at
    LF, CRLF or a lone CR (an old Mac's files), as a record's lines do; each is taken as soon as
    its end has come (a CR is not held back to see whether an LF follows)."""
    import re

    stream = sys.stdin.buffer if stream is None else stream
    read = getattr(stream, "read1", stream.read)
    pending, after_cr = b"", False
    while chunk := read(65536):
        if after_cr and chunk.startswith(b"\n"):
            chunk = chunk[1:]  # the LF of a CRLF whose CR ended the last line taken
        pending += chunk
        after_cr = pending.endswith(b"\r")
        *raws, pending = re.split(rb"\r\n|\r|\n", pending)
        yield from map(_decoded, raws)
    if pending:
        yield _decoded(pending)


def _decoded(raw: bytes) -> str | None:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None


def record_lines(
    session: RecordingSession, lines: Iterable[str | None], out: IO[str], err: IO[str], *, prompts: bool = False
) -> int:
    """Take entries line by line: each accepted one answered on ``out`` with ``ok`` and the lines
    written, each refused one on ``err`` as `arbo check` shows an error. When the input ends, a
    hand the record already determines is revealed (as the screen fills it in), and if the
    reveals are not done, ``err`` says what the record still needs. The exit status: 1 when any
    entry was refused, else 0."""

    def say(text: str, stream: IO[str]) -> None:
        stream.write(visible(text, "\n") + "\n")  # a resumed record's text sends the terminal no commands
        stream.flush()

    def answer(accepted: Accepted) -> None:
        for written in accepted.lines:
            say(f"ok {'undo ' if accepted.kind == 'undo' else ''}{written}", out)

    def fill_determined() -> None:
        while session.phase is Phase.REVEAL:
            player = session.pending_reveals()[0]
            line = session.reveal_prefill(player)
            if len(line.split()) - 2 != len(session.game.hand(player)):
                return  # cards nobody saw: for the table to say
            accepted = session.enter(line)
            assert accepted is not None  # (a reveal line is never blank)
            answer(accepted)

    refused = 0
    if prompts:
        say(f"recording {session.name} · {session.prompt()}", err)
    for number, line in enumerate(lines, 1):
        if line is None:
            say(f"<stdin>:{number}:1: error: this line is not UTF-8 text [syntax]", err)
            refused += 1
            continue
        was_done = session.phase is Phase.DONE
        try:
            accepted = session.enter(line)
        except EntryError as error:
            refused += 1
            where = f"<stdin>:{number}:{error.column or 1}"
            shown = f"{where}: error: {error.message} [{error.code}]"
            if error.column is not None:
                shown += "\n" + caret_excerpt(line, error.column)
            say(shown, err)
            if prompts:
                say(session.prompt(), err)
            continue
        if accepted is None:
            continue
        answer(accepted)
        if prompts:
            sheet = session.sheet()
            if session.phase is Phase.DONE and not was_done and sheet is not None:
                say(render_sheet(sheet, "Scoring").rstrip("\n"), err)
            say(session.prompt(), err)
    fill_determined()  # the input ended: what the record already determines is written
    if session.phase in (Phase.REVEAL, Phase.HAND):  # ... and what it still waits for is said
        say(f"arbo: the input ended; the record still needs {session.prompt()}", err)
    return 1 if refused else 0


def register(app: typer.Typer) -> None:
    app.command("record", help=HELP, short_help="Record a game at the table, each turn checked as it is entered.")(
        record
    )
