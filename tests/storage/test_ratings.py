"""Bradley-Terry ratings (docs/players.md): a hand-checked table, and properties."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from notation_tools.storage.ratings import BASE, SCALE, bradley_terry


def test_two_players_three_to_one_as_computed_by_hand():
    # A beat B three times, B beat A once; each has one virtual draw against the anchor
    # (strength 0). By symmetry θ_B = -θ_A = -a, and A's equation (observed score with the
    # virtual half point = expected score) is 3.5 = 4 σ(2a) + σ(a).
    #   a = 0.474: σ(0.948) = 0.72071 -> 2.88283, σ(0.474) = 0.61633 -> 3.49916
    #   a = 0.475: σ(0.950) = 0.72111 -> 2.88444, σ(0.475) = 0.61657 -> 3.50101
    #   interpolated: a = 0.47445, so A = 1500 + 173.718 · 0.47445 = 1582.4, B = 1417.6.
    # Fisher information of A: 4 p (1 - p) with p = σ(0.9489) = 0.72089 -> 0.80483, plus the
    # anchor game σ(a)(1 - σ(a)) = 0.61644 · 0.38356 = 0.23644: 1.04127, SE = 0.97998,
    # 1.96 SE = 1.92073 in strength = 333.7 rating points either side.
    games = [("A", "B", 1.0), ("A", "B", 1.0), ("B", "A", 0.0), ("B", "A", 1.0)]
    ratings = bradley_terry(games)
    assert ratings["A"].rating == pytest.approx(1582.4, abs=0.2)
    assert ratings["B"].rating == pytest.approx(1417.6, abs=0.2)
    assert ratings["A"].high - ratings["A"].rating == pytest.approx(333.7, abs=0.3)
    assert ratings["A"].rating - ratings["A"].low == pytest.approx(333.7, abs=0.3)


def test_a_perfect_score_has_a_finite_rating():
    ratings = bradley_terry([("A", "B", 1.0)] * 5)
    assert math.isfinite(ratings["A"].rating) and ratings["A"].rating > 1600


def test_the_fit_solves_the_score_equations():
    games = [("A", "B", 1.0), ("B", "C", 0.5), ("C", "A", 1.0), ("A", "C", 1.0),
             ("B", "A", 1.0), ("C", "B", 0.0)]
    ratings = bradley_terry(games)
    theta = {name: (r.rating - BASE) / SCALE for name, r in ratings.items()}

    def sigma(x):
        return 1 / (1 + math.exp(-x))

    for name in theta:
        observed = sum(p if a == name else 1 - p for a, b, p in games if name in (a, b)) + 0.5
        expected = sum(sigma(theta[name] - theta[b if a == name else a])
                       for a, b, _ in games if name in (a, b)) + sigma(theta[name])
        assert observed == pytest.approx(expected, abs=1e-6)


results = st.lists(st.tuples(st.sampled_from("ABCDE"), st.sampled_from("ABCDE"),
                             st.sampled_from([0.0, 0.5, 1.0])), min_size=1, max_size=25)


@given(results)
def test_swapping_every_result_mirrors_the_ratings(games):
    ratings = bradley_terry(games)
    mirrored = bradley_terry([(a, b, 1.0 - p) for a, b, p in games])
    for name, rating in ratings.items():
        assert mirrored[name].rating == pytest.approx(2 * BASE - rating.rating, abs=1e-4)
        assert mirrored[name].high == pytest.approx(2 * BASE - rating.low, abs=1e-4)


@given(results)
def test_who_is_written_first_does_not_matter(games):
    ratings = bradley_terry(games)
    flipped = bradley_terry([(b, a, 1.0 - p) for a, b, p in reversed(games)])
    for name, rating in ratings.items():
        assert flipped[name].rating == pytest.approx(rating.rating, abs=1e-4)
        assert rating.low < rating.rating < rating.high
