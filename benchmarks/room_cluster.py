"""Room load across processes (issue 26, item 6): ``room_load.py --processes N``.

The room as one process, then as N processes (``belote serve --cluster`` each, as ``belote
serve --processes N`` starts them), on one PostgreSQL server (a throwaway one from Debian's
packages unless ``--db postgresql://...``; a fresh database for every run), measured the
way ``room_load.py`` measures one: half the tables with a scripted human, normal bots
elsewhere, p99 from a human's action to the broadcast frame showing it.  For each process
count it looks for the most tables it sustains with **p99 <= 100 ms, every table
sustained, no error and no fallback**: up by ``--grow`` while that holds, then halving the
gap (``--steps`` runs at most); the N-process search starts at 1.7 times what one process
sustained (the goal), so its first run says whether the goal holds.

Tables are created on the processes in turn (driver d on process d mod N: the table's owner)
and each client's socket goes to its table's owner (``X-Belote-Process`` and
``X-Belote-Owner`` of a sampled page say who answered).  With nginx's ``least_conn`` in
front a client lands on the owner 1/N of the time: one more run, at the N-process count,
sends **every** client through a process that does not own its table, so that the relay's
cost is measured too (latency and CPU).

Then the broker's message cost (``cluster_wire.py``: LISTEN/NOTIFY round trip, rates,
PostgreSQL's CPU a message), and a **projection** to one 16-core machine and to 4 such
machines, computed from the measured per-process figures and the broker's measured cost
(printed as a projection, not measured).

The load generator (this process) runs on the same machine as the room and PostgreSQL:
its own CPU (its CPU time over the measure's wall time) and the whole machine's are
printed for every run.  Every run's whole output goes to a file (named at the end);
progress lines go to stderr; standard output starts with the ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from cluster_wire import WireFigures
from cluster_wire import measure as measure_wire
from pg_throwaway import drop_database, fresh_database, running_postgres
from room_load import GOAL_MS, PROBE, Layout, Outcome, _shown, machine_cpu, run

GOAL_RATIO = 1.7  # issue 26: two processes sustain at least 1.7 times the tables of one
RAMP_RATE = 100.0  # tables opened a second at most (each: a sign-in, a table, a socket)


@dataclass(frozen=True)
class Point:
    processes: int
    tables: int
    through_other: bool
    outcome: Outcome


class Bench:
    """The runs of one invocation, on one PostgreSQL server."""

    def __init__(self, args: argparse.Namespace, url: str, pg_pid: int | None,
                 details: TextIO) -> None:
        self.args = args
        self.url = url
        self.pg_pid = pg_pid
        self.details = details
        self.ramp = args.ramp
        self.points: list[Point] = []
        self.discarded: list[Point] = []  # runs disturbed by other jobs, measured again

    def measure(self, processes: int, tables: int, through_other: bool = False) -> Point:
        """One run; repeated (``--retries`` times at most) when other jobs of the machine
        took more than ``--others-limit`` of a core during its measure: the discarded run
        is kept in ``self.discarded`` and printed as such."""
        args = self.args
        for attempt in range(args.retries + 1):
            point = self._once(processes, tables, through_other)
            busy = others(point.outcome)
            if not disturbed(point.outcome, args.others_limit) or attempt == args.retries:
                return point
            self.discarded.append(point)
            print(f"  other jobs took {_pct(busy)} of a core during that measure (over "
                  f"{_pct(args.others_limit)}): discarded, measured again", file=sys.stderr,
                  flush=True)
        raise AssertionError("unreachable")

    def _once(self, processes: int, tables: int, through_other: bool) -> Point:
        args = self.args
        args.tables, args.humans = tables, tables // 2
        args.ramp = max(self.ramp, tables / RAMP_RATE)
        waited, busy = wait_quiet(args.others_limit, args.quiet_wait)
        db = asyncio.run(fresh_database(self.url))
        started = time.monotonic()
        try:
            with contextlib.redirect_stdout(self.details):
                where = ("every socket through a non-owner" if through_other
                         else "sockets on the owner")
                print(f"\n===== {processes} process(es), {tables} tables, {where} =====")
                print(f"waited {waited:.0f} s for a quiet machine: {_pct(busy)} of a core "
                      "busy before the start")
                outcome = asyncio.run(run(args, Layout(processes, db, through_other,
                                                       self.pg_pid)))
            self.details.flush()
        finally:
            asyncio.run(drop_database(db, self.url))
        point = Point(processes, tables, through_other, outcome)
        self.points.append(point)
        print(f"[{time.monotonic() - started:.0f} s] {describe(point)}", file=sys.stderr,
              flush=True)
        return point

    def search(self, processes: int, first: int, hint: int) -> list[Point]:
        """Runs at ``first`` tables, then up by --grow while the goal holds, then halving the
        gap between the largest count that held and the smallest that did not (``hint``:
        a count thought to hold, where a failed first run halves towards)."""
        args = self.args
        step = 10 if args.start_tables >= 100 else 2
        done: list[Point] = []
        count: int | None = first
        while count is not None and len(done) < args.steps:
            done.append(self.measure(processes, count))
            count = next_count([(p.tables, p.outcome.met) for p in done], hint, args.grow,
                               step)
        return done


def wait_quiet(limit: float, longest: float) -> tuple[float, float]:
    """Wait (``longest`` seconds at most) until the machine's busy CPU over 2 s is at most
    ``limit`` cores (nothing of ours runs between two runs); the time waited and the busy
    CPU seen last."""
    started = time.monotonic()
    while True:
        busy0, total0 = machine_cpu()
        time.sleep(2.0)
        busy1, total1 = machine_cpu()
        busy = (busy1 - busy0) / max(1e-9, total1 - total0) * (os.cpu_count() or 1)
        waited = time.monotonic() - started
        if busy <= limit or waited >= longest:
            return waited, busy
        time.sleep(3.0)


def rounded(value: float, step: int) -> int:
    return max(step, round(value / step) * step)


def next_count(tried: list[tuple[int, bool]], hint: int, grow: float,
               step: int) -> int | None:
    """The next table count to try after ``tried`` (count, goal held); None: enough (the
    gap between held and not held is within a step or 10%)."""
    low = max((n for n, ok in tried if ok), default=0)
    high = min((n for n, ok in tried if not ok), default=None)
    if high is None:
        count = rounded(low * grow, step)
    elif low == 0:
        count = rounded((hint + high) / 2 if 0 < hint < high else high / 2, step)
        if count >= high:
            return None
    elif high - low <= max(step, 0.1 * low):
        return None
    else:
        count = rounded((low + high) / 2, step)
    return None if count in {n for n, _ in tried} else count


def best(points: list[Point]) -> Point | None:
    """The run with the most tables that met the goal."""
    met = [p for p in points if p.outcome.met]
    return max(met, key=lambda p: p.tables) if met else None


def _pct(value: float | None) -> str:
    return "?" if value is None else f"{100 * value:.0f}%"


def others(o: Outcome) -> float | None:
    """The machine's busy CPU that is neither the room, PostgreSQL nor the load generator
    (other jobs on a shared machine), in cores; with ``--db`` PostgreSQL's CPU is not known
    and counts here when it runs on this machine."""
    if o.machine_busy is None:
        return None
    return max(0.0, o.machine_busy - o.server_cpu - (o.postgres_cpu or 0.0) - o.client_cpu)


def disturbed(o: Outcome, limit: float) -> bool:
    busy = others(o)
    return busy is None or busy > limit


def cpu_line(o: Outcome) -> str:
    cpu = " + ".join(_pct(c) for c in o.process_cpu)
    return (f"CPU room {cpu}, PostgreSQL {_pct(o.postgres_cpu)}, load generator "
            f"{_pct(o.client_cpu)}, other jobs {_pct(others(o))}: machine "
            f"{_pct(o.machine_busy)} of {100 * (os.cpu_count() or 1)}%")


def describe(point: Point) -> str:
    o = point.outcome
    room_lag = None if o.probes is None else o.probes.lag_p99
    return (f"{point.processes} process(es), {point.tables} tables"
            f"{', every socket through a non-owner' if point.through_other else ''}: "
            f"{o.sustained} sustained, p50 {o.p50:.1f} ms, p99 {o.p99:.1f} ms "
            f"({o.samples} samples), errors {o.errors}, fallbacks {o.fallbacks} -> "
            f"{'met' if o.met else 'NOT met'}; {cpu_line(o)}; loop lag p99 room "
            f"{_shown(room_lag)} ms, load generator {_shown(o.client_lag_p99)} ms; load "
            f"average {o.load[0]:.1f}..{o.load[1]:.1f}")


# ---------------------------------------------------------------------- the projection
@dataclass(frozen=True)
class Measured:
    """What the projection starts from, every figure measured on this machine."""

    tables: int  # tables one process sustained at the goal
    cores: float  # that process's CPU at them, in cores (its bot workers included)
    postgres_cores: float  # PostgreSQL's CPU at them, in cores
    relay_cores_per_table: float  # a table's extra CPU when its socket is relayed
    messages_per_table: float  # LISTEN/NOTIFY messages a table a second
    broker_floor: float  # messages/s when each is its own transaction
    broker_ceiling: float  # messages/s one sender sustains, batched
    postgres_us: float  # PostgreSQL's CPU a message, one listener, µs
    postgres_us_per_listener: float  # and each further listening process, µs
    receiver_us: float  # a listening process's CPU to read one message, µs
    # The machine's busy share (of all its cores) at the most tables several processes
    # sustained: past it the tails broke the goal here, so a machine is filled to it only.
    usable_share: float
    connections_per_process: float  # connections to PostgreSQL a process held


@dataclass(frozen=True)
class Projection:
    machines: int
    cores: int  # each machine's
    postgres_apart: bool  # PostgreSQL on a machine of its own
    processes: int
    tables_per_process: int
    tables: int
    messages_per_s: float
    postgres_cores: float
    reading_cores: float  # each process's CPU reading every other process's messages
    connections: int  # to PostgreSQL, the room's processes together
    limit: str


def project(m: Measured, machines: int, cores: int, postgres_apart: bool) -> Projection:
    """Tables the room would sustain on ``machines`` machines of ``cores`` cores like this
    one's, at the per-process figures measured here (a projection, not a measure):

    * a process keeps the CPU budget it had at its measured count (``m.cores`` for
      ``m.tables`` tables): a table costs ``m.cores / m.tables``, plus the relay's extra
      for the share of sockets that land on another process (``(N-1)/N`` of them, as
      least_conn spreads them), and each process reads every message of the bus (the lobby
      hears every table) - so it holds fewer tables as the room grows;
    * processes are added while their CPU (and PostgreSQL's, when it shares the machine)
      fits ``m.usable_share`` of the cores (the machine's busy share at the most tables
      several processes sustained here: fuller, the tails broke the goal);
    * the broker must carry ``m.messages_per_table`` messages a table a second: over its
      ceiling (one sender, batched) the room is the broker's size; over its floor (one
      message a transaction) it holds only if the wire batches.
    """
    per_table = m.cores / m.tables
    pg_per_table = m.postgres_cores / m.tables
    best_projection: Projection | None = None
    per_machine = 1
    while True:
        processes = machines * per_machine
        relayed = (processes - 1) / processes
        cost = per_table + relayed * m.relay_cores_per_table
        tables_per_process = m.tables
        reading = 0.0
        for _ in range(20):  # the reading load depends on the room's size: settle it
            messages = m.messages_per_table * tables_per_process * processes
            reading = messages * m.receiver_us / 1e6 if processes > 1 else 0.0
            tables_per_process = max(0, int((m.cores - reading) / cost))
        tables = tables_per_process * processes
        messages = m.messages_per_table * tables
        postgres = (tables * pg_per_table + messages * m.postgres_us_per_listener
                    * (processes - 1) / 1e6)
        used = per_machine * m.cores + (0.0 if postgres_apart else postgres)
        if used > cores * m.usable_share or tables_per_process == 0:
            break
        limit = "the cores"
        if messages > m.broker_ceiling:
            tables = int(m.broker_ceiling / m.messages_per_table)
            messages = m.messages_per_table * tables
            limit = "the broker (over its measured ceiling)"
        elif messages > m.broker_floor:
            limit = "the cores, if the wire batches (over the broker's one-a-transaction floor)"
        if postgres_apart and postgres > cores * m.usable_share:
            tables = int(tables * cores * m.usable_share / postgres)
            limit = "PostgreSQL's machine"
        best_projection = Projection(machines, cores, postgres_apart, processes,
                                     tables_per_process, tables, messages, postgres, reading,
                                     round(processes * m.connections_per_process), limit)
        per_machine += 1
    if best_projection is None:
        return Projection(machines, cores, postgres_apart, 0, 0, 0, 0.0, 0.0, 0.0, 0,
                          "one process does not fit")
    return best_projection


def describe_projection(p: Projection, m: Measured) -> str:
    where = (f"{p.machines} machines of {p.cores} cores, PostgreSQL on a machine of its own"
             if p.postgres_apart else f"one machine of {p.cores} cores, PostgreSQL on it")
    return (f"{where}: {p.processes} room processes x {p.tables_per_process} tables = "
            f"{p.tables} tables; LISTEN/NOTIFY {p.messages_per_s:.0f} messages/s (broker "
            f"floor {m.broker_floor:.0f}/s, ceiling {m.broker_ceiling:.0f}/s); PostgreSQL "
            f"{p.postgres_cores:.1f} cores and {p.connections} connections"
            f"{' (over the default max_connections, 100)' if p.connections > 100 else ''}; "
            f"each process reads the bus with "
            f"{100 * p.reading_cores:.1f}% of a core; limited by {p.limit}")


# ---------------------------------------------------------------------- the comparison
def goal_checks(processes: int, one: Point | None, many: Point | None) -> list[tuple[str, bool]]:
    """Every condition of the goal: the ratio, and p99 (with every table sustained, no
    error, no fallback) at both reported counts."""
    checks = []
    for label, point in (("1 process", one), (f"{processes} processes", many)):
        if point is None:
            checks.append((f"{label}: no table count met p99 <= {GOAL_MS:.0f} ms", False))
            continue
        o = point.outcome
        checks.append((f"{label}: {point.tables} tables, {o.sustained} sustained, p99 "
                       f"{o.p99:.1f} ms <= {GOAL_MS:.0f} ms, {o.errors} errors, "
                       f"{o.fallbacks} fallbacks", o.met))
    if one is not None and many is not None:
        ratio = many.tables / one.tables
        checks.append((f"{processes} processes / 1 process = {many.tables} / {one.tables} = "
                       f"{ratio:.2f} >= {GOAL_RATIO}", ratio >= GOAL_RATIO))
    else:
        checks.append((f"ratio >= {GOAL_RATIO}: not measurable", False))
    return checks


def _shown_int(value: int | None) -> str:
    return "?" if value is None else str(value)


def _bots(point: Point | None) -> str:
    if point is None:
        return "not measured"
    o = point.outcome
    pools = "; ".join(f"p50 {p.p50} ms, p99 {p.p99} ms over {p.decisions} decisions"
                      if p is not None else "no closing line" for p in o.pools)
    worst = "?" if o.probes is None or o.probes.decision_p99 is None else \
        f"{o.probes.decision_p99:.1f}"
    return (f"at {point.tables} tables: {pools} (each process's pool, its latest decisions "
            f"at close); p99 at worst {worst} ms during the measure (room probe)")


def compare(args: argparse.Namespace) -> int:
    if not args.launcher:
        args.launcher = str(PROBE)  # the room's own figures: bot latency, loop lag, wire
    workdir = Path(tempfile.mkdtemp(prefix="room-cluster-"))
    details_path = workdir / "runs.txt"
    started = time.monotonic()
    with contextlib.ExitStack() as stack:
        details = stack.enter_context(details_path.open("w"))
        if args.db:
            url, pg_pid, pg_what = args.db, None, f"the server of --db ({args.db})"
        else:
            server = stack.enter_context(running_postgres())
            url, pg_pid = server.url(), server.pid
            pg_what = (f"a throwaway PostgreSQL on port {server.port} (fsync and synchronous "
                       "commit on)")
        print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
              f" ({os.cpu_count()} CPUs); PostgreSQL: {pg_what}; every run's output: "
              f"{details_path}", file=sys.stderr, flush=True)
        bench = Bench(args, url, pg_pid, details)
        ones = bench.search(1, args.start_tables, 0)
        one = best(ones)
        first = (rounded(GOAL_RATIO * one.tables, 10 if args.start_tables >= 100 else 2)
                 if one is not None else args.start_tables)
        manys = bench.search(args.processes, first, one.tables if one is not None else 0)
        many = best(manys)
        at = many if many is not None else manys[0]
        relayed = bench.measure(args.processes, at.tables, through_other=True)
        with contextlib.redirect_stdout(details):
            print("\n===== the broker: LISTEN/NOTIFY through PgWire =====")
            wire = asyncio.run(measure_wire(url, pg_pid, args.wire_seconds))
    elapsed = time.monotonic() - started
    return report(args, one, many, ones, manys, at, relayed, bench.discarded, wire,
                  details_path, pg_what, elapsed)


def report(args: argparse.Namespace, one: Point | None, many: Point | None,
           ones: list[Point], manys: list[Point], at: Point, relayed: Point,
           discarded: list[Point], wire: WireFigures, details_path: Path, pg_what: str,
           elapsed: float) -> int:
    n = args.processes
    ratio = (many.tables / one.tables) if one is not None and many is not None else None
    print(f"ratio: {n} processes sustained {many.tables if many else 0} tables, 1 process "
          f"{one.tables if one else 0}: " + (f"{ratio:.2f}x" if ratio is not None else
                                             "not measurable")
          + f" (goal >= {GOAL_RATIO}x); same rules (p99 <= {GOAL_MS:.0f} ms from an action "
          "to its broadcast, every table sustained, 0 errors, 0 fallbacks), same work (half "
          f"the tables with a scripted human, {args.bot_level} bots, bot delay "
          f"{args.bot_delay} s), same PostgreSQL ({pg_what}; a fresh database each run), "
          "every process `belote serve --cluster`")
    generator = "; ".join(f"{_pct(p.outcome.client_cpu)} of a core at {label}'s {p.tables}"
                          for label, p in (("1 process", one), (f"{n} processes", many))
                          if p is not None)
    print(f"the load generator (this process: every scripted client) shares the machine's "
          f"{os.cpu_count()} cores with the room and PostgreSQL: {generator or 'not measured'} "
          "tables (its own CPU time over the measure's wall time)")
    print(f"\nruns ({args.seconds:.0f} s measured each; the load generator shares the "
          f"{os.cpu_count()} cores with the room and PostgreSQL):")
    for point in [*ones, *manys, relayed]:
        print(f"  {describe(point)}")
    for point in discarded:
        print(f"  discarded, other jobs over {_pct(args.others_limit)} of a core: "
              f"{describe(point)}")
    checks = goal_checks(n, one, many)
    noisy = [p for p in (one, many) if p is not None and disturbed(p.outcome, args.others_limit)]
    checks.append((f"the reported runs on a quiet machine (other jobs <= "
                   f"{_pct(args.others_limit)} of a core during each measure)"
                   + ("" if not noisy else ": NOT at " + ", ".join(
                       f"{p.processes} process(es) ({_pct(others(p.outcome))})"
                       for p in noisy)), not noisy))
    print("\ngoal checks (issue 26, item 6):")
    for what, ok in checks:
        print(f"  {'ok  ' if ok else 'FAIL'} {what}")
    if n != 2:
        print(f"  (the issue's goal is stated for 2 processes; here {n})")
    met = all(ok for _, ok in checks) and n == 2
    print("goal met" if met else "goal not met")
    for label, points, found in (("1 process", ones, one), (f"{n} processes", manys, many)):
        above = [p for p in points if not p.outcome.met
                 and (found is None or p.tables > found.tables)]
        if above:
            failed = min(above, key=lambda p: p.tables)
            o = failed.outcome
            print(f"why not more with {label}: at {failed.tables} tables p99 {o.p99:.1f} ms, "
                  f"{o.sustained} sustained, {o.errors} errors, {o.fallbacks} fallbacks; "
                  f"{cpu_line(o)}; event loop lag p99 at worst "
                  f"{_shown(None if o.probes is None else o.probes.lag_p99)} ms (a 50 ms "
                  f"timer's lateness: what held each process's loop)")
    print(f"\nbots' decision latency (normal bots decide on the event loop): 1 process "
          f"{_bots(one)}; {n} processes {_bots(many)}")

    direct, through = at.outcome, relayed.outcome
    print(f"\nrelay: {n} processes at {at.tables} tables, every socket through a process that "
          f"does not own its table: p50 {through.p50:.1f} ms, p99 {through.p99:.1f} ms "
          f"(on the owner: p50 {direct.p50:.1f}, p99 {direct.p99:.1f}); extra per action -> "
          f"broadcast (two relay hops: the action in, its frame out) p50 "
          f"{through.p50 - direct.p50:+.1f} ms, p99 {through.p99 - direct.p99:+.1f} ms; room "
          f"CPU {_pct(through.server_cpu)} against {_pct(direct.server_cpu)} "
          f"({1e3 * (through.server_cpu - direct.server_cpu) / at.tables:+.2f} ms of CPU a "
          f"second a relayed table); {_shown_int(through.relayed_sockets)} sockets relayed "
          f"in the run; sampled pages: {through.routes}")
    floods = ", ".join(
        f"{f.listeners} listener(s) {f.per_second:.0f}/s ({f.per_transaction or 0:.0f} a "
        f"transaction; PostgreSQL {'?' if f.postgres_us is None else f'{f.postgres_us:.1f}'}"
        f" µs a message, the listening process {f.receiver_us:.1f} µs)" for f in wire.floods)
    print(f"\nbroker (LISTEN/NOTIFY, PgWire, this machine): round trip between two processes "
          f"p50 {wire.rtt_p50:.2f} ms, p99 {wire.rtt_p99:.2f} ms; one message a transaction "
          f"{wire.one_sender_tps:.0f}/s (two senders together {wire.two_senders_tps:.0f}/s); "
          f"one sender batched: {floods}")

    source = one if one is not None else None
    messages = [p.outcome.wire_rate / p.tables for p in manys
                if p.outcome.met and p.outcome.wire_rate is not None]
    if source is None or source.outcome.postgres_cpu is None or not messages:
        print("\nprojection: not computed (no process count met the goal, or PostgreSQL's "
              "CPU is not known with --db)")
    else:
        pg_one = wire.postgres_us(1) or 0.0
        slope = (wire.postgres_us(2) or pg_one) - pg_one
        share = (at.outcome.machine_busy or 0.0) / (os.cpu_count() or 1)
        connections = (at.outcome.connections or 0) / args.processes
        measured = Measured(
            source.tables, source.outcome.server_cpu, source.outcome.postgres_cpu,
            max(0.0, (through.server_cpu - direct.server_cpu) / at.tables),
            max(messages), wire.floor, wire.ceiling, pg_one, slope, wire.receiver_us,
            share, connections)
        print(f"\nPROJECTION, NOT MEASURED (from the figures above: a process holds "
              f"{measured.tables} tables with {_pct(measured.cores)} of a core, "
              f"PostgreSQL {1e3 * measured.postgres_cores / measured.tables:.2f} ms of CPU a "
              f"second a table, a relayed table {1e3 * measured.relay_cores_per_table:+.2f} "
              f"ms, {measured.messages_per_table:.3f} messages a table a second, "
              f"{connections:.0f} connections to PostgreSQL a process; a machine filled to "
              f"{100 * share:.0f}% of its cores, the busy share at which {args.processes} "
              f"processes held {at.tables} tables here; cores like this machine's; the load "
              f"generator left out, its clients being elsewhere; the network between machines "
              f"not measured):")
        for machines, apart in ((1, False), (args.project_machines, True)):
            projection = project(measured, machines, args.project_cores, apart)
            print(f"  {describe_projection(projection, measured)}")
    print(f"\nevery run's output: {details_path}; {elapsed / 60:.1f} minutes in all")
    return 0 if met else 1
