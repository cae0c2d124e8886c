"""The computer players, each choosing on a seat's view, by name; and the bot protocol's serving loop.

``make_bot("greedy")`` gives a bot (``random``, ``greedy`` or ``engine``); ``bot.choose(view, rng)``
answers one action on a :class:`~arbo_notation.engine.view.SeatView`, and
:func:`~arbo_notation.bots.base.play_turn` plays a bot's whole turn on a game (docs/API.md, "Bots").
"""

from __future__ import annotations

from arbo_notation.bots.base import Bot, play_turn
from arbo_notation.bots.greedy_bot import GreedyBot
from arbo_notation.bots.random_bot import RandomBot
from arbo_notation.errors import ArboError

#: The bots that need no more than the engine, by the names the command line uses.
BOTS: dict[str, type[Bot]] = {"greedy": GreedyBot, "random": RandomBot}
#: Every built-in bot's name: those of BOTS, and the analysis engine playing (``engine``).
BOT_NAMES = ("engine", "greedy", "random")


def make_bot(name: str, budget: int | None = None, move_time: float | None = None) -> Bot:
    """A bot by name (one of BOT_NAMES); ``budget`` is the engine bot's sampled worlds per decision
    (None or 0: its default), ``move_time`` its time limit per move in seconds (None: none).
    ArboError for an unknown name."""
    if name == "engine":
        # deferred: the analysis engine (~30 ms of start-up), which `arbo bot greedy` never loads
        from arbo_notation.bots.engine_bot import EngineBot

        return EngineBot(budget, move_time=move_time) if budget else EngineBot(move_time=move_time)
    try:
        return BOTS[name]()
    except KeyError:
        raise ArboError(f"no bot is called {name!r} (known: {', '.join(BOT_NAMES)})") from None


__all__ = ["BOTS", "BOT_NAMES", "Bot", "GreedyBot", "RandomBot", "make_bot", "play_turn"]
