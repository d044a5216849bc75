"""Scoring the daily duplicate: matchpoints per deal, then a ranking by mean percentage with a
95% confidence interval.

* **Per deal** (matchpoints, as duplicate bridge scores pairs): each entrant's score on the deal
  (the points its team is credited with once the contract is settled) is compared with every
  other entrant's on the same deal: 2 points per entrant beaten, 1 per tie, 0 per entrant
  ahead; the percentage is those points out of ``2 * (entrants - 1)``.  An entrant alone on a
  deal scores 50%: there is nobody to compare with.
* **The day**: each entrant's mean percentage over the deals they played, with a 95%
  Student t-interval over those deals (the deals being the sample: how much the mean could
  move with other deals of the same kind), clipped to 0-100; one deal gives no interval.
  Entrants who played every deal rank before those who did not (stopping after a good deal
  must not pay), each group by mean; equal means share a rank.

A deal is scored by sorting its distinct scores once and counting the entrants below and
level with each: O(n log n) for n entrants (2,000 entrants and 8 deals take
a few milliseconds: benchmarks/daily_scoring.py), the same numbers as comparing every pair.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

# The 0.975 quantiles of Student's t for 1 to 30 degrees of freedom (any statistics table);
# beyond 30 deals the normal's 1.96 is within 4% of them.
T_975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
         2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
         2.060, 2.056, 2.052, 2.048, 2.045, 2.042)
Z_975 = 1.96


def deal_percentages(scores: Mapping[int, int]) -> dict[int, float]:
    """Each entrant's matchpoint percentage on one deal, from every entrant's score on it
    (entrant -> score)."""
    others = len(scores) - 1
    # The distinct scores in order, each with how many entrants scored it: an entrant beat
    # everyone below and tied the others at their score.  The same integer points as
    # comparing every pair, so the very same percentage.
    counts = Counter(scores.values())
    below = 0
    share: dict[int, float] = {}
    for value in sorted(counts):
        share[value] = matchpoint_percent(below, counts[value], others)
        below += counts[value]
    return {entrant: share[mine] for entrant, mine in scores.items()}


def pairwise_percentages(scores: Mapping[int, int]) -> dict[int, float]:
    """The definition of :func:`deal_percentages`, word for word: each entrant against
    every other one, 2 matchpoints a better score, 1 an equal one (O(n^2): the reference
    that the tests and ``benchmarks/daily_scoring.py`` compare the sorting way with)."""
    others = len(scores) - 1
    if others <= 0:
        return {entrant: 50.0 for entrant in scores}
    return {entrant: 100.0 * sum(2 if mine > theirs else 1 if mine == theirs else 0
                                 for who, theirs in scores.items() if who != entrant)
            / (2 * others) for entrant, mine in scores.items()}


def matchpoint_percent(below: int, level: int, others: int) -> float:
    """One entrant's percentage on a deal from counts: ``below`` entrants scored less,
    ``level`` scored the same (the entrant among them), ``others`` entrants besides it
    played the deal.  The one formula of :func:`deal_percentages` and of the export's counts
    made by the database (:mod:`belote.server.personal_data.export`): the same figures."""
    if others <= 0:
        return 50.0  # alone on the deal: nobody to compare with
    return 100.0 * (2 * below + level - 1) / (2 * others)


def t_975(degrees: int) -> float:
    """Student's t quantile 0.975 for ``degrees`` degrees of freedom (at least 1)."""
    if degrees < 1:
        raise ValueError("a t-interval needs at least two values")
    return T_975[degrees - 1] if degrees <= len(T_975) else Z_975


@dataclass(frozen=True, slots=True)
class Interval:
    mean: float
    low: float | None  # None: one value, no interval
    high: float | None


def mean_interval(values: list[float]) -> Interval:
    """The mean of ``values`` (percentages) with its 95% t-interval, clipped to 0-100."""
    if not values:
        raise ValueError("no values")
    mean = statistics.fmean(values)
    if len(values) < 2:
        return Interval(mean, None, None)
    half = t_975(len(values) - 1) * _stdev(values, mean) / math.sqrt(len(values))
    return Interval(mean, max(0.0, mean - half), min(100.0, mean + half))


def _stdev(values: list[float], mean: float) -> float:
    """The sample standard deviation, in floats (``statistics.stdev`` computes it exactly in
    fractions: a tenth of a millisecond an entrant, most of a big day's ranking; the two
    differ far below the tenth of a percent the pages show)."""
    return math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (len(values) - 1))


@dataclass(frozen=True, slots=True)
class Standing:
    """One entrant's line of the day's ranking."""

    rank: int
    account: int
    name: str
    played: int  # deals played out
    complete: bool  # every deal of the day played
    score: Interval | None  # None: no deal played yet


@dataclass(frozen=True, slots=True)
class DealResult:
    """One entrant's result on one deal of a closed day."""

    account: int  # the entrant's key (negative: a deleted account's entry)
    name: str
    score: int
    percent: float
    table_id: int


@dataclass(frozen=True, slots=True)
class DayScores:
    """A day scored once: each deal's percentages (deal -> entrant -> percent) and the
    ranking (what both of a day's pages show)."""

    per_deal: dict[int, dict[int, float]]
    ranking: list[Standing]


def standings(results: Mapping[int, Mapping[int, int]], names: Mapping[int, str],
              deals: int) -> list[Standing]:
    """The day's ranking from ``results`` (deal -> entrant -> score) for the entrants in
    ``names`` (entrant -> name), of a day of ``deals`` deals."""
    return score_day(results, names, deals).ranking


def score_day(results: Mapping[int, Mapping[int, int]], names: Mapping[int, str],
              deals: int) -> DayScores:
    """:func:`standings`, with each deal's percentages it was made from."""
    per_deal = {deal: deal_percentages(scores) for deal, scores in results.items()}
    percentages: dict[int, list[float]] = {entrant: [] for entrant in names}
    for shares in per_deal.values():
        for entrant, value in shares.items():
            percentages.setdefault(entrant, []).append(value)
    return DayScores(per_deal, _ranked(percentages, names, deals))


def _ranked(percentages: Mapping[int, list[float]], names: Mapping[int, str],
            deals: int) -> list[Standing]:
    rows = []
    for entrant, values in percentages.items():
        score = mean_interval(values) if values else None
        rows.append((entrant, len(values), score))

    def order(row: tuple[int, int, Interval | None]) -> tuple[int, float, str, int]:
        entrant, played, score = row
        return (0 if played >= deals else 1 if score is not None else 2,
                -(score.mean if score else 0.0), names.get(entrant, "").casefold(), entrant)

    rows.sort(key=order)
    ranked: list[Standing] = []
    for position, (entrant, played, score) in enumerate(rows, start=1):
        rank = position
        if ranked:
            before = ranked[-1]
            same_group = (before.complete == (played >= deals)) and (
                (before.score is None) == (score is None))
            if same_group and (score is None or (
                    before.score is not None and before.score.mean == score.mean)):
                rank = before.rank
        ranked.append(Standing(rank, entrant, names.get(entrant, ""), played,
                               played >= deals, score))
    return ranked
