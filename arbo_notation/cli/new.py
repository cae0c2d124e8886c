"""`arbo new`: print the header of a new record, ready to write the turns under it."""

from __future__ import annotations

import datetime
from typing import Optional

import typer

from arbo_notation.engine.cards import HAND_SIZE, default_species_for, species_at_random
from arbo_notation.notation.header.keys import format_header
from arbo_notation.notation.model import Header
from arbo_notation.record.starting import SetupError, players_of, seat_of, species_names_of, species_of


def _option(error: SetupError) -> typer.BadParameter:
    """The check's refusal as a usage error (exit 2) of the option it is about."""
    return typer.BadParameter(str(error), param_hint=f"'--{error.option}'")


def parse_players(text: str) -> tuple[str, ...]:
    """The players of a comma-separated list; typer.BadParameter (exit 2) when it cannot be a table."""
    try:
        return players_of(text)
    except SetupError as error:
        raise _option(error) from None


def choose_species(players: int, seed: str | None) -> tuple[str, ...]:
    """The species for a table: the first 6/8/10 default codes, or a seeded random choice of them."""
    if seed is None:
        return default_species_for(players)
    return species_at_random(players, seed)


def parse_names(text: str | None) -> dict[str, str]:
    """Species names given as CODE=Name,CODE=Name (for codes arbo does not know)."""
    try:
        return species_names_of(text)
    except SetupError as error:
        raise _option(error) from None


def parse_species(text: str, players: int, names: dict[str, str]) -> tuple[str, ...]:
    """The species of a comma-separated list, checked (record/starting.py); typer.BadParameter
    (exit 2) otherwise."""
    try:
        return species_of(text, players, names)
    except SetupError as error:
        raise _option(error) from None


def parse_seat(seat: str | None, players: tuple[str, ...]) -> str | None:
    try:
        return seat_of(seat, players)
    except SetupError as error:
        raise _option(error) from None


def text_option(text: str | None, option: str) -> str | None:
    """A free text given on the command line (--event, --site), refused (exit 2) when it is not
    UTF-8: the shell hands such bytes over as lone surrogates, which no record can hold."""
    if text is None:
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise typer.BadParameter(
            "is not UTF-8 text (a record holds UTF-8 text only)", param_hint=f"'{option}'"
        ) from None
    return text


def iso_date(text: str) -> str:
    try:
        if len(text) == 10:
            return datetime.date.fromisoformat(text).isoformat()
    except ValueError:
        pass
    raise typer.BadParameter(f"{text!r} is not a date written YYYY-MM-DD", param_hint="'--date'")


def new_header_text(header: Header) -> str:
    """The header of a new record, with hints as YAML comments inside it: they help whoever fills
    the record in, and no reader takes them for comments of the game."""
    text = format_header(header).rstrip("\n").removesuffix("---").rstrip("\n")
    first, second = header.species[0], header.species[1 % len(header.species)]
    other = header.players[1]
    hints = []
    if header.perspective is not None and header.perspective not in header.hands:
        example = ", ".join(f"{header.species[i % len(header.species)]}{i + 1}" for i in range(HAND_SIZE))
        hints += [
            f"# {header.perspective}'s dealt hand, once known, as a line of this header:",
            f"# hands: {{{header.perspective}: [{example}]}}",
        ]
    hints += [
        f"# a turn: number, player, two draws (d: the deck, {other}: {other}'s discard pile),",
        "#   the card planted @x,y, /the card discarded; for example:",
        f"# 1. {header.players[0]} d d {first}3@0,0 /{second}5",
        "# at the end: reveal NAME CARDS (a line per hand), then result NAME SCORE, ...",
    ]
    return "\n".join([text, *hints, "---"]) + "\n"


def new(
    players: str = typer.Option(
        ..., "--players", "-p", metavar="NAME,NAME[,...]", help="The players in seat order, the start player first."
    ),
    species: Optional[str] = typer.Option(
        None,
        "--species",
        metavar="CODE,CODE,...",
        help="The species in play: 6 for two players, 8 for three, 10 for four (arbo species lists the codes).",
    ),
    names: Optional[str] = typer.Option(
        None, "--names", metavar="CODE=Name,...", help="Names of species codes arbo does not know, such as Re=Red."
    ),
    seat: Optional[str] = typer.Option(
        None, "--seat", metavar="PLAYER", help="Record from this player's seat (the header's perspective)."
    ),
    seed: Optional[str] = typer.Option(
        None,
        "--seed",
        "-s",
        metavar="SEED",
        help="Choose the species at random with this seed (default: the first 6, 8 or 10).",
    ),
    event: Optional[str] = typer.Option(None, "--event", metavar="TEXT", help="The event (tournament, club night...)."),
    site: Optional[str] = typer.Option(None, "--site", metavar="TEXT", help="Where the game is played."),
    date: Optional[str] = typer.Option(
        None, "--date", metavar="YYYY-MM-DD", help="The date of the game. [default: today]"
    ),
) -> None:
    """Print the header of a new game record, ready to record the turns.

    The species follow the player count: 6 for two players, 8 for three, 10 for four; `arbo
    species` lists the codes. The hints in the header are YAML comments: no reader keeps them.
    To record a game as it is played, checked turn by turn, use `arbo record`.

    Examples:

        arbo new --players Ana,Ben > game.arb

        arbo new --players Ana,Ben --species Bs,Ca,Dw,Ja,Ma,Oa --seat Ana > game.arb

        arbo new --players Ana,Ben,Cleo --seed 42 --event "Club night" --date 2025-03-14
    """
    names_given = parse_players(players)
    event, site = text_option(event, "--event"), text_option(site, "--site")
    species_names = parse_names(names)
    if species is not None:
        chosen = parse_species(species, len(names_given), species_names)
    else:
        if species_names:
            raise typer.BadParameter("names are for the species given with --species", param_hint="'--names'")
        chosen = choose_species(len(names_given), seed)
    when = iso_date(date) if date is not None else datetime.date.today().isoformat()
    header = Header(
        players=names_given,
        species=chosen,
        names=species_names,
        event=event,
        site=site,
        date=when,
        perspective=parse_seat(seat, names_given),
    )
    typer.echo(new_header_text(header), nl=False)


def register(app: typer.Typer) -> None:
    app.command("new")(new)
