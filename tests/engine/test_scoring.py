"""Scoring (RULES.md, Scoring): the right to score, paths, points, totals and the winner.

Every value here is worked out by hand from RULES.md; the property test checks ``best_paths``
against an independent brute-force enumeration of paths.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbo_notation.engine.cards import Card, Coord
from arbo_notation.engine.scoring import (
    PlayerPosition,
    best_paths,
    hand_sums,
    path_score,
    rights,
    score_position,
)

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "positions"


def arb(text: str) -> dict[Coord, Card]:
    """An arboretum written as ``Ma1@0,0 Wi3@1,0 ...``."""
    result: dict[Coord, Card] = {}
    for item in text.split():
        card, cell = item.split("@")
        x, y = cell.split(",")
        result[Coord(int(x), int(y))] = Card.parse(card)
    return result


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in text.split())


def row(*codes: str, y: int = 0) -> dict[Coord, Card]:
    """Cards planted left to right from x=0 on one row."""
    return {Coord(x, y): Card.parse(c) for x, c in enumerate(codes)}


def path_text(arboretum, species: str) -> str:
    return str(best_paths(arboretum, [species])[species])


# -- the examples of RULES.md ---------------------------------------------------------------


def test_rules_example_maple_through_other_species_scores_7():
    found = best_paths(row("Ma1", "Wi3", "Oa5", "Ma8"))["Ma"]
    assert str(found) == "Ma1@0,0 Wi3@1,0 Oa5@2,0 Ma8@3,0"
    assert found.breakdown() == {"cards": 4, "same_species": 0, "starts_with_1": 1, "ends_with_8": 2}
    assert found.points == 7


def test_rules_example_five_maples_score_10():
    found = best_paths(row("Ma2", "Ma3", "Ma4", "Ma6", "Ma7"))["Ma"]
    assert found.breakdown() == {"cards": 5, "same_species": 5, "starts_with_1": 0, "ends_with_8": 0}
    assert found.points == 10


def test_rules_example_three_cassias_score_3_without_bonus():
    found = best_paths(row("Ca3", "Ca4", "Ca7"))["Ca"]
    assert found.points == 3
    assert found.same_species_bonus == 0


def test_rules_example_eight_oaks_score_19():
    found = best_paths(row(*(f"Oa{v}" for v in range(1, 9))))["Oa"]
    assert len(found.cards) == 8
    assert found.breakdown() == {"cards": 8, "same_species": 8, "starts_with_1": 1, "ends_with_8": 2}
    assert found.points == 19


def test_path_score_splits_points_into_the_four_parts():
    cells = [Coord(x, 0) for x in range(4)]
    scored = path_score("Ma", cells, cards("Ma1 Ma2 Ma5 Ma8"))
    assert (scored.card_points, scored.same_species_bonus, scored.start_bonus, scored.end_bonus) == (4, 4, 1, 2)
    assert scored.points == 11


# -- paths ---------------------------------------------------------------------------------------


def test_two_card_path_scores_2():
    assert best_paths(row("Ma3", "Ma5"))["Ma"].points == 2


def test_two_card_path_from_1_to_8_scores_5():
    assert best_paths(row("Ma1", "Ma8"))["Ma"].points == 2 + 1 + 2


def test_a_single_card_is_no_path():
    assert best_paths(row("Ma1", "Wi3")) == {}


def test_three_cards_of_one_species_get_no_bonus():
    assert best_paths(row("Dw2", "Dw5", "Dw6"))["Dw"].points == 3


def test_four_cards_of_one_species_are_doubled():
    assert best_paths(row("Dw2", "Dw5", "Dw6", "Dw7"))["Dw"].points == 8


def test_four_cards_with_one_other_species_are_not_doubled():
    assert best_paths(row("Dw2", "Ma5", "Dw6", "Dw7"))["Dw"].points == 4


def test_path_through_other_species_counts_every_card():
    # Ja2 Ca3 Oa4 Wi5 Ja6: five cards, only the ends are Jacaranda.
    assert best_paths(row("Ja2", "Ca3", "Oa4", "Wi5", "Ja6"))["Ja"].points == 5


def test_one_tree_serves_the_paths_of_two_species():
    # Wi3 at the centre: Ma2 Wi3 Ma4 across, Oa1 Wi3 Oa5 down to up.
    found = best_paths(arb("Ma2@-1,0 Wi3@0,0 Ma4@1,0 Oa1@0,-1 Oa5@0,1"))
    assert str(found["Ma"]) == "Ma2@-1,0 Wi3@0,0 Ma4@1,0"
    assert found["Ma"].points == 3
    assert str(found["Oa"]) == "Oa1@0,-1 Wi3@0,0 Oa5@0,1"
    assert found["Oa"].points == 3 + 1
    assert "Wi" not in found


def test_best_path_is_not_the_longest_when_a_short_one_has_1_and_8():
    # Ma2 Wi3 Oa4 Ma6 on the row scores 4; Ma1 below Ma8 (two cards) scores 2 + 1 + 2 = 5.
    # (Ma2 Ma8 down the first column scores 2 + 2 = 4.)
    trees = arb("Ma2@0,0 Wi3@1,0 Oa4@2,0 Ma6@3,0 Ma8@0,-1 Ma1@0,-2")
    found = best_paths(trees)["Ma"]
    assert str(found) == "Ma1@0,-2 Ma8@0,-1"
    assert found.points == 5


def test_best_path_is_not_the_longest_when_a_short_one_is_all_one_species():
    # Ben's arboretum of the four-player sample: Ja1 Ja3 Ja6 Ja8 (4 + 4 + 1 + 2 = 11) beats the
    # six-card paths such as Ja1 Oa3 Oa4 Ja5 Ja6 Ja8 (6 + 1 + 2 = 9). Ja3 and Ja5 touch only diagonally.
    trees = arb("Oa3@0,0 Oa4@1,0 Ja5@2,0 Oa7@3,0 Ja1@0,-1 Ja3@1,-1 Ja6@2,-1 Ja8@3,-1")
    found = best_paths(trees)
    assert str(found["Ja"]) == "Ja1@0,-1 Ja3@1,-1 Ja6@2,-1 Ja8@3,-1"
    assert found["Ja"].points == 11
    assert str(found["Oa"]) == "Oa3@0,0 Oa4@1,0 Ja5@2,0 Oa7@3,0"
    assert found["Oa"].points == 4


def test_diagonal_cards_are_not_adjacent():
    # Ma2 and Ma3 touch only at a corner; Wi1 touches both but cannot follow Ma2 (1 < 2).
    assert best_paths(arb("Ma2@0,0 Ma3@1,1 Wi1@1,0")) == {}


def test_equal_values_do_not_increase():
    assert "Ma" not in best_paths(row("Ma3", "Oa3", "Ma5"))
    assert best_paths(row("Ma3", "Oa4", "Ma5"))["Ma"].points == 3


def test_path_may_run_either_way_and_turn_corners():
    # An L-shaped path read from right to left then down: Ca1 (2,0) Ca2 (1,0) Ca4 (0,0) Ca5 (0,-1).
    found = best_paths(arb("Ca4@0,0 Ca2@1,0 Ca1@2,0 Ca5@0,-1"))["Ca"]
    assert str(found) == "Ca1@2,0 Ca2@1,0 Ca4@0,0 Ca5@0,-1"
    assert found.points == 4 + 4 + 1


def test_paths_start_and_end_with_the_species_scored():
    # Wi1 Ma2 Ma3 Wi8: the Maple path is Ma2 Ma3 (2); the Willow path Wi1 Ma2 Ma3 Wi8 scores 4 + 1 + 2.
    found = best_paths(row("Wi1", "Ma2", "Ma3", "Wi8"))
    assert found["Ma"].points == 2
    assert found["Wi"].points == 7


def test_best_paths_can_be_asked_for_some_species_only():
    trees = row("Wi1", "Ma2", "Ma3", "Wi8")
    assert set(best_paths(trees, ["Wi"])) == {"Wi"}
    assert best_paths(trees, ["Oa"]) == {}


def test_equal_best_paths_are_chosen_deterministically():
    # Ma1 Wi3 Ma5 and Ma1 Oa2 Ma5 (around a square) both score 4 with 3 cards; the first in
    # order of cells is taken: from Ma1 at 0,0 the neighbour 0,1 comes before 1,0.
    trees = arb("Ma1@0,0 Wi3@1,0 Oa2@0,1 Ma5@1,1")
    assert path_text(trees, "Ma") == "Ma1@0,0 Oa2@0,1 Ma5@1,1"
    assert path_text(dict(reversed(list(trees.items()))), "Ma") == "Ma1@0,0 Oa2@0,1 Ma5@1,1"


# -- the right to score --------------------------------------------------------------------------


def test_highest_hand_sum_has_the_right():
    hands = {"Ana": cards("Ma5 Ma2"), "Ben": cards("Ma6")}
    assert hand_sums("Ma", hands) == {"Ana": 7, "Ben": 6}
    assert rights("Ma", hands) == {"Ana"}


def test_tied_hand_sums_all_have_the_right():
    hands = {"Ana": cards("Ma5"), "Ben": cards("Ma2 Ma3"), "Cy": cards("Ma4")}
    assert rights("Ma", hands) == {"Ana", "Ben"}


def test_nobody_holding_a_species_gives_everyone_the_right():
    hands = {"Ana": cards("Oa5"), "Ben": cards("Wi2"), "Cy": ()}
    assert hand_sums("Ma", hands) == {"Ana": 0, "Ben": 0, "Cy": 0}
    assert rights("Ma", hands) == {"Ana", "Ben", "Cy"}


def test_a_player_holding_cards_beats_players_holding_none():
    assert rights("Ma", {"Ana": cards("Ma1"), "Ben": ()}) == {"Ana"}


def test_own_1_does_not_cancel_own_8():
    hands = {"Ana": cards("Ma1 Ma8"), "Ben": cards("Ma7 Ma2")}
    assert hand_sums("Ma", hands) == {"Ana": 9, "Ben": 9}
    assert rights("Ma", hands) == {"Ana", "Ben"}


def test_opponents_1_cancels_an_8_in_two_player_game():
    hands = {"Ana": cards("Ma8"), "Ben": cards("Ma1")}
    assert hand_sums("Ma", hands) == {"Ana": 0, "Ben": 1}
    assert rights("Ma", hands) == {"Ben"}


def test_opponents_1_cancels_an_8_in_three_player_game():
    # Ana's 8 counts 0 because Ben holds Ma1, so Cy's 3 is highest (Ana 2, Ben 1).
    hands = {"Ana": cards("Ma8 Ma2"), "Ben": cards("Ma1"), "Cy": cards("Ma3")}
    assert hand_sums("Ma", hands) == {"Ana": 2, "Ben": 1, "Cy": 3}
    assert rights("Ma", hands) == {"Cy"}


def test_opponents_1_cancels_an_8_in_four_player_game():
    # Dee's Rp1 cancels Ben's Rp8 (any opponent, not only a neighbour): Ben has 4 + 3 = 7, not 15,
    # and ties with Ana's 7.
    hands = {"Ana": cards("Rp7"), "Ben": cards("Rp8 Rp4 Rp3"), "Cy": cards("Rp2"), "Dee": cards("Rp1")}
    assert hand_sums("Rp", hands) == {"Ana": 7, "Ben": 7, "Cy": 2, "Dee": 1}
    assert rights("Rp", hands) == {"Ana", "Ben"}


def test_the_1_cancels_only_the_8_of_its_own_species():
    hands = {"Ana": cards("Ma8 Oa8"), "Ben": cards("Ma1 Oa2")}
    assert hand_sums("Ma", hands) == {"Ana": 0, "Ben": 1}
    assert hand_sums("Oa", hands) == {"Ana": 8, "Ben": 2}


# -- whole positions -------------------------------------------------------------------------------


def player(name: str, trees: str, hand: str) -> PlayerPosition:
    return PlayerPosition(name, arb(trees), cards(hand))


def test_right_without_a_path_scores_0_and_still_denies_the_others():
    ana = player("Ana", "Wi2@0,0 Oa3@1,0", "Ma7")  # the right to Maple, no Maple tree
    ben = player("Ben", "Ma2@0,0 Ma5@1,0 Ma6@2,0", "Ma3")  # a 3-point Maple path, no right
    sheet = score_position(["Ma", "Oa", "Wi"], [ana, ben])
    assert sheet.player("Ana").species["Ma"].rights is True
    assert sheet.player("Ana").species["Ma"].points == 0
    assert sheet.player("Ana").species["Ma"].path is None
    assert sheet.player("Ben").species["Ma"].rights is False
    assert sheet.player("Ben").species["Ma"].points == 0
    assert sheet.player("Ben").species["Ma"].path is None
    assert sheet.totals() == {"Ana": 0, "Ben": 0}


def test_tied_right_lets_both_score():
    ana = player("Ana", "Ma1@0,0 Ma8@1,0", "Ma4")
    ben = player("Ben", "Ma2@0,0 Wi3@0,1 Ma5@0,2", "Ma3 Ma1 Wi1")  # Ma 4, tied with Ana
    sheet = score_position(["Ma", "Wi"], [ana, ben])
    assert sheet.player("Ana").species["Ma"].points == 5
    assert sheet.player("Ben").species["Ma"].points == 3
    assert sheet.player("Ben").species["Wi"].rights is True
    assert sheet.totals() == {"Ana": 5, "Ben": 3}
    assert sheet.winners == ("Ana",) and sheet.tiebreak is None


def test_highest_total_wins():
    # Ana: Ma 7 (the RULES example). Ben: Oa2 Oa4 scores 2.
    ana = player("Ana", "Ma1@0,0 Wi3@1,0 Oa5@2,0 Ma8@3,0", "Ma2")
    ben = player("Ben", "Oa2@0,0 Oa4@0,1", "Oa7")
    sheet = score_position(["Ma", "Oa", "Wi"], [ana, ben])
    assert sheet.totals() == {"Ana": 7, "Ben": 2}
    assert sheet.winners == ("Ana",)
    assert sheet.tiebreak is None


def test_tie_is_broken_by_species_planted():
    # Both score 3: Ana Ma2 Wi3 Ma4 = 3 (2 species planted), Ben Oa1 Oa5 = 2 + 1 (3 species planted).
    ana = player("Ana", "Ma2@0,0 Wi3@1,0 Ma4@2,0", "Ma1")
    ben = player("Ben", "Oa1@0,0 Oa5@1,0 Ca6@2,0 Dw7@3,0", "Oa2")
    sheet = score_position(["Ca", "Dw", "Ma", "Oa", "Wi"], [ana, ben])
    assert sheet.totals() == {"Ana": 3, "Ben": 3}
    assert sheet.player("Ana").species_planted == 2
    assert sheet.player("Ben").species_planted == 3
    assert sheet.winners == ("Ben",)
    assert sheet.tiebreak == "species"


def test_tie_on_points_and_species_is_a_shared_win():
    ana = player("Ana", "Ma2@0,0 Ma4@1,0", "Ma1")
    ben = player("Ben", "Oa3@0,0 Oa6@1,0", "Oa1")
    cy = player("Cy", "Wi4@0,0", "Wi8")
    sheet = score_position(["Ma", "Oa", "Wi"], [ana, ben, cy])
    assert sheet.totals() == {"Ana": 2, "Ben": 2, "Cy": 0}
    assert sheet.winners == ("Ana", "Ben")
    assert sheet.tiebreak == "shared"


def test_three_tie_on_points_two_on_species_share():
    ana = player("Ana", "Ma2@0,0 Oa3@1,0 Ma4@2,0", "Ma1")  # 3 points, 2 species
    ben = player("Ben", "Oa2@0,0 Wi4@1,0 Oa6@2,0", "Oa1")  # 3 points, 2 species
    cy = player("Cy", "Wi2@0,0 Wi5@1,0 Wi6@2,0", "Wi8")  # 3 points, 1 species
    sheet = score_position(["Ma", "Oa", "Wi"], [ana, ben, cy])
    assert sheet.totals() == {"Ana": 3, "Ben": 3, "Cy": 3}
    assert sheet.winners == ("Ana", "Ben")
    assert sheet.tiebreak == "shared"


def test_species_planted_counts_every_tree_not_only_paths():
    ana = player("Ana", "Ma2@0,0 Wi3@1,0 Oa5@2,0 Ca1@3,0", "")
    assert score_position(["Ca", "Ma", "Oa", "Wi"], [ana]).player("Ana").species_planted == 4


# -- the sample positions, worked out by hand ----------------------------------------------------
#
# club-final.yaml (2 players). Ana: Ma1 Ca3 Ca4 Wi5 Ca7 Ma8 = 6 + 1 + 2 = 9 (three other six-card
# Maple paths also score 9); Dw2 Dw4 Ja6 Dw7 = 4; Ca3 Ca4 Wi5 Ca7 = 4 -> 17. Ben: Oa1 Oa2 Oa3 Oa4
# Oa6 Oa8 = 6 + 6 + 1 + 2 = 15; Wi2 Wi6 = 2 -> 17. Rights: Ana Ca (11-2), Dw (6-5), Ma (11-7);
# Ben Ja (12-3, no path), Oa (7-0), Wi (7-0). Tie on 17; Ana has 6 species planted, Ben 5.
#
# three-player.yaml. Rp: Ana Rp1 + Rp5 = 6, Cy Rp8 + Rp4 = 4 (Ana's Rp1 cancels the 8; 12 without
# the rule), Ben 0 -> Ana scores Rp2 Bs4 Rp6 = 3 and Cy loses Rp3 Ma4 Ma5 Rp7 = 4. Ana Bs 5
# (Bs4 Ca5 Bs8: 3 + 2), total 8. Ben Ca1 Oa2 Ca3 Ca6 = 4 + 1 = 5 and Ja2 Ja5 Ja8 = 3 + 2 = 5, total
# 10. Cy Ma2 Ma3 Ma4 Ma5 Ma6 Ma8 = 6 + 6 + 2 = 14. Cb: nobody holds one, all have the right, no
# path. Cy wins with 14.
#
# four-player.yaml. Ana Tp1 Tp3 Tp5 Tp6 Tp8 = 5 + 5 + 1 + 2 = 13 (nobody holds a Tp: all have the
# right); Bs denied by Ben (Bs1 + Bs8 = 9, his own 1 does not cancel his 8) who has no Bs path.
# Ben Ja1 Ja3 Ja6 Ja8 = 11, Oa3 Oa4 Ja5 Oa7 = 4 (Ben Oa5 = 5 beats Cy Oa8 + Oa2 = 2 since Dee holds
# Oa1) -> 15. Cy Cb2 Cb6 = 2, Ma1 Rp4 Ma5 = 4 (Ma tied 6-6 with Ben, who has no Ma tree),
# Rp4 Ma5 Rp8 = 5 -> 11. Dee Ca2 Dw3 Ca4 Dw5 Dw6 Ca8 = 6 + 2 = 8, Dw3 Ca4 Dw5 Dw6 = 4 -> 12.
# Ben wins with 15.
#
# shared-win.json (2 players). Eve Bs1 Bs3 Bs4 Ca6 Bs7 Bs8 = 6 + 1 + 2 = 9, Ca2 Bs4 Ca6 = 3 -> 12;
# her Dw and Ma rights (9-7, 9-6) score nothing but deny Finn Dw1 Ma3 Ja5 Dw6 (5) and Ma3 Ja5 Ja6
# Ma7 (4). Finn Ja2 Ja4 Ja5 Ja6 Ja8 = 5 + 5 + 2 = 12. Tie on 12, 3 species planted each: shared.

SAMPLE_SCORES = {
    "club-final.yaml": (
        {"Ana": {"Ca": 4, "Dw": 4, "Ma": 9}, "Ben": {"Oa": 15, "Wi": 2}},
        ("Ana",),
        "species",
    ),
    "three-player.yaml": (
        {"Ana": {"Bs": 5, "Rp": 3}, "Ben": {"Ca": 5, "Ja": 5}, "Cy": {"Ma": 14}},
        ("Cy",),
        None,
    ),
    "four-player.yaml": (
        {
            "Ana": {"Tp": 13},
            "Ben": {"Ja": 11, "Oa": 4},
            "Cy": {"Cb": 2, "Ma": 4, "Rp": 5},
            "Dee": {"Ca": 8, "Dw": 4},
        },
        ("Ben",),
        None,
    ),
    "shared-win.json": (
        {"Eve": {"Bs": 9, "Ca": 3}, "Finn": {"Ja": 12}},
        ("Eve", "Finn"),
        "shared",
    ),
}


@pytest.mark.parametrize("name", sorted(SAMPLE_SCORES))
def test_sample_positions_score_as_worked_out_by_hand(name):
    from arbo_notation.notation.structured.position import read_position

    position = read_position((SAMPLES / name).read_text(encoding="utf-8"), name)
    sheet = position.score()
    points, winners, tiebreak = SAMPLE_SCORES[name]
    got = {p.name: {c: s.points for c, s in p.species.items() if s.points} for p in sheet.players}
    assert got == points
    assert sheet.winners == winners
    assert sheet.tiebreak == tiebreak


def test_sample_three_player_rp_right_is_decided_by_the_1():
    from arbo_notation.notation.structured.position import read_position

    position = read_position((SAMPLES / "three-player.yaml").read_text(encoding="utf-8"))
    hands = {p.name: p.hand for p in position.players}
    assert hand_sums("Rp", hands) == {"Ana": 6, "Ben": 0, "Cy": 4}
    assert rights("Rp", hands) == {"Ana"}
    without_rp1 = dict(hands, Ana=tuple(c for c in hands["Ana"] if c != Card("Rp", 1)))
    assert rights("Rp", without_rp1) == {"Cy"}  # without the 1, Cy's 12 would win the right


# -- best_paths against brute force ----------------------------------------------------------------


def _neighbours(x: int, y: int) -> list[tuple[int, int]]:
    return [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]


def brute_force_best(trees: dict[tuple[int, int], tuple[str, int]]) -> dict[str, tuple[int, int]]:
    """For each species, the most points of any path and the most cards among those paths.

    Enumerates every simple sequence of orthogonally adjacent cells (no value ordering used to
    prune), then keeps those that follow the rules and scores them from scratch.
    """
    best: dict[str, tuple[int, int]] = {}

    def consider(seq: list[tuple[int, int]]) -> None:
        if len(seq) < 2:
            return
        species_first, _ = trees[seq[0]]
        species_last, _ = trees[seq[-1]]
        if species_first != species_last:
            return
        values = [trees[c][1] for c in seq]
        if any(b <= a for a, b in zip(values, values[1:], strict=False)):
            return
        n = len(seq)
        points = n
        if n >= 4 and all(trees[c][0] == species_first for c in seq):
            points += n
        if values[0] == 1:
            points += 1
        if values[-1] == 8:
            points += 2
        key = (points, n)
        if key > best.get(species_first, (0, 0)):
            best[species_first] = key

    def walk(seq: list[tuple[int, int]]) -> None:
        consider(seq)
        for n in _neighbours(*seq[-1]):
            if n in trees and n not in seq:
                seq.append(n)
                walk(seq)
                seq.pop()

    for start in trees:
        walk([start])
    return best


@st.composite
def small_arboretums(draw, most: int = 9):
    size = draw(st.integers(1, most))
    cells = [(0, 0)]
    while len(cells) < size:
        frontier = sorted({n for c in cells for n in _neighbours(*c)} - set(cells))
        cells.append(frontier[draw(st.integers(0, len(frontier) - 1))])
    codes = draw(st.sampled_from([("Ma", "Oa"), ("Ma", "Oa", "Wi")]))
    deck = [(code, value) for code in codes for value in range(1, 9)]
    chosen = draw(st.permutations(deck))[:size]
    return dict(zip(cells, chosen, strict=False))


@settings(max_examples=150, deadline=None)
@given(small_arboretums())
def test_best_paths_agrees_with_brute_force(trees):
    arboretum = {Coord(x, y): Card(code, value) for (x, y), (code, value) in trees.items()}
    found = best_paths(arboretum)
    expected = brute_force_best(trees)
    assert {code: (p.points, len(p.cards)) for code, p in found.items()} == expected
    for code, scored in found.items():
        # the path returned is a legal one of that many points, in this arboretum
        cells = [(c.x, c.y) for c in scored.cells]
        assert [trees[c] for c in cells] == [(card.species, card.value) for card in scored.cards]
        assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in zip(cells, cells[1:], strict=False))
        assert scored.cards[0].species == scored.cards[-1].species == code


@settings(max_examples=150, deadline=None)
@given(small_arboretums(), st.sets(st.sampled_from(["Ma", "Oa", "Wi"])))
def test_best_points_agrees_with_best_paths_and_brute_force(trees, species):
    from arbo_notation.engine.scoring import best_points

    arboretum = {Coord(x, y): Card(code, value) for (x, y), (code, value) in trees.items()}
    expected = {code: points for code, (points, _) in brute_force_best(trees).items()}
    assert best_points(arboretum) == expected
    assert best_points(arboretum, species) == {code: p for code, p in expected.items() if code in species}
    assert best_points(arboretum, species) == {code: p.points for code, p in best_paths(arboretum, species).items()}


@settings(max_examples=100, deadline=None)
@given(small_arboretums(most=16))
def test_best_points_agrees_with_best_paths_on_larger_arboretums(trees):
    """Up to 16 trees of two or three species: long paths of one species, and paths that cross
    one another's trees (best_paths searches every path; best_points meets each tree once)."""
    from arbo_notation.engine.scoring import best_points

    arboretum = {Coord(x, y): Card(code, value) for (x, y), (code, value) in trees.items()}
    assert best_points(arboretum) == {code: p.points for code, p in best_paths(arboretum).items()}


def test_best_points_of_a_hand_worked_arboretum():
    """Ma1 Ma2 Ma3 Ma4 in a row, Oa5 then Ma8 above Ma4: the four maples alone are 4 + 4 + 1 (from
    the 1) = 9; the six cards to Ma8 are 6 + 1 + 2 (to an 8) = 9 as well. With Ma5 in place of
    the oak, Ma1 to Ma8 are six maples: 6 + 6 + 1 + 2 = 15."""
    from arbo_notation.engine.scoring import best_points

    row = {
        Coord(0, 0): Card("Ma", 1),
        Coord(1, 0): Card("Ma", 2),
        Coord(2, 0): Card("Ma", 3),
        Coord(3, 0): Card("Ma", 4),
        Coord(3, 1): Card("Oa", 5),
        Coord(3, 2): Card("Ma", 8),
    }
    assert best_points(row) == {"Ma": 9}
    assert best_points({**row, Coord(3, 1): Card("Ma", 5)}) == {"Ma": 15}
    assert best_points({**row, Coord(3, 1): Card("Ma", 5)}, ["Oa"]) == {}


@settings(max_examples=100, deadline=None)
@given(st.lists(small_arboretums(), min_size=2, max_size=4), st.randoms(use_true_random=False))
def test_score_totals_equals_the_sheets_totals_on_any_table(arboretums, rng):
    from arbo_notation.engine.scoring import score_totals

    species = ("Ma", "Oa", "Wi", "Ja")
    deck = [Card(code, value) for code in species for value in range(1, 9)]
    rng.shuffle(deck)
    table = [
        PlayerPosition(
            f"P{i}",
            {Coord(x, y): Card(c, v) for (x, y), (c, v) in trees.items()},
            tuple(deck[7 * i : 7 * i + rng.randint(0, 7)]),
        )
        for i, trees in enumerate(arboretums)
    ]
    assert score_totals(species, table) == score_position(species, table).totals()


def test_score_totals_equals_the_sheets_totals_on_played_tables():
    from arbo_notation.engine.scoring import score_totals
    from arbo_notation.game.replay import new_game, play_recorded_turn
    from arbo_notation.play.simulate import simulate_game

    for seed in range(9):
        bots = ("random",) if seed < 6 else ("greedy",)
        record = simulate_game(("Ana", "Ben", "Cleo", "Dev")[: 2 + seed % 3], f"totals-{seed}", bots=bots)
        game = new_game(record)
        for turn in record.turns:
            play_recorded_turn(game, turn)
        hands = game.final_hands()
        table = [PlayerPosition(p, game.arboretum(p), hands[p]) for p in game.players]
        sheet = score_position(game.config.species, table)
        assert score_totals(game.config.species, table) == sheet.totals() == record.result.as_dict()
        assert game.final_totals() == sheet.totals()  # a check's way, from the game's own table


def test_score_totals_of_one_player_is_that_players_total_of_all():
    from arbo_notation.engine.scoring import score_totals
    from arbo_notation.play.simulate import simulate_game
    from arbo_notation.game.replay import replay_game

    record = simulate_game(("Ana", "Ben", "Cleo"), "only")
    game = replay_game(record).final
    hands = game.final_hands()
    table = [PlayerPosition(p, game.arboretum(p), hands[p]) for p in game.players]
    everyone = score_totals(game.config.species, table)
    for name in game.players:
        assert score_totals(game.config.species, table, only=name) == {name: everyone[name]}


@pytest.mark.parametrize(
    "ana_hand, ben_hand, expected",
    [
        # One's own 1 cancels nothing: Ana's Ma1 + Ma8 sum 9 against Ben's 7, so Ana scores maples.
        (("Ma1", "Ma8"), ("Ma7",), {"Ana": 3, "Ben": 0}),
        # An opponent's 1 makes the 8 count 0: Ana's Ma8 sums 0, Ben's Ma1 1, so Ben scores maples.
        (("Ma8",), ("Ma1",), {"Ana": 0, "Ben": 2}),
        # Nobody holds maple: both score it.
        ((), (), {"Ana": 3, "Ben": 2}),
        # A tie of sums: both score it.
        (("Ma5",), ("Ma2", "Ma3"), {"Ana": 3, "Ben": 2}),
    ],
)
def test_score_totals_of_hand_worked_rights(ana_hand, ben_hand, expected):
    from arbo_notation.engine.scoring import score_totals

    ana = {Coord(0, 0): Card("Ma", 3), Coord(1, 0): Card("Oa", 4), Coord(2, 0): Card("Ma", 6)}  # Ma3 Oa4 Ma6: 3
    ben = {Coord(0, 0): Card("Ma", 2), Coord(0, 1): Card("Ma", 4)}  # Ma2 Ma4: 2
    table = [
        PlayerPosition("Ana", ana, tuple(map(Card.parse, ana_hand))),
        PlayerPosition("Ben", ben, tuple(map(Card.parse, ben_hand))),
    ]
    assert score_totals(("Ma", "Oa"), table) == expected == score_position(("Ma", "Oa"), table).totals()
