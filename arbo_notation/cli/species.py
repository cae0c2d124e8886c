"""`arbo species`: the species codes of both editions, and how many species a table uses."""

from __future__ import annotations

import json
from typing import Any

import typer

from arbo_notation.engine.cards import DEFAULT_SPECIES, SPECIES_COUNT_BY_PLAYERS, ZMAN_SPECIES

#: The Renegade species the Z-Man edition does not have (it has Lilac, Magnolia and Olive instead).
RENEGADE_ONLY = ("Bs", "Cb", "Tp")


def species_text() -> str:
    """The codes and names, both editions, and the species count by players, as `arbo species` prints them."""
    lines = ["Species codes (arbo's defaults: the Renegade edition):"]
    lines += [f"  {s.code:<3} {s.name}" for s in DEFAULT_SPECIES]
    lines += [
        "",
        "The Z-Man edition has Lilac, Magnolia and Olive instead of Blue Spruce, Cherry",
        "Blossom and Tulip Poplar:",
    ]
    lines += [f"  {s.code:<3} {s.name}" for s in ZMAN_SPECIES]
    two, three, four = (SPECIES_COUNT_BY_PLAYERS[n] for n in (2, 3, 4))
    lines += [
        "",
        f"Species in play: {two} for 2 players, {three} for 3, {four} for 4.",
        "A record may use other codes (1 to 3 letters) and name them in its header,",
        "as in names: {Re: Red} (arbo new and arbo record: --names Re=Red).",
    ]
    return "\n".join(lines) + "\n"


def species_data() -> dict[str, Any]:
    return {
        "renegade": [{"code": s.code, "name": s.name} for s in DEFAULT_SPECIES],
        "zman": [{"code": s.code, "name": s.name} for s in ZMAN_SPECIES],
        "zman_replaces": list(RENEGADE_ONLY),
        "species_by_players": {str(players): count for players, count in SPECIES_COUNT_BY_PLAYERS.items()},
    }


def species(
    as_json: bool = typer.Option(False, "--json", help="The same as JSON."),
) -> None:
    """The species codes with their names, for both editions, and how many a game of 2, 3 or 4
    players uses.

    Examples:

        arbo species

        arbo new --players Ana,Ben --species Bs,Ca,Dw,Ja,Ma,Oa
    """
    if as_json:
        typer.echo(json.dumps(species_data(), indent=2))
    else:
        typer.echo(species_text(), nl=False)


def register(app: typer.Typer) -> None:
    app.command("species", short_help="The species codes of both editions, and how many a table uses.")(species)
