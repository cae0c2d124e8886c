"""arbo: the .arb notation, rules engine and tools for game records of the card game Arboretum.

    import arbo_notation as arbo

    games = arbo.read_games("club.arb")      # a path, a text or an open file -> list[GameRecord]
    tree = arbo.replay(games[0])              # GameTree: the record replayed once, variations too
    for node in tree.mainline():              # the root (setup), then one node per legal turn
        node.turn, node.position, node.variations, node.comments, node.glyphs
    sheet = arbo.score(tree.end().position)   # ScoreSheet; sheet.to_json() as `arbo score --json`
    arbo.check("club.arb")                    # what `arbo check` finds, per file and per game
    arbo.analyse(tree, budget=48, seed=0)     # {node: TurnEvaluation}: each turn judged (docs/ANALYSIS.md)

Names are loaded on first use, so ``import arbo_notation`` stays cheap: the parser (lark), the
YAML library and the terminal UI are loaded only by what needs them. docs/API.md has the details.

The modules an `arbo check` loads import no ``typing`` at run time (some 5 ms of start-up): their
annotations are strings (``from __future__ import annotations``), the abstract collections come
from ``collections.abc``, and what only a type checker reads is imported under a module's own
``TYPE_CHECKING = False`` (a name type checkers take as true). tests/test_gamecheck.py holds a
clean check to that, and to loading neither ``random`` nor ``datetime``.
"""

from __future__ import annotations

from .lazy import lazy_exports

__version__ = "0.1.0"

_EXPORTS = {
    "api": ("GameNotFound", "check", "load_game", "read_games", "replay", "score"),
    "analysis": ("analyse",),
    "tree": ("GameTree", "Node"),
    "merging": ("MergeError", "merge"),
    "knowledge": ("Certainty", "HandKnowledge", "Knowledge", "Right", "View"),
    "errors": (
        "ArboError", "Code", "Diagnostic", "NotationError", "NotationErrors", "PositionError", "RuleError",
        "Severity",
    ),
    "engine.cards": ("Card", "Coord"),
    "engine.scoring": ("ScoreSheet", "Tiebreak"),
    "engine.state": ("Game", "GameConfig", "Setup"),
    "notation.record": ("GameRecord", "Header", "Turn"),
    "notation.writer": ("format_game", "format_games"),
    "replayer": ("FileCheck", "GameReplay"),
}

__all__, __getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
