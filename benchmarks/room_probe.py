"""`belote serve` with a probe: the room's own figures in its log, every few seconds.

A launcher for ``benchmarks/room_load.py`` (``--launcher benchmarks/room_probe.py``, which
``--goals`` uses): it runs ``python -m belote`` with the same arguments, and while the server
runs it writes one line to its log every ``ROOM_PROBE_SECONDS`` (default 5)::

    room probe: decisions 1234 fallbacks 0 p50 0.4 p99 2.1 ms; loop lag p99 3.0 max 12.5 ms;
    frames built 5678 sent 9012; tables 100

* ``decisions``, ``fallbacks``, ``p50``/``p99``: the bot pool's counters
  (``BotPool.stats``; the percentiles over its latest decisions, see
  ``belote.server.bots.stats.LATENCY_WINDOW``), read from the room, not guessed by clients;
* ``loop lag``: how late a 50 ms timer of the event loop fires (its p99 and max since the
  last line): the time one request or one table step held the loop;
* ``frames built`` / ``sent``: the tables' frame counters (one frame built per kind of
  viewer, sent to each connection of that kind).

Nothing in the room is changed: the ASGI app is wrapped so that the probe starts with the
app's lifespan and stops with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from typing import Any

import uvicorn

log = logging.getLogger("belote.probe")
EVERY = float(os.environ.get("ROOM_PROBE_SECONDS", "5"))
TICK = 0.05  # seconds: the timer whose lateness measures the loop's lag


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value * 1000:.1f}"


def _line(room: Any, lags: list[float]) -> str:
    bots = getattr(room, "bots", None)
    stats = getattr(bots, "stats", None)
    if stats is None:
        decisions = "decisions ? fallbacks ? p50 - p99 - ms"
    else:
        decisions = (f"decisions {stats.decisions} fallbacks {stats.fallback_total} "
                     f"p50 {_ms(stats.p50)} p99 {_ms(stats.p99)} ms")
    ordered = sorted(lags)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] if ordered else None
    tables = list(getattr(room, "tables", {}).values())
    built = sum(getattr(t, "frames_built", 0) for t in tables)
    sent = sum(getattr(t, "frames_sent", 0) for t in tables)
    return (f"room probe: {decisions}; loop lag p99 {_ms(p99)} max "
            f"{_ms(max(ordered, default=None))} ms; frames built {built} sent {sent}; "
            f"tables {len(tables)}")


async def _probe(app: Any) -> None:
    lags: list[float] = []
    last = time.monotonic()
    while True:
        asked = time.monotonic()
        await asyncio.sleep(TICK)
        lags.append(max(0.0, time.monotonic() - asked - TICK))
        if time.monotonic() - last >= EVERY:
            last = time.monotonic()
            with contextlib.suppress(Exception):  # a probe must never stop the room
                log.info("%s", _line(app.state.room, lags))
            lags = []


class Probed:
    """The room's ASGI app, with the probe running for as long as its lifespan."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.state = app.state

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "lifespan":
            await self.app(scope, receive, send)
            return
        task = asyncio.create_task(_probe(self.app))
        try:
            await self.app(scope, receive, send)
        finally:
            task.cancel()


def _run(app: Any, *args: Any, **kwargs: Any) -> None:
    _original_run(Probed(app), *args, **kwargs)


_original_run = uvicorn.run

if __name__ == "__main__":
    uvicorn.run = _run
    from belote.cli import main

    main()
