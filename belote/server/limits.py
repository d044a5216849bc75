"""Limits on what one person, one address or one request may take.

A :class:`TokenBucket` allows a burst and then a steady rate; a :class:`KeyedLimiter` keeps one
bucket per key (a session, an address) and forgets keys whose bucket is full again, so that
memory never grows with the number of people who ever came by.  They limit what lives in one
process (a table's chat, the heavy work of this process); the limits on people and addresses
are kept in the database, the same for every process of the room
(:mod:`belote.server.persistence.rate_limits`, whose limiters fall back on these while the
database fails).  :class:`CodeGuesses` counts wrong codes there.

:class:`BodyLimit` caps request bodies (an ASGI middleware): a body over the cap is refused
with 413 before it is read, whether its size is announced (Content-Length) or not (chunked).
:func:`count_fields` counts a form's fields as sent, empty ones included (``&&&&``: the form
parser skips them, but parsing them costs the event loop all the same).  A request refused by
a limit raises :class:`Refusal`: an HTTP status, the message's key and, for a rate limit, the
seconds to wait (``Retry-After``).
"""

from __future__ import annotations

import logging
import math
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable
from typing import Protocol

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger(__name__)


class Refusal(HTTPException):
    """A request refused by a limit: ``key`` names the message (a catalog id) the person
    reads; ``retry_after`` (seconds) becomes the ``Retry-After`` header."""

    def __init__(self, status: int, key: str, retry_after: float | None = None) -> None:
        headers = None if retry_after is None else {
            "Retry-After": str(max(1, math.ceil(retry_after)))}
        super().__init__(status, detail=key, headers=headers)
        self.key = key


class BodyLimit:
    """Refuse (413) an HTTP request whose body is over ``max_bytes``, before reading it.

    The check is made when the application first reads the body (so the refusal goes through
    its error page, in the reader's language): a Content-Length over the cap is refused at
    once; a body without one is counted as it arrives and refused as soon as it passes the
    cap.  Each refusal is logged and counted in ``counts["body_too_large"]``."""

    def __init__(self, app: ASGIApp, max_bytes: int,
                 counts: Counter[str] | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.counts: Counter[str] = Counter() if counts is None else counts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = -1
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                declared = int(value) if value.isdigit() else self.max_bytes + 1
        received = 0

        async def limited() -> Message:
            nonlocal received
            if declared > self.max_bytes:
                self._refuse(scope, declared)
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    self._refuse(scope, received)
            return message

        await self.app(scope, limited, send)

    def _refuse(self, scope: Scope, size: int) -> None:
        self.counts["body_too_large"] += 1
        client = scope.get("client") or ("unknown", 0)
        log.warning("request body refused: %d bytes or more to %s from %s (cap %d)", size,
                    scope.get("path", ""), client[0], self.max_bytes)
        raise Refusal(413, "limits.body_too_large")


def count_fields(body: bytes, content_type: str) -> int:
    """The fields of a form body as sent, empty ones included: for a URL-encoded form, one
    more than its separators (``&`` and ``;``); for a multipart form, its boundaries."""
    if not body:
        return 0
    if content_type.startswith("multipart/"):
        return body.count(b"\r\n--") + 1
    return body.count(b"&") + body.count(b";") + 1


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

    def retry_after(self, key: str) -> float:
        """Seconds until ``key`` may act again (0.0: now)."""
        bucket = self._buckets.get(key)
        if bucket is None:
            return 0.0
        bucket._refill()
        if bucket.tokens >= 1.0:
            return 0.0
        return math.inf if bucket.rate <= 0 else (1.0 - bucket.tokens) / bucket.rate

    def _sweep(self) -> None:
        now = self.clock()
        if now - self._last_sweep < 60.0:
            return
        self._last_sweep = now
        for key in [k for k, b in self._buckets.items() if b.full]:
            del self._buckets[key]


class Window(Protocol):
    """A limit of ``attempts`` events per key in a sliding window, read and counted through
    a store (:class:`belote.server.persistence.rate_limits.SharedWindow`: the same count in
    every process of the room)."""

    async def blocked(self, *keys: str) -> bool: ...

    async def retry_after(self, *keys: str) -> float: ...

    async def hit(self, *keys: str) -> None: ...


class CodeGuesses:
    """Wrong codes typed (a private table's invitation code, a tournament seat code): the
    one limit on guessing them, counted and logged.

    A wrong code counts against each of the caller's ``narrow`` keys (the person's session,
    the game at that address...) and against the address.  Past ``per_key`` wrong codes
    within the window under one narrow key, or ``per_address`` under the address, every
    code under it, right or wrong, is refused until the oldest leaves the window: otherwise
    a guesser would just go on until one is accepted.  So that the people who share an
    address (a club's Wi-Fi) are not refused a right code for someone else's typos, the
    ``wide`` limit (per address) is set well above the ``narrow`` one (per key): only a
    flood, never typos, reaches it, and guessing stays hopeless either way.  Both counts are
    kept in the database, so that every process of the room counts the same guesses.  Each
    refusal is logged and counted in ``counts[name]`` (the app's ``state.refused``)."""

    def __init__(self, name: str, narrow: Window, wide: Window,
                 counts: Counter[str]) -> None:
        self.name = name
        self.counts = counts
        self._narrow = narrow
        self._wide = wide

    async def refused(self, address: str, *narrow: str) -> float | None:
        """None if a code may be tried now; else the seconds to wait (counted, logged)."""
        wide = f"ip:{address}"
        if not (await self._wide.blocked(wide) or await self._narrow.blocked(*narrow)):
            return None
        self.counts[self.name] += 1
        log.warning("%s refused for %s (%s): too many wrong codes; refusals so far %d",
                    self.name, address, ", ".join(narrow) or "address",
                    self.counts[self.name])
        return max(await self._wide.retry_after(wide),
                   await self._narrow.retry_after(*narrow))

    async def wrong(self, address: str, *narrow: str) -> None:
        """One wrong code, under the address and each narrow key."""
        await self._wide.hit(f"ip:{address}")
        if narrow:
            await self._narrow.hit(*narrow)


# A sliding-window rate limiter whose memory is bounded (it was auth/limits.py: the
# database's shared limiters fall back on it, and persistence must not import auth).
# Each key keeps the times of its recent events; a key whose events are all older than the
# window is forgotten on the next sweep; past ``max_keys`` keys the ones idle longest go first.
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
