"""Reading and writing the moderation's tables (:mod:`.schema`).

Every action is written with its audit row in one transaction: a sanction without its row in
``moderation_log`` (or the reverse) never exists.  What is in force is read from the
database at each use (a chat line, a sign-in), so that every process of the room enforces
the same decisions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Select, and_, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlalchemy.sql.elements import ColumnElement

from belote.server.moderation.schema import account_roles, moderation_log, reports, sanctions
from belote.server.persistence.schema import DELETED_NAME, table_log, tables, users

MODERATOR = "moderator"
CHAT_LINES_KEPT = 20  # the table's chat lines a report keeps, the newest...
TARGET_LINES_KEPT = 10  # ...and the reported person's own last lines there...
LINES_BEFORE_KEPT = 5  # ...with the lines just before the last of them (what it answered)
TARGET_LINES_READ = 40  # rows read to find them (a line may only quote the account's mark)
SEATINGS_READ = 200  # a table's seatings read for who sat there earlier (each sit, stand...)
BARRED = ("suspend", "ban")  # cannot sign in or play
SANCTION_KINDS = ("warn", "mute", "remove", "suspend", "ban")  # a moderator's actions
COMMAND_LINE_LIFT = "lift_cli"  # the audit's action for a lift from the command line


class AlreadyReported(Exception):
    """The reporter has an open report on this person at this table already."""


@dataclass(frozen=True, slots=True)
class Report:
    id: int
    reporter: int | None  # None: the account was deleted (the name is DELETED_NAME)
    reporter_name: str
    target: int | None  # None: the account was deleted
    target_name: str
    table_id: int | None
    reason: str
    text: str
    context: dict[str, Any]
    created: datetime
    status: str


@dataclass(frozen=True, slots=True)
class Sanction:
    id: int
    account: int
    kind: str
    reason: str
    created: datetime
    until: datetime | None
    lifted: datetime | None
    report: int | None
    table_id: int | None = None


@dataclass(frozen=True, slots=True)
class AuditRow:
    at: datetime
    moderator: str | None
    action: str
    account: str | None
    report: int | None
    reason: str
    sanction: int | None = None


@dataclass(frozen=True, slots=True)
class TableContext:
    """What the table's log says, at the moment of a report: who sat where (``left``: who
    sat there earlier only, at their last seat), and chat lines in the order they were said
    (``version``, speaker's name, text, speaker's account or None)."""

    seats: list[dict[str, Any]] = field(default_factory=list)
    chat: list[dict[str, Any]] = field(default_factory=list)
    left: list[dict[str, Any]] = field(default_factory=list)

    def to_data(self) -> dict[str, Any]:
        return {"seats": self.seats, "chat": self.chat, "left": self.left}


def _id(value: object) -> int | None:
    return None if value is None else int(value)  # type: ignore[call-overload]


def _name(account: object, name: object) -> str:
    """A report's person's name; "deleted player" once the account is gone."""
    return DELETED_NAME if account is None else str(name)


def _shows(kind: str, data: dict[str, Any], account: int) -> bool:
    """Whether a log entry (a seating, a chat line) names ``account``."""
    if kind == "seats":
        return any(isinstance(s, dict) and s.get("account") == account
                   for s in data.get("seats", []))
    return data.get("account") == account


def _marks(account: int) -> ColumnElement[bool]:
    """Log rows whose text may name ``account`` (each is read to be sure: :func:`_shows`;
    a chat line may quote that text)."""
    data = table_log.c.data
    return or_(data.like(f'%"account":{account}%'), data.like(f'%"account": {account}%'))


def in_force(now: datetime) -> ColumnElement[bool]:
    """Sanctions not lifted and not past their end."""
    return and_(sanctions.c.lifted.is_(None),
                or_(sanctions.c.until.is_(None), sanctions.c.until > now))


def barred_accounts(now: datetime) -> Select[int]:
    """The accounts with a suspension or a ban in force (a subquery: the daily's ranking and
    the league's standings leave them out, keeping their rows)."""
    return select(sanctions.c.account).where(sanctions.c.kind.in_(BARRED), in_force(now))


class ModerationStore:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    # ------------------------------------------------------------------ accounts and roles
    async def account_named(self, name: str) -> tuple[int, str] | None:
        """(id, name) of the account called exactly ``name`` (the command line's look-up)."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(users.c.id, users.c.name)
                                      .where(users.c.name == name))).first()
        return None if row is None else (int(row[0]), str(row[1]))

    async def names(self, ids: set[int]) -> dict[int, str]:
        if not ids:
            return {}
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(users.c.id, users.c.name)
                                      .where(users.c.id.in_(sorted(ids))))
            return {int(i): str(n) for i, n in rows}

    async def is_moderator(self, account: int) -> bool:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(account_roles.c.account).where(
                account_roles.c.account == account,
                account_roles.c.role == MODERATOR))).first()
        return row is not None

    async def grant(self, account: int, now: datetime) -> bool:
        """Make ``account`` a moderator; ``False``: it was one already."""
        try:
            async with self.engine.begin() as conn:
                await conn.execute(insert(account_roles).values(
                    account=account, role=MODERATOR, granted=now))
        except IntegrityError:
            return False
        return True

    async def revoke(self, account: int) -> bool:
        """``False``: it was no moderator."""
        async with self.engine.begin() as conn:
            result = await conn.execute(account_roles.delete().where(
                account_roles.c.account == account, account_roles.c.role == MODERATOR))
        return bool(result.rowcount)

    async def moderators(self) -> list[tuple[int, str, datetime]]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(users.c.id, users.c.name, account_roles.c.granted)
                .join(users, users.c.id == account_roles.c.account)
                .where(account_roles.c.role == MODERATOR).order_by(users.c.name))
            return [(int(i), str(n), g) for i, n, g in rows]

    # ------------------------------------------------------------------ reports
    async def table_context(self, table_id: int,
                            target: int | None = None) -> TableContext | None:
        """The table's seats (its last seating; ``left``: people seated in an earlier one
        only, at their last seat) and its last chat lines, from its log; with ``target``,
        also that person's own last lines and the few just before the last of them, wherever
        they are in the log.  None: no such table.  Only the entries needed are read (a long
        match's log is large): the last ``SEATINGS_READ`` seatings at most."""
        c = table_log.c
        async with self.engine.connect() as conn:
            seatings = (await conn.execute(
                select(c.data).where(c.table_id == table_id, c.kind == "seats")
                .order_by(c.version.desc()).limit(SEATINGS_READ))).all()
            chat = [(int(v), str(d)) for v, d in await conn.execute(
                select(c.version, c.data).where(c.table_id == table_id, c.kind == "chat")
                .order_by(c.version.desc()).limit(CHAT_LINES_KEPT))]
            if target is not None:
                chat += await self._lines_of(conn, table_id, target)
            if not seatings and not chat:
                known = (await conn.execute(select(c.version).where(
                    c.table_id == table_id).limit(1))).first()
                if known is None:
                    return None
        seated: list[dict[str, Any]] = []
        left: dict[int, dict[str, Any]] = {}
        for order, (data,) in enumerate(seatings):  # the newest seating first
            for n, s in enumerate(json.loads(data).get("seats", [])):
                if not isinstance(s, dict) or s.get("kind") != "human":
                    continue
                seat = {"seat": n, "name": str(s.get("name", "")), "account": s.get("account")}
                if order == 0:
                    seated.append(seat)
                elif isinstance(seat["account"], int):
                    left.setdefault(seat["account"], seat)
        here = {s["account"] for s in seated}
        lines = []
        for version, data in sorted(set(chat)):
            line = json.loads(data)
            lines.append({"version": int(version), "name": str(line.get("name", "")),
                          "text": str(line.get("text", "")), "account": line.get("account")})
        return TableContext(seated, lines, [s for a, s in left.items() if a not in here])

    async def _lines_of(self, conn: AsyncConnection, table_id: int,
                        target: int) -> list[tuple[int, str]]:
        """The target's last chat lines at the table, and the lines just before the last
        of them (what they answered), as (version, data) rows."""
        c = table_log.c
        candidates = await conn.execute(
            select(c.version, c.data).where(c.table_id == table_id, c.kind == "chat",
                                            _marks(target))
            .order_by(c.version.desc()).limit(TARGET_LINES_READ))
        own = [(int(v), str(d)) for v, d in candidates
               if _shows("chat", json.loads(d), target)][:TARGET_LINES_KEPT]
        if not own:
            return []
        before = [(int(v), str(d)) for v, d in await conn.execute(
            select(c.version, c.data).where(c.table_id == table_id, c.kind == "chat",
                                            c.version < own[0][0])
            .order_by(c.version.desc()).limit(LINES_BEFORE_KEPT))]
        return own + before

    async def was_at(self, table_id: int, account: int, uid: str | None = None) -> bool:
        """Whether the table's log shows ``account`` at the table (seated at any moment of
        it, or speaking in its chat), or the session ``uid`` made the table.  Among the
        table's rows (its key), those that may name the account are found by their text
        (``"account":N``), and each is read to be sure (a chat line may quote that text)."""
        c = table_log.c
        marks = _marks(account)
        async with self.engine.connect() as conn:
            if uid is not None:
                creator = await conn.scalar(select(tables.c.creator)
                                            .where(tables.c.id == table_id))
                if creator is not None and str(creator) == uid:
                    return True
            rows = await conn.execute(select(c.kind, c.data).where(
                c.table_id == table_id, c.kind.in_(("seats", "chat")), marks))
            return any(_shows(str(kind), json.loads(data), account) for kind, data in rows)

    async def add_report(self, reporter: int, target: int, table_id: int | None, reason: str,
                         text: str, context: dict[str, Any], now: datetime) -> int:
        """A new open report; :class:`AlreadyReported` if the reporter has an open one on
        this person at this table (the unique ``open_key`` says so, in every process)."""
        key = f"{reporter}:{target}:{'-' if table_id is None else table_id}"
        try:
            async with self.engine.begin() as conn:
                result = await conn.execute(insert(reports).values(
                    reporter=reporter, target=target, table_id=table_id, reason=reason,
                    text=text, context=json.dumps(context), created=now, status="open",
                    open_key=key))
                return int(result.inserted_primary_key[0])  # type: ignore[index]
        except IntegrityError:
            raise AlreadyReported() from None

    def _reports_query(self) -> Any:
        reporter, target = users.alias("reporter_user"), users.alias("target_user")
        return (select(reports, reporter.c.name.label("reporter_name"),
                       target.c.name.label("target_name"))
                .outerjoin(reporter, reporter.c.id == reports.c.reporter)
                .outerjoin(target, target.c.id == reports.c.target))

    @staticmethod
    def _report(r: Any) -> Report:
        return Report(int(r.id), _id(r.reporter), _name(r.reporter, r.reporter_name),
                      _id(r.target), _name(r.target, r.target_name), _id(r.table_id),
                      str(r.reason), str(r.text), json.loads(r.context), r.created,
                      str(r.status))

    async def open_reports(self, limit: int = 100) -> list[Report]:
        """Open reports, oldest first."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(self._reports_query().where(
                reports.c.status == "open").order_by(reports.c.created, reports.c.id)
                .limit(limit))
            return [self._report(r) for r in rows]

    async def report(self, report_id: int) -> Report | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(self._reports_query().where(
                reports.c.id == report_id))).first()
        return None if row is None else self._report(row)

    async def close_report(self, report_id: int, status: str, moderator: int, reason: str,
                           now: datetime) -> bool:
        """Close an open report (audited); ``False``: it is not open (closed already)."""
        async with self.engine.begin() as conn:
            result = await conn.execute(update(reports).where(
                reports.c.id == report_id, reports.c.status == "open"
            ).values(status=status, open_key=None))
            if not result.rowcount:
                return False
            target = (await conn.execute(select(reports.c.target).where(
                reports.c.id == report_id))).scalar_one()
            await self._audit(conn, now, moderator, status, _id(target), report_id, None,
                              reason)
        return True

    # ------------------------------------------------------------------ sanctions
    async def add_sanction(self, account: int, kind: str, reason: str, now: datetime,
                           until: datetime | None, moderator: int, report: int | None,
                           table_id: int | None) -> int:
        """A sanction and its audit row, in one transaction."""
        async with self.engine.begin() as conn:
            result = await conn.execute(insert(sanctions).values(
                account=account, kind=kind, reason=reason, created=now, until=until,
                moderator=moderator, report=report, table_id=table_id))
            sanction_id = int(result.inserted_primary_key[0])  # type: ignore[index]
            await self._audit(conn, now, moderator, kind, account, report, sanction_id,
                              reason)
        return sanction_id

    async def lift(self, sanction_id: int, moderator: int | None, reason: str,
                   now: datetime) -> Sanction | None:
        """Lift a sanction still in force (audited); None: none such (lifted, ended).
        ``moderator`` None: from the command line (``belote moderator lift``), audited as
        such."""
        action = "lift" if moderator is not None else COMMAND_LINE_LIFT
        async with self.engine.begin() as conn:
            result = await conn.execute(update(sanctions).where(
                sanctions.c.id == sanction_id, in_force(now)
            ).values(lifted=now))
            if not result.rowcount:
                return None
            row = (await conn.execute(select(sanctions).where(
                sanctions.c.id == sanction_id))).one()
            await self._audit(conn, now, moderator, action, int(row.account), row.report,
                              sanction_id, reason)
        return self._sanction(row)

    @staticmethod
    def _sanction(r: Any) -> Sanction:
        return Sanction(int(r.id), int(r.account), str(r.kind), str(r.reason), r.created,
                        r.until, r.lifted, None if r.report is None else int(r.report),
                        None if r.table_id is None else int(r.table_id))

    async def in_force(self, account: int, kinds: tuple[str, ...],
                       now: datetime) -> list[Sanction]:
        """The account's sanctions of these kinds in force now, the longest-lasting first."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(sanctions).where(
                sanctions.c.account == account, sanctions.c.kind.in_(kinds), in_force(now)))
            found = [self._sanction(r) for r in rows]
        return sorted(found, key=lambda s: (s.until is not None, -(s.until or now).timestamp()))

    async def all_in_force(self, now: datetime, limit: int = 200) -> list[Sanction]:
        """Every sanction in force, oldest first (the queue shows each with its lifting):
        a warning stays in force until withdrawn, a removal keeps its person out of that
        table's seats."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(sanctions).where(in_force(now))
                                      .order_by(sanctions.c.id).limit(limit))
            return [self._sanction(r) for r in rows]

    async def unseen_warnings(self, account: int) -> list[Sanction]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(sanctions).where(
                sanctions.c.account == account, sanctions.c.kind == "warn",
                sanctions.c.seen.is_(None), sanctions.c.lifted.is_(None)
            ).order_by(sanctions.c.id))
            return [self._sanction(r) for r in rows]

    async def mark_seen(self, account: int, ids: list[int], now: datetime) -> int:
        if not ids:
            return 0
        async with self.engine.begin() as conn:
            result = await conn.execute(update(sanctions).where(
                sanctions.c.account == account, sanctions.c.id.in_(ids),
                sanctions.c.seen.is_(None)).values(seen=now))
        return int(result.rowcount)

    # ------------------------------------------------------------------ the audit log
    async def _audit(self, conn: AsyncConnection, now: datetime, moderator: int | None,
                     action: str, account: int | None, report: int | None,
                     sanction: int | None, reason: str) -> None:
        await conn.execute(insert(moderation_log).values(
            at=now, moderator=moderator, action=action, account=account, report=report,
            sanction=sanction, reason=reason))

    async def audit(self, limit: int = 50) -> list[AuditRow]:
        """The newest rows of the audit log, newest first."""
        mod, who = users.alias("mod_user"), users.alias("who_user")
        log = moderation_log.c
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(log.at, mod.c.name, log.action, who.c.name, log.report, log.reason,
                       log.sanction)
                .outerjoin(mod, mod.c.id == log.moderator)
                .outerjoin(who, who.c.id == log.account)
                .order_by(log.id.desc()).limit(limit))
            # Every action names its moderator and its person: an empty one was deleted
            # (a lift from the command line has no moderator: the page says so).
            return [AuditRow(r[0], None if r[2] == COMMAND_LINE_LIFT else r[1] or DELETED_NAME,
                             str(r[2]), r[3] or DELETED_NAME, r[4], str(r[5]), r[6])
                    for r in rows]

    async def audit_count(self) -> int:
        async with self.engine.connect() as conn:
            return int((await conn.execute(select(func.count()).select_from(
                moderation_log))).scalar_one())
