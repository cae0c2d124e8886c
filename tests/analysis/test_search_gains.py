"""The search's judgements as the engine bot reads them: a gain and its standard error world by
world, and the finalists alone played in every world."""

from __future__ import annotations

import pytest


def test_a_gain_and_its_standard_error_are_measured_world_by_world():
    from arbo_notation.analysis.search import Judgement

    judged = Judgement({"a": 3.0, "b": 1.0}, 4, False, {"a": (4, 2, 5, 1), "b": (2, 0, 2, 0)})
    gain, error = judged.gain("a", "b")
    # differences 2, 2, 3, 1: mean 2, sample variance 2/3, standard error sqrt(2/3 / 4)
    assert gain == 2.0 and error == pytest.approx((2 / 3 / 4) ** 0.5)
    assert Judgement({"a": 3.0, "b": 1.0}, 1, True).gain("a", "b") == (2.0, 0.0)


def test_finalists_alone_are_played_in_every_world_and_only_they_can_be_best():
    from arbo_notation.analysis.search import _margins, _sampled

    asked = []

    def value(world, candidate):
        asked.append((world, candidate))
        return {"played": 0, "good": 2, "fair": 1, "poor": -1, "lucky": 9 if world == 0 else -9}[candidate]

    candidates = ["played", "good", "fair", "poor", "lucky"]
    margins = _margins(list(range(8)), candidates, value, 1, "played")
    # the first quarter (2 worlds): all five (over them "good" sums 4, "lucky" 9 - 9 = 0); then
    # the best of them, "good", and the played one in the other 6
    assert {c: len(m) for c, m in margins.items()} == {"played": 8, "good": 8, "fair": 2, "poor": 2, "lucky": 2}
    assert len(asked) == 5 * 2 + 2 * 6
    judged = _sampled(margins)
    assert judged.samples == 8 and judged.values["good"] == 2.0 and judged.best() == "good"
    unfinished = _sampled({"played": [0, 0, 0, 0], "fair": [5, 5]})
    assert unfinished.best() == "played"  # a higher mean over fewer worlds cannot be best
