"""A sliding-window rate limiter whose memory is bounded.

Each key (``ip:ADDRESS``, ``name:KEY``, ``signup:ADDRESS``...) keeps the times of its recent
events.  A key whose events are all older than the window is forgotten (purged on the next
sweep); past ``max_keys`` keys the ones idle longest go first, so that a flood of new
addresses or names cannot grow the server's memory without end.

The room's limits on sign-ins, sign-ups and guests are kept in the database, the same for
every process (:class:`belote.server.persistence.rate_limits.SharedWindow`, this limiter's
twin); this one decides in their stead while the database fails.
"""

from __future__ import annotations

import time
from collections import OrderedDict, deque
from collections.abc import Callable


class RateLimiter:
    """At most ``attempts`` events per key within ``window`` seconds."""

    def __init__(self, attempts: int, window: float, max_keys: int = 10_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if attempts < 1 or window <= 0 or max_keys < 1:
            raise ValueError("a rate limit needs attempts >= 1, window > 0, max_keys >= 1")
        self.attempts = attempts
        self.window = window
        self.max_keys = max_keys
        self.clock = clock
        # Least recently touched first: eviction and purging start from the front.
        self._events: OrderedDict[str, deque[float]] = OrderedDict()
        self._next_sweep = 0.0
        self.evicted = 0  # keys dropped while still in their window (memory bound reached)

    def __len__(self) -> int:
        return len(self._events)

    def _recent(self, key: str, now: float) -> deque[float] | None:
        events = self._events.get(key)
        if events is None:
            return None
        while events and now - events[0] >= self.window:
            events.popleft()
        if not events:
            del self._events[key]
            return None
        return events

    def count(self, key: str) -> int:
        events = self._recent(key, self.clock())
        return 0 if events is None else len(events)

    def blocked(self, *keys: str) -> bool:
        return any(self.count(k) >= self.attempts for k in keys)

    def retry_after(self, *keys: str) -> float:
        """Seconds until none of ``keys`` is blocked any more (0.0: none is)."""
        now, wait = self.clock(), 0.0
        for key in keys:
            events = self._recent(key, now)
            if events is not None and len(events) >= self.attempts:
                wait = max(wait, self.window - (now - events[0]))
        return wait

    def hit(self, *keys: str) -> None:
        """Count one event for each key."""
        now = self.clock()
        self._sweep(now)
        for key in keys:
            events = self._recent(key, now)
            if events is None:
                events = self._events[key] = deque(maxlen=self.attempts)
            events.append(now)
            self._events.move_to_end(key)
        while len(self._events) > self.max_keys:
            self._events.popitem(last=False)
            self.evicted += 1

    fail = hit  # a failed login is one event

    def clear(self, *keys: str) -> None:
        for key in keys:
            self._events.pop(key, None)

    def purge(self) -> None:
        """Forget every key with no event left in the window."""
        now = self.clock()
        for key in list(self._events):
            self._recent(key, now)
        self._next_sweep = now + self.window

    def _sweep(self, now: float) -> None:
        # At most one full pass per window: amortized O(1) per event.
        if now >= self._next_sweep:
            self.purge()
