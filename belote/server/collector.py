"""The garbage collector's full passes, kept off the tables' way.

CPython's cyclic collector now and then scans every object it tracks (a "generation 2"
pass).  With a thousand tables in play that is millions of objects: a pass held the event
loop 0.3 to 1.6 s every few seconds (benchmarks/room_load.py, issue 22), and every action in
flight waited.  Most of those objects live as long as their table, and a table's objects
are freed by reference counting when it goes: the full passes find almost nothing.

So the room moves what has survived into the collector's permanent generation
(``gc.freeze``, constant time) every ``freeze_seconds``: the automatic passes scan only what
is newer.  What was frozen is scanned again only by a full pass of our own every
``full_seconds``: ``gc.unfreeze`` then ``gc.collect`` (a reference cycle that died while
frozen is freed there, so memory stays bounded), then everything frozen again.  That pass
pauses the loop once in a long while instead of every few seconds; each is timed, counted,
and logged (a warning above ``SLOW_PASS``).  Every automatic pass over
``SLOW_PASS`` is counted and logged too.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)
SLOW_PASS = 0.05  # seconds: a pass longer than this is one a person could notice


@dataclass
class CollectorStats:
    freezes: int = 0
    full_passes: int = 0
    full_pass_seconds: list[float] = field(default_factory=list)  # the latest few
    slow_passes: int = 0  # automatic passes over SLOW_PASS
    slowest: float = 0.0


class Collector:
    """Started and stopped with the room (``app.py``'s lifespan)."""

    def __init__(self, freeze_seconds: float, full_seconds: float) -> None:
        if not 0 < freeze_seconds <= full_seconds:
            raise ValueError("gc_freeze_seconds must be positive and at most gc_full_seconds")
        self.freeze_seconds = freeze_seconds
        self.full_seconds = full_seconds
        self.stats = CollectorStats()
        self._task: asyncio.Task[None] | None = None
        self._began = 0.0
        self._ours = False  # a full pass of our own is running (timed by full_pass)

    def start(self) -> None:
        gc.callbacks.append(self._timed)
        self._freeze()
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._timed in gc.callbacks:
            gc.callbacks.remove(self._timed)
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        log.info("collector: %d freezes, %d full passes of our own, %d automatic passes over "
                 "%.0f ms (slowest %.0f ms)", self.stats.freezes, self.stats.full_passes,
                 self.stats.slow_passes, SLOW_PASS * 1000, self.stats.slowest * 1000)

    async def _run(self) -> None:
        since_full = 0.0
        while True:
            await asyncio.sleep(self.freeze_seconds)
            since_full += self.freeze_seconds
            if since_full >= self.full_seconds:
                since_full = 0.0
                self.full_pass()
            else:
                self._freeze()

    def _freeze(self) -> None:
        gc.freeze()
        self.stats.freezes += 1

    def full_pass(self) -> float:
        """Scan everything once (what was frozen too), then freeze what lives; its length."""
        began = time.perf_counter()
        self._ours = True
        try:
            gc.unfreeze()
            found = gc.collect()
            gc.freeze()
        finally:
            self._ours = False
        took = time.perf_counter() - began
        self.stats.full_passes += 1
        self.stats.full_pass_seconds = [*self.stats.full_pass_seconds[-9:], took]
        level = logging.WARNING if took > SLOW_PASS else logging.INFO
        log.log(level, "collector: full pass of our own took %.0f ms, %d objects freed, %d "
                "frozen", took * 1000, found, gc.get_freeze_count())
        return took

    def _timed(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
            return
        took = time.perf_counter() - self._began
        if took > SLOW_PASS and info.get("generation") == 2 and not self._ours:
            self.stats.slow_passes += 1
            self.stats.slowest = max(self.stats.slowest, took)
            log.warning("collector: an automatic full pass held the loop %.0f ms", took * 1000)
