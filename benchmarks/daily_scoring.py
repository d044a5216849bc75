"""The daily duplicate's ranking: how long scoring a day takes (issue 28's review, item 1).

Fabricates a day of ``--entrants`` entrants by ``--deals`` deals (each score drawn from the
points a deal can give, so that many entrants tie, as on a real deal), then times, best of
``--repeat``:

* ``per-deal``: :func:`belote.server.daily.scoring.deal_percentages` on every deal (sorting:
  O(n log n));
* ``pairwise``: the former way, every entrant compared with every other (O(n^2)), on one
  deal only (``--no-pairwise`` skips it), times the deals, for comparison;
* ``ranking``: :func:`belote.server.daily.scoring.score_day`, the whole day (the deals, then
  each entrant's mean and t-interval, the order and the ranks).

It checks that both ways give the same percentages, and prints one line per row in ms.

    .venv/bin/python benchmarks/daily_scoring.py                  # 2,000 entrants x 8 deals
    .venv/bin/python benchmarks/daily_scoring.py --entrants 500 --repeat 3
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from belote.server.daily.scoring import deal_percentages, pairwise_percentages, score_day


def best_ms(work: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return 1000 * min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=2000)
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument("--no-pairwise", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    names = {n: f"Entrant {n}" for n in range(1, args.entrants + 1)}
    # A deal's points for one team, in tens (ties are the rule, not the exception).
    day = {deal: {n: 10 * rng.randrange(0, 17) for n in names}
           for deal in range(1, args.deals + 1)}
    label = f"{args.entrants} entrants x {args.deals} deals"
    per_deal = best_ms(lambda: [deal_percentages(s) for s in day.values()], args.repeat)
    print(f"per-deal  {label}: {per_deal:9.1f} ms")
    if not args.no_pairwise:
        first = day[1]
        assert pairwise_percentages(first) == deal_percentages(first), "the two ways differ"
        one = best_ms(lambda: pairwise_percentages(first), 1)
        print(f"pairwise  {label}: {one * args.deals:9.1f} ms (one deal timed, x {args.deals})")
    ranking = best_ms(lambda: score_day(day, names, args.deals), args.repeat)
    print(f"ranking   {label}: {ranking:9.1f} ms")


if __name__ == "__main__":
    main()
