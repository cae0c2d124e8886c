"""Species colours for pictures of a game: a card's fill and the ink that reads on it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

#: The Renegade species in the colours of their cards (the terminal replayer's palette).
NATURAL: dict[str, str] = {
    "Bs": "#3b6fd8",  # blue spruce: blue
    "Ca": "#e5c02e",  # cassia: yellow
    "Cb": "#f28dbb",  # cherry blossom: pink
    "Dw": "#e8e4d8",  # dogwood: ivory
    "Ja": "#9a5fd1",  # jacaranda: purple
    "Ma": "#e8702a",  # maple: orange
    "Oa": "#8a5a33",  # oak: brown
    "Rp": "#d63a33",  # royal poinciana: red
    "Tp": "#3fa34d",  # tulip poplar: green
    "Wi": "#3dbfb0",  # willow: teal
}
#: For species a record names itself: the colours no natural species of the game holds, then these.
EXTRA = ("#8fa1b3", "#c9a27e", "#a3c95b", "#5c6bc0", "#c2185b", "#00897b")
HIDDEN_FILL = "#5a5f66"
HIDDEN_INK = "#e4e6e9"


@dataclass(frozen=True, slots=True)
class Colour:
    """How a species' cards are drawn: the card's fill and the text on it."""

    fill: str
    ink: str


def ink_for(fill: str) -> str:
    """Dark text on a light fill, white on a dark one."""
    red, green, blue = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return "#111111" if (0.299 * red + 0.587 * green + 0.114 * blue) > 140 else "#ffffff"


def species_colours(species: Iterable[str]) -> dict[str, Colour]:
    """A distinct colour for each species code of a game: the natural one where there is one."""
    codes = list(species)
    taken = {NATURAL[code] for code in codes if code in NATURAL}
    spare = [fill for fill in (*NATURAL.values(), *EXTRA) if fill not in taken]
    colours: dict[str, Colour] = {}
    for code in codes:
        fill = NATURAL.get(code) or (spare.pop(0) if spare else EXTRA[len(colours) % len(EXTRA)])
        colours[code] = Colour(fill, ink_for(fill))
    return colours
