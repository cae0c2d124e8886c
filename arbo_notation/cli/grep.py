"""`arbo grep`: the games of a collection that match, printed as records (or their places), and
the games recorded more than once."""

from __future__ import annotations

import sys
from typing import Any, List, Optional

import typer

from arbo_notation.checking.games import GameLines
from arbo_notation.notation.header.keys import is_iso_date
from arbo_notation.collection.grep import DATE_PREFIX, Duplicates, Filters, Place, knowledge, piece_place, winners_of
from arbo_notation.collection.rows import display_name, expand_paths, file_pieces
from arbo_notation.errors import ArboError, NotationErrors
from arbo_notation.notation.model import GameRecord, Header
from arbo_notation.notation.reading import scanner
from arbo_notation.notation.reading.faults import unclosed_error
from arbo_notation.notation.reading.reader import read_game_text
from arbo_notation.notation.reading.split import GameText
from arbo_notation.cli.common import EXIT_INVALID, EXIT_USAGE, echo_error, echo_text, fail, say_skipped

HELP = """Print the games that match, as records: pipe them into fmt, export, replay - or another grep.

FILE... are records (.arb) and folders (their .arb files at any depth). Every option narrows the match: --player Ana --player Ben (or --player Ana,Ben) keeps the games both play, --won the games they won (all of them, a shared win counting), --species the games with every species given in play, --date a year, month or day (2026, 2026-11, 2026-11-29), --event and --site a text their header's holds, whatever the case.

The games are printed as they are written, comments and all, a blank line between them; --list prints their places instead (FILE:LINE (game N)).

--duplicates prints, among the games that match, each game recorded more than once: "same game" for the same deal and turns recorded the same way (whatever the headers, comments, glyphs and variations); "other seats" for the same game recorded from different seats (one record of each), which agree wherever both know a card and which `arbo merge` joins; and "conflicting" for records of the same turns on the table that disagree on a card (a slip in one of them).

A game that cannot be read is named on stderr when a filter needs more than its header (the exit status is then 1); no match is not an error.

Examples:

    arbo grep club/ --player Ana --won --date 2026-11

    arbo grep club/ --species Ca,Dw --list

    arbo grep club/ --event 'club night' | arbo fmt -

    arbo grep club/ archive.arb --duplicates
"""


def _names(values: list[str] | None) -> tuple[str, ...]:
    return tuple(name.strip() for value in values or [] for name in value.split(",") if name.strip())


def _filters(
    player: list[str] | None,
    won: bool,
    species: list[str] | None,
    date: str | None,
    event: str | None,
    site: str | None,
) -> Filters:
    players = _names(player)
    if won and not players:
        fail("--won says who won: give --player NAME too", EXIT_USAGE)
    if date is not None and not DATE_PREFIX.fullmatch(date):
        fail(f"--date is a year, a month or a day (2026, 2026-11, 2026-11-29), not {date!r}", EXIT_USAGE)
    if date is not None and not is_iso_date(date):
        # a date no header can hold matches no game: a slip to tell, not an empty answer
        fail(f"--date {date}: no such date (a year from 1000, a month 01 to 12, a day its month has)", EXIT_USAGE)
    return Filters(players, won, _names(species), date, event, site)


def register(app: typer.Typer) -> None:
    @app.command("grep", help=HELP, short_help="Print the games that match, or the games recorded twice.")
    def grep(
        files: List[str] = typer.Argument(..., metavar="FILE...", help="Records (.arb) and folders of them."),
        player: Optional[List[str]] = typer.Option(
            None, "--player", metavar="NAME", help="A player of the game (repeat, or a comma list)."
        ),
        won: bool = typer.Option(False, "--won", help="The --player won the game (the engine's scoring)."),
        species: Optional[List[str]] = typer.Option(
            None, "--species", metavar="CODES", help="Species in play, such as Ca,Dw."
        ),
        date: Optional[str] = typer.Option(
            None, "--date", metavar="DATE", help="The date, or its start: 2026, 2026-11, 2026-11-29."
        ),
        event: Optional[str] = typer.Option(None, "--event", metavar="TEXT", help="Text the event holds."),
        site: Optional[str] = typer.Option(None, "--site", metavar="TEXT", help="Text the site holds."),
        listed: bool = typer.Option(False, "--list", "-l", help="Print the games' places, not the games."),
        duplicates: bool = typer.Option(
            False, "--duplicates", help="Print the games recorded more than once, by their places."
        ),
    ) -> None:
        filters = _filters(player, won, species, date, event, site)
        status = run(files, filters, listed=listed, duplicates=duplicates)
        raise typer.Exit(status)


def run(paths: list[str], filters: Filters, *, listed: bool, duplicates: bool) -> int:
    """Print what matches; the exit status."""
    needs_record = filters.won or duplicates
    found = Duplicates()
    status = 0
    printed = 0
    for path in expand_paths(paths, skipped=say_skipped):
        name = display_name(path)
        try:
            for piece in file_pieces(path):
                if not isinstance(piece, GameText):
                    continue
                header = scanner.read_header_of(piece.text, name, piece.first_line) if piece.closed else None
                if header is not None and not filters.header_matches(header[0]):
                    continue
                record = None
                if header is None or needs_record:
                    record = _record(name, piece, header)
                    if record is None:
                        status = EXIT_INVALID
                        continue
                    if not filters.header_matches(record.header):
                        continue
                    game_header = record.header
                else:
                    game_header = header[0]
                if filters.won:
                    assert record is not None  # (needs_record: read above)
                    winners = winners_of(record)
                    if winners is None or not filters.winners_match(winners):
                        continue
                place = piece_place(name, piece, game_header)
                if duplicates:
                    assert record is not None  # (needs_record: read above)
                    found.add(record, place)
                elif listed:
                    echo_text(str(place))
                else:
                    text = piece.text.rstrip("\n") + "\n"
                    sys.stdout.write(text if not printed else "\n" + text)
                    printed += 1
        except NotationErrors as errors:
            status = EXIT_INVALID
            for error in errors.errors:
                echo_error(error)
        except ArboError as error:
            status = EXIT_INVALID
            echo_error(error)
    if duplicates:
        known, unread = _knowledge(found.to_compare())
        status = status or unread
        for kind, places in found.groups(known):
            echo_text(f"{kind}: {', '.join(map(str, places))}")
    sys.stdout.flush()
    return status


def _knowledge(places: set[Place]) -> tuple[dict[Place, tuple[Any, ...]], int]:
    """The knowledge of the games at the places, read again; and the exit status of reading them."""
    wanted: dict[str, set[int]] = {}
    for place in places:
        wanted.setdefault(place.file, set()).add(place.game)
    known: dict[Place, tuple[Any, ...]] = {}  # collection/grep.py's knowledge(): a tuple of what a record knows
    for name, games in wanted.items():
        try:
            for piece in file_pieces("-" if name == "<stdin>" else name):
                if isinstance(piece, GameText) and piece.index in games:
                    header = scanner.read_header_of(piece.text, name, piece.first_line)
                    record = _record(name, piece, header)
                    if record is not None:
                        known[piece_place(name, piece, record.header)] = knowledge(record)
        except ArboError as error:  # the file changed since it was read
            echo_error(error)
            return known, EXIT_INVALID
    if len(known) != len(places):
        typer.echo("arbo: the files changed while they were read: run again", err=True)
        return {place: known.get(place, (None, {}, [], {})) for place in places}, EXIT_INVALID
    return known, 0


def _record(name: str, piece: GameText, header: tuple[Header, int] | None) -> GameRecord | None:
    """The game's record, or None after saying on stderr why it cannot be read."""
    if not piece.closed:
        echo_error(unclosed_error(piece.first_line, name, GameLines(piece.text, piece.first_line)))
        return None
    records, errors = read_game_text(
        piece.text, name, piece.first_line, GameLines(piece.text, piece.first_line), header, index=piece.index
    )
    if errors:
        echo_error(errors[0])
        return None
    return records[0]
