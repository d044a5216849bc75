"""The days' results kept in this process, so that a page of the daily does not read and
score a whole day on every view.

What is kept is a day read from the database (its entrants and every deal they played out)
and, once asked, that day scored for one set of accounts left out (those suspended or banned
then: :meth:`belote.server.daily.room.DailyRoom.scores`).  How long it is trusted:

* a day still open, or closed with deals not yet stored (a deal finished before midnight is
  stored a moment later, by whichever process ran it): :data:`FRESH_SECONDS`, and forgotten at
  once when this process stores an entry to that day or a score of it; another process's
  scores show within those seconds;
* a closed day with nothing left to store: its results cannot change any more, and it is kept
  for good, the :data:`KEPT_DAYS` last used.

Either way the room counts the day's entries, and those with an account, on each view (one
indexed count): an entry made in another process, or an account deleted (its entry stays,
nameless), reads the day again at once.

A day read while a score of it was being stored is not kept (the generation counter): it
could miss that score for as long as it would be trusted.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from belote.server.daily.scoring import DayScores, DealResult
from belote.server.daily.store import Result

FRESH_SECONDS = 5.0
KEPT_DAYS = 32


@dataclass(slots=True)
class KeptDay:
    """One day as read from the database, and its last scoring."""

    names: dict[int, str]  # entrant -> name
    results: list[Result]
    settled: bool  # closed, nothing left to store: never changes
    entrants: tuple[int, int]  # its entries, and those with their account, when read
    read_at: float  # (the monotonic clock)
    # Its last scoring, with the accounts it left out (scored again when they change).
    scored: tuple[frozenset[int], DayScores] | None = None
    # A closed day's results per deal, best first, made from the scoring named (a page
    # shows a slice of them: sorted once, not on every view).
    by_deal: tuple[DayScores, dict[int, list[DealResult]]] | None = None


class DayCache:
    def __init__(self, fresh_seconds: float = FRESH_SECONDS, kept_days: int = KEPT_DAYS,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.fresh_seconds = fresh_seconds
        self.kept_days = kept_days
        self.monotonic = monotonic
        self.generation = 0  # moves on whenever a day is forgotten
        self._days: OrderedDict[str, KeptDay] = OrderedDict()

    def get(self, day: str) -> KeptDay | None:
        kept = self._days.get(day)
        if kept is None:
            return None
        if not kept.settled and self.monotonic() - kept.read_at >= self.fresh_seconds:
            del self._days[day]
            return None
        self._days.move_to_end(day)
        return kept

    def put(self, day: str, kept: KeptDay, generation: int) -> None:
        """Keep ``kept``, read when :attr:`generation` was ``generation`` (if a day was
        forgotten since, it may miss that change: not kept)."""
        if generation != self.generation:
            return
        self._days[day] = kept
        self._days.move_to_end(day)
        while len(self._days) > self.kept_days:
            self._days.popitem(last=False)

    def forget(self, day: str) -> None:
        self.generation += 1
        self._days.pop(day, None)
