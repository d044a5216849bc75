"""Reports and the moderators' actions, each checked, stored with its audit row and
enforced in every process of the room.

What is in force lives in the database (:mod:`.store`): a chat line, a seat taken or a
sign-in asks it, whichever process serves them.  What must happen at once goes over the
room's news between processes (:class:`belote.server.cluster.node.Node`; alone, directly):
a warning or a mute told to the person's open sockets; a suspended or banned account's
sessions end through :meth:`Sessions.end_account`, which has every process forget them (their
rows are deleted, and their sockets close through the sessions' ``on_end``, as when a person
signs out everywhere).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from belote.i18n import translate
from belote.server import protocol as P
from belote.server.auth.sessions import Sessions
from belote.server.cluster.node import Node
from belote.server.connection import Connection
from belote.server.lobby import LobbyFeed
from belote.server.moderation.store import (
    BARRED,
    SANCTION_KINDS,
    AlreadyReported,
    ModerationStore,
    Sanction,
)
from belote.server.persistence.rate_limits import RateLimits
from belote.server.room import Room
from belote.server.table import TableError
from belote.text import printable

log = logging.getLogger(__name__)

REASONS = ("abuse", "cheating", "unsportsmanlike", "name", "other")  # a report's reasons
ACTIONS = SANCTION_KINDS  # a moderator's actions
CLOSINGS = ("resolved", "dismissed")  # how a report is closed
TIMED = ("mute", "suspend")  # actions with a duration (a mute may also last until lifted)
HOURS = (1, 24, 72, 168, 720)  # the durations offered, in hours
TEXT_MAX = 500  # characters of a report's text or a moderator's reason
REPORTS_PER_HOUR = 5  # reports one account may file in an hour...
REPORTS_PER_DAY = 20  # ...and in a day (in the database: the same in every process)
DAY = 86_400.0
NEWS = "moderation"  # the kind of the room's news that carries what is said at once


class ModerationError(Exception):
    """A refused report or action (``code``: its message, ``web.moderation.error.<code>``,
    or ``key`` where the message is named apart); nothing was changed."""

    def __init__(self, code: str, key: str | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.key = key or f"web.moderation.error.{code}"


def _now() -> datetime:
    return datetime.now(UTC)


def moment(value: datetime) -> str:
    """A moment as the room's pages say it (UTC, to the minute)."""
    return value.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def sanction_text(lang: str, sanction: Sanction) -> str:
    """What a person is told of a sanction on them: what, until when, and why."""
    key = f"web.moderation.said.{sanction.kind}"
    if sanction.kind in TIMED and sanction.until is None:
        key += "_open"
    until = moment(sanction.until) if sanction.until is not None else ""
    # The reason ends the sentence the message makes: its own final stop is dropped.
    return translate(lang, key, until=until, reason=sanction.reason.rstrip(" ."))


def clean_text(value: str, limit: int = TEXT_MAX) -> str:
    """A person's free text, checked: printable, trimmed; too long is refused."""
    text = printable(" ".join(value.split()))
    if len(text) > limit:
        raise ModerationError("too_long")
    return text


@dataclass(frozen=True, slots=True)
class Told:
    """What one process does with the room's moderation news (see :meth:`Moderation.hear`)."""

    kind: str  # tell (a warning or a mute, to the person's open sockets)
    account: int
    sanction: int | None = None


class Moderation:
    def __init__(self, store: ModerationStore, sessions: Sessions, room: Room,
                 lobby: LobbyFeed, limits: RateLimits, node: Node | None = None,
                 clock: Callable[[], datetime] = _now) -> None:
        self.store = store
        self.sessions = sessions
        self.room = room
        self.lobby = lobby
        self.node = node
        self.clock = clock
        self.per_hour = limits.window("reports_hour", REPORTS_PER_HOUR, 3600.0)
        self.per_day = limits.window("reports_day", REPORTS_PER_DAY, DAY)
        self._tasks: set[asyncio.Task[Any]] = set()
        if node is not None:
            node.on_news(NEWS, lambda data: self.hear(Told(**data)))

    # ------------------------------------------------------------------ reports
    async def was_at(self, account: int, table_id: int, uid: str | None = None) -> bool:
        """Whether this account was at the table: seated there or speaking in its chat at
        any moment (its log), made it (``uid``: the session asking), or has a socket open
        there now.  Only such a person is offered the table's people to report: the
        others would learn who plays where, and a report from them is refused."""
        return (await self.store.was_at(table_id, account, uid)
                or await self.room.watching(table_id, account))

    async def report(self, reporter: int, target: int, table_id: int | None, reason: str,
                     text: str, uid: str | None = None) -> int:
        """File a report; its context (the table's seats, its recent chat lines and the
        person's own last lines there) is read from the table's log here, never taken from
        the reporter.  Refused (:class:`ModerationError`, nothing stored): a reason not
        offered, a text too long, oneself, an unknown account, a table the reporter was not
        at (:meth:`was_at`, ``uid`` the reporter's session) or where the person was never
        seen, too many reports, an open report on the same person at the same table."""
        if reason not in REASONS:
            raise ModerationError("bad_reason")
        words = clean_text(text)
        if target == reporter:
            raise ModerationError("self")
        if not await self.store.names({target}):
            raise ModerationError("no_player")
        context: dict[str, Any] = {}
        if table_id is not None:
            found = await self.store.table_context(table_id, target)
            if found is None:
                raise ModerationError("no_table")
            if not await self.was_at(reporter, table_id, uid):
                raise ModerationError("not_your_table")
            # Seen there at any moment of the table's log (seated, or speaking), as the
            # reporter: someone who stood up, or whose lines scrolled away, still counts.
            if not await self.store.was_at(table_id, target):
                raise ModerationError("not_at_table")
            context = found.to_data()
        key = f"account:{reporter}"
        if await self.per_hour.blocked(key) or await self.per_day.blocked(key):
            log.info("report by account %s refused: too many", reporter)
            raise ModerationError("too_many")
        now = self.clock()
        context["at"] = now.isoformat()
        try:
            report_id = await self.store.add_report(reporter, target, table_id, reason,
                                                    words, context, now)
        except AlreadyReported:
            raise ModerationError("already_reported") from None
        await self.per_hour.hit(key)
        await self.per_day.hit(key)
        log.info("report %d filed by account %s on account %s (%s)", report_id, reporter,
                 target, reason)
        return report_id

    # ------------------------------------------------------------------ actions
    async def is_moderator(self, account: int | None) -> bool:
        return account is not None and await self.store.is_moderator(account)

    async def act(self, moderator: int, account: int, action: str, reason: str, *,
                  hours: int | None = None, report: int | None = None,
                  table_id: int | None = None) -> int:
        """Take ``action`` on ``account`` (stored and audited, then enforced); its id.
        ``hours``: how long a mute or a suspension lasts (None: a mute until lifted);
        ``table_id``: the table a removal is from."""
        if action not in ACTIONS:
            raise ModerationError("bad_action")
        words = clean_text(reason)
        if not words:
            raise ModerationError("no_reason")
        if account == moderator:
            raise ModerationError("self")
        if not await self.store.names({account}):
            raise ModerationError("no_player")
        if await self.store.is_moderator(account):
            # One moderator (a rogue one, or a stolen account) could else silence or ban
            # all the others, who could not sign in to undo it: a moderator loses the role
            # first, from the command line (``belote moderator remove``).
            raise ModerationError("moderator", "modfix.moderation.error.moderator")
        if report is not None:
            answered = await self.store.report(report)
            if answered is None or answered.target != account:
                raise ModerationError("no_report")  # a report on someone else, or none
        if hours is not None and hours not in HOURS:
            raise ModerationError("bad_duration")
        if action not in TIMED:
            hours = None  # a warning, a removal or a ban has no duration: the field is moot
        if action == "suspend" and hours is None:
            raise ModerationError("bad_duration")
        now = self.clock()
        until = now + timedelta(hours=hours) if hours is not None else None
        if action == "remove":
            if table_id is None:
                raise ModerationError("no_table")
            try:
                removed = await self.room.remove_account(table_id, account)
            except TableError:
                raise ModerationError("no_table") from None
            if not removed:
                raise ModerationError("not_seated")
        sanction_id = await self.store.add_sanction(
            account, action, words, now, until, moderator, report,
            table_id if action == "remove" else None)
        log.info("moderation: %s on account %s by moderator %s (sanction %d)", action,
                 account, moderator, sanction_id)
        if action in BARRED:
            await self._end_sessions(account)
        elif action in ("warn", "mute"):
            self._spread(Told("tell", account, sanction_id))
        return sanction_id

    async def lift(self, moderator: int, sanction_id: int, reason: str) -> Sanction:
        """Lift a sanction in force (audited): a warning is withdrawn (not said any more at
        the next page load), a mute, a removal, a suspension or a ban ends now."""
        words = clean_text(reason)
        if not words:
            raise ModerationError("no_reason")
        lifted = await self.store.lift(sanction_id, moderator, words, self.clock())
        if lifted is None:
            raise ModerationError("not_in_force")
        log.info("moderation: sanction %d (%s on account %s) lifted by moderator %s",
                 sanction_id, lifted.kind, lifted.account, moderator)
        return lifted

    async def close(self, moderator: int, report_id: int, status: str, reason: str) -> None:
        if status not in CLOSINGS:
            raise ModerationError("bad_action")
        words = clean_text(reason)
        if not words:
            raise ModerationError("no_reason")
        if not await self.store.close_report(report_id, status, moderator, words,
                                             self.clock()):
            raise ModerationError("not_open")

    # ------------------------------------------------------------------ in force
    async def muted(self, account: int | None) -> Sanction | None:
        if account is None:
            return None
        found = await self.store.in_force(account, ("mute",), self.clock())
        return found[0] if found else None

    async def barred(self, account: int | None) -> Sanction | None:
        """A suspension or a ban in force on this account (a ban first)."""
        if account is None:
            return None
        found = await self.store.in_force(account, BARRED, self.clock())
        return found[0] if found else None

    async def removed_from(self, account: int | None, table_id: int) -> bool:
        """Whether a removal from this table stands (its person cannot sit there again)."""
        if account is None:
            return False
        found = await self.store.in_force(account, ("remove",), self.clock())
        return any(s.table_id == table_id for s in found)

    async def chat_refusal(self, account: int | None, lang: str) -> str | None:
        """Why this person may not chat now (a mute in force), in ``lang``; None: they may."""
        mute = await self.muted(account)
        return None if mute is None else sanction_text(lang, mute)

    async def table_chat_refusal(self, account: int | None, table_id: int,
                                 lang: str) -> tuple[str, str] | None:
        """Why this person may not chat at this table now, in ``lang``, with its code: a
        mute in force (``muted``), or a removal from this table that stands (``removed``:
        out of its seats and its chat, even watching); None: they may."""
        if account is None:
            return None
        found = await self.store.in_force(account, ("mute", "remove"), self.clock())
        for sanction in found:
            if sanction.kind == "mute":
                return "muted", sanction_text(lang, sanction)
        if any(s.table_id == table_id for s in found):
            return "removed", translate(lang, "modfix.chat.removed")
        return None

    async def notices(self, account: int) -> list[Sanction]:
        """Warnings not yet told (said at the next page load)."""
        return await self.store.unseen_warnings(account)

    async def seen(self, account: int, ids: list[int]) -> int:
        return await self.store.mark_seen(account, ids, self.clock())

    # ------------------------------------------------------------------ enforcement
    async def _end_sessions(self, account: int) -> None:
        """Every session of the account ends (their sockets close, in every process: the
        sessions' ``on_end``), and every process forgets them at once."""
        await self.sessions.end_account(account)

    def _spread(self, told: Told) -> None:
        node = self.node
        data = {"kind": told.kind, "account": told.account, "sanction": told.sanction}
        if node is not None:
            node.tell_all(NEWS, data)  # every process, this one included
        else:
            self.hear(told)

    def _connections(self, account: int) -> Iterable[Connection]:
        room, lobby = self.room, self.lobby
        for table in room.tables.values():
            yield from (c for c in table.connections if c.account == account)
        yield from (c for c in lobby.listeners if c.account == account)

    def hear(self, told: Told) -> None:
        """The room's moderation news, in this process."""
        if told.kind == "tell" and told.sanction is not None:
            self._spawn(self._tell(told.account, told.sanction))

    async def _tell(self, account: int, sanction_id: int) -> None:
        """Say a warning or a mute to the person's open sockets here; a warning said is
        marked seen (not said again at the next page load)."""
        conns = [c for c in self._connections(account) if not c.closed]
        if not conns:
            return
        found = [s for s in await self.store.in_force(account, ("warn", "mute"), self.clock())
                 if s.id == sanction_id]
        if not found:
            return
        for conn in conns:
            conn.send(P.encode_message(P.Error("moderation", sanction_text(
                conn.lang, found[0])), 0))
        if found[0].kind == "warn":
            await self.seen(account, [sanction_id])

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)

        def done(finished: asyncio.Task[Any]) -> None:
            self._tasks.discard(finished)
            if not finished.cancelled() and finished.exception() is not None:
                log.error("moderation: telling a person failed",
                          exc_info=finished.exception())
        task.add_done_callback(done)
