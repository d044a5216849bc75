"""The collector's full passes kept off the tables' way (belote/server/collector.py)."""

from __future__ import annotations

import asyncio
import gc
import logging
import time

import pytest

from belote.server.collector import Collector


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def test_bad_periods_are_refused() -> None:
    with pytest.raises(ValueError, match="gc_freeze_seconds"):
        Collector(0, 10)
    with pytest.raises(ValueError, match="gc_freeze_seconds"):
        Collector(20, 10)


def test_survivors_are_frozen_and_a_full_pass_of_our_own_frees_cycles_frozen_meanwhile(
        caplog: pytest.LogCaptureFixture) -> None:
    collector = Collector(0.01, 0.05)

    async def scenario() -> tuple[int, int]:
        collector.start()
        kept = [object() for _ in range(1000)]  # noqa: F841 (lives through the freezes)
        await asyncio.sleep(0.03)
        frozen = gc.get_freeze_count()
        # the full pass comes after a count of freezes, not a time: on a busy machine the
        # sleeps between them run late, so wait for it (10 s at most)
        deadline = time.monotonic() + 10
        while collector.stats.full_passes < 1 and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        await collector.stop()
        return frozen, collector.stats.full_passes

    try:
        with caplog.at_level(logging.INFO, logger="belote.server.collector"):
            frozen, full = asyncio.run(scenario())
    finally:
        gc.unfreeze()
    assert frozen > 0 and collector.stats.freezes >= 2 and full >= 1
    assert any("full pass of our own" in r.getMessage() for r in caplog.records)
    assert any("collector:" in r.getMessage() and "freezes" in r.getMessage()
               for r in caplog.records)  # its figures at the end


def test_a_cycle_that_died_while_frozen_is_freed_by_the_full_pass() -> None:
    collector = Collector(1, 1)
    cycle = _Cycle()
    gc.freeze()
    try:
        del cycle
        collector.full_pass()
        assert not any(isinstance(o, _Cycle) for o in gc.get_objects())
    finally:
        gc.unfreeze()
    assert collector.stats.full_passes == 1 and len(collector.stats.full_pass_seconds) == 1
