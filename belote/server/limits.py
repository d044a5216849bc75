"""Rate limits for what one person or one address may do: token buckets, with bounded memory.

A :class:`TokenBucket` allows a burst and then a steady rate; a :class:`KeyedLimiter` keeps one
bucket per key (a session, an address) and forgets keys whose bucket is full again, so that
memory never grows with the number of people who ever came by.
"""

from __future__ import annotations

import time
from collections.abc import Callable


class TokenBucket:
    """``burst`` actions at once, then ``rate`` per second."""

    __slots__ = ("burst", "clock", "rate", "stamp", "tokens")

    def __init__(self, burst: int, rate: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.burst = burst
        self.rate = rate
        self.clock = clock
        self.tokens = float(burst)
        self.stamp = clock()

    def _refill(self) -> None:
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def take(self) -> bool:
        """Use one token if there is one; ``False`` means: refused, wait."""
        self._refill()
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    @property
    def full(self) -> bool:
        self._refill()
        return self.tokens >= self.burst


class KeyedLimiter:
    """One :class:`TokenBucket` per key; keys whose bucket has refilled are forgotten."""

    def __init__(self, burst: int, per_hour: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.burst = burst
        self.rate = per_hour / 3600
        self.clock = clock
        self._buckets: dict[str, TokenBucket] = {}
        self._last_sweep = clock()

    def take(self, key: str) -> bool:
        self._sweep()
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(self.burst, self.rate, self.clock)
        return bucket.take()

    def __len__(self) -> int:
        return len(self._buckets)

    def _sweep(self) -> None:
        now = self.clock()
        if now - self._last_sweep < 60.0:
            return
        self._last_sweep = now
        for key in [k for k, b in self._buckets.items() if b.full]:
            del self._buckets[key]
