"""The daily duplicate's pages with a big day: what one view costs (issue 28's review, M1).

Builds a room on a throwaway SQLite file, writes a closed day of ``--entrants`` entrants by
``--deals`` deals straight into it (random scores, many ties), then views its pages through
the room's own app, each ``--repeat`` times, and prints for each the median wall time of a
request and the longest the event loop was held meanwhile (:class:`LoopProbe`: the loop
thread's CPU time between two wake-ups of a task sleeping 1 ms at a time):

* ``day, first view``: the day read, scored and its results sorted (then kept; the
  catalogs and templates are loaded before, by a view of a day with no entrant);
* ``day``, ``day, page 10``: a closed day's page (100 lines of the ranking, 10 of each
  deal), later views;
* ``deal``: one deal's page (100 results);
* ``today``: today's page with as many entrants (its ranking is scored again every 5 s).

    .venv/bin/python benchmarks/daily_pages.py                      # 2,000 x 8
    .venv/bin/python benchmarks/daily_pages.py --entrants 500 --repeat 20
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from starlette.testclient import TestClient

from belote.server.app import create_app
from belote.server.config import Settings
from belote.server.daily.schema import daily_entries, daily_plays
from belote.server.persistence.schema import tables, users

ORIGIN = "http://testserver"


async def fabricate(engine: Any, days: list[str], entrants: int, deals: int,
                    rng: random.Random) -> None:
    """``entrants`` accounts, each entered in every one of ``days`` and played every deal."""
    now = datetime.now(UTC)
    async with engine.begin() as conn:
        accounts = (await conn.execute(
            sa.insert(users).returning(users.c.id, sort_by_parameter_order=True),
            [{"name": f"Bench{n:05d}", "name_key": f"bench{n:05d}", "password_hash": "x"}
             for n in range(entrants)])).scalars().all()
        for day in days:
            entries = (await conn.execute(
                sa.insert(daily_entries).returning(daily_entries.c.id,
                                                   sort_by_parameter_order=True),
                [{"day": day, "account": a, "name": f"Bench{n:05d}", "entered": now}
                 for n, a in enumerate(accounts)])).scalars().all()
            table_ids = iter((await conn.execute(
                sa.insert(tables).returning(tables.c.id, sort_by_parameter_order=True),
                [{"preset": "classic", "flags": "{}", "target": 1, "status": "finished"}
                 for _ in range(entrants * deals)])).scalars().all())
            await conn.execute(sa.insert(daily_plays), [
                {"entry": e, "deal": d, "table_id": next(table_ids), "reserved": now,
                 "holder": "uid", "score": 10 * rng.randrange(0, 17), "finished": now}
                for e in entries for d in range(1, deals + 1)])


class LoopProbe:
    """A task on the room's loop that sleeps 1 ms at a time: the most CPU time the loop's
    thread spent between two of its wake-ups is the longest the loop was held by other work.
    (CPU time, not the wall clock: on a loaded machine the wall clock also counts the time
    the whole process waited for a core, which no code of the room can shorten.)"""

    def __init__(self) -> None:
        self.worst = 0.0
        self.running = True

    async def run(self) -> None:
        while self.running:
            start = time.thread_time()
            await asyncio.sleep(0.001)
            self.worst = max(self.worst, time.thread_time() - start)


def view(client: TestClient, probe: LoopProbe, path: str, repeat: int) -> tuple[float, float]:
    """Median request time and worst loop hold over ``repeat`` views of ``path`` (ms)."""
    times, holds = [], []
    for _ in range(repeat):
        probe.worst = 0.0
        start = time.perf_counter()
        answer = client.get(path)
        times.append(time.perf_counter() - start)
        assert answer.status_code == 200, (path, answer.status_code)
        holds.append(probe.worst)
    return 1000 * statistics.median(times), 1000 * max(holds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=2000)
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="belote-daily-pages-"))
    settings = Settings(db_url=f"sqlite:///{folder / 'sala.db'}", bot_workers=0,
                        heavy_workers=0, password_cost="test", daily_deals=args.deals,
                        daily_pages_burst=100_000, allowed_hosts=("testserver",))
    app: Any = create_app(settings)
    with TestClient(app, base_url=ORIGIN, headers={"origin": ORIGIN}) as client:
        portal: Any = client.portal
        today = app.state.daily.today()
        past = (today - timedelta(days=1)).isoformat()
        portal.call(fabricate, app.state.store.engine, [past, today.isoformat()],
                    args.entrants, args.deals, random.Random(28))
        # The process's first pages load the catalogs and compile the templates (once per
        # process, whatever the day): done before anything is timed.
        for path in ("/", f"/daily/{(today - timedelta(days=2)).isoformat()}",
                     f"/daily/{past}/deal/1"):
            client.get(path)
        app.state.daily.cache.forget(past)  # (the big day read again at the first view)
        probe = LoopProbe()
        portal.start_task_soon(probe.run)
        label = f"{args.entrants} entrants x {args.deals} deals"
        rows = [("day, first view", f"/daily/{past}", 1),
                ("day", f"/daily/{past}", args.repeat),
                ("day, page 10", f"/daily/{past}?page=10", args.repeat),
                ("deal", f"/daily/{past}/deal/3?page=5", args.repeat),
                ("today", "/daily", args.repeat)]
        for name, path, repeat in rows:
            median, hold = view(client, probe, path, repeat)
            print(f"{name:16} {label}: {median:8.1f} ms a request, loop held {hold:6.1f} ms "
                  "at most")
        probe.running = False


if __name__ == "__main__":
    main()
