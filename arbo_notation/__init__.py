"""arbo: the .arb notation, rules engine and tools for game records of the card game Arboretum.

    import arbo_notation as arbo

    games = arbo.read_games("club.arb")      # a path or an open file -> list[GameRecord] (parse_games: a text)
    tree = arbo.replay(games[0])              # GameTree: the record replayed once, variations too
    for node in tree.mainline():              # the root (setup), then one node per legal turn
        node.turn, node.position, node.variations, node.comments, node.glyphs
    sheet = arbo.score(tree.end().position)   # ScoreSheet; sheet.to_json() as `arbo score --json`
    arbo.check("club.arb")                    # what `arbo check` finds, per file and per game
    arbo.analyse(tree, budget=48, seed=0)     # {node: TurnEvaluation}: each turn judged (docs/ANALYSIS.md)

Names are loaded on first use, so ``import arbo_notation`` stays cheap (docs/ARCHITECTURE.md,
"Start-up and speed"); docs/API.md has the details.
"""

from __future__ import annotations

from arbo_notation.runtime.lazy import lazy_exports

__version__ = "0.1.0"

_EXPORTS = {
    "api": (
        "GameNotFound",
        "check",
        "iter_games",
        "load_game",
        "parse_games",
        "read_games",
        "read_games_from",
        "replay",
        "score",
    ),
    "analysis": ("analyse",),
    "game.tree": ("GameTree", "Node"),
    "game.merge": ("MergeError", "merge"),
    "game.knowledge": ("Certainty", "HandKnowledge", "Knowledge", "Right", "View"),
    "errors": (
        "ArboError",
        "Code",
        "Diagnostic",
        "NotationError",
        "NotationErrors",
        "PositionError",
        "RuleError",
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
