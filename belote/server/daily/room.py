"""The daily duplicate in the room: entries, each deal's table, the scores and the ranking.

An entrant (a signed-in account; guests cannot enter) plays the day's deals in order, each at a
table of its own that the room opens on demand (:meth:`DailyRoom.play`): the entrant at seat
0, the room's bots at the three others, the deal fixed (:mod:`belote.server.daily.deals`).
The seat is held by the session that opened the deal; another browser of the same account
takes it over (the account is what entered, not the browser), and a second request never
opens a second table for a deal (the store's keys).  The table ends with its deal
(:class:`belote.server.table.Table`'s ``fixed_deck``); its ``TableFinished`` on the bus gives
the entrant's score: their team's points in the match's totals, which after one deal are that
deal's points once the contract is settled (a litige's held points count for nobody; a deal
passed out scores 0 for both teams).

Everything is in the database; a restart catches up on deals finished while nobody recorded
them (:meth:`DailyRoom.reconcile`).  Until the day closes (midnight UTC) nobody sees the deals,
the replays or anybody's score on a deal; the ranking (mean percentages only) is public.
A day's results are kept a few seconds in the process that shows them, a closed day's for good
(:mod:`belote.server.daily.cache`); an account suspended or banned is left out of the ranking
while the sanction lasts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, Protocol

from belote.server.auth.sessions import public_id
from belote.server.daily.cache import DayCache, KeptDay
from belote.server.daily.deals import ENTRANT_SEAT, LEVEL, PRESET, SEATS, deal_of_day
from belote.server.daily.scoring import DayScores, DealResult, Standing, score_day
from belote.server.daily.store import DailyStore, Entry, Play, Result
from belote.server.directory import FixedDealTables, HeldSeat
from belote.server.events import TableEvent, TableFinished
from belote.server.persistence import TableRow
from belote.server.table import TableError

log = logging.getLogger(__name__)
DEFAULT_DEALS = 8
MAX_DEALS = 30  # the t-table of scoring.py goes that far; a day is an evening at most
# A deal's opening not finished after this long was abandoned (its process died).
STALE_OPENING = timedelta(seconds=60)
# Seconds between two sweeps of the deals begun and not over (those left open at midnight
# are handed to bots soon after it).
SWEEP_SECONDS = 600.0


class DailyError(Exception):
    """A request the daily duplicate refuses; ``code`` names ``web.daily.error.<code>``."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class StoredTables(Protocol):
    """What the daily duplicate reads of the room's store: the secret its deals derive from,
    and a finished table's record."""

    async def secret(self) -> str: ...

    async def table(self, table_id: int) -> TableRow | None: ...


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class DealState:
    """One of the day's deals as its entrant sees it."""

    number: int
    dealer: int
    state: str  # "waiting" (not begun), "playing", "played"
    table_id: int | None


@dataclass(frozen=True, slots=True)
class MyDay:
    entry: Entry | None
    deals: list[DealState]

    @property
    def next_deal(self) -> DealState | None:
        return next((d for d in self.deals if d.state != "played"), None)


class DailyRoom:
    def __init__(self, directory: FixedDealTables, stored: StoredTables, store: DailyStore,
                 deals: int = DEFAULT_DEALS, clock: Callable[[], datetime] = utc_now,
                 entry_hours: float = 0.0) -> None:
        if not 1 <= deals <= MAX_DEALS:
            raise ValueError(f"daily_deals must be 1 to {MAX_DEALS}")
        if entry_hours < 0:
            raise ValueError("daily_entry_account_hours must be 0 or more")
        self.directory = directory
        self.stored = stored
        self.store = store
        self.deals = deals
        self.clock = clock  # the tests' fake clock moves the day on
        # How old an account must be to enter (docs/room.md, "Playing twice"): a second
        # account made after seeing the day's deals cannot replay them that day.
        self.entry_age = timedelta(hours=entry_hours)
        self._secret = ""
        self._tasks: set[asyncio.Task[bool]] = set()
        self._sweeper: asyncio.Task[None] | None = None
        self.record_failures = 0  # finished deals whose score could not be stored (logged)
        self.cache = DayCache()  # the days' results, kept a while in this process
        self.days_read = 0  # days read from the database (the tests count them)
        self.days_scored = 0  # and scored

    # ------------------------------------------------------------------ the day
    def today(self) -> date:
        return self.clock().astimezone(UTC).date()

    def closes_at(self, day: date) -> datetime:
        return datetime.combine(day + timedelta(days=1), time(0, tzinfo=UTC))

    def closed(self, day: date) -> bool:
        return day < self.today()

    async def secret(self) -> str:
        if not self._secret:
            self._secret = await self.stored.secret()
        return self._secret

    # ------------------------------------------------------------------ lifecycle
    async def open(self) -> None:
        await self.reconcile()
        self._sweeper = asyncio.create_task(self._sweep(), name="daily-sweep")

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    # ------------------------------------------------------------------ entering and playing
    async def entry_opens(self, account: int) -> datetime | None:
        """When the account becomes old enough to enter (:attr:`entry_age`); None: it is."""
        if not self.entry_age:
            return None
        created = await self.store.account_created(account)
        if created is None:
            return None  # (made before the room recorded it: old)
        opens = created + self.entry_age
        return opens if opens > self.clock() else None

    async def enter(self, account: int, name: str) -> Entry:
        """The account's entry of today (made once; asked again, the same one);
        ``DailyError("too_new")`` for an account younger than :attr:`entry_age`."""
        if await self.entry_opens(account) is not None:
            log.info("daily: account %d refused: made less than %s ago", account,
                     self.entry_age)
            raise DailyError("too_new")
        entry, made = await self.store.enter(self.today().isoformat(), account, name)
        if made:
            self.cache.forget(entry.day)  # (a new line of the ranking, shown at once)
            log.info("daily %s: account %d entered", entry.day, account)
        return entry

    async def my_day(self, account: int | None) -> MyDay:
        day = self.today()
        entry = None if account is None else await self.store.entry(day.isoformat(), account)
        plays = {} if entry is None else await self.store.plays(entry.id)
        states = []
        for n in range(1, self.deals + 1):
            play = plays.get(n)
            state = ("waiting" if play is None else "played" if play.score is not None
                     else "playing")  # (today's deals cannot have ended late)
            states.append(DealState(n, (n - 1) % SEATS, state,
                                    None if play is None else play.table_id))
        return MyDay(entry, states)

    async def play(self, account: int, uid: str) -> int:
        """The table of the entrant's next deal, opened or taken over for the session
        ``uid``: the first deal not played out, in order."""
        entry = await self.store.entry(self.today().isoformat(), account)
        if entry is None:
            raise DailyError("not_entered")
        plays = await self.store.plays(entry.id)
        for n in range(1, self.deals + 1):
            play = plays.get(n)
            if play is None:
                return await self._open(entry, n, uid)
            if play.score is not None:
                continue
            if play.table_id is None:
                if self.clock() - play.reserved < STALE_OPENING:
                    raise DailyError("busy")  # another request is opening it this moment
                # Its opener died before saying which table it opened: open it again (a
                # table it may have opened waits unseen, and expires with the day).
                log.warning("daily %s: deal %d of entry %d: its opening never finished; "
                            "opened again", entry.day, n, entry.id)
                await self.store.unreserve(entry.id, n)
                return await self._open(entry, n, uid)
            status = await self.directory.table_status(play.table_id)
            if status in ("waiting", "playing"):
                return await self._take(play, play.table_id, uid)
            if status == "broken" or await self._catch_up(play.table_id):
                continue  # over (a broken table's deal counts as not played)
            raise DailyError("busy")
        raise DailyError("all_played")

    async def _open(self, entry: Entry, number: int, uid: str) -> int:
        if not await self.store.reserve(entry.id, number, self.clock()):
            raise DailyError("busy")
        deal = deal_of_day(await self.secret(), date.fromisoformat(entry.day), number)
        seats = [HeldSeat("", "") for _ in range(SEATS)]
        # The seat is the session's (its owner), with no account: a deal of the daily is no
        # match of the ratings (belote/server/ratings counts accounts' seats only).
        seats[ENTRANT_SEAT] = HeldSeat(entry.name, uid)
        bots = {n: LEVEL for n in range(SEATS) if n != ENTRANT_SEAT}
        try:
            table_id = await self.directory.open_fixed_deal(
                PRESET, deal.deck, deal.dealer, seats, bots,
                name=f"{entry.day} · {number}/{self.deals}")
        except Exception:
            log.exception("daily %s: deal %d of entry %d could not be opened", entry.day,
                          number, entry.id)
            await self.store.unreserve(entry.id, number)
            raise DailyError("not_opened") from None
        await self.store.opened(entry.id, number, table_id, uid)
        return table_id

    async def _take(self, play: Play, table_id: int, uid: str) -> int:
        """The deal's seat for the session ``uid`` (the same account's other browser)."""
        if play.holder == uid:
            return table_id
        try:
            taken = await self.directory.claim_seat(
                table_id, ENTRANT_SEAT, [play.holder] if play.holder else [], uid)
        except TableError:
            raise DailyError("busy") from None
        if not taken:
            raise DailyError("busy")
        await self.store.hold(play.entry, play.deal, uid)
        return table_id

    # ------------------------------------------------------------------ scores
    def on_event(self, event: TableEvent) -> None:
        """The bus's delivery: a finished deal's score is stored (any other table's finish
        changes nothing: the store knows only the daily's tables)."""
        if not isinstance(event, TableFinished):
            return
        task = asyncio.create_task(self._record(event.table_id, list(event.totals)))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _record(self, table_id: int, totals: list[Any],
                      finished: datetime | None = None) -> bool:
        """Store the end of a deal's table (``finished``: when; None: when the room stored
        the table as finished, which is before its news: a deal finished at 23:59:59.9 and
        heard after midnight counts).  A deal over after its day closed is not played (the
        replays of that deal were open to all by then): its end is kept, no score."""
        try:
            found = await self.store.play_of_table(table_id)
            if found is None:
                return False  # not a deal of the daily
            day = date.fromisoformat(found[0])
            when = finished or await self.store.table_finished(table_id)
            if when is None:  # (the room stores the finish before telling it: never seen)
                when = self.clock()
                log.warning("daily %s: table %s has no stored finish: now counts", day,
                            table_id)
            late = when >= self.closes_at(day)
            if late:
                log.info("daily %s: table %s finished after the day closed: not played",
                         day, table_id)
            score = None if late else int(totals[ENTRANT_SEAT % 2])
            stored = await self.store.record(table_id, score, when)
            if stored:
                self.cache.forget(found[0])  # (this process's ranking shows it at once)
            return stored
        except Exception as error:
            # Never silent: logged and counted; the next start (or the entrant's next
            # request) catches up from the stored record.
            self.record_failures += 1
            log.error("daily: table %s's score %s not stored: %r", table_id, totals, error)
            return False

    async def _catch_up(self, table_id: int) -> bool:
        """Store the end of a deal whose table finished unrecorded; whether it is over."""
        row = await self.stored.table(table_id)
        if row is None or row.status != "finished" or row.record is None:
            return False
        finished = await self.store.table_finished(table_id)
        await self._record(table_id, list(row.record["result"]["totals"]), finished)
        return True

    async def reconcile(self) -> int:
        """The deals begun and not over: those finished while nobody stored their end (a
        restart) are stored now; those of a closed day still open are handed to a bot
        (:meth:`FixedDealTables.hand_to_bots`), whose end is then stored as not played.
        Returns how many were caught up."""
        caught = handed = 0
        today = self.today().isoformat()
        for table_id, day in await self.store.unfinished():
            if await self._catch_up(table_id):
                caught += 1
            elif day < today:
                try:
                    await self.directory.hand_to_bots(table_id)
                    handed += 1
                except TableError:
                    pass  # not in the room (broken): nothing will end it
        if caught or handed:
            log.info("daily: %d finished deals stored, %d deals of closed days handed to "
                     "bots", caught, handed)
        return caught

    async def _sweep(self) -> None:
        """Every ``SWEEP_SECONDS``: :meth:`reconcile` (the deals left open at midnight)."""
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self.reconcile()
            except Exception:
                log.exception("daily: the sweep of unfinished deals failed")

    # ------------------------------------------------------------------ what pages show
    async def ranking(self, day: date) -> list[Standing]:
        return (await self.scores(day)).ranking

    async def deal_results(self, day: date) -> dict[int, list[DealResult]]:
        """Each deal's results, best first: for a closed day only (``DailyError``)."""
        return (await self.closed_day(day))[1]

    async def closed_day(self, day: date) -> tuple[list[Standing],
                                                   dict[int, list[DealResult]]]:
        """A closed day's ranking and each deal's results, best first, from one scoring of
        the day (``DailyError`` for a day not closed: its deals are hidden).  The results are
        sorted once per scoring and kept with it: a page shows a slice of them."""
        if not self.closed(day):
            raise DailyError("hidden")
        kept, scored = await self._scored(day)
        if kept.by_deal is None or kept.by_deal[0] is not scored:
            # (thousands of lines: sorted in a thread, the loop free meanwhile)
            kept.by_deal = (scored, await asyncio.to_thread(
                sorted_results, kept.results, kept.names, scored))
        return scored.ranking, kept.by_deal[1]

    async def scores(self, day: date) -> DayScores:
        """The day scored: each deal's percentages and the ranking, leaving out the entrants
        suspended or banned now (their entries and scores are kept)."""
        return (await self._scored(day))[1]

    async def _scored(self, day: date) -> tuple[KeptDay, DayScores]:
        key = day.isoformat()
        kept = await self._kept(key)
        barred = await self.store.barred(key, self.clock())
        if kept.scored is None or kept.scored[0] != barred:
            # A big day is tens of milliseconds of Python: scored in a thread, so that the
            # loop goes on serving meanwhile (docs/room.md, "The event loop is never held").
            scored = await asyncio.to_thread(
                score_kept, kept.names, kept.results, barred, self.deals)
            kept.scored = (barred, scored)
            self.days_scored += 1
        return kept, kept.scored[1]

    async def _kept(self, day: str) -> KeptDay:
        """The day as read from the database, from this process's cache when it may be
        trusted (:mod:`belote.server.daily.cache`)."""
        # Counted on every view (the index of the day's key answers): an entry made in
        # another process, or an account deleted anywhere, reads the day again at once.
        entrants = await self.store.entrants(day)
        kept = self.cache.get(day)
        if kept is not None and entrants != kept.entrants:
            self.cache.forget(day)
            kept = None
        if kept is None:
            generation = self.cache.generation
            # Nothing left to store, asked before the day is read: no end stored after can
            # be missed (a closed day opens no new deal; one opening at midnight ends late).
            settled = (self.closed(date.fromisoformat(day))
                       and await self.store.pending(day) == 0)
            names, results = await self.store.day(day)
            self.days_read += 1
            kept = KeptDay(names, results, settled, entrants, self.cache.monotonic())
            self.cache.put(day, kept, generation)
        return kept

    async def same_address(self, day: date) -> list[list[str]]:
        """For moderators (never shown to others): the groups of a closed day's entrants
        whose deals were played from sessions signed in from one address, each group's
        names in order (docs/room.md, "Playing twice").  What the sessions still kept tell
        (a session signed out or expired tells nothing); computed in a thread."""
        if not self.closed(day):
            raise DailyError("hidden")
        held, kept = await self.store.holders(day.isoformat())
        return await asyncio.to_thread(shared_addresses, held, kept)

    async def replay_open(self, table_id: int) -> bool | None:
        """Whether a finished table's replay may be shown to anyone: None, not a daily
        deal (the usual rules hold); False, its day is still open (hidden from everyone,
        its own entrant too); True, its day closed (open to all)."""
        found = await self.store.play_of_table(table_id)
        if found is None:
            return None
        return self.closed(date.fromisoformat(found[0]))


def score_kept(names: dict[int, str], results: list[Result], barred: frozenset[int],
               deals: int) -> DayScores:
    """The day scored without the entrants in ``barred``."""
    by_deal: dict[int, dict[int, int]] = {}
    for result in results:
        if result.account not in barred:
            by_deal.setdefault(result.deal, {})[result.account] = result.score
    return score_day(by_deal, {a: n for a, n in names.items() if a not in barred}, deals)


def sorted_results(results: list[Result], names: dict[int, str],
                 scored: DayScores) -> dict[int, list[DealResult]]:
    """Each deal's results of the entrants ``scored`` counted, best first (then by name)."""
    percent = scored.per_deal
    shown: dict[int, list[DealResult]] = {}
    for result in results:
        if result.account in percent.get(result.deal, {}):  # (not left out)
            shown.setdefault(result.deal, []).append(DealResult(
                result.account, names.get(result.account, ""), result.score,
                percent[result.deal][result.account], result.table_id))
    return {deal: sorted(rows, key=lambda r: (-r.score, r.name.casefold()))
            for deal, rows in sorted(shown.items())}


def shared_addresses(held: list[tuple[int, str, str]],
                     kept: list[tuple[str, str]]) -> list[list[str]]:
    """The groups of two or more entrants (``held``: account, name, the public id of a
    session that held one of its deals) whose sessions (``kept``: secret id, address)
    signed in from one address; each group's names sorted, the groups by their first."""
    address_of = {public_id(session): address for session, address in kept}
    by_address: dict[str, dict[int, str]] = {}
    for account, name, holder in held:
        address = address_of.get(holder)
        if address is not None:
            by_address.setdefault(address, {})[account] = name
    groups = [sorted(names.values(), key=str.casefold) for names in by_address.values()
              if len(names) > 1]
    return sorted(groups, key=lambda names: names[0].casefold())
