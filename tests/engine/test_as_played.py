"""Game.as_played: an action naming the card it draws, where the game knows it, as a referee or a
simulation writes it once pushed; and a skip refused while a pile still holds a card."""

from __future__ import annotations

import pytest

from arbo_notation.engine.actions import Discard, Draw, Plant, Skip
from arbo_notation.engine.cards import ORIGIN, Card
from arbo_notation.engine.state import Game, GameConfig, Setup
from arbo_notation.errors import RuleError

CONFIG = GameConfig(("Ana", "Ben"), ("Ca", "Dw", "Ja", "Ma", "Oa", "Wi"))


def test_a_draw_names_the_top_card_of_a_known_deck_or_of_a_pile():
    game = Game(CONFIG, Setup.shuffled(CONFIG, 1))
    top = game.deck_cards()[0]
    assert game.as_played(Draw()) == Draw(None, top) and str(game.as_played(Draw())) == f"d:{top}"
    game.push(game.as_played(Draw()))
    assert game.move_stack == (Draw(None, top),) and top in game.hand("Ana").known
    game.push(Draw())
    card = game.hand("Ana").known[0]
    game.push(Plant(card, ORIGIN))
    thrown = game.hand("Ana").known[0]
    game.push(Discard(thrown))
    assert game.as_played(Draw("Ana")) == Draw("Ana", thrown)
    for action in (Draw("Ana", thrown), Draw(None, Card("Ca", 1)), Skip(), Plant(card, ORIGIN), Discard(card)):
        assert game.as_played(action) is action  # named already, or no draw: as it is
    assert game.as_played(Draw("Ben")) == Draw("Ben")  # an empty pile: pushing it says why not
    with pytest.raises(RuleError, match="Ben cannot draw from their own discard pile: it is empty"):
        game.push(game.as_played(Draw("Ben")))


def test_a_draw_from_an_unknown_deck_stays_unnamed():
    game = Game(CONFIG, Setup(hands={"Ana": tuple(CONFIG.cards[:7])}))
    assert game.as_played(Draw()) == Draw()
    game.push(Draw())
    assert game.hand("Ana").hidden == 1


def test_a_skip_is_refused_while_a_pile_holds_a_card():
    game = Game(CONFIG, Setup.shuffled(CONFIG, 2))
    game._deck, game._deck_count = [], 0  # (no deal leaves this: the deck empty, the piles not)
    game._discards["Ben"].append(Card("Ca", 1))
    with pytest.raises(RuleError, match="Ana cannot skip a draw: a card can still be drawn from Ben's discard pile"):
        game.push(Skip())
