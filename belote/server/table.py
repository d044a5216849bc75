"""One table: an asyncio task that alone changes its game, stores each change, then broadcasts.

Commands (a client's message, a bot's decision, a timer) go through one queue, so the table's
state has a single writer.  Each change is appended to the table's log under the next version
number *before* anybody hears of it; replaying the log (:meth:`Table.restore`) rebuilds the
table after a restart.  Every connection gets only its seat's view (a spectator: the public
one) and only the events its seat may see, as sentences in its own language.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from belote.ai.models import SeatCounts
from belote.engine import actions as A
from belote.engine.dealing import secure_deck_source
from belote.engine.events import HandScored
from belote.engine.observation import Observation
from belote.engine.state import CHANCE, Game, Phase
from belote.errors import IllegalActionError, InvalidNotationError
from belote.i18n import translate
from belote.i18n.bids import (
    BidNotAllowed,
    BidNotUnderstood,
    bid_examples,
    no_bid_now,
    parse_bid,
    refused_bid_text,
)
from belote.i18n.parse import is_belote_word, parse_card_play
from belote.records import to_record
from belote.rules import Rules, find_preset
from belote.server import events as E
from belote.server import protocol as P
from belote.server.bots import BotPool, Decision
from belote.server.bots.context import TableSeats
from belote.server.connection import Connection
from belote.server.frames import PROCESS_FRAMES, SharedFrames
from belote.server.levels import seats_at
from belote.server.limits import TokenBucket
from belote.server.persistence import LogEntry, Store, VersionTaken
from belote.server.save_vote import SaveVote, Saving, new_vote, save_refusal
from belote.server.seats import Seat, seat_names, short_names
from belote.server.view import (
    AwaySummary,
    Item,
    Notice,
    Viewer,
    error_frame,
    illegal_text,
    info_frame,
    texts,
    view_frame,
)
from belote.text import printable

log = logging.getLogger(__name__)

# Items a table keeps for a (re)joining client: its history of the match, whole (a match
# says some hundreds of sentences, chat aside; a frame of 2,000 is about 150 kB).
RECENT = 2000
# Kinds of viewer whose sentences of those items are kept (seats, languages, lengths, names).
SAID_KINDS = 64
RETRY_FIRST = 0.2  # seconds before the first retry after a failed save; doubles each time
RETRY_MAX = 5.0
MOVES_KEPT = 32  # move ids remembered per seat: a move sent again is played at most once
# A long log (a match of a hundred hands: thousands of entries) is replayed in slices of this
# many seconds, the event loop's other work between them: a table taken over while the
# process runs others must not hold their loop (the 50 ms rule).
RESTORE_SLICE = 0.01


@dataclass(frozen=True, slots=True)
class TableLimits:
    """What one person may do at a table (defaults are `belote serve`'s)."""

    chat_burst: int = 5  # chat lines one person may send at once...
    chat_per_minute: float = 20.0  # ...and then on average
    chat_lines: int = 1000  # chat lines one table keeps (its log is its history)
    info_burst: int = 12  # information keys one person may press at once...
    info_per_second: float = 3.0  # ...and then on average
    save_asks: int = 2  # requests to save the table one person may make at once...
    save_asks_per_minute: float = 0.5  # ...and then on average (each one asks everybody)


class TableError(Exception):
    """A request the table refuses; ``code`` names the ``error.web.*`` message, ``why`` (in
    the player's language) says more, after it (the reason a typed bid is refused)."""

    def __init__(self, code: str, why: str = "") -> None:
        super().__init__(code)
        self.code = code
        self.why = why


class StorageFailed(TableError):
    """A change could not be stored; the table's state is as it was before the change."""

    def __init__(self, detail: str) -> None:
        super().__init__("not_saved")
        self.detail = detail

    def __str__(self) -> str:
        return self.detail


class Displaced(StorageFailed):
    """The log already holds this change's version: another process runs the table now."""


class LogGap(Exception):
    """A table's stored log skips versions: changes once acknowledged are lost."""

    def __init__(self, first: int, last: int) -> None:
        super().__init__(f"event log gap: versions {first} to {last} missing")
        self.first = first
        self.last = last


class EngineFailed(Exception):
    """The engine raised on a change it had not refused as illegal (a bug or impossible
    rules): the table is marked broken rather than retrying forever."""


class IllegalMove(Exception):
    """A move the rules refuse; ``text`` says why, in the player's language."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


# May this account sit at this table: (the account, the accounts seated, the creator's
# session) -> whether (the composition's, from the block lists; a refusal is neutral).
SeatGate = Callable[[int, list[int], "str | None"], Awaitable[bool]]
# Does a listener's account hear a chat line of this sender's account (not if it blocks it).
ChatFilter = Callable[[int, int], bool]


class Actor(Protocol):
    """Who sends a command: a socket's connection, or the signed-in person behind a form."""

    @property
    def uid(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def account(self) -> int | None: ...


class Table:
    # Set by the room (the composition's, from the block lists): who may sit here, whose
    # chat a listener hears; None: everyone.
    seat_gate: SeatGate | None = None
    chat_filter: ChatFilter | None = None

    def __init__(self, table_id: int, preset: str, flags: dict[str, Any], store: Store,
                 bots: BotPool, *, takeover_seconds: float = 30.0, bot_delay: float = 0.8,
                 publish: Callable[[E.TableEvent], None] | None = None,
                 limits: TableLimits | None = None, creator: str | None = None,
                 displaced: Callable[[Table], None] | None = None) -> None:
        self.id = table_id
        self.displaced = displaced  # another process stored a change first: this copy goes
        self.preset = preset
        self.flags = flags
        self.rules: Rules = find_preset(preset).with_flags(**flags)
        self.store = store
        self.bots = bots
        self.takeover_seconds = takeover_seconds
        self.bot_delay = bot_delay
        # What happened, told to the room (and through its bus, the lobby, ratings, ...).
        self.publish = publish or (lambda event: None)
        self.limits = limits or TableLimits()
        self.creator = creator  # the session that created the table (limits per user)
        self.seats = [Seat() for _ in range(self.rules.players)]  # seed 000: 4, 3 or 2
        # What the table knows of its seats and learns from its hands played out, sent
        # with its bots' decisions (belote.server.bots.context); the spectator's view before
        # a hand's last card, which it learns from once the hand is scored.
        self.seat_knowledge = TableSeats(self.rules.players)
        self._last_card_view: Observation | None = None
        self.lessons_failed = 0  # hands whose learning raised (logged)
        self.game: Game | None = None
        self.version = 0
        self.game_version = 0  # the version of the last change to the game itself
        self.finished = False
        self.broken: str | None = None  # why the table stopped, if it did
        self.chat_lines = 0
        # Each scored hand: (hand number, the hand's points, the totals after it), by team.
        self.score_history: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
        # The table's own settings (a "setup" log entry, not the rules' flags): a name, a
        # private table's invitation code, a pause between hands; and the rematch, if any.
        self.name = ""
        self.private = False
        self.code = ""
        self.pause = False
        self.rematch: int | None = None
        self.fixed_deck: tuple[int, ...] | None = None  # one fixed deal only: fix_deal
        self.waiting_next = False  # a pause between hands is on: the next deal waits
        self.ready: set[int] = set()  # seats that asked for the next hand during a pause
        self.connections: set[Connection] = set()
        self.recent: deque[tuple[int, Item]] = deque(maxlen=RECENT)
        self._queue: asyncio.Queue[Callable[[], Awaitable[None]]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._thinking: tuple[int, int] | None = None  # (seat, version) a bot is deciding
        self._window_asked: tuple[int, int] | None = None  # (seat, version) a belote window
        self._timers: dict[int, asyncio.Task[None]] = {}
        self._bot_task: asyncio.Task[None] | None = None
        self._retry: asyncio.TimerHandle | None = None
        self._deck_source = secure_deck_source()
        self._chat_buckets: dict[str, TokenBucket] = {}
        self._info_buckets: dict[str, TokenBucket] = {}
        self._info_refused: set[str] = set()  # people refused since their last answer
        self.info_refusals = 0  # keys refused as too fast (a person's first in a row: logged)
        # Frames rendered and frames sent: a broadcast renders one frame per kind of viewer
        # (seat or spectator, language, verbosity, hand order) and sends it to each of its
        # connections.
        self.frames_built = 0
        self.frames_sent = 0
        # The whole-view syncs of the table as it is now (a join, a hello with since=0: the
        # same for every connection of a kind of viewer), shared until the next change or
        # broadcast (which _broadcasts counts: a change of presence bumps no version).
        self._syncs: SharedFrames | None = None
        # (seat, language, verbosity, names) -> (item version, rank) -> its sentences
        # (_recent_said)
        self._said: dict[tuple[object, ...], dict[tuple[int, int], list[dict[str, Any]]]] = {}
        self._syncs_of: tuple[int, int] = (-1, -1)  # (version, broadcasts) they were made at
        self._broadcasts = 0
        self.storage_failures = 0  # in a row; 0 once a change is stored again
        self.storage_failures_total = 0
        # The ids of the moves each seat's client numbered and the table played, from the
        # log (a client sends a move again after a lost connection: it is confirmed, not
        # played twice, even across a restart).
        self._moves: dict[int, deque[int]] = {}
        # What a bot played for each absent player, told to them once when they come back.
        self._played_for: dict[int, list[int]] = {}
        self.saving = Saving()  # saving the match to resume it later (save_vote.py)

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"table-{self.id}")
        if self.held:
            self.saving.hold_timer = asyncio.create_task(self._hold_clock())

    async def _hold_clock(self) -> None:
        """A saved table resumed that nobody comes to (the page that resumed it never
        opened) goes back among the saved games after ``hold_seconds``."""
        await asyncio.sleep(self.saving.hold_seconds)

        async def nobody_came() -> None:
            if self.held and not self.connections and not self.saving.done:
                await self._save(None)
        await self._queue.put(nobody_came)

    async def stop(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        for clock in (self.saving.vote_timer, self.saving.hold_timer):
            if clock is not None and clock is not asyncio.current_task():
                clock.cancel()
        if self._retry is not None:
            self._retry.cancel()
        if self._bot_task is not None:
            self._bot_task.cancel()
        if self._task is not None and self._task is not asyncio.current_task():
            # Cancelled again until it ends: on Python 3.11, asyncio.wait_for may swallow a
            # cancellation that comes as its awaited answer arrives (a bot's decision), and
            # the task would go back to waiting for commands, holding stop() for ever.
            while not self._task.done():
                self._task.cancel()
                await asyncio.wait({self._task}, timeout=0.5)
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        await self._step(None)
        while True:
            command = await self._queue.get()
            await self._step(command)

    async def _step(self, command: Callable[[], Awaitable[None]] | None) -> None:
        """Run one command, then move the game on; a failure never ends the table's task."""
        try:
            if command is not None:
                await command()
            await self._drive()
        except Displaced as error:
            log.error("table %s: %s; another process runs it: this copy stops", self.id,
                      error)
            if self.displaced is not None:
                self.displaced(self)
        except StorageFailed:
            self._storage_trouble()
        except EngineFailed as error:
            await self._break(str(error))
        except Exception:  # one bad command must not kill the table
            log.exception("table %s: command failed", self.id)

    async def call(self, fn: Callable[[], Awaitable[Any]]) -> Any:
        """Run ``fn`` inside the table's task and return its result (or raise its error)."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

        async def command() -> None:
            try:
                result = await fn()
            except Exception as error:
                if not future.done():
                    future.set_exception(error)
                if isinstance(error, StorageFailed | EngineFailed):
                    raise  # the table retries, or stops: see _step
                return
            if not future.done():
                future.set_result(result)

        await self._queue.put(command)
        return await future

    # ------------------------------------------------------------------ faults
    def _storage_trouble(self) -> None:
        """A change could not be stored: tell the players once, try again with a back-off."""
        self.storage_failures += 1
        self.storage_failures_total += 1
        delay = min(RETRY_MAX, RETRY_FIRST * 2 ** (self.storage_failures - 1))
        log.warning("table %s: storing failed (%d in a row); retrying in %.1f s", self.id,
                    self.storage_failures, delay)
        if self.storage_failures == 1:
            self._broadcast([Notice("web.notice.storage_trouble", {})])
        if self._retry is None:  # one retry pending at a time
            async def retry() -> None:
                self._retry = None
            self._retry = asyncio.get_running_loop().call_later(
                delay, self._queue.put_nowait, retry)

    def _stored_again(self) -> None:
        if self.storage_failures:
            log.info("table %s: storing works again after %d failures", self.id,
                     self.storage_failures)
            self.storage_failures = 0
            self._broadcast([Notice("web.notice.storage_back", {})])

    async def _break(self, reason: str) -> None:
        """Stop this table for good (the rest of the room goes on) and say so."""
        if self.broken is not None:
            return
        self.broken = reason
        log.error("table %s is broken: %s", self.id, reason)
        for timer in self._timers.values():
            timer.cancel()
        self._broadcast([Notice("web.notice.broken", {})])
        with contextlib.suppress(Exception):
            await self.store.set_status(self.id, "broken")
        self.publish(E.TableBroken(self.id, self.version, reason))

    # ------------------------------------------------------------------ restore
    async def restore(self, entries: list[LogEntry]) -> None:
        """Rebuild the table from its stored log (after a restart): nothing is broadcast.

        Raises ``EngineFailed`` naming the entry if the engine refuses one, and ``LogGap``
        if the log skips versions (changes players were told of are lost): the room then
        marks this table broken, logs why and starts anyway.  The replay yields to the event
        loop every ``RESTORE_SLICE`` seconds: the room shows the table to nobody until it is
        done (:meth:`belote.server.room.Room._resume`).
        """
        slice_ends = time.monotonic() + RESTORE_SLICE
        for entry in entries:
            if time.monotonic() >= slice_ends:
                await asyncio.sleep(0)
                slice_ends = time.monotonic() + RESTORE_SLICE
            if entry.version != self.version + 1:
                # A change the players were told of is missing (a database that lost an
                # acknowledged commit, and a room that went on writing after it): the state
                # cannot be rebuilt faithfully, so the table is not resumed, and says so.
                log.error("table %s: its event log misses versions %d to %d (lost by the "
                          "database after they were acknowledged): not resumed", self.id,
                          self.version + 1, entry.version - 1)
                raise LogGap(self.version + 1, entry.version - 1)
            try:
                items = self._apply(entry)
            except Exception as error:
                raise EngineFailed(f"log entry {entry.version} ({entry.kind}) refused on "
                                   f"replay: {error!r}") from error
            self._stored(entry, items)
            self._learn_hand(items, now=True)
        if self.game is not None and not self.finished and self.fixed_deck is None:
            now = time.monotonic()
            for seat_no, seat in enumerate(self.seats):
                if seat.kind == "human" and not seat.standin and not seat.reserved:
                    seat.away_since = now
                    self._arm_takeover(seat_no)

    def _apply(self, entry: LogEntry) -> list[Item]:
        """Apply one change to the table's state; returns what players are told of it."""
        data = entry.data
        items: list[Item] = []
        if entry.kind == "seats":
            old = self.seats
            self.seats = [Seat.from_log(s) for s in data["seats"]]
            for new, was in zip(self.seats, old, strict=False):
                if new.owner is not None and new.owner == was.owner:
                    new.away_since = was.away_since  # presence is not logged
            items.append(Notice(data["key"], data["values"]))
        elif entry.kind == "start":
            self.game = Game(self.rules, data["first_dealer"])
            items.append(Notice("web.notice.started", {}))
        elif entry.kind == "deal":
            assert self.game is not None
            items.extend(self.game.deal(data["deck"]))
        elif entry.kind == "act":
            assert self.game is not None
            self._last_card_view = (self.game.observation(None)
                                    if self.seat_knowledge.wants_view(self.game) else None)
            items.extend(self.game.apply(data["action"], data["seat"]))
            if data.get("quick"):
                items.append(Notice("web.notice.quick_move", {"seat": data["seat"]}))
        elif entry.kind == "chat":
            self.chat_lines += 1
            sender = data.get("account")
            items.append(Notice("web.chat.line", {"name": printable(data["name"]),
                                                  "text": printable(data["text"])}, chat=True,
                                sender=sender if isinstance(sender, int) else None))
        elif entry.kind == "finish":
            self.finished = True
        elif entry.kind == "setup":
            self.name = str(data.get("name", ""))
            self.private = bool(data.get("private", False))
            self.code = str(data.get("code", ""))
            self.pause = bool(data.get("pause", False))
        elif entry.kind == "ready":
            self.ready.add(int(data["seat"]))
            items.append(Notice("sala.notice.ready", {"seat": int(data["seat"])}))
        elif entry.kind == "fixed_deal":
            deck = tuple(int(card) for card in data["deck"])
            if sorted(deck) != list(range(32)):
                raise ValueError(f"table {self.id}: a fixed deal needs the 32 cards once each")
            self.fixed_deck = deck
        elif entry.kind == "rematch":
            self.rematch = int(data["table"])
            items.append(Notice("sala.notice.rematch", {"number": self.rematch}))
        else:
            raise ValueError(f"table {self.id}: unknown log entry {entry.kind!r}")
        return items

    def _stored(self, entry: LogEntry, items: list[Item]) -> None:
        self.version = entry.version
        if entry.kind in ("start", "deal", "act", "finish"):
            self.game_version = entry.version
        for item in items:
            self.recent.append((entry.version, item))
            if isinstance(item, HandScored):  # kept once stored: a refused change adds none
                self.score_history.append((item.hand_no, item.scores, item.totals))
                self.waiting_next = self.pause
                self.ready = set()
        if entry.kind == "deal":
            self.waiting_next = False
        elif entry.kind == "act":
            seat_no = entry.data["seat"]
            if "move" in entry.data:
                self._moves.setdefault(seat_no, deque(maxlen=MOVES_KEPT)).append(
                    entry.data["move"])
            if self.seats[seat_no].standin:
                self._played_for.setdefault(seat_no, []).append(entry.data["action"])
        elif entry.kind == "seats":
            for seat_no, seat in enumerate(self.seats):
                if not seat.standin:
                    self._played_for.pop(seat_no, None)
        self._learn(entry, items)

    def _learn(self, entry: LogEntry, items: list[Item]) -> None:
        """What the seats' knowledge notes of a stored change (belote.server.bots.context)."""
        knowledge = self.seat_knowledge
        if entry.kind == "seats":
            knowledge.seated(self.seats)
        elif entry.kind == "deal":
            knowledge.dealt()
        elif entry.kind == "act" and self.seats[entry.data["seat"]].standin:
            knowledge.played_for(entry.data["seat"])

    def _learn_hand(self, items: list[Item], now: bool) -> None:
        """A hand scored and stored: the seats' knowledge learns from it, if it was played
        out.  Counting takes up to a few milliseconds (the normal bidder's bids, in an
        auction on every card): off the event loop, in a thread, unless ``now`` (a table
        replaying its log); its counts are added when ready, to the same occupants only."""
        if not any(isinstance(item, HandScored) for item in items):
            return
        knowledge = self.seat_knowledge
        lesson = knowledge.lesson(self._last_card_view, items)
        if lesson is None:
            return
        if now:
            knowledge.learn(lesson, lesson.counts())
            return

        def learned(job: asyncio.Future[dict[int, SeatCounts]]) -> None:
            if job.cancelled():
                return
            error = job.exception()
            if error is not None:
                self.lessons_failed += 1
                log.warning("table %s: learning from a hand failed (%r); not learned "
                            "(%d such hands)", self.id, error, self.lessons_failed)
                return
            knowledge.learn(lesson, job.result())

        asyncio.get_running_loop().run_in_executor(None, lesson.counts).add_done_callback(
            learned)

    def _snapshot(self) -> tuple[Game | None, list[Seat], bool, int]:
        return (self.game.clone() if self.game is not None else None,
                [dataclasses.replace(s) for s in self.seats], self.finished, self.chat_lines)

    def _restore_snapshot(self, snapshot: tuple[Game | None, list[Seat], bool, int]) -> None:
        self.game, self.seats, self.finished, self.chat_lines = snapshot

    async def _commit(self, kind: str, data: dict[str, Any],
                      seats_before: list[Seat] | None = None) -> None:
        """Apply a change, store it, then tell every connection: in that order.

        The engine sees the change first, so a change it refuses or fails on never reaches
        the log (a stored row must always replay).  If storing fails, the state goes back to
        what it was and ``StorageFailed`` is raised: nothing was said, nothing was kept.
        ``seats_before`` is the seating before a seat change its caller already made.
        """
        if self.broken is not None:
            raise TableError("broken")
        if self.saving.done:  # saved and going: its log ends with the save
            raise TableError("saved_not_playing")
        entry = LogEntry(self.version + 1, kind, data)
        snapshot = self._snapshot()
        if seats_before is not None:
            snapshot = (snapshot[0], seats_before, snapshot[2], snapshot[3])
        try:
            items = self._apply(entry)
        except IllegalActionError:
            self._restore_snapshot(snapshot)
            raise
        except Exception as error:
            self._restore_snapshot(snapshot)
            raise EngineFailed(f"{kind} {data} failed: {error!r}") from error
        try:
            await self.store.append(self.id, entry.version, kind, data)
        except Exception as error:
            self._restore_snapshot(snapshot)
            if isinstance(error, VersionTaken) and self.displaced is not None:
                raise Displaced(str(error)) from error
            raise StorageFailed(f"{kind} not stored: {error!r}") from error
        self._stored_again()
        self._stored(entry, items)
        self._learn_hand(items, now=False)
        self._broadcast(items)
        self._publish_change(kind, data, items)

    def _publish_change(self, kind: str, data: dict[str, Any], items: list[Item]) -> None:
        """Tell the room what a stored change means beyond this table (the finish: see
        :meth:`_finish`, which has the record)."""
        if kind == "seats":
            self.publish(E.SeatsChanged(self.id, self.version, E.seating(self.seats)))
        elif kind == "start":
            self.publish(E.MatchStarted(self.id, self.version, data["first_dealer"]))
        for item in items:
            if isinstance(item, HandScored):
                self.publish(E.HandScored(self.id, self.version, item.hand_no,
                                          tuple(item.scores), tuple(item.totals)))


    # ------------------------------------------------------------------ broadcasting
    def seat_of(self, conn: Connection) -> int | None:
        for seat_no, seat in enumerate(self.seats):
            if seat.kind == "human" and seat.owner == conn.uid:
                return seat_no
        return None

    def _viewer(self, conn: Connection) -> Viewer:
        seat = self.seat_of(conn)
        if seat is None:  # a spectator has no hand to sort: one shared kind of viewer
            return Viewer(None, conn.lang, conn.verbosity)
        return Viewer(seat, conn.lang, conn.verbosity, conn.suits, conn.trump_first)

    def _frame(self, conn: Connection, kind: str, items: list[Item], since: int = 0) -> str:
        """A frame for ``conn`` alone (a sync: what it missed, what was played for it)."""
        self._count_frames(1, 1)
        return view_frame(self, kind, items, self._viewer(conn), since)

    def _sync(self, conn: Connection, since: int = 0, away: list[int] | None = None) -> None:
        """The whole view, with the recent sentences the client has not heard (all of them
        if ``since`` is older than what the table keeps), and, for a player coming back,
        what a bot played for them (``away``).  A sync of all the recent sentences and no
        away summary is the same for every connection of a kind of viewer: shared (a
        reconnect storm builds one frame per kind of viewer, not one per connection), unless
        the listener blocks a player whose chat lines are among them (its own frame)."""
        recent = list(self.recent)
        if since and recent and since >= recent[0][0] - 1:
            items = [item for v, item in recent if v > since]
        elif not away and self._heard(conn, [item for _, item in recent]) is None:
            conn.send(self._shared_sync(conn))
            return
        else:
            items = [item for _, item in recent]
            since = 0  # all the table keeps: the client's history starts again from it
        if away:
            items.append(AwaySummary(tuple(away)))
        kept = self._heard(conn, items)  # the chat of those this listener blocks left out
        conn.send(self._frame(conn, "sync", items if kept is None else kept, since))

    def _shared_sync(self, conn: Connection) -> str:
        """``conn``'s whole-view sync, built once per kind of viewer until the table next
        changes or broadcasts."""
        made_at = (self.version, self._broadcasts)
        if self._syncs is None or self._syncs_of != made_at:
            self._syncs = SharedFrames(self, "sync", [item for _, item in self.recent],
                                       self._recent_said)
            self._syncs_of = made_at
        built = self._syncs.built
        frame = self._syncs.frame(self._viewer(conn))
        self._count_frames(self._syncs.built - built, 1)
        return frame

    def _recent_said(self, viewer: Viewer) -> list[dict[str, Any]]:
        """The sentences of every item the table keeps, for ``viewer``: each made once per
        kind of viewer and kept while the item is (a whole-history sync, up to ``RECENT``
        items, is rebuilt after every change: its old sentences are not)."""
        full = seat_names(self.seats, viewer.lang)
        key = (viewer.seat, viewer.lang, viewer.verbosity, tuple(full),
               tuple(short_names(self.seats, viewer.lang, full)))
        made = self._said.get(key)
        if made is None:
            if len(self._said) >= SAID_KINDS:  # names changed often: start again
                self._said.clear()
            made = self._said[key] = {}
        said: list[dict[str, Any]] = []
        last, nth = -1, 0
        for version, item in self.recent:
            # One change (a version) may bring several items: each is (version, its rank).
            nth = nth + 1 if version == last else 0
            last = version
            entry = made.get((version, nth))
            if entry is None:
                entry = made[(version, nth)] = texts(self, [item], viewer, full)
            said.extend(entry)
        if len(made) > len(self.recent):  # forget the items the table no longer keeps
            oldest = self.recent[0][0] if self.recent else 0
            for gone in [k for k in made if k[0] < oldest]:
                del made[gone]
        return said

    def _broadcast(self, items: list[Item]) -> None:
        """Every connection hears of a change: one frame built per kind of viewer, the same
        string sent to each connection of that kind."""
        self._broadcasts += 1  # the table changed: the shared syncs are of the past
        frames = SharedFrames(self, "update", items)
        for conn in list(self.connections):
            kept = self._heard(conn, items)
            if kept is not None:  # a chat line this listener does not hear: its own frame
                conn.send(self._frame(conn, "update", kept))
                continue
            conn.send(frames.frame(self._viewer(conn)))
        self._count_frames(frames.built, len(self.connections))

    def _heard(self, conn: Connection, items: list[Item]) -> list[Item] | None:
        """``items`` without the chat lines of the senders ``conn``'s account blocks; None
        when it hears them all (the shared frames serve it)."""
        hears, listener = self.chat_filter, conn.account
        if hears is None or listener is None:
            return None
        senders = {i.sender for i in items if isinstance(i, Notice) and i.sender is not None}
        if all(hears(listener, s) for s in senders):
            return None
        return [i for i in items if not (isinstance(i, Notice) and i.sender is not None
                                         and not hears(listener, i.sender))]

    def _count_frames(self, built: int, sent: int) -> None:
        self.frames_built += built
        self.frames_sent += sent
        PROCESS_FRAMES.built += built  # the process's totals: they outlive this table
        PROCESS_FRAMES.sent += sent

    def send_error(self, conn: Connection, code: str, detail: str = "", move: int = 0) -> None:
        conn.send(error_frame(code, conn.lang, self.version, detail, move=move))

    # ------------------------------------------------------------------ clients
    async def join(self, conn: Connection) -> None:
        async def run() -> None:
            await self._claim_kept_seat(conn)
            seat_no = self.seat_of(conn)
            away: list[int] = []
            if seat_no is not None:
                # The others hear of the return first; the newcomer's first frame is its sync.
                away = await self._came_back(seat_no)
            self.connections.add(conn)
            self._sync(conn, away=away)
        await self.call(run)

    async def leave(self, conn: Connection) -> None:
        async def run() -> None:
            self.connections.discard(conn)
            if all(c.uid != conn.uid for c in self.connections):
                self._info_buckets.pop(conn.uid, None)  # memory goes with the person
                self._info_refused.discard(conn.uid)
            if self.finished and not self.connections:
                # The room may let a finished table go.
                self.publish(E.TableUnwatched(self.id, self.version))
                return
            if self.held and not self.connections and not self.saving.done:
                # Resumed, and everyone left before all were back: saved again, as it was.
                try:
                    await self._save(None)
                except TableError as error:  # (said to nobody: nobody is here)
                    log.warning("table %s: left while waiting for its people, and not "
                                "saved again (%s)", self.id, error.code)
                return
            seat_no = self.seat_of(conn)
            if seat_no is None or any(self.seat_of(c) == seat_no for c in self.connections):
                return
            seat = self.seats[seat_no]
            seat.away_since = time.monotonic()
            if self.game is not None and not self.finished and not seat.standin:
                self._arm_takeover(seat_no)
            self._broadcast([])
        await self.call(run)

    async def _came_back(self, seat_no: int) -> list[int]:
        """The seat's player is here again; returns what a bot played for them meanwhile."""
        seat = self.seats[seat_no]
        seat.away_since = None
        timer = self._timers.pop(seat_no, None)
        if timer is not None:
            timer.cancel()
        if seat.standin:
            before = self._seating()
            seat.standin = False
            played = self._played_for.get(seat_no, [])
            await self._commit_seats("web.notice.back", seat_no, before)
            return played
        self._broadcast([])
        return []

    def _arm_takeover(self, seat_no: int) -> None:
        old = self._timers.pop(seat_no, None)
        if old is not None:
            old.cancel()
        if self.fixed_deck is not None:
            return  # a fixed deal is its player's alone: it waits for them, no stand-in

        async def expire() -> None:
            await asyncio.sleep(self.takeover_seconds)

            async def take_over() -> None:
                seat = self.seats[seat_no]
                if (seat.kind == "human" and seat.away_since is not None and not seat.standin
                        and not self.finished):
                    before = self._seating()
                    seat.standin = True
                    await self._commit_seats("web.notice.standin", seat_no, before)
            await self._queue.put(take_over)

        self._timers[seat_no] = asyncio.create_task(expire())

    async def handle(self, conn: Connection, message: P.Inbound) -> None:
        """A client's message; a refusal becomes an error frame to that client only (naming
        the move it refuses, if the client numbered it)."""
        move = message.move if isinstance(message, P.Act | P.BidText) else 0

        async def run() -> None:
            try:
                await self._handle(conn, message)
            except StorageFailed:
                self.send_error(conn, "not_saved", move=move)
                raise  # the table retries moving on by itself
            except TableError as error:
                self.send_error(conn, error.code, error.why, move=move)
                if error.code == "stale":
                    self._sync(conn, self.version)
            except IllegalMove as error:
                self.send_error(conn, "illegal", error.text, move=move)
        # Already told: the client (not saved), or everyone at the table (broken).
        with contextlib.suppress(StorageFailed, EngineFailed):
            await self.call(run)

    async def _handle(self, conn: Connection, message: P.Inbound) -> None:
        match message:
            case P.Hello(since):
                seat_no = self.seat_of(conn)
                away: list[int] = []
                if seat_no is not None and self.seats[seat_no].standin:
                    away = await self._came_back(seat_no)  # "take my seat back"
                self._sync(conn, since, away)
            case P.Act(action, version, move):
                if not self._played_before(conn, move):
                    await self._act(conn, action, version, move)
                    self._confirm(conn, move)
            case P.BidText(text, move, version):
                if not self._played_before(conn, move):
                    self._check_fresh(version)
                    await self._act(conn, self._typed(conn, text), version, move)
                    self._confirm(conn, move)
            case P.Sit() | P.Stand() | P.AddBot() | P.RemoveBot() | P.Start():
                await self._seat_command(conn, message)
            case P.Chat(text):
                if not conn.name:
                    raise TableError("sign_in")  # anonymous watchers listen only
                self._check_chat(conn.uid)
                # The speaker's account is kept with the line (never shown to players): a
                # report made from a chat line names its author by account (moderation), and
                # a blocker's frames leave it out (friends), from the log.
                await self._commit("chat", {"name": conn.name, "text": text,
                                            **({"account": conn.account}
                                               if conn.account is not None else {})})
            case P.NextHand():
                await self._next_hand(conn)
            case P.AskInfo(key):
                self._answer_info(conn, key)
            case P.SaveAsk():
                await self._ask_save(conn)
            case P.SaveAnswer(yes):
                await self._answer_save(conn, yes)

    async def command(self, who: Actor, message: P.SeatCommand) -> None:
        """A seat command from a form (the lobby's buttons), run in the table's task as the
        same message from a socket is; a refusal is raised (``TableError``)."""
        await self.call(lambda: self._seat_command(who, message))

    async def _seat_command(self, who: Actor, message: P.SeatCommand) -> None:
        """The one path of the seat commands, from a frame or a form."""
        match message:
            case P.Sit(seat_no):
                await self.sit(who.uid, who.name, seat_no, who.account)
            case P.Stand():
                await self.stand(who.uid)
            case P.AddBot(seat_no, level):
                await self.add_bot(who.uid, seat_no, level)
            case P.RemoveBot(seat_no):
                await self.remove_bot(who.uid, seat_no)
            case P.Start():
                await self.begin(who.uid)

    def _played_before(self, conn: Connection, move: int) -> bool:
        """A numbered move this seat's client sent before and the table played (the copy a
        client sends again after a lost connection): confirmed as already played."""
        seat_no = self.seat_of(conn)
        if not move or seat_no is None or move not in self._moves.get(seat_no, ()):
            return False
        conn.send(P.encode_message(P.Done(move, already=True), self.version))
        return True

    def _confirm(self, conn: Connection, move: int) -> None:
        """A numbered move is played: its client is told (after the update saying it)."""
        if move:
            conn.send(P.encode_message(P.Done(move), self.version))

    async def _next_hand(self, conn: Connection) -> None:
        """A seated player is ready for the next hand (the pause ends once all are).  Stored
        in the log like any change: a table resumed after a restart, or by another of the
        room's processes, knows who was ready."""
        seat_no = self.seat_of(conn)
        if seat_no is None:
            raise TableError("not_seated")
        if not self.waiting_next:
            raise TableError("no_pause")
        if seat_no not in self.ready:
            await self._commit("ready", {"seat": seat_no})

    def _pause_holds(self) -> bool:
        """During a pause, whether some seated player has not asked for the next hand yet."""
        if not self.waiting_next or self.game is None or self.game.is_terminal():
            return False
        waiting = {n for n, s in enumerate(self.seats) if s.kind == "human" and not s.standin}
        return bool(waiting - self.ready)

    async def configure(self, name: str, private: bool, code: str, pause: bool) -> None:
        """The table's own settings, stored as its first log entries' "setup"."""
        await self._commit("setup", {"name": name, "private": private, "code": code,
                                     "pause": pause})

    async def note_rematch(self, new_table: int) -> None:
        await self._commit("rematch", {"table": new_table})

    async def seat_as(self, seats: list[Seat]) -> None:
        """Seat the players and bots of the match this one is a rematch of."""
        before = self._seating()
        self.seats = [dataclasses.replace(s, away_since=None, standin=False) for s in seats]
        await self._commit_seats("sala.notice.rematch_seats", 0, before)

    def _answer_info(self, conn: Connection, key: str) -> None:
        """An information key's answer, made now, for the asking connection alone (its
        seat's view, its language); refused when one person asks too fast."""
        bucket = self._info_buckets.get(conn.uid)
        if bucket is None:
            bucket = self._info_buckets[conn.uid] = TokenBucket(
                self.limits.info_burst, self.limits.info_per_second)
        if not bucket.take():
            self.info_refusals += 1
            if conn.uid not in self._info_refused:
                self._info_refused.add(conn.uid)
                log.info("table %s: information keys pressed too fast by %s; refused "
                         "(%d refusals at this table)", self.id, conn.name or conn.uid,
                         self.info_refusals)
            raise TableError("info_too_fast")
        self._info_refused.discard(conn.uid)
        conn.send(info_frame(self, self._viewer(conn), key))

    # ------------------------------------------------------------------ saving
    async def _claim_kept_seat(self, conn: Connection) -> None:
        """A person whose seat is kept for their account (a saved table resumed) takes it
        back on coming to the table, from whichever device: the seat is the account's."""
        if conn.account is None or self.seat_of(conn) is not None:
            return
        for seat_no, seat in enumerate(self.seats):
            if seat.reserved and seat.account == conn.account:
                before = self._seating()
                self.seats[seat_no] = Seat("human", seat.name, conn.uid, seat.level,
                                           account=conn.account)
                await self._commit_seats("web.saved.notice_back", seat_no, before)
                return

    async def _ask_save(self, conn: Connection) -> None:
        """A seated person asks to save the match: saved at once with nobody else to ask,
        else everyone else seated is asked (a vote, :mod:`belote.server.save_vote`)."""
        seat_no = self.seat_of(conn)
        if seat_no is None:
            raise TableError("not_seated")
        if self.game is None or self.finished:
            raise TableError("saved_not_playing")
        if self.creator is None or self.fixed_deck is not None:
            # Opened by a feature (a tournament's round, the daily duplicate's deal): the
            # feature awaits its result; it is not its players' to pause.
            raise TableError("saved_not_here")
        if self.saving.vote is not None:
            raise TableError("saved_vote_open")
        refusal = save_refusal(self.seats, seat_no)
        if refusal is not None:
            raise TableError(refusal)
        bucket = self.saving.asks.get(conn.uid)
        if bucket is None:
            bucket = self.saving.asks[conn.uid] = TokenBucket(
                self.limits.save_asks, self.limits.save_asks_per_minute / 60)
        if not bucket.take():
            raise TableError("saved_too_fast")
        vote = new_vote(self.seats, seat_no, self.saving.vote_seconds)
        if not vote.asked:
            await self._save(seat_no)
            return
        self.saving.vote = vote
        self.saving.vote_timer = asyncio.create_task(self._vote_clock(vote))
        self._broadcast([Notice("web.saved.notice_asked",
                                {"seat": seat_no, "seconds": round(self.saving.vote_seconds)})])

    async def _answer_save(self, conn: Connection, yes: bool) -> None:
        seat_no = self.seat_of(conn)
        vote = self.saving.vote
        if vote is None:
            raise TableError("saved_no_vote")
        if seat_no is None or seat_no not in vote.asked:
            raise TableError("saved_not_asked")
        if not yes:
            self._end_vote()
            self._broadcast([Notice("web.saved.notice_refused", {"seat": seat_no})])
            return
        if seat_no in vote.agreed:
            return  # said twice: nothing new
        vote.agreed.add(seat_no)
        if vote.complete:
            await self._save(vote.asker)
        else:
            self._broadcast([Notice("web.saved.notice_agreed", {"seat": seat_no})])

    async def _vote_clock(self, vote: SaveVote) -> None:
        await asyncio.sleep(self.saving.vote_seconds)

        async def timed_out() -> None:
            if self.saving.vote is vote:
                self._end_vote()
                self._broadcast([Notice("web.saved.notice_timeout", {})])
        await self._queue.put(timed_out)

    def _end_vote(self) -> None:
        self.saving.vote = None
        timer, self.saving.vote_timer = self.saving.vote_timer, None
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()

    async def _save(self, asker: int | None) -> None:
        """Keep the match for its people and let it go: each person's seat is kept for
        their account (a stored seat change, the save's mark in the log), then the room's
        ``keep`` stores the saved table and stops it.  If that fails, the seats are given
        back as they were and everyone is told; the match goes on."""
        self._end_vote()
        if self.game is None or self.finished:
            raise TableError("saved_not_playing")
        if self.saving.keep is None:
            raise TableError("saved_failed")
        if save_refusal(self.seats, asker if asker is not None else next(
                n for n, s in enumerate(self.seats) if s.kind == "human")) is not None:
            raise TableError("saved_guest")
        before = self._seating()
        self.seats = [s.kept_for_account() if s.kind == "human" else dataclasses.replace(s)
                      for s in self.seats]
        await self._commit_seats("web.saved.notice_saved", asker or 0, before)
        try:
            await self.saving.keep()
        except Exception as error:
            code = error.code if isinstance(error, TableError) else "saved_failed"
            if not isinstance(error, TableError):
                log.error("table %s: the save was not stored: %r", self.id, error)
            kept = self._seating()
            self.seats = [dataclasses.replace(s, away_since=None) for s in before]
            await self._commit_seats("web.saved.notice_not_saved", 0, kept)
            raise TableError(code) from None
        self.saving.done = True

    def _check_chat(self, uid: str) -> None:
        if self.chat_lines >= self.limits.chat_lines:
            raise TableError("chat_full")
        bucket = self._chat_buckets.get(uid)
        if bucket is None:
            bucket = self._chat_buckets[uid] = TokenBucket(
                self.limits.chat_burst, self.limits.chat_per_minute / 60)
        if not bucket.take():
            raise TableError("chat_too_fast")

    def _typed(self, conn: Connection, text: str) -> int:
        """The move a text typed in the command box names: a card during the card play,
        else a bid."""
        if self.game is not None and not self.finished and self.game.phase == Phase.PLAYING:
            return self._typed_card(conn, text)
        return self._typed_bid(conn, text)

    def _typed_card(self, conn: Connection, text: str) -> int:
        """The play a typed text names ("JH", "fante di cuori", "KH belote"), read as the
        terminal reads it; whether it may be played is the engine's to say, as for a clicked
        card (:meth:`_act`: "you must follow suit", "you have no such card")."""
        seat_no = self.seat_of(conn)
        if seat_no is None:
            raise TableError("not_seated")
        assert self.game is not None
        try:
            return parse_card_play(text, conn.lang)
        except InvalidNotationError:
            pass
        # Not a card: the belote alone (the card just played; Space's work), or a
        # declaration of the first trick, typed in the same box.
        if is_belote_word(text):
            return A.ANNOUNCE_BELOTE  # refused with the engine's reason when it is not open
        with contextlib.suppress(BidNotAllowed, BidNotUnderstood):
            return parse_bid(text, self.game.legal_actions(seat_no), self.rules)
        raise TableError("card_not_understood")

    def _typed_bid(self, conn: Connection, text: str) -> int:
        """The legal bid a typed text names (any language), or a refusal saying why."""
        seat_no = self.seat_of(conn)
        if seat_no is None:
            raise TableError("not_seated")
        if self.game is None or self.finished:
            raise TableError("not_playing")
        if self.game.current_player() != seat_no:
            raise TableError("not_your_turn")
        try:
            return parse_bid(text, self.game.legal_actions(seat_no), self.rules)
        except BidNotAllowed as refused:  # the engine's reason, with the range allowed now
            why = refused_bid_text(self.game, seat_no, refused, conn.lang)
            raise TableError("bid_not_allowed", why) from None
        except BidNotUnderstood:
            return self._not_a_bid(conn, seat_no)

    def _not_a_bid(self, conn: Connection, seat_no: int) -> int:
        """The action a typed text that names no bid asks for, or a refusal saying why: while
        the seat may bid, a few calls it may make; while no bid is open (the card play), the
        engine's reason, never "not a bid" for what may be a card's name (typed card play
        reads the text here first)."""
        assert self.game is not None
        closed = no_bid_now(self.game, seat_no, conn.lang)
        if closed is not None:
            raise TableError("illegal", closed)
        legal = self.game.legal_actions(seat_no)
        raise TableError("bid_not_understood", bid_examples(legal, self.rules, conn.lang))

    async def _act(self, conn: Connection, action: int, version: int | None = None,
                   move: int = 0) -> None:
        seat_no = self.seat_of(conn)
        if seat_no is None:
            raise TableError("not_seated")
        if self.game is None or self.finished:
            raise TableError("not_playing")
        if action != A.ANNOUNCE_BELOTE:
            # (A belote announcement is checked against the window alone: pressing Space
            # just as the next frame arrives must not be refused once, then accepted.)
            self._check_fresh(version)
        try:  # the engine validates (once): a refused action changes and stores nothing
            # The client's id of the move is stored with it, so that a copy arriving later,
            # even after a restart, is confirmed as played rather than refused or replayed.
            await self._commit("act", {"seat": seat_no, "action": action,
                                       **({"move": move} if move else {})})
        except IllegalActionError:
            if self.game.current_player() != seat_no and action != A.ANNOUNCE_BELOTE:
                raise TableError("not_your_turn") from None
            raise IllegalMove(illegal_text(self.game, action, seat_no, conn.lang)) from None

    def _check_fresh(self, version: int | None) -> None:
        """A move chosen on a game that has moved on since (a double key press, a move held
        through a lost connection) is refused as stale."""
        if version is not None and self.game is not None and version < self.game_version:
            raise TableError("stale")

    # ------------------------------------------------------------------ seats (any task)
    def _holds_a_seat(self, uid: str) -> bool:
        return any(s.kind == "human" and s.owner == uid for s in self.seats)

    def _seating(self) -> list[Seat]:
        return [dataclasses.replace(s) for s in self.seats]

    async def _commit_seats(self, key: str, seat_no: int, before: list[Seat]) -> None:
        """Store the seating its caller just changed (``before``: as it was, restored if the
        change cannot be stored)."""
        await self._commit("seats", {"seats": [s.to_log() for s in self.seats],
                                     "key": key, "values": {"seat": seat_no}},
                           seats_before=before)

    @property
    def save_vote(self) -> SaveVote | None:
        """The request to save the match, while its vote is open."""
        return self.saving.vote

    @property
    def held(self) -> bool:
        """A saved table resumed, waiting for its people: a seat is still kept for one who
        has not come back.  Nothing moves meanwhile (no deal, no bot, no clock)."""
        return any(s.reserved for s in self.seats)

    def _check_seat(self, seat_no: int) -> None:
        """A seat of this table: the protocol allows 0..3, a 3- or 2-player table has fewer."""
        if not 0 <= seat_no < len(self.seats):
            raise TableError("bad_seat")

    async def sit(self, uid: str, name: str, seat_no: int, account: int | None = None) -> None:
        self._check_seat(seat_no)
        if self.finished:
            raise TableError("finished")
        if self._holds_a_seat(uid):
            raise TableError("already_seated")
        if self.seats[seat_no].kind != "empty":
            raise TableError("seat_taken")
        if account is not None and self.seat_gate is not None and not await self.seat_gate(
                account, [s.account for s in self.seats if s.account is not None],
                self.creator):
            # A block keeps this player away; the refusal is the room's generic one, the
            # same words as any refusal that gives no reason (nobody and no block named).
            raise TableError("forbidden")
        before = self._seating()
        self.seats[seat_no] = Seat("human", name, uid, account=account)
        await self._commit_seats("web.notice.sat", seat_no, before)

    async def stand(self, uid: str) -> None:
        for seat_no, seat in enumerate(self.seats):
            if seat.kind == "human" and seat.owner == uid:
                if self.fixed_deck is not None and self.game is not None:
                    # A fixed deal is its player's alone (no stand-in plays it): they may
                    # leave the page and come back, not hand the deal to a bot.
                    raise TableError("already_started")
                before = self._seating()
                if self.game is not None and not self.finished:
                    # The match goes on: a bot plays the seat until its player sits again.
                    seat.standin = True
                    seat.away_since = time.monotonic()
                    await self._commit_seats("web.notice.standin", seat_no, before)
                else:
                    self.seats[seat_no] = Seat()
                    await self._commit_seats("web.notice.stood", seat_no, before)
                return
        raise TableError("not_seated")

    async def remove_account(self, account: int) -> bool:
        """A moderator removes this account's player from the table (run in the table's
        task): during a match a bot takes the seat for good (its player cannot take it back,
        as after a stand-in), before it the seat is empty; their sockets here close, told
        why.  ``False``: the account holds no seat here."""
        for seat_no, seat in enumerate(self.seats):
            if seat.kind == "human" and seat.account == account:
                before = self._seating()
                owner = seat.owner
                playing = self.game is not None and not self.finished
                self.seats[seat_no] = Seat("bot", level=seat.level) if playing else Seat()
                timer = self._timers.pop(seat_no, None)
                if timer is not None:
                    timer.cancel()
                await self._commit("seats", {"seats": [s.to_log() for s in self.seats],
                                             "key": "web.moderation.notice.removed",
                                             "values": {"seat": seat_no, "name": seat.name}},
                                   seats_before=before)
                for conn in list(self.connections):
                    if conn.uid == owner or conn.account == account:
                        conn.send(P.encode_message(P.Error("removed", translate(
                            conn.lang, "web.moderation.said.removed")), self.version))
                        conn.close()
                return True
        return False

    async def seat_everyone(self, seats: list[Seat]) -> None:
        """Seat people chosen elsewhere (a tournament's draw) in one stored change; run it
        in the table's task (:meth:`call`)."""
        before = self._seating()
        self.seats = seats
        await self._commit_seats("web.notice.sat", 0, before)

    async def take_reserved(self, seat_no: int, owners: tuple[str, ...], uid: str,
                            account: int | None = None) -> bool:
        """The person ``uid`` takes seat ``seat_no``, held under one of ``owners``;
        ``False``: that seat is not (a seat is named by its place, never found by a name)."""
        if not 0 <= seat_no < len(self.seats) or self.seats[seat_no].owner not in owners:
            return False
        before = self._seating()
        self.seats[seat_no] = Seat("human", self.seats[seat_no].name, uid, account=account)
        await self._commit_seats("web.notice.sat", seat_no, before)
        return True

    async def fix_deal(self, deck: list[int]) -> None:
        """Make this table one fixed deal, before its match starts (the daily duplicate,
        belote/server/daily): a "fixed_deal" log entry sets ``fixed_deck``.  Such a table
        deals that deck, ends once the deal is over (scored or passed out), and lets no bot
        stand in for its player (who may leave and come back, never stand up)."""
        if self.game is not None or self.finished:
            raise TableError("already_started")
        await self._commit("fixed_deal", {"deck": list(deck)})

    async def hand_to_bots(self) -> None:
        """A fixed deal whose day closed: a bot finishes it for its absent player (it no
        longer counts), so that the table ends, its replay is whole and no restart resumes
        it for ever.  A player at the table now keeps the seat (asked again later)."""
        if self.fixed_deck is None or self.finished or self.game is None:
            return
        for seat_no, seat in enumerate(self.seats):
            if (seat.kind == "human" and not seat.standin
                    and not any(self.seat_of(c) == seat_no for c in self.connections)):
                before = self._seating()
                seat.standin = True
                await self._commit_seats("web.notice.standin", seat_no, before)

    async def start_match(self, first_dealer: int) -> None:
        """Start the match (the seats being full), as a seated host's start does."""
        if self.game is not None or self.finished:
            raise TableError("already_started")
        if any(s.kind == "empty" for s in self.seats):
            raise TableError("seats_empty")
        await self._commit("start", {"first_dealer": first_dealer % len(self.seats)})

    def _check_host(self, uid: str) -> None:
        if self.game is not None or self.finished:
            raise TableError("already_started")
        if not self._holds_a_seat(uid):
            raise TableError("not_seated")

    async def add_bot(self, uid: str, seat_no: int, level: str) -> None:
        self._check_seat(seat_no)
        self._check_host(uid)
        if self.seats[seat_no].kind != "empty":
            raise TableError("seat_taken")
        if not seats_at(level, len(self.seats)):
            raise TableError("level_needs_four_seats")
        before = self._seating()
        self.seats[seat_no] = Seat("bot", "", None, level)
        await self._commit_seats("web.notice.bot_added", seat_no, before)

    async def remove_bot(self, uid: str, seat_no: int) -> None:
        self._check_seat(seat_no)
        self._check_host(uid)
        if self.seats[seat_no].kind != "bot":
            raise TableError("no_bot")
        before = self._seating()
        self.seats[seat_no] = Seat()
        await self._commit_seats("web.notice.bot_removed", seat_no, before)

    async def begin(self, uid: str) -> None:
        self._check_host(uid)
        if any(s.kind == "empty" for s in self.seats):
            raise TableError("seats_empty")
        first_dealer = secure_deck_source()()[0] % len(self.seats)
        await self._commit("start", {"first_dealer": first_dealer})

    # ------------------------------------------------------------------ the game moves on
    async def _drive(self) -> None:
        """Deal, let bots announce, finish the match, or start a bot thinking, as due."""
        while (self.game is not None and not self.finished and self.broken is None
               and not self.held):
            game = self.game
            if game.is_terminal():
                await self._finish()
                return
            if game.current_player() == CHANCE:
                if self.fixed_deck is not None:
                    if game.deal_no > 0:  # its one deal is over: scored or passed out
                        await self._finish()
                        return
                    await self._commit("deal", {"deck": list(self.fixed_deck)})
                    continue
                if self._pause_holds():
                    return  # a pause between hands: the players say when
                await self._commit("deal", {"deck": list(self._deck_source())})
                continue
            if await self._bot_window(game):
                continue
            mover = game.current_player()
            step = len(game.log)
            if self.seats[mover].bot_plays and self._thinking != (mover, step):
                self._thinking = (mover, step)
                self._bot_task = asyncio.create_task(self._bot_turn(mover, step))
            return

    async def _bot_window(self, game: Game) -> bool:
        """Ask a bot whose belote window is open whether it announces, through the bot path
        like any decision (at once for the levels that decide windows on the event loop:
        every built-in one, the expert included, belote.server.levels); True when
        it did.  Asked here, in the table's task, so that no card closes the window before
        the bot has answered; asked once per window (a bot that declines lets it close with
        the next card)."""
        window = [s for s in game.seats_with_open_window() if self.seats[s].bot_plays]
        if not window or self._window_asked == (window[0], len(game.log)):
            return False
        seat_no = window[0]
        self._window_asked = (seat_no, len(game.log))
        decision = await self.bots.decide(self.seats[seat_no].level,
                                          game.observation(seat_no), table=self.id,
                                          window=True, seats=self.seat_knowledge.context)
        if decision.action != A.ANNOUNCE_BELOTE:  # (the bot path checked it is legal)
            return False
        await self._commit("act", _bot_act(seat_no, decision))
        return True

    async def _bot_turn(self, seat_no: int, step: int) -> None:
        assert self.game is not None
        observation = self.game.observation(seat_no)
        started = time.monotonic()
        decision = await self.bots.decide(self.seats[seat_no].level, observation, table=self.id,
                                          seats=self.seat_knowledge.context)
        action = decision.action
        await asyncio.sleep(max(0.0, self.bot_delay - (time.monotonic() - started)))

        async def play() -> None:
            # Anything may have happened meanwhile (a player came back, a belote was
            # announced): act only if the game is exactly where the bot looked at it.
            self._thinking = None
            game = self.game
            # (Nor while the match is kept: a saved table's cards stay where they were.)
            if (game is not None and len(game.log) == step and not self.finished
                    and not self.held and self.seats[seat_no].bot_plays
                    and game.is_legal(action, seat_no)):
                await self._commit("act", _bot_act(seat_no, decision))
        await self._queue.put(play)

    async def _finish(self) -> None:
        assert self.game is not None
        names = seat_names(self.seats, "en")
        record = to_record(self.game, names, preset=self.preset)
        try:
            await self.store.finish(self.id, record)
        except Exception as error:
            raise StorageFailed(f"finish not stored: {error!r}") from error
        await self._commit("finish", {})
        self.publish(E.TableFinished(self.id, self.version, self.preset,
                                     tuple(self.game.totals), E.seating(self.seats),
                                     json.dumps(record)))
        for timer in self._timers.values():
            timer.cancel()


def _bot_act(seat_no: int, decision: Decision) -> dict[str, Any]:
    """The "act" log entry of a bot's decision."""
    data: dict[str, Any] = {"seat": seat_no, "action": decision.action}
    if decision.fallback is not None:
        # The bot ran out of time (or its worker failed): people are told that this move
        # was a quick one; the bot path has logged and counted why.
        data["quick"] = decision.fallback
    return data
