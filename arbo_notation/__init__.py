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

from typing import TYPE_CHECKING

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
    "bots": ("Bot", "GreedyBot", "RandomBot", "make_bot", "play_turn"),
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
    "engine.actions": ("Discard", "Draw", "Plant", "Skip", "TurnActions"),
    "engine.cards": ("Card", "Coord"),
    "engine.position": ("Phase", "Position"),
    "engine.scoring": ("ScoreSheet", "Tiebreak"),
    "engine.state": ("Game", "GameConfig", "Outcome", "Setup"),
    "engine.view": ("SeatView",),
    "notation.model": ("GameRecord", "Header", "Turn"),
    "notation.writer": ("format_game", "format_games"),
    "checking.games": ("FileCheck",),
    "game.replay": ("GameReplay",),
}

if TYPE_CHECKING:
    # What a type checker (mypy, pyright) reads instead of the lazy loader below, so a user's
    # `arbo.Game` is the Game class and not Any; `X as X` re-exports X under --strict and in
    # pyright's rules for typed libraries. tests/test_api.py holds these equal to _EXPORTS.
    from arbo_notation.analysis import analyse as analyse
    from arbo_notation.api import (
        GameNotFound as GameNotFound,
        check as check,
        iter_games as iter_games,
        load_game as load_game,
        parse_games as parse_games,
        read_games as read_games,
        read_games_from as read_games_from,
        replay as replay,
        score as score,
    )
    from arbo_notation.bots import (
        Bot as Bot,
        GreedyBot as GreedyBot,
        RandomBot as RandomBot,
        make_bot as make_bot,
        play_turn as play_turn,
    )
    from arbo_notation.checking.games import FileCheck as FileCheck
    from arbo_notation.engine.actions import (
        Discard as Discard,
        Draw as Draw,
        Plant as Plant,
        Skip as Skip,
        TurnActions as TurnActions,
    )
    from arbo_notation.engine.cards import Card as Card, Coord as Coord
    from arbo_notation.engine.position import Phase as Phase, Position as Position
    from arbo_notation.engine.scoring import ScoreSheet as ScoreSheet, Tiebreak as Tiebreak
    from arbo_notation.engine.state import Game as Game, GameConfig as GameConfig, Outcome as Outcome, Setup as Setup
    from arbo_notation.engine.view import SeatView as SeatView
    from arbo_notation.errors import (
        ArboError as ArboError,
        Code as Code,
        Diagnostic as Diagnostic,
        NotationError as NotationError,
        NotationErrors as NotationErrors,
        PositionError as PositionError,
        RuleError as RuleError,
        Severity as Severity,
    )
    from arbo_notation.game.knowledge import (
        Certainty as Certainty,
        HandKnowledge as HandKnowledge,
        Knowledge as Knowledge,
        Right as Right,
        View as View,
    )
    from arbo_notation.game.merge import MergeError as MergeError, merge as merge
    from arbo_notation.game.replay import GameReplay as GameReplay
    from arbo_notation.game.tree import GameTree as GameTree, Node as Node
    from arbo_notation.notation.model import GameRecord as GameRecord, Header as Header, Turn as Turn
    from arbo_notation.notation.writer import format_game as format_game, format_games as format_games
else:
    # __getattr__ is hidden from type checkers: beside it, a misspelt `arbo.Gmae` would be Any to
    # them and not an error.
    __all__, __getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
