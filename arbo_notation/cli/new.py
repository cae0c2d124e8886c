"""`arbo new`: print the header of a new record, ready to write the turns under it."""

from __future__ import annotations

import datetime
import random
from typing import Optional

import typer

from ..engine.cards import DEFAULT_SPECIES, SPECIES_COUNT_BY_PLAYERS
from ..notation.record import RESERVED_NAMES, Header


def parse_players(text: str) -> tuple[str, ...]:
    """The players of a comma-separated list; typer.BadParameter (exit 2) when it cannot be a table."""
    from ..notation.header import PLAYER_NAME_RE

    names = tuple(name.strip() for name in text.split(","))
    for name in names:
        if not name:
            raise typer.BadParameter("a player name is empty (write the names as Ana,Ben)", param_hint="'--players'")
        if not PLAYER_NAME_RE.match(name):
            raise typer.BadParameter(
                f"{name!r} is not a valid player name: a letter, then letters, digits, _ ' or -",
                param_hint="'--players'",
            )
        if name in RESERVED_NAMES:
            raise typer.BadParameter(
                f"{name!r} cannot be a player name: the notation reserves {', '.join(sorted(RESERVED_NAMES))}",
                param_hint="'--players'",
            )
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise typer.BadParameter(f"{name} is listed twice", param_hint="'--players'")
        seen.add(name)
    if not 2 <= len(names) <= 4:
        raise typer.BadParameter(f"a game has 2 to 4 players, not {len(names)}", param_hint="'--players'")
    return names


def choose_species(players: int, seed: str | None) -> tuple[str, ...]:
    """The species for a table: the first 6/8/10 default codes, or a seeded random choice of them."""
    codes = [s.code for s in DEFAULT_SPECIES]
    count = SPECIES_COUNT_BY_PLAYERS[players]
    if seed is None:
        return tuple(codes[:count])
    chosen = set(random.Random(seed).sample(codes, count))
    return tuple(code for code in codes if code in chosen)


def _iso_date(text: str) -> str:
    try:
        if len(text) == 10:
            return datetime.date.fromisoformat(text).isoformat()
    except ValueError:
        pass
    raise typer.BadParameter(f"{text!r} is not a date written YYYY-MM-DD", param_hint="'--date'")


def new_header_text(header: Header) -> str:
    """The header of a new record followed by a comment reminding the turn syntax."""
    from ..notation.header import format_header

    text = format_header(header).rstrip("\n")
    first, second = header.species[0], header.species[1 % len(header.species)]
    other = header.players[1]
    reminder = (
        f"; a turn: number, player, two draws (d = the deck, {other} = {other}'s discard pile), "
        f"card@x,y planted, /card discarded\n"
        f"; 1. {header.players[0]} d d {first}3@0,0 /{second}5"
    )
    return f"{text}\n{reminder}\n"


def new(
    players: str = typer.Option(..., "--players", "-p", metavar="NAME,NAME[,...]",
                                help="The players in seat order, the start player first."),
    seed: Optional[str] = typer.Option(
        None, "--seed", "-s", metavar="SEED",
        help="Choose the species at random with this seed (default: the first 6, 8 or 10).",
    ),
    event: Optional[str] = typer.Option(None, "--event", metavar="TEXT", help="The event (tournament, club night...)."),
    site: Optional[str] = typer.Option(None, "--site", metavar="TEXT", help="Where the game is played."),
    date: Optional[str] = typer.Option(
        None, "--date", metavar="YYYY-MM-DD", help="The date of the game. [default: today]"
    ),
) -> None:
    """Print the header of a new game record, ready to record the turns.

    The species follow the player count: 6 for two players, 8 for three, 10 for four.

    Examples:

        arbo new --players Ana,Ben > game.arb

        arbo new --players Ana,Ben,Cleo --seed 42 --event "Club night" --date 2025-03-14
    """
    names = parse_players(players)
    when = _iso_date(date) if date is not None else datetime.date.today().isoformat()
    header = Header(players=names, species=choose_species(len(names), seed), event=event, site=site, date=when)
    typer.echo(new_header_text(header), nl=False)


def register(app: typer.Typer) -> None:
    app.command("new", no_args_is_help=True)(new)
