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
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from belote.engine import actions as A
from belote.engine.dealing import secure_deck_source
from belote.engine.events import Event
from belote.engine.state import CHANCE, Game
from belote.errors import IllegalActionError
from belote.i18n import describe_event, translate
from belote.records import to_record
from belote.rules import Rules, find_preset
from belote.server import protocol as P
from belote.server.bots import BotPool, think
from belote.server.persistence import LogEntry, Store
from belote.server.view import Viewer, illegal_text, seat_names, table_view

log = logging.getLogger(__name__)

RECENT = 40  # items a (re)joining client gets to review
SEND_QUEUE = 256  # frames a slow client may lag behind before it is dropped


@dataclass(slots=True)
class Seat:
    kind: str = "empty"  # empty | human | bot
    name: str = ""
    owner: str | None = None  # the session id of the human who sits here
    level: str = "normal"  # a bot's level, or the level of the bot standing in
    standin: bool = False  # a bot plays for the absent human
    away_since: float | None = None

    def to_log(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "owner": self.owner,
                "level": self.level, "standin": self.standin}

    @classmethod
    def from_log(cls, data: dict[str, Any]) -> Seat:
        return cls(kind=data["kind"], name=data["name"], owner=data["owner"],
                   level=data["level"], standin=data["standin"])

    @property
    def bot_plays(self) -> bool:
        return self.kind == "bot" or self.standin


@dataclass(eq=False)
class Connection:
    """One open WebSocket (or a test's stand-in): who it is and the frames waiting for it."""

    uid: str
    name: str
    lang: str = "en"
    verbosity: str = "normal"
    outbox: asyncio.Queue[str | None] = field(
        default_factory=lambda: asyncio.Queue(SEND_QUEUE))
    closed: bool = False

    def send(self, frame: str) -> None:
        if self.closed:
            return
        try:
            self.outbox.put_nowait(frame)
        except asyncio.QueueFull:
            # A client this far behind resyncs when it comes back.
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.outbox.put_nowait(None)


@dataclass(frozen=True, slots=True)
class Notice:
    """A room message that is not a game event (a seat change, a chat line)."""

    key: str
    values: dict[str, Any]
    chat: bool = False


Item = Event | Notice


class TableError(Exception):
    """A request the table refuses; ``code`` names the ``error.web.*`` message."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class IllegalMove(Exception):
    """A move the rules refuse; ``text`` says why, in the player's language."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


class Table:
    def __init__(self, table_id: int, preset: str, flags: dict[str, Any], store: Store,
                 bots: BotPool, *, takeover_seconds: float = 30.0, bot_delay: float = 0.8,
                 on_change: Callable[[Table], None] | None = None) -> None:
        self.id = table_id
        self.preset = preset
        self.flags = flags
        self.rules: Rules = find_preset(preset).with_flags(**flags)
        self.store = store
        self.bots = bots
        self.takeover_seconds = takeover_seconds
        self.bot_delay = bot_delay
        self.on_change = on_change
        self.seats = [Seat() for _ in range(4)]
        self.game: Game | None = None
        self.version = 0
        self.finished = False
        self.connections: set[Connection] = set()
        self.recent: deque[tuple[int, Item]] = deque(maxlen=RECENT)
        self._queue: asyncio.Queue[Callable[[], Awaitable[None]]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._thinking: tuple[int, int] | None = None  # (seat, version) a bot is deciding
        self._timers: dict[int, asyncio.Task[None]] = {}
        self._bot_task: asyncio.Task[None] | None = None
        self._deck_source = secure_deck_source()

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"table-{self.id}")

    async def stop(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        if self._bot_task is not None:
            self._bot_task.cancel()
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        await self._drive()
        while True:
            command = await self._queue.get()
            try:
                await command()
                await self._drive()
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
                return
            if not future.done():
                future.set_result(result)

        await self._queue.put(command)
        return await future

    # ------------------------------------------------------------------ restore
    async def restore(self, entries: list[LogEntry]) -> None:
        """Rebuild the table from its stored log (after a restart): nothing is broadcast."""
        for entry in entries:
            self._replay(entry)
            self.version = entry.version
        if self.game is not None and not self.finished:
            now = time.monotonic()
            for seat_no, seat in enumerate(self.seats):
                if seat.kind == "human" and not seat.standin:
                    seat.away_since = now
                    self._arm_takeover(seat_no)

    def _replay(self, entry: LogEntry) -> list[Item]:
        data = entry.data
        items: list[Item] = []
        if entry.kind == "seats":
            self.seats = [Seat.from_log(s) for s in data["seats"]]
            items.append(Notice(data["key"], data["values"]))
        elif entry.kind == "start":
            self.game = Game(self.rules, data["first_dealer"])
            items.append(Notice("web.notice.started", {}))
        elif entry.kind == "deal":
            assert self.game is not None
            items.extend(self.game.deal(data["deck"]))
        elif entry.kind == "act":
            assert self.game is not None
            items.extend(self.game.apply(data["action"], data["seat"]))
        elif entry.kind == "chat":
            items.append(Notice("web.chat.line", {"name": data["name"], "text": data["text"]},
                                chat=True))
        elif entry.kind == "finish":
            self.finished = True
        else:
            raise ValueError(f"table {self.id}: unknown log entry {entry.kind!r}")
        for item in items:
            self.recent.append((entry.version, item))
        return items

    async def _commit(self, kind: str, data: dict[str, Any]) -> None:
        """Store a change, apply it, then tell every connection: in that order."""
        entry = LogEntry(self.version + 1, kind, data)
        if kind == "act":
            # Check before storing: a change the engine refuses must never reach the log.
            assert self.game is not None
            if not self.game.is_legal(data["action"], data["seat"]):
                raise IllegalActionError(self.game.explain_illegal(data["action"], data["seat"]))
        await self.store.append(self.id, entry.version, kind, data)
        items = self._replay(entry)
        self.version = entry.version
        self._broadcast(items)
        if self.on_change is not None and kind in ("seats", "start", "finish"):
            self.on_change(self)

    # ------------------------------------------------------------------ broadcasting
    def seat_of(self, conn: Connection) -> int | None:
        for seat_no, seat in enumerate(self.seats):
            if seat.kind == "human" and seat.owner == conn.uid:
                return seat_no
        return None

    def _viewer(self, conn: Connection) -> Viewer:
        return Viewer(self.seat_of(conn), conn.lang, conn.verbosity)

    def _texts(self, items: list[Item], viewer: Viewer) -> list[dict[str, Any]]:
        names = seat_names(self.seats, viewer.lang)
        texts: list[dict[str, Any]] = []
        for item in items:
            if isinstance(item, Notice):
                values = dict(item.values)
                if "seat" in values:
                    values["player"] = names[values["seat"]]
                texts.append({"kind": "chat" if item.chat else "notice",
                              "text": translate(viewer.lang, item.key, **values)})
                continue
            text = describe_event(item, viewer.lang, viewer.seat, names, viewer.verbosity,  # type: ignore[arg-type]
                                  self.rules)
            if text is not None:
                texts.append({"kind": item.kind, "text": text})
        return texts

    def _frame(self, conn: Connection, kind: str, items: list[Item]) -> str:
        viewer = self._viewer(conn)
        data = {"events": self._texts(items, viewer), "view": self.view(viewer)}
        return P.encode(kind, data, self.version)

    def view(self, viewer: Viewer) -> dict[str, Any]:
        return table_view(self, viewer)

    def _broadcast(self, items: list[Item]) -> None:
        for conn in list(self.connections):
            conn.send(self._frame(conn, "update", items))

    def send_error(self, conn: Connection, code: str, detail: str = "") -> None:
        text = translate(conn.lang, f"error.web.{code}")
        conn.send(P.encode("error", {"code": code, "text": text, "detail": detail},
                           self.version))

    # ------------------------------------------------------------------ clients
    async def join(self, conn: Connection) -> None:
        async def run() -> None:
            seat_no = self.seat_of(conn)
            if seat_no is not None:
                # The others hear of the return first; the newcomer's first frame is its sync.
                await self._came_back(seat_no)
            self.connections.add(conn)
            conn.send(self._frame(conn, "sync", [item for _, item in self.recent]))
        await self.call(run)

    async def leave(self, conn: Connection) -> None:
        async def run() -> None:
            self.connections.discard(conn)
            if self.finished and not self.connections and self.on_change is not None:
                self.on_change(self)  # the room may let a finished table go
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

    async def _came_back(self, seat_no: int) -> None:
        seat = self.seats[seat_no]
        seat.away_since = None
        timer = self._timers.pop(seat_no, None)
        if timer is not None:
            timer.cancel()
        if seat.standin:
            seat.standin = False
            await self._commit_seats("web.notice.back", seat_no)
        else:
            self._broadcast([])

    def _arm_takeover(self, seat_no: int) -> None:
        old = self._timers.pop(seat_no, None)
        if old is not None:
            old.cancel()

        async def expire() -> None:
            await asyncio.sleep(self.takeover_seconds)

            async def take_over() -> None:
                seat = self.seats[seat_no]
                if (seat.kind == "human" and seat.away_since is not None and not seat.standin
                        and not self.finished):
                    seat.standin = True
                    await self._commit_seats("web.notice.standin", seat_no)
            await self._queue.put(take_over)

        self._timers[seat_no] = asyncio.create_task(expire())

    async def handle(self, conn: Connection, message: P.Inbound) -> None:
        """A client's message; a refusal becomes an error frame to that client only."""
        async def run() -> None:
            try:
                await self._handle(conn, message)
            except TableError as error:
                self.send_error(conn, error.code)
            except IllegalMove as error:
                self.send_error(conn, "illegal", error.text)
        await self.call(run)

    async def _handle(self, conn: Connection, message: P.Inbound) -> None:
        match message:
            case P.Hello():
                seat_no = self.seat_of(conn)
                if seat_no is not None and self.seats[seat_no].standin:
                    await self._came_back(seat_no)  # "take my seat back"
                conn.send(self._frame(conn, "sync", [item for _, item in self.recent]))
            case P.Act(action):
                await self._act(conn, action)
            case P.Sit(seat_no):
                await self.sit(conn.uid, conn.name, seat_no)
            case P.Stand():
                await self.stand(conn.uid)
            case P.AddBot(seat_no, level):
                await self.add_bot(conn.uid, seat_no, level)
            case P.RemoveBot(seat_no):
                await self.remove_bot(conn.uid, seat_no)
            case P.Start():
                await self.begin(conn.uid)
            case P.Chat(text):
                if not conn.name:
                    raise TableError("sign_in")  # anonymous watchers listen only
                await self._commit("chat", {"name": conn.name, "text": text})
            case P.Ping():
                conn.send(P.encode("pong", {}, self.version))

    async def _act(self, conn: Connection, action: int) -> None:
        seat_no = self.seat_of(conn)
        if seat_no is None:
            raise TableError("not_seated")
        if self.game is None or self.finished:
            raise TableError("not_playing")
        if not self.game.is_legal(action, seat_no):
            if self.game.current_player() != seat_no and action != A.ANNOUNCE_BELOTE:
                raise TableError("not_your_turn")
            raise IllegalMove(illegal_text(self.game, action, seat_no, conn.lang))
        await self._commit("act", {"seat": seat_no, "action": action})

    # ------------------------------------------------------------------ seats (any task)
    def _holds_a_seat(self, uid: str) -> bool:
        return any(s.kind == "human" and s.owner == uid for s in self.seats)

    async def _commit_seats(self, key: str, seat_no: int) -> None:
        await self._commit("seats", {"seats": [s.to_log() for s in self.seats],
                                     "key": key, "values": {"seat": seat_no}})

    async def sit(self, uid: str, name: str, seat_no: int) -> None:
        if self.finished:
            raise TableError("finished")
        if self._holds_a_seat(uid):
            raise TableError("already_seated")
        if self.seats[seat_no].kind != "empty":
            raise TableError("seat_taken")
        self.seats[seat_no] = Seat("human", name, uid)
        await self._commit_seats("web.notice.sat", seat_no)

    async def stand(self, uid: str) -> None:
        for seat_no, seat in enumerate(self.seats):
            if seat.kind == "human" and seat.owner == uid:
                if self.game is not None and not self.finished:
                    # The match goes on: a bot plays the seat until its player sits again.
                    seat.standin = True
                    seat.away_since = time.monotonic()
                    await self._commit_seats("web.notice.standin", seat_no)
                else:
                    self.seats[seat_no] = Seat()
                    await self._commit_seats("web.notice.stood", seat_no)
                return
        raise TableError("not_seated")

    def _check_host(self, uid: str) -> None:
        if self.game is not None or self.finished:
            raise TableError("already_started")
        if not self._holds_a_seat(uid):
            raise TableError("not_seated")

    async def add_bot(self, uid: str, seat_no: int, level: str) -> None:
        self._check_host(uid)
        if self.seats[seat_no].kind != "empty":
            raise TableError("seat_taken")
        self.seats[seat_no] = Seat("bot", "", None, level)
        await self._commit_seats("web.notice.bot_added", seat_no)

    async def remove_bot(self, uid: str, seat_no: int) -> None:
        self._check_host(uid)
        if self.seats[seat_no].kind != "bot":
            raise TableError("no_bot")
        self.seats[seat_no] = Seat()
        await self._commit_seats("web.notice.bot_removed", seat_no)

    async def begin(self, uid: str) -> None:
        self._check_host(uid)
        if any(s.kind == "empty" for s in self.seats):
            raise TableError("seats_empty")
        first_dealer = secure_deck_source()()[0] % 4
        await self._commit("start", {"first_dealer": first_dealer})

    # ------------------------------------------------------------------ the game moves on
    async def _drive(self) -> None:
        """Deal, let bots announce, finish the match, or start a bot thinking, as due."""
        while self.game is not None and not self.finished:
            game = self.game
            if game.is_terminal():
                await self._finish()
                return
            if game.current_player() == CHANCE:
                await self._commit("deal", {"deck": list(self._deck_source())})
                continue
            window = [s for s in game.seats_with_open_window() if self.seats[s].bot_plays]
            if window:
                seat_no = window[0]
                choice = think(self.seats[seat_no].level, game.observation(seat_no))
                if choice == A.ANNOUNCE_BELOTE:
                    await self._commit("act", {"seat": seat_no, "action": choice})
                    continue
                # A bot that declines lets the window close with the next card.
            mover = game.current_player()
            step = len(game.log)
            if self.seats[mover].bot_plays and self._thinking != (mover, step):
                self._thinking = (mover, step)
                self._bot_task = asyncio.create_task(self._bot_turn(mover, step))
            return

    async def _bot_turn(self, seat_no: int, step: int) -> None:
        assert self.game is not None
        observation = self.game.observation(seat_no)
        started = time.monotonic()
        decision = await self.bots.choose(self.seats[seat_no].level, observation, table=self.id)
        action = decision.action
        await asyncio.sleep(max(0.0, self.bot_delay - (time.monotonic() - started)))

        async def play() -> None:
            # Anything may have happened meanwhile (a player came back, a belote was
            # announced): act only if the game is exactly where the bot looked at it.
            self._thinking = None
            game = self.game
            if (game is not None and len(game.log) == step and not self.finished
                    and self.seats[seat_no].bot_plays and game.is_legal(action, seat_no)):
                await self._commit("act", {"seat": seat_no, "action": action})
        await self._queue.put(play)

    async def _finish(self) -> None:
        assert self.game is not None
        names = seat_names(self.seats, "en")
        record = to_record(self.game, names, preset=self.preset)
        await self.store.finish(self.id, record)
        await self._commit("finish", {})
        for timer in self._timers.values():
            timer.cancel()
