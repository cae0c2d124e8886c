"""`arbo record`: record a game at the table, each turn checked by the engine as it is entered.

In a terminal it opens the record screen (arbo_notation/tui/record.py); with --plain, or when the
input is not a terminal, it reads entries line by line. Only the screen imports textual.
"""

from __future__ import annotations

import datetime
import sys
from typing import IO, Iterable, Optional

import typer

from ..errors import caret_excerpt
from .common import EXIT_INVALID, EXIT_USAGE, fail

HELP = """Record a game as it is played: each turn is checked by the rules engine as it is entered, and the record FILE is written after every accepted entry (a new copy renamed over the old one, so FILE is always a valid record, even after a crash).

A new FILE needs --players; the species are chosen at random unless --species gives them (--seed repeats a choice). With --seat the record is written from that player's seat, and the player's dealt hand is asked first; without it, as a referee. An existing FILE is resumed from its last turn; a finished one is refused.

Type each turn in the notation, the turn number and player left out if you like: `d d:Ma3 Ma3@0,1 /Oa5`, or `Ben:Oa5 d Oa5@1,0 /Wi7`. Tab completes what is legal now. Also: `undo` takes back the last turn; `{a comment}` or a glyph such as `!?` goes on the last turn. When the deck runs out, give each hand nobody saw: `reveal Ben Oa2 Ja1 ...` (the hands the record knows are revealed for you); the result line is the engine's scoring.

With --plain, or when standard input is not a terminal, each line of standard input is an entry; each accepted one is answered on standard output with `ok` and what was written, each refused one on standard error with the message `arbo check` would give, and nothing is written for it. The exit status is 0 when FILE is left a valid record.

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
        None, "--species", metavar="CODE,...", help="The species in play (arbo species lists them). [default: at random]"
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
    from ..files import FileBusy, LockRefused, held_for_writing
    from .new import iso_date, parse_names, parse_players, parse_seat, parse_species, text_option

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
            raise typer.BadParameter("give the players too (--players), so the count can be checked",
                                     param_hint="'--species'")
        chosen = parse_species(species, len(table), species_names)
    if table is not None:
        parse_seat(seat, table)
    when = iso_date(date) if date is not None else None
    try:
        with held_for_writing(file):
            _record(file, table, chosen, seat, species_names, event, site, when, seed, plain)
    except FileBusy as error:
        by = f" ({error.holder})" if error.holder else ""
        fail(f"{file}: another arbo record is recording this file{by}; finish that one first", EXIT_INVALID)
    except LockRefused as error:
        fail(f"{file}: not recorded: its lock file {error.lock} {error.reason}; "
             "remove it if no arbo record is running", EXIT_INVALID)


def _record(file, table, chosen, seat, species_names, event, site, when, seed, plain) -> None:
    """Record into ``file``, held for this process, on the screen or from lines of standard input."""
    from ..recording import OptionMismatch, RecordingError, open_session

    try:
        session = open_session(
            file, players=table, species=chosen, seat=seat, names=species_names or None, event=event, site=site,
            date=when or datetime.date.today().isoformat(), seed=seed,
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
    from ..tui.record import RecordApp

    RecordApp(session).run()


def _stdin_lines() -> Iterable[str | None]:
    """The lines of standard input as text (None for a line that is not UTF-8)."""
    for raw in sys.stdin.buffer:
        try:
            yield raw.decode("utf-8-sig").rstrip("\r\n")
        except UnicodeDecodeError:
            yield None


def record_lines(session, lines: Iterable[str | None], out: IO[str], err: IO[str], *, prompts: bool = False) -> int:
    """Take entries line by line: each accepted one answered on ``out`` with ``ok`` and the lines
    written, each refused one on ``err`` as `arbo check` shows an error. The exit status: 0."""
    from ..recording import EntryError, Phase
    from ..errors import visible
    from ..report import render_sheet

    def say(text: str, stream: IO[str]) -> None:
        stream.write(visible(text, "\n") + "\n")  # a resumed record's text sends the terminal no commands
        stream.flush()

    if prompts:
        say(f"recording {session.name} · {session.prompt()}", err)
    for number, line in enumerate(lines, 1):
        if line is None:
            say(f"<stdin>:{number}:1: error: this line is not UTF-8 text [syntax]", err)
            continue
        was_done = session.phase is Phase.DONE
        try:
            accepted = session.enter(line)
        except EntryError as error:
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
        for written in accepted.lines:
            say(f"ok {'undo ' if accepted.kind == 'undo' else ''}{written}", out)
        if prompts:
            sheet = session.sheet()
            if session.phase is Phase.DONE and not was_done and sheet is not None:
                say(render_sheet(sheet, "Scoring").rstrip("\n"), err)
            say(session.prompt(), err)
    return 0


def register(app: typer.Typer) -> None:
    app.command("record", help=HELP, short_help="Record a game at the table, each turn checked as it is entered.",
                no_args_is_help=True)(record)
