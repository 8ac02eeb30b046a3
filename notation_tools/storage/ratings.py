"""Ratings from game results: a Bradley–Terry model fitted by maximum likelihood.

Player ``i`` has a strength ``θ_i``; the model says ``i`` scores against ``j`` with probability
``σ(θ_i − θ_j)`` (the logistic function), the same curve as Elo's expected score when a rating
is ``R_i = 1500 + θ_i · 400 / ln 10``. A draw counts as half a win for each player (the usual
reading of a draw as a score of ½). Every player is also given one virtual drawn game against
a fixed anchor of strength 0 (rating 1500): without it a player who won (or lost) every game
has no finite maximum-likelihood rating, and two groups of players who never met have no
common scale. The virtual game pulls ratings towards 1500 by the weight of one game, so it
matters for a player with few games and hardly at all for one with many.

The fit solves, for every player, ``score_i + ½ = Σ_j n_ij σ(θ_i − θ_j) + σ(θ_i)`` (the
observed score, with the virtual draw, equals the expected score) by over-relaxed coordinate
Newton steps, falling back on Hunter's MM iteration (slow, but it converges from any start)
if those do not settle. The confidence interval is ``θ_i ± z · SE_i`` with
``SE_i = 1 / sqrt(I_ii)`` and ``I_ii = Σ_j n_ij p_ij (1 − p_ij) + p_i0 (1 − p_i0)``, the
diagonal of the Fisher information: it treats the opponents' strengths as known, so the
interval is a little narrower than the full (covariance-aware) one.

Pure arithmetic: no I/O.
"""

from __future__ import annotations

import dataclasses
import math
from collections import defaultdict
from collections.abc import Iterable

BASE = 1500.0
"""The anchor's rating: a player with no games, or an even score against the anchor."""
SCALE = 400.0 / math.log(10.0)
"""Rating points per unit of strength: Elo's 400 points for odds of 10 to 1."""
Z95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""
_TOLERANCE = 1e-7
"""Strength change below which the fit stops: under a ten-thousandth of a rating point."""
_MAX_ROUNDS = 100_000
_MAX_SWEEPS = 2_000
_RELAXATION = 1.5
_MAX_STEP = 2.0


@dataclasses.dataclass(frozen=True)
class Rating:
    """A player's fitted rating and its 95% confidence interval, in Elo-scale points."""

    rating: float
    low: float
    high: float


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def bradley_terry(games: Iterable[tuple[str, str, float]], *,
                  virtual_draws: float = 1.0) -> dict[str, Rating]:
    """Ratings from ``(player, opponent, points of player)`` triples (1, ½ or 0).

    >>> ratings = bradley_terry([("A", "B", 1.0), ("B", "A", 0.0)])
    >>> ratings["A"].rating > 1500 > ratings["B"].rating
    True
    >>> round(ratings["A"].rating - 1500, 3) == round(1500 - ratings["B"].rating, 3)
    True
    """
    score: dict[str, float] = defaultdict(float)
    meetings: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for player, opponent, points in games:
        if player == opponent:
            continue  # a player against themself tells nothing of strength
        score[player] += points
        score[opponent] += 1.0 - points
        meetings[player][opponent] += 1.0
        meetings[opponent][player] += 1.0
    names = sorted(meetings)
    gamma = _newton(names, score, meetings, virtual_draws)
    if gamma is None:
        gamma = _minorize_maximize(names, score, meetings, virtual_draws)
    return {name: _rating(name, gamma, meetings[name], virtual_draws) for name in names}


def _newton(names: list[str], score: dict[str, float], meetings: dict[str, dict[str, float]],
            virtual_draws: float) -> dict[str, float] | None:
    """The fit by coordinate Newton steps, over-relaxed (each player's strength moved by
    ``_RELAXATION`` times the Newton step of its own equation, the others held): tens of
    sweeps where the MM iteration takes thousands. ``None`` when it does not settle
    (over-relaxation is not guaranteed to converge; MM is)."""
    theta = dict.fromkeys(names, 0.0)
    neighbours = {name: list(meetings[name].items()) for name in names}
    exp = math.exp
    try:
        for _ in range(_MAX_SWEEPS):
            change = 0.0
            for name in names:
                mine = theta[name]
                anchor = 1.0 / (1.0 + exp(-mine))
                expected = virtual_draws * anchor
                information = expected * (1.0 - anchor)
                for other, count in neighbours[name]:
                    p = 1.0 / (1.0 + exp(theta[other] - mine))
                    expected += count * p
                    information += count * p * (1.0 - p)
                step = _RELAXATION * (score[name] + virtual_draws / 2 - expected) / information
                step = max(-_MAX_STEP, min(_MAX_STEP, step))
                theta[name] = mine + step
                change = max(change, abs(step))
            if change < _TOLERANCE:
                return {name: exp(value) for name, value in theta.items()}
    except (OverflowError, ZeroDivisionError):
        pass  # strengths that ran away: MM instead
    return None


def _minorize_maximize(names: list[str], score: dict[str, float],
                       meetings: dict[str, dict[str, float]],
                       virtual_draws: float) -> dict[str, float]:
    """The fit by Hunter's MM iteration (γ = e^θ), which converges from any start."""
    gamma = dict.fromkeys(names, 1.0)
    half = virtual_draws / 2.0
    for _ in range(_MAX_ROUNDS):
        change = 0.0
        fresh: dict[str, float] = {}
        for name in names:
            mine = gamma[name]
            denominator = virtual_draws / (mine + 1.0) + sum(
                count / (mine + gamma[other]) for other, count in meetings[name].items())
            fresh[name] = (score[name] + half) / denominator
            change = max(change, abs(math.log(fresh[name] / mine)))
        gamma = fresh
        if change < _TOLERANCE:
            break
    return gamma


def _rating(name: str, gamma: dict[str, float], met: dict[str, float],
            virtual_draws: float) -> Rating:
    theta = math.log(gamma[name])
    anchor = _sigmoid(theta)
    information = virtual_draws * anchor * (1.0 - anchor)
    for other, count in met.items():
        p = _sigmoid(theta - math.log(gamma[other]))
        information += count * p * (1.0 - p)
    spread = Z95 / math.sqrt(information) if information > 0 else math.inf
    return Rating(BASE + SCALE * theta, BASE + SCALE * (theta - spread),
                  BASE + SCALE * (theta + spread))
