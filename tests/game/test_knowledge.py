"""The knowledge model: what each point of view knows at each node, worked by hand and held to the truth."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import arbo_notation as arbo
import arbo_notation.game.knowledge as knowledge_module
from arbo_notation.engine.cards import Card
from arbo_notation.game.knowledge import Certainty, View
from arbo_notation.notation.views import partial_record
from arbo_notation.play.simulate import simulate_game

ROOT = Path(__file__).resolve().parents[2]

# Ana's seat: she sees her deal and her own deck draws. Ben's Oa2 is taken from Ana's pile in
# turn 4 (public); Ben plants Ja7 in turn 6 after drawing only from piles since turn 4, so with
# hindsight Ja7 was in his hand at turns 4 and 5.
SMALL = """---
players: [Ana, Ben]
species: [Ca, Dw, Ja, Ma, Oa, Wi]
perspective: Ana
hands:
  Ana: [Ca1, Ca2, Dw3, Ja4, Ma5, Oa6, Wi7]
---
1. Ana d:Ca8 d:Dw8 Ca8@0,0 /Dw8
2. Ben d d Ma3@0,0 /Ja2
3. Ana d:Oa1 d:Oa2 Oa1@1,0 /Oa2
4. Ben Ana:Oa2 d Wi2@0,1 /Ca3
5. Ana d:Wi3 d:Wi4 Wi3@2,0 /Wi4
6. Ben Ana:Wi4 Ana:Dw8 Ja7@0,2 /Oa2
7. Ana Ben:Oa2 d:Dw1 Dw1@3,0 /Oa2
result *
"""

ANA, SPECTATOR = View.of_seat("Ana"), View.spectator()
BEN_ANY = frozenset({"Ben", None})


def c(text: str) -> Card:
    return Card.parse(text)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


@pytest.fixture(scope="module")
def small():
    return arbo.replay(arbo.parse_games(SMALL)[0]).line_nodes(())


@pytest.fixture(scope="module")
def four():
    return arbo.replay(arbo.read_games(ROOT / "samples" / "four-players.arb")[0]).line_nodes(())


def test_the_module_examples_run():
    failures, tried = doctest.testmod(knowledge_module, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0


def test_views_name_themselves():
    assert View.of_seat("Ana") == View(seat="Ana")
    assert View.record() == View(omniscient=True)
    assert View.spectator().with_hindsight() == View(hindsight=True)
    assert [str(v) for v in (ANA, SPECTATOR, View.record().with_hindsight())] == [
        "Ana's seat",
        "a spectator",
        "the record with hindsight",
    ]


def test_a_seat_knows_its_deal_and_nothing_of_the_other_hands_at_the_start(small):
    known = small[0].knowledge(ANA)
    assert known.hands["Ana"].known == cards("Ca1 Ca2 Dw3 Ja4 Ma5 Oa6 Wi7")
    assert known.hands["Ana"].unknown == 0
    assert (known.hands["Ben"].known, known.hands["Ben"].unknown) == ((), 7)
    assert known.deck_size == 34 and len(known.unseen) == 41
    assert set(known.places.values()) == {BEN_ANY}


def test_a_seat_sees_its_own_deck_draws_a_spectator_does_not(small):
    assert small[1].knowledge(ANA).hands["Ana"].known == cards("Ca1 Ca2 Dw3 Ja4 Ma5 Oa6 Wi7")
    spectator = small[1].knowledge(SPECTATOR)
    assert (spectator.hands["Ana"].known, spectator.hands["Ana"].unknown) == ((), 7)
    # Ca8 planted and Dw8 on the pile are public: the spectator counts 48 - 2 - 30 = 14 hidden + 30 deck... unseen
    assert len(spectator.unseen) == 48 - 2 == 46
    assert spectator.places[c("Ca1")] == frozenset({"Ana", "Ben", None})


def test_a_card_taken_from_a_pile_is_known_until_it_is_played(small):
    for node in (small[4], small[5]):
        for view in (ANA, SPECTATOR):
            assert node.knowledge(view).hands["Ben"].known == (c("Oa2"),)
    # turn 6 discards Oa2 and takes Wi4 and Dw8 from Ana's pile: those two are known now
    assert small[6].knowledge(SPECTATOR).hands["Ben"].known == cards("Dw8 Wi4")
    assert small[6].knowledge(SPECTATOR).hands["Ben"].unknown == 5
    assert small[7].knowledge(ANA).hands["Ana"].known == cards("Ca1 Ca2 Dw3 Ja4 Ma5 Oa6 Wi7")


def test_a_card_played_from_an_unknown_slot_is_no_longer_unseen(small):
    before, after = small[5].knowledge(ANA), small[6].knowledge(ANA)
    assert c("Ja7") in before.unseen and before.places[c("Ja7")] == BEN_ANY
    assert c("Ja7") not in after.unseen and c("Ja7") not in after.places


def test_only_a_later_plant_proves_a_card_was_held(small):
    for node in (small[4], small[5]):
        plain, later = node.knowledge(ANA), node.knowledge(ANA.with_hindsight())
        assert c("Ja7") not in plain.hands["Ben"].known
        assert plain.places[c("Ja7")] == BEN_ANY
        assert later.hands["Ben"].known == cards("Ja7 Oa2")
        assert later.hands["Ben"].unknown == 5
        assert c("Ja7") not in later.unseen
    # at turn 3 Ben still had a deck draw (turn 4) to bring Ja7 in: it may have been in the deck
    assert small[3].knowledge(ANA.with_hindsight()).places[c("Ja7")] == BEN_ANY


def test_hindsight_puts_the_cards_a_seat_draws_later_in_the_deck(small):
    later = small[2].knowledge(ANA.with_hindsight())
    for card in cards("Oa1 Oa2 Wi3 Wi4 Dw1"):
        assert later.places[card] == frozenset({None})
    # Ben's later deck draw (turn 4) could have brought Ca3 and Wi2, played in turn 4
    assert later.places[c("Wi2")] == BEN_ANY and later.places[c("Ca3")] == BEN_ANY
    assert later.places[c("Ma1")] == BEN_ANY  # never seen again: anywhere with room


def test_the_rights_as_a_seat_knows_them(small):
    rights = small[0].knowledge(ANA).rights
    # Ben's 7 unknown cards may be the seven Oa left (Oa1..Oa5, Oa7, Oa8: 30) or none of them
    assert rights[("Ben", "Oa")] == knowledge_module.Right("Ben", "Oa", Certainty.POSSIBLE, 0, 30)
    assert rights[("Ana", "Oa")] == knowledge_module.Right("Ana", "Oa", Certainty.POSSIBLE, 6, 6)
    # Ana holds Ca1 and Ca2: Ben's Ca8 would count 0 against her 1, so his best is Ca3..Ca7
    assert (rights[("Ben", "Ca")].low, rights[("Ben", "Ca")].high) == (0, 25)
    assert str(rights[("Ben", "Ca")]) == "Ben Ca: possible (sum 0 to 25)"
    assert str(rights[("Ana", "Ca")]) == "Ana Ca: possible (sum 3)"


def test_rights_are_certain_or_impossible_once_the_hands_are_known(four):
    end = four[-1].knowledge(View.of_seat("Cleo"))
    assert all(h.unknown == 0 for h in end.hands.values())
    assert end.unseen == frozenset()
    assert {str(r) for r in end.rights.values() if r.species == "Rp"} == {
        "Ana Rp: impossible (sum 0)",
        "Ben Rp: impossible (sum 0)",
        "Cleo Rp: impossible (sum 6)",
        "Dev Rp: certain (sum 12)",
    }
    sheet = arbo.score(four[-1].position)
    for (player, species), right in end.rights.items():
        assert (right.status is Certainty.CERTAIN) == sheet.player(player).species[species].rights


def test_the_four_player_sample_at_turn_20_from_cleos_seat(four):
    known = four[20].knowledge(View.of_seat("Cleo"))
    assert known.hands["Dev"].known == (c("Rp3"),) and known.hands["Dev"].unknown == 6
    assert known.hands["Ben"].known == cards("Ca2 Cb1 Cb3 Tp2") and known.hands["Ben"].unknown == 3
    assert known.hands["Cleo"].unknown == 0
    assert str(known.hands["Dev"]) == "Rp3 ?? ?? ?? ?? ?? ??"
    later = four[20].knowledge(View.of_seat("Cleo").with_hindsight())
    # Ben reveals Ma1 and never plays it; he draws from the deck in turns 22 and 30
    assert later.places[c("Ma1")] == frozenset({"Ben", None})
    # Dev reveals Rp7 and draws from the deck in turns 24, 28, 32 and 36
    assert later.places[c("Rp7")] == frozenset({"Dev", None})


def test_json_carries_the_hands_places_and_rights(four):
    data = four[20].knowledge(View.of_seat("Cleo")).to_json()
    assert data["hands"]["Dev"] == {"known": ["Rp3"], "unknown": 6}
    assert data["view"] == {"seat": "Cleo", "omniscient": False, "hindsight": False}
    assert data["places"]["Ca8"] == ["Ana", "Ben", "Dev", "deck"]
    assert {"player": "Cleo", "species": "Ca", "status": "impossible", "low": 0, "high": 0} in data["rights"]


# -- held to the truth over simulated games --------------------------------------------------


def _truth(position: arbo.Game) -> dict[Card, str | None]:
    where: dict[Card, str | None] = {}
    for player in position.players:
        for card in position.hand(player).known:
            where[card] = player
    for card in position.deck_cards() or ():
        where[card] = None
    return where


def _views(players):
    return [View.record(), View.spectator(), *(View.of_seat(p) for p in players)]


def _check(known, position, truth):
    public = set()
    for player in position.players:
        public.update(position.arboretum(player).values())
        public.update(position.discard_pile(player))
    held = set()
    for player, hand in known.hands.items():
        assert len(hand) == len(position.hand(player))
        for card in hand.known:
            assert truth[card] == player, f"{known.view}: {card} is not in {player}'s hand"
        held.update(hand.known)
    assert sum(h.unknown for h in known.hands.values()) + known.deck_size == len(known.unseen)
    assert known.unseen | held | public == set(position.config.cards)
    assert not (known.unseen & held) and not (known.unseen & public)
    for card in known.unseen:
        assert truth[card] in known.places[card], f"{known.view}: {card} is {truth[card]}, not in {known.places[card]}"
    seat = known.view.seat
    if seat is not None:
        assert known.hands[seat].unknown == 0


def _check_rights(known, position):
    """The rights as known hold of the true hands: the true sum is within the range, a certain
    right is held, an impossible one is not."""
    from arbo_notation.engine.scoring import hand_sums, rights

    hands = {p: position.hand(p).known for p in position.players}
    for species in position.config.species:
        sums = hand_sums(species, hands)
        holders = rights(species, hands)
        for player in position.players:
            right = known.right(player, species)
            assert right.low <= sums[player] <= right.high, f"{known.view}: {right} but the sum is {sums[player]}"
            if right.status is Certainty.CERTAIN:
                assert player in holders, f"{known.view}: {right} but {player} has no right"
            if right.status is Certainty.IMPOSSIBLE:
                assert player not in holders, f"{known.view}: {right} but {player} has the right"


@pytest.mark.slow
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 10_000), bot=st.sampled_from(["random", "greedy"]))
def test_every_view_at_every_turn_is_true_to_the_omniscient_record(players, seed, bot):
    record = simulate_game(("Ana", "Ben", "Cleo", "Dev")[:players], seed, [bot])
    nodes = arbo.replay(record).line_nodes(())
    views = _views(record.header.players)
    for number, node in enumerate(nodes):
        position = node.position
        truth = _truth(position)
        for view in views:
            known = node.knowledge(view)
            _check(known, position, truth)
            _check_rights(known, position)
        if number % 5 == 0:  # hindsight costs a matching per view: every fifth turn is enough
            for view in views:
                later = node.knowledge(view.with_hindsight())
                _check(later, position, truth)
                _check_rights(later, position)


@pytest.mark.slow
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 10_000))
def test_a_seats_own_record_gives_the_seats_view_of_the_omniscient_record(players, seed):
    record = simulate_game(("Ana", "Ben", "Cleo", "Dev")[:players], seed, ["random"])
    omniscient = arbo.replay(record).line_nodes(())
    for seat in record.header.players:
        seated = arbo.replay(partial_record(record, seat)).line_nodes(())
        assert len(seated) == len(omniscient)
        for number in range(0, len(seated), 3):
            for view in (View.of_seat(seat), View.of_seat(seat).with_hindsight(), View.spectator()):
                mine, theirs = seated[number].knowledge(view), omniscient[number].knowledge(view)
                assert (mine.hands, mine.unseen, mine.places, mine.rights) == (
                    theirs.hands,
                    theirs.unseen,
                    theirs.places,
                    theirs.rights,
                )


# -- every view of one position agrees -------------------------------------------------------


def _svg_hand(svg: str, player: str) -> list[str]:
    """The hand a diagram draws for a player: card codes, ?? for unseen ones."""
    import re

    seat = svg.split(f'data-player="{player}"', 1)[1].split('<g class="seat"', 1)[0]
    hand = seat.split(">Hand<", 1)[1].split(">Discard<", 1)[0]
    cards = []
    for group in hand.split('<g class="card')[1:]:
        texts = re.findall(r">([^<>]+)</text>", group)
        cards.append("".join(texts))
    return cards


def test_every_view_of_turn_20_from_cleos_seat_shows_the_same_hands(tmp_path):
    import json

    from typer.testing import CliRunner

    from arbo_notation.cli import app
    from arbo_notation.share.data import game_data

    sample = str(ROOT / "samples" / "four-players.arb")
    dev, ben = "Rp3 ?? ?? ?? ?? ?? ??", "Ca2 Cb1 Cb3 Tp2 ?? ?? ??"
    runner = CliRunner()
    state = runner.invoke(app, ["state", sample, "--turn", "20"])
    assert f"hand:    {dev}" in state.stdout and f"hand:    {ben}" in state.stdout
    data = json.loads(runner.invoke(app, ["state", sample, "--turn", "20", "--json"]).stdout)
    assert data["knowledge"]["hands"]["Dev"] == {"known": ["Rp3"], "unknown": 6}
    assert data["knowledge"]["hands"]["Ben"] == {"known": ["Ca2", "Cb1", "Cb3", "Tp2"], "unknown": 3}
    plain = runner.invoke(app, ["replay", "--plain", sample]).stdout
    turn20 = plain.split("== 20. ", 1)[1].split("== 21. ", 1)[0]
    assert f"hand:    {dev}" in turn20 and f"hand:    {ben}" in turn20
    out = tmp_path / "t20.svg"
    assert runner.invoke(app, ["render", sample, "--turn", "20", "-o", str(out)]).exit_code == 0
    svg = out.read_text(encoding="utf-8")
    assert " ".join(_svg_hand(svg, "Dev")) == dev and " ".join(_svg_hand(svg, "Ben")) == ben
    page = game_data(arbo.load_game(sample))
    assert page["view"] == "Cleo"
    at = next(p for p in page["positions"] if p["line"] == "" and p["number"] == 20)
    assert " ".join(at["known"]["Cleo"]["hands"][3]) == dev and " ".join(at["known"]["Cleo"]["hands"][1]) == ben


def test_state_json_with_its_knowledge_is_still_what_score_reads(tmp_path):
    import json

    from typer.testing import CliRunner

    from arbo_notation.cli import app

    runner = CliRunner()
    sample = str(ROOT / "samples" / "four-players.arb")
    end = runner.invoke(app, ["state", sample, "--json"])
    assert json.loads(end.stdout)["knowledge"]["unseen"] == []
    scored = runner.invoke(app, ["score", "--json", "-"], input=end.stdout)
    assert scored.exit_code == 0, scored.output
    assert {p["name"]: p["total"] for p in json.loads(scored.stdout)["players"]} == {
        "Ana": 3,
        "Ben": 0,
        "Cleo": 17,
        "Dev": 19,
    }
    spectator = json.loads(runner.invoke(app, ["state", sample, "--turn", "20", "--as", "all", "--json"]).stdout)
    assert spectator["knowledge"]["view"]["omniscient"] is True
    assert runner.invoke(app, ["state", sample, "--as", "Zed"]).exit_code == 2


def test_a_record_with_repaired_faults_keeps_every_view_whole():
    # samples/invalid/rule-several-faults.arb: a wrong player's turn, draws naming cards that were
    # not on top, and two reveals naming the same card: the replay repairs them, and every view
    # keeps each hand to the cards the replay placed there.
    tree = arbo.replay(arbo.read_games(ROOT / "samples" / "invalid" / "rule-several-faults.arb")[0])
    for node in tree.walk():
        position = node.position
        for view in _views(tree.record.header.players):
            for known in (node.knowledge(view), node.knowledge(view.with_hindsight())):
                assert sum(h.unknown for h in known.hands.values()) + known.deck_size == len(known.unseen)
                for player, hand in known.hands.items():
                    assert len(hand) == len(position.hand(player))
                    assert set(hand.known) <= set(position.hand(player).known)  # (the record knows every hand)
