"""The replayer's knowledge panel: the unseen cards by species and the rights to score as the view knows them."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from arbo_notation.engine.cards import species_name
from arbo_notation.game.knowledge import Certainty, Knowledge
from arbo_notation.tui.widgets import species_styles

#: How a right's status is marked in the panel.
MARKS = {Certainty.CERTAIN: "\u2713", Certainty.POSSIBLE: "?", Certainty.IMPOSSIBLE: "\u2717"}
STYLES = {Certainty.CERTAIN: "bold green", Certainty.POSSIBLE: "yellow", Certainty.IMPOSSIBLE: "dim"}


def knowledge_table(known: Knowledge, species: tuple[str, ...], *, wide: bool = False) -> Table:
    """One row per species: the cards of it nobody of the view has seen, and each player's right
    to score it (✓ certain, ? possible, ✗ impossible) with the hand sum's range."""
    styles = species_styles(species)
    table = Table(box=None, padding=(0, 1), pad_edge=False, show_edge=False, expand=False)
    table.add_column("species", no_wrap=True)
    table.add_column("unseen", no_wrap=True)
    for player in known.players:
        table.add_column(player[:8], no_wrap=True, justify="left")
    unseen = known.unseen_by_species()
    for code in species:
        label = Text()
        label.append(f" {code} ", style=styles[code])
        if wide:
            label.append(f" {species_name(code)}")
        values = " ".join(str(card.value) for card in unseen.get(code, ())) or "-"
        cells: list[Text | str] = [label, Text(values)]
        for player in known.players:
            right = known.right(player, code)
            span = str(right.low) if right.low == right.high else f"{right.low}-{right.high}"
            cells.append(Text(f"{MARKS[right.status]} {span}", style=STYLES[right.status]))
        table.add_row(*cells)
    return table


def knowledge_text(known: Knowledge) -> Text:
    """The panel's first line: whose view, the deck, how many cards are unseen."""
    hidden = sum(hand.unknown for hand in known.hands.values())
    text = Text(f"What {known.view} knows", style="bold")
    text.append(f" · deck {known.deck_size} · unseen {len(known.unseen)} ({hidden} in hands)", style="dim")
    return text


LEGEND = Text("right to score: ✓ certain  ? possible  ✗ impossible; then the hand sum range", style="dim italic")


class KnowledgePanel(Static):
    """The knowledge panel, shown in place of the board (key k)."""

    DEFAULT_CSS = """
    KnowledgePanel { width: 1fr; height: 1fr; padding: 0 1; display: none; overflow-y: auto; }
    """

    def show(self, known: Knowledge, species: tuple[str, ...], supposing: str = "") -> None:
        """The panel for ``known``; ``supposing`` names the hypotheticals it stands under, if any."""
        from rich.console import Group

        wide = self.size.width >= 100
        heading = knowledge_text(known)
        if supposing:
            heading.append(f"\nsupposing {supposing} (C clears)", style="bold italic cyan")
        self.update(Group(heading, Text(""), knowledge_table(known, species, wide=wide), Text(""), LEGEND))
