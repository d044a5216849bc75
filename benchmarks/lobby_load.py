"""Lobby load: a room of 2,000 waiting tables watched by 50 lobby listeners, on loopback.

Starts ``python -m belote serve`` (as ``room_load.py`` does: a bot process, access log on)
on a free loopback port and a fresh SQLite file, then from this process:

* opens ``--tables`` waiting tables (HTTP, a few hosts at once);
* connects ``--listeners`` lobby WebSockets (anonymous visitors) that count every byte and
  every table change they receive after their ``sync``;
* starts ``--probes`` tables with one scripted human and three bots (``room_load.py``'s
  player): their action-to-broadcast latency is the figure that lobby work must not spoil;
* has ``--churners`` signed-in visitors sit down at and stand up from random waiting tables,
  ``--changes`` times a second in all: every one is a lobby change for every listener.

Measured for ``--seconds``: the probes' latency percentiles, the bytes each listener got per
table change, frames per listener, changes per frame (the coalescing), errors.  "goal met"
only if p99 < 100 ms, a change costs a listener under ``--byte-goal`` bytes, every listener
stayed connected, the list held ``--tables`` tables, and nothing failed.

    .venv/bin/python benchmarks/lobby_load.py                   # 2,000 tables, 50 listeners
    .venv/bin/python benchmarks/lobby_load.py --tables 200 --listeners 10 --seconds 10
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from room_load import (
    LOOPBACK_LIMITS,
    Player,
    Room,
    driver_loop,
    free_port,
    percentile,
    stop_server,
    wait_ready,
)
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

GOAL_MS = 100.0


def start_server(args: argparse.Namespace, port: int, db_url: str,
                 log_path: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "belote", "serve", "--host", "127.0.0.1",
               "--port", str(port), "--db", db_url, "--bot-delay", str(args.bot_delay),
               "--bot-workers", str(args.bot_workers),
               # The run must measure a full room: no table may expire during it.
               "--waiting-expiry", "86400", *LOOPBACK_LIMITS]
    log = log_path.open("wb")
    return subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)


@dataclass
class Listeners:
    measuring: bool = False
    bytes: int = 0
    frames: int = 0
    changes: int = 0
    connected: int = 0
    total_seen: int = 0  # the list's size, as the last frame said
    errors: Counter[str] = field(default_factory=Counter)


async def listen(base: str, ws_base: str, stats: Listeners, stop: asyncio.Event,
                 ready: asyncio.Event, count: int) -> None:
    try:
        async with connect(f"{ws_base}/ws/lobby", origin=Origin(base), max_size=2**24,
                           open_timeout=30, ping_interval=None) as ws:
            sync = json.loads(await ws.recv())
            stats.total_seen = max(stats.total_seen, int(sync["d"].get("total", 0)))
            stats.connected += 1
            if stats.connected >= count:
                ready.set()
            while not stop.is_set():
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
                except TimeoutError:
                    continue
                frame = json.loads(raw)
                if frame["t"] != "tables":
                    continue
                stats.total_seen = int(frame["d"]["total"])
                if stats.measuring:
                    stats.bytes += len(raw.encode() if isinstance(raw, str) else raw)
                    stats.frames += 1
                    stats.changes += len(frame["d"]["changes"])
            stats.connected -= 1
    except (OSError, ConnectionClosed, TimeoutError) as error:
        stats.errors[f"listener: {type(error).__name__}"] += 1


async def churn(player: Player, table_ids: list[int], interval: float, stop: asyncio.Event,
                errors: Counter[str], rng: random.Random) -> None:
    """Sit at a random waiting table, stand up, again: two lobby changes per round."""
    while not stop.is_set():
        table_id = rng.choice(table_ids)
        for what, data in (("sit", {"seat": str(rng.randrange(4)), "next": "/"}),
                           ("stand", {"next": "/"})):
            try:
                response = await player.post(f"/tables/{table_id}/{what}", data)
                if response.status_code != 303:  # a refused seat also answers 303
                    errors[f"churn {what}: {response.status_code}"] += 1
            except httpx.HTTPError as error:
                errors[f"churn: {type(error).__name__}"] += 1
            await asyncio.sleep(interval)


async def open_tables(base: str, count: int, hosts: int) -> list[int]:
    room_args = argparse.Namespace(preset="classic", target=None)
    room = Room(room_args, base, "")
    players = [Player(room, f"Host {n}") for n in range(hosts)]
    ids: list[int] = []

    async def host(player: Player, share: int) -> None:
        await player.sign_in()
        for _ in range(share):
            ids.append(await player.new_table())

    try:
        await asyncio.gather(*(host(p, count // hosts + (n < count % hosts))
                               for n, p in enumerate(players)))
    finally:
        for player in players:
            await player.close()
    return sorted(ids)


async def run(args: argparse.Namespace) -> int:
    workdir = Path(tempfile.mkdtemp(prefix="lobby-load-"))
    db_url = f"sqlite:///{workdir / 'sala.db'}"
    port = free_port()
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    log_path = workdir / "server.log"
    print(f"server: belote serve on {base}, db {db_url}; log {log_path}")
    server = start_server(args, port, db_url, log_path)
    stop = asyncio.Event()
    stats = Listeners()
    churn_errors: Counter[str] = Counter()
    tasks: list[asyncio.Task[None]] = []
    probe_args = argparse.Namespace(
        tables=args.probes, think_min=0.3, think_max=1.0, bot_level="normal",
        preset="classic", target=None)
    probes = Room(probe_args, base, ws_base)
    churners: list[Player] = []
    try:
        await wait_ready(base, server)
        t0 = time.monotonic()
        ids = await asyncio.wait_for(open_tables(base, args.tables, 8), timeout=300)
        print(f"{len(ids)} waiting tables opened in {time.monotonic() - t0:.1f} s")
        async with httpx.AsyncClient(base_url=base) as client:
            page_bytes = len((await client.get("/fragment/tables")).content)
        ready = asyncio.Event()
        for _ in range(args.listeners):
            tasks.append(asyncio.create_task(listen(base, ws_base, stats, stop, ready,
                                                    args.listeners)))
        await asyncio.wait_for(ready.wait(), timeout=60)
        for driver in range(args.probes):
            tasks.append(asyncio.create_task(driver_loop(probes, driver, True)))
        await asyncio.wait_for(probes.all_started.wait(), timeout=120)
        rng = random.Random(7)
        interval = args.churners / (2 * args.changes) if args.changes else 3600.0
        for n in range(args.churners):
            player = Player(probes, f"Churner {n}")
            await player.sign_in()
            churners.append(player)
            tasks.append(asyncio.create_task(churn(player, ids, interval, stop, churn_errors,
                                                   random.Random(rng.random()))))
        await asyncio.sleep(args.warmup)
        print(f"{args.listeners} listeners, {args.probes} probe tables playing, "
              f"{args.churners} churners at {args.changes} changes/s; measuring "
              f"{args.seconds:.0f} s")
        probes.measuring = stats.measuring = True
        probes.errors.clear()
        t1 = time.monotonic()
        await asyncio.sleep(args.seconds)
        elapsed = time.monotonic() - t1
        probes.measuring = stats.measuring = False
        connected = stats.connected
    finally:
        stop.set()
        probes.stop.set()
        if tasks:
            await asyncio.wait(tasks, timeout=30)
        for player in churners:
            await player.close()
        stop_server(server)

    lat = [x * 1000 for x in probes.latencies]
    per_listener_changes = stats.changes / max(1, args.listeners)
    per_change = stats.bytes / max(1, stats.changes)
    print()
    print(f"tables listed: {stats.total_seen} (asked {args.tables} + {args.probes} probes)")
    print(f"listeners: {connected} of {args.listeners} connected at the end; each got "
          f"{stats.frames / max(1, args.listeners) / elapsed:.1f} frames/s carrying "
          f"{per_listener_changes / elapsed:.1f} table changes/s "
          f"({stats.changes / max(1, stats.frames):.1f} changes per frame)")
    print(f"bytes per table change per listener: {per_change:.0f} "
          f"(one page of the list as HTML: {page_bytes:,} bytes)")
    if lat:
        print(f"probe latency action -> broadcast (ms), {len(lat)} samples: "
              f"p50 {percentile(lat, 50):.1f}  p95 {percentile(lat, 95):.1f}  "
              f"p99 {percentile(lat, 99):.1f}  max {max(lat):.1f}  "
              f"mean {statistics.fmean(lat):.1f}")
    else:
        print("probe latency: no samples")
    errors = probes.errors + stats.errors + churn_errors
    print(f"errors: {sum(errors.values())}" + "".join(
        f"\n  {n} x {what}" for what, n in errors.most_common(8)))
    warnings = [line for line in log_path.read_text(errors="replace").splitlines()
                if line.startswith(("WARNING", "ERROR", "CRITICAL", "Traceback"))]
    print(f"server log: {len(warnings)} warning/error lines" + "".join(
        f"\n  {line[:150]}" for line in list(dict.fromkeys(warnings))[:5]))
    p99 = percentile(lat, 99) if lat else float("inf")
    checks = {
        f"p99 {p99:.1f} ms < {GOAL_MS:.0f} ms": p99 < GOAL_MS,
        f"{per_change:.0f} bytes per change < {args.byte_goal}": 0 < per_change < args.byte_goal,
        f"{connected} of {args.listeners} listeners connected": connected == args.listeners,
        f"{stats.total_seen} tables listed >= {args.tables}": stats.total_seen >= args.tables,
        f"{sum(errors.values())} errors, {len(warnings)} server warnings":
            not errors and not warnings,
        f"{len(lat)} latency samples >= 20": len(lat) >= 20,
    }
    for what, ok in checks.items():
        print(f"  {'ok  ' if ok else 'FAIL'} {what}")
    met = all(checks.values())
    print(f"goal: {'goal met' if met else 'goal NOT met'}")
    if not args.keep:
        for path in workdir.iterdir():
            path.unlink()
        with contextlib.suppress(OSError):
            workdir.rmdir()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--tables", type=int, default=2000, help="waiting tables in the list")
    parser.add_argument("--listeners", type=int, default=50, help="lobby WebSockets")
    parser.add_argument("--probes", type=int, default=16,
                        help="tables with a scripted human whose latency is measured")
    parser.add_argument("--churners", type=int, default=4,
                        help="visitors sitting down and standing up at random tables")
    parser.add_argument("--changes", type=float, default=20.0,
                        help="table changes per second made by the churners, in all")
    parser.add_argument("--seconds", type=float, default=40.0, help="length of the measure")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring")
    parser.add_argument("--bot-delay", type=float, default=0.8,
                        help="a bot's pause before it plays (the room's default)")
    parser.add_argument("--bot-workers", type=int, default=1, help="bot processes")
    parser.add_argument("--byte-goal", type=int, default=2048,
                        help="most bytes a listener may receive per table change")
    parser.add_argument("--keep", action="store_true",
                        help="keep the temporary database and server log")
    args = parser.parse_args()
    for name in ("tables", "listeners", "probes", "churners"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    if args.seconds <= 0 or args.changes < 0:
        parser.error("--seconds must be positive and --changes not negative")
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
