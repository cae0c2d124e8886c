"""arbo: the .arb notation, rules engine and tools for game records of the card game Arboretum.

    import arbo_notation as arbo

    games = arbo.read_games("club.arb")      # a path -> list[GameRecord] (parse_games: a text)
    tree = arbo.replay(games[0])              # GameTree: the record replayed once, variations too
    for node in tree.mainline():              # the root (setup), then one node per legal turn
        node.turn, node.position, node.variations, node.comments, node.glyphs
    sheet = arbo.score(tree.end().position)   # ScoreSheet; sheet.to_json() as `arbo score --json`
    arbo.check("club.arb")                    # what `arbo check` finds, per file and per game
    arbo.analyse(tree, budget=48, seed=0)     # {node: TurnEvaluation}: each turn judged (docs/ANALYSIS.md)

Names are loaded on first use, so ``import arbo_notation`` stays cheap: the parser (lark), the
YAML library and the terminal UI are loaded only by what needs them. docs/API.md has the details.

A check's start-up is a good part of a check of short games (`arbo check` of one game is some
0.05 s of CPU, a thousand two-player games 0.2 s), so the modules it loads keep two things out:

- ``typing`` at run time (some 5 ms): their annotations are strings (``from __future__ import
  annotations``), the abstract collections come from ``collections.abc``, and what only a type
  checker reads is imported under a module's own ``TYPE_CHECKING = False`` (a name type checkers
  take as true). tests/checking/test_gamecheck.py holds a clean check to that, and to loading neither
  ``random`` nor ``datetime``.
- a dataclass for each internal record: Python 3.11 compiles each generated method of a frozen
  dataclass apart, some 3.5 million instructions a class (about 0.8 ms). The values of the game
  and its records (cards, cells, headers, positions, diagnostics) are frozen dataclasses as
  everywhere; the plumbing of a check (a table's rows, the scanner's moves, the cut games, the
  faults of a table, the undo record, the command's arguments) are named tuples, immutable and
  compared by value as well, made at a tenth of the cost.
"""

from __future__ import annotations

from arbo_notation.runtime.lazy import lazy_exports

__version__ = "0.1.0"

_EXPORTS = {
    "api": (
        "GameNotFound", "check", "iter_games", "load_game", "parse_games", "read_games", "read_games_from",
        "replay", "score",
    ),
    "analysis": ("analyse",),
    "game.tree": ("GameTree", "Node"),
    "game.merge": ("MergeError", "merge"),
    "game.knowledge": ("Certainty", "HandKnowledge", "Knowledge", "Right", "View"),
    "errors": (
        "ArboError", "Code", "Diagnostic", "NotationError", "NotationErrors", "PositionError", "RuleError",
        "Severity",
    ),
    "engine.cards": ("Card", "Coord"),
    "engine.scoring": ("ScoreSheet", "Tiebreak"),
    "engine.state": ("Game", "GameConfig", "Setup"),
    "notation.model": ("GameRecord", "Header", "Turn"),
    "notation.writer": ("format_game", "format_games"),
    "checking.games": ("FileCheck",),
    "game.replay": ("GameReplay",),
}

__all__, __getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
