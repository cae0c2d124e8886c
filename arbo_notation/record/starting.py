"""The players, species and seat of a new record, read from text and checked (for `arbo new`,
`arbo record` and the phone's recorder of `arbo serve` alike)."""

from __future__ import annotations

from arbo_notation.engine.cards import KNOWN_SPECIES_NAMES, SPECIES_COUNT_BY_PLAYERS, is_species_code
from arbo_notation.engine.lexicon import MAX_NAME_LENGTH
from arbo_notation.errors import ArboError
from arbo_notation.notation.header.keys import PLAYER_NAME_RE
from arbo_notation.notation.model import RESERVED_NAMES


class SetupError(ArboError):
    """A table that cannot be: ``option`` names what was given wrong (players, species, names, seat)."""

    def __init__(self, message: str, option: str) -> None:
        super().__init__(message)
        self.option = option


def players_of(text: str) -> tuple[str, ...]:
    """The players of a comma-separated list, checked to make a table of 2 to 4."""
    names = tuple(name.strip() for name in text.split(","))
    for name in names:
        if not name:
            raise SetupError("a player name is empty (write the names as Ana,Ben)", "players")
        if len(name) > MAX_NAME_LENGTH:
            raise SetupError(f"a player name has at most {MAX_NAME_LENGTH} characters, not {len(name):,}", "players")
        if not PLAYER_NAME_RE.match(name):
            raise SetupError(
                f"{name!r} is not a valid player name: a letter, then letters, digits, _ ' or -", "players"
            )
        if name in RESERVED_NAMES:
            raise SetupError(
                f"{name!r} cannot be a player name: the notation reserves {', '.join(sorted(RESERVED_NAMES))}",
                "players",
            )
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise SetupError(f"{name} is listed twice", "players")
        seen.add(name)
    if not 2 <= len(names) <= 4:
        raise SetupError(f"a game has 2 to 4 players, not {len(names)}", "players")
    return names


def species_names_of(text: str | None) -> dict[str, str]:
    """Species names given as CODE=Name,CODE=Name (for codes arbo does not know)."""
    names: dict[str, str] = {}
    if text is None:
        return names
    for item in text.split(","):
        code, equals, name = (part.strip() for part in item.partition("="))
        if not equals or not code or not name:
            raise SetupError(f"{item.strip()!r}: write each name as CODE=Name, such as Re=Red", "names")
        if not is_species_code(code):
            raise SetupError(f"{code!r} is not a species code: 1 to 3 letters", "names")
        names[code] = name
    return names


def species_of(text: str, players: int, names: dict[str, str]) -> tuple[str, ...]:
    """The species of a comma-separated list, checked: codes known (see `arbo species`) or named
    in ``names``, each once, as many as the players need."""
    codes = tuple(code.strip() for code in text.split(","))
    for code in codes:
        if not is_species_code(code):
            raise SetupError(f"{code!r} is not a species code: 1 to 3 letters, such as Ma", "species")
        if code not in KNOWN_SPECIES_NAMES and code not in names:
            raise SetupError(
                f"{code} is not a species arbo knows (arbo species lists them); name it with --names {code}=Name",
                "species",
            )
    doubles = sorted({code for code in codes if codes.count(code) > 1})
    if doubles:
        raise SetupError(f"{', '.join(doubles)} is listed twice", "species")
    wanted = SPECIES_COUNT_BY_PLAYERS[players]
    if len(codes) != wanted:
        raise SetupError(f"a {players}-player game uses {wanted} species, not {len(codes)}", "species")
    unused = [code for code in names if code not in codes]
    if unused:
        raise SetupError(f"{', '.join(unused)} is named but not in play", "names")
    return codes


def seat_of(seat: str | None, players: tuple[str, ...]) -> str | None:
    """The recording seat, one of the players (None: a referee's record)."""
    if seat is not None and seat not in players:
        raise SetupError(f"{seat} is not one of the players ({', '.join(players)})", "seat")
    return seat
