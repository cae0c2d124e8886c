"""Presenting a ScoreSheet: JSON-able data and a plain-text report a table reads at a glance.

Shared by the command line and the terminal replayer; imports only the engine and the standard library.
"""

from __future__ import annotations

import textwrap
from typing import Any, Sequence

from arbo_notation.engine.cards import species_name
from arbo_notation.engine.scoring import PathScore, PlayerScore, ScoreSheet, Tiebreak

#: The report's lines stay within this many columns (long player names aside).
WIDTH = 100

# -- JSON --------------------------------------------------------------------------------------


def sheet_to_json(sheet: ScoreSheet) -> dict[str, Any]:
    """The score sheet as JSON-able data (``ScoreSheet.to_json``)."""
    return sheet.to_json()


# -- text --------------------------------------------------------------------------------------


def _and(names: Sequence[str]) -> str:
    """'Ana', 'Ana and Ben', 'Ana, Ben and Cy'."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def species_heading(code: str) -> str:
    """'Maple (Ma)', or the bare code for a species without a known name."""
    name = species_name(code)
    return code if name == code else f"{name} ({code})"


def path_split(path: PathScore) -> str:
    """'4 cards +0 same +1 start +2 end = 7'."""
    return (
        f"{path.card_points} cards +{path.same_species_bonus} same +{path.start_bonus} start "
        f"+{path.end_bonus} end = {path.points}"
    )


def _wrap(text: str, indent: int) -> list[str]:
    return textwrap.wrap(
        text,
        width=max(WIDTH, indent + 20),
        initial_indent=" " * indent,
        subsequent_indent=" " * indent,
        break_long_words=False,
        break_on_hyphens=False,
    )


def _species_block(code: str, players: Sequence[PlayerScore], name_width: int) -> list[str]:
    lines = [species_heading(code)]
    scores = [player.species[code] for player in players]
    if all(s.hand_sum == 0 for s in scores) and all(s.rights for s in scores):
        lines[0] += "  (no hand holds it: every player may score it)"
    for player, score in zip(players, scores, strict=True):
        mark = "*" if score.rights else " "
        right = "yes" if score.rights else "no "
        row = f"  {mark} {player.name:<{name_width}}  hand {score.hand_sum:>2}  right {right}  {score.points:>2} pts"
        if score.eight_cancelled_by is not None:  # why an 8 adds nothing to the hand
            row = f"{row}  ({code}8 counts 0: {score.eight_cancelled_by} holds {code}1)"
        if not score.rights:
            lines.append(row.rstrip())
            continue
        if score.path is None:
            lines.append(f"{row}  (no path)")
            continue
        path = str(score.path)
        split = path_split(score.path)
        if len(row) + 2 + len(path) <= WIDTH:
            lines.append(f"{row}  {path}")
            lines.append(" " * (len(row) + 2) + split)
        else:
            lines.append(row)
            lines += _wrap(path, 6)
            lines.append(" " * 6 + split)
    return lines


def _total_lines(players: Sequence[PlayerScore], name_width: int) -> list[str]:
    lines = ["Totals"]
    total_width = max(len(str(p.total)) for p in players)
    for player in players:
        parts = [f"{code} {s.points}" for code, s in player.species.items() if s.points]
        detail = " + ".join(parts) if parts else "no path scored"
        planted = f"{player.species_planted} species planted"
        head = f"  {player.name:<{name_width}}  {player.total:>{total_width}}  ({planted})"
        text = f"{head}  = {detail}" if parts else f"{head}  {detail}"
        if len(text) <= WIDTH:
            lines.append(text)
        else:
            lines.append(head)
            lines += _wrap(f"= {detail}", len(head) - len(head.lstrip()) + 4)
    return lines


def winner_line(sheet: ScoreSheet) -> str:
    """The result in words, naming the tie-break when it decided or the win is shared."""
    players = sheet.players
    if not players:
        return "No players."
    if len(players) == 1:
        return f"{players[0].name} scores {players[0].total}."
    top = max(p.total for p in players)
    leaders = [p for p in players if p.total == top]
    if len(leaders) == 1:
        others = sorted((p for p in players if p is not leaders[0]), key=lambda p: -p.total)
        rest = ", ".join(f"{p.name} {p.total}" for p in others)
        return f"{leaders[0].name} wins with {top} ({rest})."
    tie = f"{_and([p.name for p in leaders])} tie on {top}"
    if sheet.tiebreak is Tiebreak.SPECIES or len(sheet.winners) == 1:
        winner = sheet.player(sheet.winners[0])
        others = [p for p in leaders if p.name != winner.name]
        counts = _and([str(p.species_planted) for p in others])
        return f"{tie}; {winner.name} wins on species planted ({winner.species_planted} to {counts})."
    winners = [sheet.player(name) for name in sheet.winners]
    most = winners[0].species_planted
    losers = [p for p in leaders if p.name not in sheet.winners]
    if not losers:
        return f"{tie} and on species planted ({most} each); they share the win."
    behind = ", ".join(f"{p.name} {p.species_planted}" for p in losers)
    return f"{tie}; {_and(sheet.winners)} share the win on species planted ({most} each; {behind})."


def render_sheet(sheet: ScoreSheet, title: str | None = None) -> str:
    """A plain-text score report: per species each player's hand sum, right and best path, then
    totals and the winner. ``*`` marks the players holding the right to score a species. A position
    before the end of the game (``sheet.game_over`` false) is scored as if the game ended there, and the
    winner's line says so."""
    lines: list[str] = []
    if title:
        lines += [title, "=" * min(len(title), WIDTH), ""]
    players = sheet.players
    name_width = max((len(p.name) for p in players), default=0)
    for code in sheet.species:
        lines += _species_block(code, players, name_width)
        lines.append("")
    if players:
        lines += _total_lines(players, name_width)
        lines.append("")
    lines.append(winner_line(sheet) if sheet.game_over else f"As if the game ended here: {winner_line(sheet)}")
    return "\n".join(lines) + "\n"
