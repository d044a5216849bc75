"""The bot path's account of itself: decisions by how they were made, fallbacks by reason,
decisions the search answered at its roughest, replaced (and hung) workers and the latency
of recent decisions.  Everything is read from the :class:`Decision` the path returns."""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field

from belote.ai.decision import Decision, DecisionMethod, Fallback

# Latencies kept for the percentiles: the recent past, in bounded memory.
LATENCY_WINDOW = 1000

__all__ = ["LATENCY_WINDOW", "BotStats", "Counters", "Decision", "Fallback", "percentile"]


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
    inline: int = 0  # decisions made on the event loop (levels that do not search)
    slow_inline: int = 0  # of those, the ones that held the loop too long (logged)
    methods: dict[DecisionMethod, int] = field(default_factory=dict)  # by how they were made

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
        self.inline = 0
        self.slow_inline = 0
        self.methods: dict[DecisionMethod, int] = dict.fromkeys(DecisionMethod, 0)
        self.estimated = 0
        self.searches = 0
        self.worlds = 0
        self.latencies: deque[float] = deque(maxlen=window)

    def record(self, decision: Decision) -> None:
        """Count a decision as the room's bot path returns it: its fallback, how it was made
        (the search's roughest answers, the worlds a search solved) and its latency."""
        self.decisions += 1
        if decision.fallback is not None:
            self.fallbacks[decision.fallback] += 1
        self.methods[decision.method] += 1
        if decision.method is DecisionMethod.ESTIMATED:
            self.estimated += 1
        if decision.worlds is not None:
            self.searched(decision.worlds)  # a search ran, whatever it found in time
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
                        percentile(ordered, 99), self.hung, self.retried, self.inline,
                        self.slow_inline, dict(self.methods))


def percentile(ordered: list[float], p: float) -> float | None:
    """The nearest-rank ``p``th percentile of ``ordered`` (sorted), None when empty."""
    if not ordered:
        return None
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]
