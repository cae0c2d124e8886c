"""The analysis engine: judges each decision of a game from what its mover knew, and plays.

Pure library code (no I/O): rollouts on the engine's lean position (``engine.lean``), a light rollout policy
(``policy``), worlds sampled from the mover's knowledge (``sampling``), one decision judged by
determinized Monte Carlo or exactly (``search``), a whole turn (``turns``), a game tree's main
line (``game``) and the engine as a bot (``bot``). docs/ANALYSIS.md describes the method.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Unpack

from arbo_notation.analysis.turns import BLUNDER, DEFAULT_BUDGET, INACCURACY, MISTAKE, TurnEvaluation, glyph_for

if TYPE_CHECKING:
    from arbo_notation.analysis.game import AnalyseOptions
    from arbo_notation.game.tree import GameTree, Node

__all__ = ["BLUNDER", "DEFAULT_BUDGET", "INACCURACY", "MISTAKE", "TurnEvaluation", "glyph_for", "analyse"]


def analyse(tree: GameTree, **options: Unpack[AnalyseOptions]) -> dict[Node, TurnEvaluation]:
    """Judge every turn of a tree's main line that can be judged (see ``game.analyse``)."""
    # deferred: the game trees and the knowledge model (~27 ms) only for analyse, not for the engine bot of simulate
    from arbo_notation.analysis.game import analyse as run

    return run(tree, **options)
