"""The Arboretum rules engine: cards, game state, legal actions and scoring (standard library only)."""


def compiled() -> bool:
    """Whether the greedy bot's modules run compiled: the opt-in mypyc build (hatch_build.py)."""
    # deferred: the greedy bot's module (~3 ms), for `arbo --version` alone, not every import of the engine
    from arbo_notation.engine import greedy

    # A compiled module is loaded from its extension (.so, .pyd), a pure one from its .py file.
    return not greedy.__file__.endswith(".py")
