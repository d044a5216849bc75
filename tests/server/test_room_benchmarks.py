"""The room benchmark's figures are the server's own (review of issue 22): its fallbacks are
the bot pool's running ``fallback_total`` (a fallback that stored no move counts too), its
frames the process's running totals (a table the room lets go keeps its frames counted), and
a probe line that cannot be written is logged and counted, never silently dropped."""

from __future__ import annotations

import importlib.util
import logging
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, cast

import pytest

from belote.server.connection import Connection
from belote.server.frames import PROCESS_FRAMES
from belote.server.seats import Seat
from belote.server.table import Table

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _benchmark(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"_bench_{name}", BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


def _probe_line(fallbacks: str, built: int = 0) -> str:
    return (f"INFO belote.probe room probe: decisions 10 fallbacks {fallbacks} p50 0.3 p99 "
            f"1.0 ms; loop lag p99 1.0 max 2.0 ms; frames built {built} sent {built}; "
            "tables 3; probe failures 0\n")


def test_the_fallbacks_of_the_measure_are_the_pools_running_total() -> None:
    load = _benchmark("room_load")
    before = (_probe_line("2") + _probe_line("3")).encode()
    during = _probe_line("4").encode()
    after = (_probe_line("7") + _probe_line("9")).encode()
    log = before + during + after
    counted, source = load.fallbacks_in_measure(log, len(before), len(before + during))
    assert counted == 4 and "fallback_total" in source  # 7 - 3: none stored a move, all count
    # no probe line before the measure: the whole run (never fewer)
    counted, source = load.fallbacks_in_measure(during + after, 0, len(during))
    assert counted == 7 and "whole run" in source
    # nothing after it but the pool's closing line
    closing = (b"INFO bot pool closing: 99 decisions, 5 fallbacks {'late': 5}, 0 estimated, "
               b"0 searched with 0.0 worlds on average, latency p50 0.3 p99 1.0 ms\n")
    assert load.fallbacks_in_measure(before + closing, len(before), len(before))[0] == 2
    # the server said nothing: unknown, and an unknown figure never meets a goal
    assert load.fallbacks_in_measure(b"", 0, 0)[0] is None


def _table(table_id: int) -> Table:
    table = Table(table_id, "classic", {}, cast(Any, None), cast(Any, None))
    table.seats = [Seat("bot") for _ in range(4)]
    return table


def test_frames_are_counted_for_the_process_beyond_the_tables_lifetime() -> None:
    built, sent = PROCESS_FRAMES.built, PROCESS_FRAMES.sent
    tables = {n: _table(n) for n in (1, 2)}
    for table in tables.values():
        table.connections = {Connection(f"watcher-{n}", "", "en") for n in range(3)}
        table._broadcast([])
    del tables[1]  # the room lets a table go: what it built and sent stays counted
    assert (PROCESS_FRAMES.built - built, PROCESS_FRAMES.sent - sent) == (2, 6)
    probe = _benchmark("room_probe")
    room = type("Room", (), {"tables": tables, "bots": None})()
    line = probe._line(room, [], 0)
    assert f"frames built {PROCESS_FRAMES.built} sent {PROCESS_FRAMES.sent}" in line
    assert "tables 1; probe failures 0" in line


def test_a_probe_line_that_fails_is_logged_and_counted(caplog: pytest.LogCaptureFixture) -> None:
    probe = _benchmark("room_probe")

    class Broken:
        @property
        def tables(self) -> dict[int, Table]:
            raise RuntimeError("no tables today")

    app = type("App", (), {"state": type("State", (), {"room": Broken()})()})()
    probed = probe._Probe(app)
    with caplog.at_level(logging.INFO, logger="belote.probe"):
        probed.write()
        probed.write()
    assert probed.failures == 2
    assert caplog.text.count("room probe: no line") == 2 and "no tables today" in caplog.text
    app.state.room = type("Room", (), {"tables": {}, "bots": None})()
    with caplog.at_level(logging.INFO, logger="belote.probe"):
        probed.write()
    assert "probe failures 2" in caplog.text  # the next line says how many were lost
