"""The bot pool's account of itself: decisions, fallbacks by reason, decisions the search
answered at its roughest, replaced (and hung) workers and the latency of recent decisions."""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from enum import StrEnum

# Latencies kept for the percentiles: the recent past, in bounded memory.
LATENCY_WINDOW = 1000


class Fallback(StrEnum):
    """Why the heuristic bot played instead of the seat's own bot."""

    LATE = "late"  # no answer within the pool's time limit
    FAILED = "failed"  # the decision raised
    ILLEGAL = "illegal"  # the answer is not a legal action
    POOL_BROKEN = "pool_broken"  # a worker died while the decision was in the pool
    HURRIED = "hurried"  # answered in time, with the heuristic's move (no world solved)


@dataclass(frozen=True, slots=True)
class Decision:
    """A bot's answer: the action, why the heuristic stood in (None: it did not), and how
    long the decision took in seconds (from the request to the answer)."""

    action: int
    fallback: Fallback | None
    seconds: float


@dataclass(frozen=True, slots=True)
class BotStats:
    """A snapshot of the counters; percentiles are None before the first decision."""

    decisions: int
    fallbacks: dict[Fallback, int]
    replacements: int
    estimated: int  # cards valued by playouts: no world solved exactly in time
    searches: int  # decisions of a searching bot (the expert) that ran a search
    mean_worlds: float  # worlds those searches solved, on average (0.0 before the first)
    p50: float | None
    p90: float | None
    p99: float | None
    hung: int = 0  # workers killed by the watchdog: no answer by a deadline and its margin
    retried: int = 0  # decisions sent again to new workers after the watchdog's replacement

    @property
    def fallback_total(self) -> int:
        return sum(self.fallbacks.values())


class Counters:
    """Mutable counters behind ``BotPool.stats`` (touched only from the event loop)."""

    def __init__(self, window: int = LATENCY_WINDOW) -> None:
        self.decisions = 0
        self.fallbacks: dict[Fallback, int] = dict.fromkeys(Fallback, 0)
        self.replacements = 0
        self.hung = 0
        self.retried = 0
        self.estimated = 0
        self.searches = 0
        self.worlds = 0
        self.latencies: deque[float] = deque(maxlen=window)

    def record(self, decision: Decision) -> None:
        self.decisions += 1
        if decision.fallback is not None:
            self.fallbacks[decision.fallback] += 1
        self.latencies.append(decision.seconds)

    def searched(self, worlds: int) -> None:
        """A searching bot's decision that solved ``worlds`` worlds: how much the expert
        still thinks as the room gets busier."""
        self.searches += 1
        self.worlds += worlds

    def snapshot(self) -> BotStats:
        ordered = sorted(self.latencies)
        mean = self.worlds / self.searches if self.searches else 0.0
        return BotStats(self.decisions, dict(self.fallbacks), self.replacements, self.estimated,
                        self.searches, mean, percentile(ordered, 50), percentile(ordered, 90),
                        percentile(ordered, 99), self.hung, self.retried)


def percentile(ordered: list[float], p: float) -> float | None:
    """The nearest-rank ``p``th percentile of ``ordered`` (sorted), None when empty."""
    if not ordered:
        return None
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]
