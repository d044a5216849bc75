"""The room benchmark's figures are the server's own (review of issue 22): its fallbacks are
the bot pool's running ``fallback_total`` (a fallback that stored no move counts too), its
frames the process's running totals (a table the room lets go keeps its frames counted), and
a probe line that cannot be written is logged and counted, never silently dropped.

With several processes (issue 26, item 6: ``room_load.py --processes N``): the search for
the tables sustained, every condition of the goal, the projection's arithmetic, and the
wire's figures read from each process's probe lines.  No timed assertion: the benchmark's
own runs are not run here."""

from __future__ import annotations

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
from tests.file_modules import load_file

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _benchmark(name: str) -> ModuleType:
    return load_file(BENCHMARKS / f"{name}.py", f"_bench_{name}")


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


# ---------------------------------------------------------------------- several processes
def _cluster_benchmark(name: str, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # they import each other by name
    return _benchmark(name)


def test_the_search_goes_up_while_the_goal_holds_then_halves_the_gap(
        monkeypatch: pytest.MonkeyPatch) -> None:
    cluster = _cluster_benchmark("room_cluster", monkeypatch)
    tried: list[tuple[int, bool]] = [(400, True)]
    assert cluster.next_count(tried, 0, 1.5, 10) == 600
    tried.append((600, False))
    assert cluster.next_count(tried, 0, 1.5, 10) == 500
    tried.append((500, True))
    assert cluster.next_count(tried, 0, 1.5, 10) == 550
    tried.append((550, False))
    assert cluster.next_count(tried, 0, 1.5, 10) is None  # within 10% of 500: enough
    # Two processes start at the goal (1.7 x one); failing, they halve towards one's count.
    assert cluster.next_count([(680, False)], 400, 1.5, 10) == 540
    assert cluster.next_count([(10, False)], 0, 1.5, 10) is None  # nothing smaller to try


def _point(cluster: ModuleType, processes: int, tables: int, p99: float,
           sustained: int | None = None) -> Any:
    load = sys.modules["room_load"]
    live = tables if sustained is None else sustained
    met = p99 <= load.GOAL_MS and live >= tables
    return cluster.Point(processes, tables, False, load.Outcome(tables, live, p99, 0, met))


def test_the_goal_checks_every_condition(monkeypatch: pytest.MonkeyPatch) -> None:
    cluster = _cluster_benchmark("room_cluster", monkeypatch)
    one = _point(cluster, 1, 400, 80.0)
    checks = cluster.goal_checks(2, one, _point(cluster, 2, 680, 90.0))
    assert [ok for _, ok in checks] == [True, True, True]
    assert "1.70 >= 1.7" in checks[-1][0]
    short = cluster.goal_checks(2, one, _point(cluster, 2, 540, 90.0))
    assert [ok for _, ok in short] == [True, True, False]
    # a count reported over 100 ms, or a table not sustained, fails its own line
    slow = cluster.goal_checks(2, one, _point(cluster, 2, 700, 120.0))
    assert [ok for _, ok in slow] == [True, False, True]
    lost = cluster.goal_checks(2, _point(cluster, 1, 400, 80.0, sustained=399), None)
    assert [ok for _, ok in lost] == [False, False, False]  # no 2-process count: no ratio


def _measured(cluster: ModuleType, **changed: float) -> Any:
    figures = {"tables": 400, "cores": 0.7, "postgres_cores": 0.1,
               "relay_cores_per_table": 0.0002, "messages_per_table": 0.03,
               "broker_floor": 3000.0, "broker_ceiling": 10000.0, "postgres_us": 20.0,
               "postgres_us_per_listener": 0.5, "receiver_us": 10.0, "usable_share": 0.75,
               "connections_per_process": 8.0}
    return cluster.Measured(**{**figures, **changed})


def test_the_projection_fits_the_cores_and_names_its_limit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    cluster = _cluster_benchmark("room_cluster", monkeypatch)
    measured = _measured(cluster)
    one = cluster.project(measured, 1, 16, False)
    assert one.tables == one.processes * one.tables_per_process
    usable = 16 * measured.usable_share  # the busy share where the tails held here
    assert one.processes * measured.cores + one.postgres_cores <= usable
    # one more process would not fit
    assert (one.processes + 1) * measured.cores + one.postgres_cores > usable
    assert one.connections == one.processes * 8
    assert one.tables_per_process < measured.tables  # the relay and the bus cost a little
    assert one.limit == "the cores"
    four = cluster.project(measured, 4, 16, True)
    assert four.processes == 4 * int(usable / measured.cores) and four.tables > 3 * one.tables
    # a chatty bus: the broker's ceiling bounds the room
    chatty = cluster.project(_measured(cluster, messages_per_table=2.0), 4, 16, True)
    assert chatty.limit.startswith("the broker")
    assert chatty.messages_per_s <= measured.broker_ceiling
    said = cluster.describe_projection(one, measured)
    assert f"= {one.tables} tables" in said and said.endswith("limited by the cores")


def test_the_wire_figures_come_from_the_probe_lines_of_a_cluster_process(
        monkeypatch: pytest.MonkeyPatch) -> None:
    load = _cluster_benchmark("room_load", monkeypatch)

    def line(sent: int, relayed: int) -> str:
        return _probe_line("0").rstrip("\n") + (
            f"; wire sent {sent} received 0; relayed sockets {relayed} pages 0\n")

    before = line(100, 3).encode()
    during = (line(150, 5) + line(250, 6) + line(350, 6)).encode()
    after = line(360, 9).encode()
    log = before + during + after
    rate, relayed = load.wire_figures(log, len(before), len(before + during))
    assert rate == (350 - 150) / (2 * load.PROBE_EVERY) and relayed == 9
    assert load.wire_figures(before + after, len(before), len(before)) is None


def test_the_probe_adds_the_wire_and_the_relay_for_a_cluster_process() -> None:
    probe = _benchmark("room_probe")
    wire = type("Wire", (), {"sent": 12, "received": 30})()
    room = type("Room", (), {"tables": {}, "bots": None,
                             "node": type("Node", (), {"wire": wire})()})()
    relay = type("Relay", (), {"relayed_sockets": 4, "relayed_pages": 7})()
    line = probe._line(room, [], 0, relay)
    assert line.endswith("wire sent 12 received 30; relayed sockets 4 pages 7")
    assert "wire" not in probe._line(type("Room", (), {"tables": {}, "bots": None})(), [], 0)


def test_the_brokers_figures_bound_and_extrapolate_as_documented(
        monkeypatch: pytest.MonkeyPatch) -> None:
    wire = _cluster_benchmark("cluster_wire", monkeypatch)
    floods = (wire.Flood(1, 1000, 1.0, 9000.0, 500.0, 20.0, 10.0, 0),
              wire.Flood(4, 1000, 1.0, 8000.0, 500.0, 23.0, 8.0, 0))
    figures = wire.WireFigures(1.0, 2.0, 3000.0, 3500.0, floods)
    assert figures.floor == 3000.0 and figures.ceiling == 9000.0
    assert figures.postgres_us(1) == 20.0 and figures.postgres_us(10) == 29.0
    assert figures.receiver_us == 8.0
