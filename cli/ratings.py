"""Ratings from match results: Elo with an interval and an SPRT for two players, and a
Plackett–Luce rating from the places of games of three or four.

Everything here is a pure function of the results, and our own small code: choix fits
Plackett–Luce too but brings numpy and scipy with it, and openskill's (or TrueSkill's) online
updates depend on the order the games finish in, which ``--jobs`` changes.

**Two players.** The games come in *pairs*: the same deal played once with each entrant in
each seat, so the luck of the deal cancels out. A pair scores 0, 0.5 or 1 for the first
entrant (its wins over the pair's two games, halved). The Elo difference is that of the mean
pair score ``s`` under the logistic model, ``-400 log10(1/s - 1)``, and its 95% interval that
of ``s -/+ 1.96`` standard errors of the pair scores (the spread of pairs, not of single games,
as fastchess's pentanomial model).

>>> elo = pair_elo([1.0, 0.5, 0.5, 1.0, 0.5, 0.0, 1.0, 0.5])
>>> round(elo.elo, 1), round(elo.low, 1), round(elo.high, 1)
(88.7, -73.5, 307.1)

**SPRT.** :func:`sprt_llr` is the generalised SPRT of those pair scores (a normal
approximation with their own variance) between ``H0: elo = elo0`` and ``H1: elo = elo1``;
:func:`sprt_bounds` gives the bounds for the error rates ``alpha`` and ``beta``.

>>> [round(b, 3) for b in sprt_bounds(0.05, 0.05)]
[-2.944, 2.944]

**Three or four players.** Each game is a ranking (seats from first to last); the
Plackett–Luce model gives each entrant a strength ``g`` such that the chance that ``i`` comes
first among a set is ``g_i`` over the set's sum. :func:`plackett_luce` fits it by Hunter's
minorise-maximise iterations, with one virtual win and one virtual loss of each entrant against
a reference of strength 1 (so an entrant that always wins has a finite rating), and reports
``400 log10 g`` shifted so the ratings average 0: on the Elo scale, a difference of 400 is
ten to one odds of finishing ahead of one another.

>>> [round(r) for r in plackett_luce(3, [(0, 1, 2)] * 6 + [(1, 0, 2)] * 2)]
[242, 89, -331]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054  # the normal quantile of 97.5%
REGULARISE = 1e-3  # the count of a pair score that never occurred, in the SPRT


def elo_of(score: float) -> float:
    """The Elo difference that makes ``score`` the expected score (infinite at 0 and 1).

    >>> round(elo_of(0.75), 1), elo_of(0.5), elo_of(1.0)
    (190.8, 0.0, inf)
    """
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return 400.0 * math.log10(score / (1.0 - score))


def score_of(elo: float) -> float:
    """The expected score at an Elo difference of ``elo``.

    >>> round(score_of(190.8), 3)
    0.75
    """
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


@dataclass(frozen=True, slots=True)
class Elo:
    """An Elo difference with its 95% interval, from ``pairs`` pairs of games."""

    elo: float
    low: float
    high: float
    pairs: int

    def __str__(self) -> str:
        return f"{self.elo:+.1f} [{self.low:+.1f}, {self.high:+.1f}]"


def _mean_variance(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    return mean, sum((v - mean) ** 2 for v in values) / n


def pair_elo(pair_scores: Sequence[float]) -> Elo:
    """The Elo difference of the first entrant over the second from its pair scores (each
    0, 0.5 or 1); an interval as wide as can be for no pairs.

    >>> str(pair_elo([1.0, 1.0]))
    '+inf [+inf, +inf]'
    """
    if not pair_scores:
        return Elo(0.0, -math.inf, math.inf, 0)
    mean, variance = _mean_variance(pair_scores)
    half = Z95 * math.sqrt(variance / len(pair_scores))
    return Elo(elo_of(mean), elo_of(mean - half), elo_of(mean + half), len(pair_scores))


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """The log-likelihood ratio bounds: accept H0 at or below the first, H1 at or above the
    second."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def sprt_llr(pair_scores: Sequence[float], elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``) given the pair scores:
    ``n (s1 - s0) (2 m - s0 - s1) / (2 v)`` with ``m`` and ``v`` the pairs' mean and variance
    and ``s0``, ``s1`` the expected scores of the two hypotheses. The pairs are counted by
    score (0, 0.5 or 1), and a score that never occurred counts :data:`REGULARISE` times (as
    fastchess does), so that pairs that all scored the same still give a finite ratio.

    >>> round(sprt_llr([1.0, 0.5, 0.5, 1.0, 0.5, 0.0, 1.0, 0.5], 0, 50), 3)
    0.467
    >>> round(sprt_llr([1.0] * 3, 0, 50), 1), sprt_llr([], 0, 50)
    (239.1, 0.0)
    """
    if not pair_scores:
        return 0.0
    counts = dict.fromkeys((0.0, 0.5, 1.0), 0.0)
    for score in pair_scores:
        counts[score] = counts.get(score, 0.0) + 1.0
    counts = {score: n or REGULARISE for score, n in counts.items()}
    total = sum(counts.values())
    mean = sum(score * n for score, n in counts.items()) / total
    variance = sum((score - mean) ** 2 * n for score, n in counts.items()) / total
    s0, s1 = score_of(elo0), score_of(elo1)
    return total * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)


def plackett_luce(entrants: int, rankings: Sequence[Sequence[int]], *,
                  iterations: int = 1000, tolerance: float = 1e-10) -> list[float]:
    """Each entrant's Plackett–Luce rating (Elo scale, mean 0) from ``rankings``: each the
    entrants of one game from first to last (any number of them, 2 or more)."""
    strength = [1.0] * entrants
    wins = [1.0] * entrants  # the virtual win against the reference (its loss adds no win)
    for ranking in rankings:
        for chosen in ranking[:-1]:
            wins[chosen] += 1.0
    for _ in range(iterations):
        # The virtual games: each entrant against the reference of strength 1, twice.
        denominators = [2.0 / (strength[i] + 1.0) for i in range(entrants)]
        for ranking in rankings:
            tail = 0.0
            tails = []
            for entrant in reversed(ranking):
                tail += strength[entrant]
                tails.append(tail)
            tails.reverse()  # tails[t]: the strength of those still unplaced at stage t
            inverse = 0.0
            for t, entrant in enumerate(ranking):
                if t < len(ranking) - 1:
                    inverse += 1.0 / tails[t]
                denominators[entrant] += inverse
        new = [wins[i] / denominators[i] for i in range(entrants)]
        change = max(abs(math.log(n / s)) for n, s in zip(new, strength, strict=True))
        strength = new
        if change < tolerance:
            break
    ratings = [400.0 * math.log10(s) for s in strength]
    mean = sum(ratings) / entrants
    return [r - mean for r in ratings]


__all__ = ["Elo", "elo_of", "pair_elo", "plackett_luce", "score_of", "sprt_bounds",
           "sprt_llr"]
