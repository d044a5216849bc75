"""`belote serve` with a probe: the room's own figures in its log, every few seconds.

A launcher for ``benchmarks/room_load.py`` (``--launcher benchmarks/room_probe.py``, which
``--goals`` uses): it runs ``python -m belote`` with the same arguments, and while the server
runs it writes one line to its log every ``ROOM_PROBE_SECONDS`` (default 5)::

    room probe: decisions 1234 fallbacks 0 p50 0.4 p99 2.1 ms; loop lag p99 3.0 max 12.5 ms;
    frames built 5678 sent 9012; tables 100; probe failures 0

* ``decisions``, ``fallbacks``, ``p50``/``p99``: the bot pool's counters
  (``BotPool.stats``: running totals, ``fallbacks`` its ``fallback_total``; the percentiles
  over its latest decisions, see ``belote.server.bots.stats.LATENCY_WINDOW``), read from the
  room, not guessed by clients (``room_load.py`` takes the fallbacks of its measure from
  them: a fallback counts whether or not it stored a move);
* ``loop lag``: how late a 50 ms timer of the event loop fires (its p99 and max since the
  last line): the time one request or one table step held the loop;
* ``frames built`` / ``sent``: running totals of every table of the process, those the
  room has let go included (``belote.server.frames.PROCESS_FRAMES``: one frame built per kind
  of viewer, sent to each connection of that kind), so that the difference of two lines is
  what was built and sent between them;
* ``probe failures``: lines the probe could not write (each logged with its error);
* one of several processes (``belote serve --cluster``) adds ``wire sent N received M``
  (running totals of its LISTEN/NOTIFY messages, ``PgWire.sent``/``received``) and
  ``relayed sockets N pages M`` (the tables' sockets and pages it relayed to their owner).

A last line is written when the server stops, so that a run's last figures are in the log.

Nothing in the room is changed: the ASGI app is wrapped so that the probe starts with the
app's lifespan and stops with it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from typing import Any

import uvicorn

from belote.server.frames import PROCESS_FRAMES

log = logging.getLogger("belote.probe")
EVERY = float(os.environ.get("ROOM_PROBE_SECONDS", "5"))
TICK = 0.05  # seconds: the timer whose lateness measures the loop's lag


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value * 1000:.1f}"


def _line(room: Any, lags: list[float], failures: int, relay: Any = None) -> str:
    bots = getattr(room, "bots", None)
    stats = getattr(bots, "stats", None)
    if stats is None:
        decisions = "decisions ? fallbacks ? p50 - p99 - ms"
    else:
        decisions = (f"decisions {stats.decisions} fallbacks {stats.fallback_total} "
                     f"p50 {_ms(stats.p50)} p99 {_ms(stats.p99)} ms")
    ordered = sorted(lags)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] if ordered else None
    frames = PROCESS_FRAMES
    line = (f"room probe: {decisions}; loop lag p99 {_ms(p99)} max "
            f"{_ms(max(ordered, default=None))} ms; frames built {frames.built} sent "
            f"{frames.sent}; tables {len(getattr(room, 'tables', {}))}; probe failures "
            f"{failures}")
    node = getattr(room, "node", None)
    if node is not None and relay is not None:  # one of several processes
        line += (f"; wire sent {node.wire.sent} received {node.wire.received}; relayed "
                 f"sockets {relay.relayed_sockets} pages {relay.relayed_pages}")
    return line


class _Probe:
    """The probe's lines, and the count of those it could not write."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.failures = 0
        self.lags: list[float] = []

    def write(self) -> None:
        try:
            state = self.app.state
            line = _line(state.room, self.lags, self.failures, getattr(state, "relay", None))
        except Exception:  # a probe must never stop the room: logged and counted
            self.failures += 1
            log.exception("room probe: no line (%d failures so far)", self.failures)
        else:
            log.info("%s", line)
        self.lags = []

    async def run(self) -> None:
        last = time.monotonic()
        while True:
            asked = time.monotonic()
            await asyncio.sleep(TICK)
            self.lags.append(max(0.0, time.monotonic() - asked - TICK))
            if time.monotonic() - last >= EVERY:
                last = time.monotonic()
                self.write()


class Probed:
    """The room's ASGI app, with the probe running for as long as its lifespan."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.state = app.state

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "lifespan":
            await self.app(scope, receive, send)
            return
        probe = _Probe(self.app)
        task = asyncio.create_task(probe.run())
        try:
            await self.app(scope, receive, send)
        finally:
            task.cancel()
            probe.write()  # the run's last figures (the pool's counters outlive its close)


def _run(app: Any, *args: Any, **kwargs: Any) -> None:
    _original_run(Probed(app), *args, **kwargs)


_original_run = uvicorn.run

if __name__ == "__main__":
    uvicorn.run = _run
    from belote.cli import main

    main()
