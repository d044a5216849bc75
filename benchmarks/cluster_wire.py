"""The broker's message cost: LISTEN/NOTIFY between two processes, through the room's PgWire.

The room's processes tell each other what happens to their tables (the bus's events, the
directory's questions and answers, news) over PostgreSQL's LISTEN/NOTIFY
(``belote.server.cluster.wire.PgWire``: one sending connection, one listening connection per
process; everything queued while a transaction is under way goes in the next one).  This
measures, on a PostgreSQL server (a throwaway one from Debian's packages unless ``--db``):

* **round trip**: a message from this process to a second process (``--echo``, started
  here) and its echo back, one at a time (two notifying transactions, two deliveries):
  p50/p99 in ms, with 1 message in flight;
* **one message a transaction**: one sender sends, waits until its transaction committed,
  sends again (what a quiet room does): transactions a second; then **two senders** at once
  (two processes' connections) - PostgreSQL serializes every notifying transaction of the
  whole server on one lock held until after its commit is flushed to disk
  (``PreCommit_Notify`` in ``src/backend/commands/async.c``), so the sum does not grow;
* **flood**: one sender queues messages as fast as its loop can (the PgWire batches what
  queued meanwhile), received by ``L`` listening connections of the second process
  (``--listeners``, e.g. 1 and 4: each notification is read by every listener): messages a
  second that one sender sustains, end to end, messages per transaction, and PostgreSQL's
  CPU per message (the server's processes, measured from /proc).

Messages are what the bus sends most (``HandScored`` as ``to_wire`` makes it, ~120 bytes).

    .venv/bin/python benchmarks/cluster_wire.py                    # throwaway PostgreSQL
    .venv/bin/python benchmarks/cluster_wire.py --db postgresql://USER@HOST/DB --seconds 5

``room_load.py --processes N`` runs it (``measure``) and uses its figures in its projection.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from room_load import cpu_seconds

from belote.server.cluster.wire import PgWire
from belote.server.events import HandScored, to_wire

PING, PONG, FLOOD, DONE = "bench_ping", "bench_pong", "bench_flood", "bench_done"
MESSAGE = to_wire(HandScored(table_id=123456, version=321, hand_no=7, scores=(92, 70),
                             totals=(612, 488)))


# ---------------------------------------------------------------------- the second process
async def echo(url: str, listeners: int) -> None:
    """The second process: wire 0 echoes pings; every wire counts the flood and, at its
    end marker, says how many it received."""
    wires = [PgWire(url, f"echo-{n}") for n in range(listeners)]
    counts = [0] * listeners

    def pinged(message: dict[str, Any]) -> None:
        wires[0].send(PONG, {"i": message["i"]})

    def flooded(n: int) -> Callable[[dict[str, Any]], None]:
        def receive(message: dict[str, Any]) -> None:
            if "end" in message:
                wires[n].send(DONE, {"wire": n, "count": counts[n]})
                counts[n] = 0
            else:
                counts[n] += 1
        return receive

    wires[0].listen(PING, pinged)
    for n, wire in enumerate(wires):
        wire.listen(FLOOD, flooded(n))
    for wire in wires:
        await wire.open()
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    print("ready", flush=True)
    await stop.wait()
    for wire in wires:
        await wire.close()


# ---------------------------------------------------------------------- this process
def postgres_cpu(pid: int | None) -> float | None:
    """CPU seconds of PostgreSQL's server processes (the postmaster and its children)."""
    return None if pid is None else cpu_seconds(pid)


class CountingWire(PgWire):
    """The room's wire, counting its transactions (one a batch of queued messages)."""

    transactions = 0

    async def _send_batch(self, batch: list[tuple[str, str]]) -> None:
        self.transactions += 1
        await super()._send_batch(batch)


@dataclass(frozen=True)
class Flood:
    listeners: int
    messages: int
    seconds: float
    per_second: float  # messages a second, end to end (every listener received them all)
    per_transaction: float | None  # messages a notifying transaction on average
    postgres_us: float | None  # PostgreSQL's CPU a message (every listener served), µs
    receiver_us: float  # the listening process's CPU a message a listener, µs
    lost: int  # messages a listener did not receive


@dataclass(frozen=True)
class WireFigures:
    rtt_p50: float  # ms, a message there and its echo back
    rtt_p99: float
    one_sender_tps: float  # one message a transaction, one sender: transactions a second
    two_senders_tps: float  # the same, two senders at once: their sum
    floods: tuple[Flood, ...]

    @property
    def floor(self) -> float:
        """Messages a second the broker carries when every message is its own transaction
        (a quiet room's way; several senders together, serialized): the lower bound."""
        return min(self.one_sender_tps, self.two_senders_tps)

    @property
    def ceiling(self) -> float:
        """Messages a second one sender sustains when its messages queue and go in large
        transactions (one listener): the upper bound."""
        return max(f.per_second for f in self.floods if f.listeners == min(
            g.listeners for g in self.floods))

    def postgres_us(self, listeners: int) -> float | None:
        """PostgreSQL's CPU a message with ``listeners`` listening connections, µs: a
        straight line through the floods' figures (beyond them, a projection)."""
        known = sorted((f.listeners, f.postgres_us) for f in self.floods
                       if f.postgres_us is not None)
        if not known:
            return None
        (l0, c0), (l1, c1) = known[0], known[-1]
        slope = (c1 - c0) / (l1 - l0) if l1 != l0 else 0.0
        return c0 + max(0.0, slope) * (listeners - l0)

    @property
    def receiver_us(self) -> float:
        """A listening process's CPU for one message (reading and decoding it), µs."""
        return min(f.receiver_us for f in self.floods)


class Second:
    """The second process (``--echo``), started with ``listeners`` wires."""

    def __init__(self, url: str, listeners: int) -> None:
        self.url = url
        self.listeners = listeners
        self.proc: asyncio.subprocess.Process | None = None

    async def __aenter__(self) -> Second:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--echo", self.url, "--listeners", str(self.listeners),
            stdout=asyncio.subprocess.PIPE)
        assert self.proc.stdout is not None
        line = await asyncio.wait_for(self.proc.stdout.readline(), 60)
        if line.strip() != b"ready":
            raise RuntimeError(f"the echo process did not start: {line!r}")
        return self

    async def __aexit__(self, *_: object) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.proc.wait(), 15)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()


async def round_trips(wire: PgWire, pongs: dict[int, asyncio.Future[None]],
                      count: int) -> list[float]:
    loop = asyncio.get_running_loop()
    times = []
    for i in range(count):
        pongs[i] = loop.create_future()
        start = time.perf_counter()
        wire.send(PING, {"i": i})
        await asyncio.wait_for(pongs[i], 10)
        times.append((time.perf_counter() - start) * 1000)
        await asyncio.sleep(0.005)
    return times


async def one_per_transaction(wires: list[PgWire], seconds: float) -> float:
    """Transactions a second of ``wires`` sending at once, each one message at a time."""
    deadline = time.monotonic() + seconds
    sent = [0] * len(wires)

    async def sender(n: int) -> None:
        while time.monotonic() < deadline:
            wires[n].send(FLOOD, {"one": n, "n": sent[n]})
            await wires[n].flush()
            sent[n] += 1

    start = time.monotonic()
    await asyncio.gather(*(sender(n) for n in range(len(wires))))
    return sum(sent) / (time.monotonic() - start)


async def flood(wire: CountingWire, done: asyncio.Queue[dict[str, Any]], second: Second,
                seconds: float, pg_pid: int | None) -> Flood:
    assert second.proc is not None
    commits0 = wire.transactions
    cpu0 = postgres_cpu(pg_pid)
    receiver0 = cpu_seconds(second.proc.pid)
    start = time.monotonic()
    sent = 0
    while time.monotonic() - start < seconds:
        # Each message its own number: PostgreSQL delivers identical notifications of one
        # transaction once (the room's never are: each names its table and version).
        wire.send(FLOOD, {**MESSAGE, "n": sent})
        sent += 1
        if sent % 20 == 0:
            await asyncio.sleep(0)  # the send loop takes what queued meanwhile
            while wire.sent + 2000 < sent:  # never more than ~2,000 waiting
                await asyncio.sleep(0.001)
    wire.send(FLOOD, {"end": True})
    received = [await asyncio.wait_for(done.get(), 120) for _ in range(second.listeners)]
    elapsed = time.monotonic() - start
    cpu1 = postgres_cpu(pg_pid)
    receiver = cpu_seconds(second.proc.pid) - receiver0
    commits = wire.transactions - commits0
    got = min(r["count"] for r in received)
    return Flood(second.listeners, sent, elapsed, got / elapsed,
                 sent / commits if commits > 0 else None,
                 None if cpu0 is None or cpu1 is None else (cpu1 - cpu0) / sent * 1e6,
                 receiver / (sent * second.listeners) * 1e6, sent - got)


async def measure(url: str, pg_pid: int | None = None, seconds: float = 3.0,
                  listeners: tuple[int, ...] = (1, 4), pings: int = 300) -> WireFigures:
    """Every figure, printed as it comes."""
    pongs: dict[int, asyncio.Future[None]] = {}
    done: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    def ponged(message: dict[str, Any]) -> None:
        waiting = pongs.pop(int(message["i"]), None)
        if waiting is not None and not waiting.done():
            waiting.set_result(None)

    wire = CountingWire(url, "bench-sender")
    wire.listen(PONG, ponged)
    wire.listen(DONE, done.put_nowait)
    other = PgWire(url, "bench-sender-2")
    await wire.open()
    await other.open()
    floods = []
    try:
        async with Second(url, 1):
            times = await round_trips(wire, pongs, pings)
            print(f"round trip (there and back, 2 processes, 1 in flight), {len(times)} "
                  f"messages: p50 {statistics.median(times):.2f} ms, p99 "
                  f"{sorted(times)[int(0.99 * len(times))]:.2f} ms, max {max(times):.2f} ms")
            one = await one_per_transaction([wire], seconds)
            two = await one_per_transaction([wire, other], seconds)
            print(f"one message a transaction: one sender {one:.0f} transactions/s; two "
                  f"senders at once {two:.0f}/s together ({two / one:.2f}x; PostgreSQL "
                  f"serializes notifying commits server-wide)")
            await asyncio.sleep(0.5)  # the listener's last counts of the above
        for count in listeners:
            async with Second(url, count) as second:
                found = await flood(wire, done, second, seconds, pg_pid)
            floods.append(found)
            print(f"flood, one sender, {count} listening process connection(s): "
                  f"{found.messages} messages in {found.seconds:.1f} s = "
                  f"{found.per_second:.0f} messages/s received by every listener"
                  + ("" if found.per_transaction is None
                     else f", {found.per_transaction:.0f} a transaction")
                  + ("" if found.postgres_us is None
                     else f"; PostgreSQL CPU {found.postgres_us:.1f} µs a message")
                  + f"; the listening process {found.receiver_us:.1f} µs a message a listener"
                  + (f"; {found.lost} NOT received" if found.lost else ""))
    finally:
        await wire.close()
        await other.close()
    ordered = sorted(times)
    return WireFigures(statistics.median(times), ordered[int(0.99 * len(ordered))], one, two,
                       tuple(floods))


async def _main(args: argparse.Namespace) -> int:
    from pg_throwaway import running_postgres

    listeners = tuple(int(n) for n in args.listeners.split(","))
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
          f"({os.cpu_count()} CPUs; this process, the echo process and PostgreSQL share them)")
    if args.db:
        await measure(args.db, None, args.seconds, listeners)
        return 0
    with running_postgres() as server:
        print(f"PostgreSQL: a throwaway server on port {server.port} (fsync and synchronous "
              f"commit on)")
        await measure(server.url(), server.pid, args.seconds, listeners)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default=None,
                        help="postgresql://USER@HOST/DB (default: a throwaway server)")
    parser.add_argument("--seconds", type=float, default=3.0, help="length of each measure")
    parser.add_argument("--listeners", default="1,4",
                        help="listening connections of the second process, one flood each")
    parser.add_argument("--echo", default=None, help=argparse.SUPPRESS)  # the second process
    args = parser.parse_args()
    if args.echo:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(echo(args.echo, int(args.listeners.split(",")[0])))
        return 0
    try:
        listeners = [int(n) for n in args.listeners.split(",")]
    except ValueError:
        parser.error("--listeners takes counts separated by commas")
    if not listeners or min(listeners) < 1 or args.seconds <= 0:
        parser.error("--listeners takes counts of at least 1; --seconds must be positive")
    return asyncio.run(_main(args))


if __name__ == "__main__":
    sys.exit(main())
