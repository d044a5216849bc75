"""Reading and writing friendships and blocks, always by account id (a name is never an
identity: a page shows names, its forms carry ids).

Each change is one transaction that first takes the database's own locks, then looks and
writes.  On PostgreSQL these are transaction-scoped advisory locks keyed by account
(:data:`FRIENDS_LOCK`, the account's id), one for each of the two people, taken in the
order of their ids (never two transactions waiting on each other); on SQLite ``BEGIN
IMMEDIATE`` (one writer at a time anyway).  So two processes of the room (issue 26)
answering a request and a block of the same two people at once leave one consistent state,
one person's caps (pending requests, friends, blocks) are never overdrawn, and changes of
unrelated people never wait on each other.

Every change answers with an :class:`Outcome` code; a refused change writes nothing.

A request to someone who blocks the asker is stored as any request (the asker sees it
waiting, exactly as an unanswered one) but the blocker never sees it: their lists and
relations leave out whoever they block, and they cannot accept it.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Collection
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import and_, delete, func, insert, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from belote.server.friends.schema import ASKED, FRIENDS, blocks, friend_links
from belote.server.persistence.locks import serialise
from belote.server.persistence.schema import sessions, users
from belote.server.tournament.schema import tournament_games, tournaments

# The first key of the PostgreSQL advisory locks on one account's friendships ("FRND"); the
# second key is the account's id.
FRIENDS_LOCK = 0x46524E44
LIKE_SPECIALS = str.maketrans({"\\": "\\\\", "%": "\\%", "_": "\\_"})


@dataclass(frozen=True, slots=True)
class Person:
    """An account as the friends' pages show it."""

    id: int
    name: str


@dataclass(frozen=True, slots=True)
class Relation:
    """What one account is to another, from the first one's side."""

    friends: bool = False
    asked: bool = False  # I asked them
    asking: bool = False  # they asked me
    blocked: bool = False  # I blocked them (never: they blocked me; that stays theirs)


def _now() -> datetime:
    return datetime.now(UTC)


class FriendsStore:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    @contextlib.asynccontextmanager
    async def _change(self, *accounts: int) -> AsyncIterator[AsyncConnection]:
        """A transaction holding the locks of these accounts' friendships."""
        async with self.engine.begin() as conn:
            await serialise(conn, FRIENDS_LOCK, accounts)
            yield conn

    # ------------------------------------------------------------------ reads
    async def person(self, account: int) -> Person | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(users.c.id, users.c.name)
                                      .where(users.c.id == account))).first()
        return None if row is None else Person(int(row[0]), str(row[1]))

    async def search(self, key_prefix: str, limit: int, exclude: int | None) -> list[Person]:
        """Accounts whose folded name (``users.name_key``) starts with ``key_prefix``, by
        name; guests are never listed (they have no account)."""
        pattern = key_prefix.translate(LIKE_SPECIALS) + "%"
        query = (select(users.c.id, users.c.name)
                 .where(users.c.name_key.like(pattern, escape="\\"))
                 .order_by(users.c.name_key, users.c.id).limit(limit))
        if exclude is not None:
            query = query.where(users.c.id != exclude)
        async with self.engine.connect() as conn:
            return [Person(int(r[0]), str(r[1])) for r in await conn.execute(query)]

    async def relations(self, me: int, others: Collection[int]) -> dict[int, Relation]:
        """What each of ``others`` is to ``me`` (one read of each table)."""
        wanted = list(set(others))
        if not wanted:
            return {}
        fl = friend_links.c
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(fl.account, fl.other, fl.state).where(or_(
                and_(fl.account == me, fl.other.in_(wanted)),
                and_(fl.other == me, fl.account.in_(wanted)))))).all()
            mine = {int(r[0]) for r in await conn.execute(select(blocks.c.blocked).where(
                blocks.c.blocker == me, blocks.c.blocked.in_(wanted)))}
        # A request from someone I block is theirs to see waiting, never mine.
        links = [(int(a), int(o), str(st)) for a, o, st in rows
                 if not (int(a) in mine and int(o) == me)]
        found: dict[int, Relation] = {}
        for other in wanted:
            friends = any(int(a) == me and int(o) == other and s == FRIENDS
                          for a, o, s in links)
            asked = any(int(a) == me and int(o) == other and s == ASKED for a, o, s in links)
            asking = any(int(a) == other and int(o) == me and s == ASKED for a, o, s in links)
            found[other] = Relation(friends, asked, asking, other in mine)
        return found

    async def _people(self, query: object) -> list[Person]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(query)  # type: ignore[call-overload]
            return [Person(int(r[0]), str(r[1])) for r in rows]

    # Each list is read with a LIMIT (the page shows at most ``limit`` and says there are
    # more: ask for ``limit + 1`` to know).
    async def friends(self, me: int, limit: int) -> list[Person]:
        fl = friend_links.c
        return await self._people(select(users.c.id, users.c.name).join(
            friend_links, fl.other == users.c.id).where(fl.account == me, fl.state == FRIENDS)
            .order_by(users.c.name_key, users.c.id).limit(limit))

    async def asked_by_me(self, me: int, limit: int) -> list[Person]:
        fl = friend_links.c
        return await self._people(select(users.c.id, users.c.name).join(
            friend_links, fl.other == users.c.id).where(fl.account == me, fl.state == ASKED)
            .order_by(users.c.name_key, users.c.id).limit(limit))

    async def asking_me(self, me: int, limit: int) -> list[Person]:
        """Who asks me, leaving out whoever I block (their request stays hidden)."""
        fl = friend_links.c
        mine = select(blocks.c.blocked).where(blocks.c.blocker == me)
        return await self._people(select(users.c.id, users.c.name).join(
            friend_links, fl.account == users.c.id).where(
                fl.other == me, fl.state == ASKED, fl.account.not_in(mine))
            .order_by(users.c.name_key, users.c.id).limit(limit))

    async def blocked_by_me(self, me: int, limit: int) -> list[Person]:
        return await self._people(select(users.c.id, users.c.name).join(
            blocks, blocks.c.blocked == users.c.id).where(blocks.c.blocker == me)
            .order_by(users.c.name_key, users.c.id).limit(limit))

    async def blocks_of(self, account: int) -> frozenset[int]:
        """Whom ``account`` blocks."""
        async with self.engine.connect() as conn:
            return frozenset(int(r[0]) for r in await conn.execute(
                select(blocks.c.blocked).where(blocks.c.blocker == account)))

    async def blockers_of(self, account: int) -> frozenset[int]:
        """Who blocks ``account`` (for the checks only: never shown)."""
        async with self.engine.connect() as conn:
            return frozenset(int(r[0]) for r in await conn.execute(
                select(blocks.c.blocker).where(blocks.c.blocked == account)))

    async def are_friends(self, a: int, b: int) -> bool:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(friend_links.c.state).where(
                friend_links.c.account == a, friend_links.c.other == b))).first()
        return row is not None and row[0] == FRIENDS

    async def sessions_of(self, accounts: Collection[int]) -> dict[int, list[str]]:
        """The live session ids of each account (their sockets are what presence asks
        about)."""
        found: dict[int, list[str]] = {a: [] for a in accounts}
        if not found:
            return found
        async with self.engine.connect() as conn:
            for sid, account in await conn.execute(select(sessions.c.id, sessions.c.account)
                                                   .where(sessions.c.account.in_(found))):
                found[int(account)].append(str(sid))
        return found

    async def tournaments_of_tables(self, table_ids: Collection[int]) -> dict[int, tuple[int, str]]:
        """The tournament (id, name) whose game each of these tables plays, if any."""
        if not table_ids:
            return {}
        g = tournament_games.c
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(g.table_id, tournaments.c.id, tournaments.c.name)
                                      .join(tournaments, tournaments.c.id == g.tournament_id)
                                      .where(g.table_id.in_(list(table_ids))))
            return {int(r[0]): (int(r[1]), str(r[2])) for r in rows}

    async def open_tournaments(self, limit: int) -> list[tuple[int, str]]:
        """Tournaments taking entries (id, name), newest first: those one may invite to."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(tournaments.c.id, tournaments.c.name)
                                      .where(tournaments.c.state == "registration")
                                      .order_by(tournaments.c.id.desc()).limit(limit))
            return [(int(r[0]), str(r[1])) for r in rows]

    async def tournament_taking_entries(self, tournament: int) -> str | None:
        """The name of this tournament if it takes entries; None: no such, or closed."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(tournaments.c.name).where(
                tournaments.c.id == tournament,
                tournaments.c.state == "registration"))).first()
        return None if row is None else str(row[0])

    # ------------------------------------------------------------------ changes
    async def _refused(self, conn: AsyncConnection, me: int, other: int, *,
                       blocking: str) -> str | None:
        """Why I may neither ask nor block ``other``, if so: ``self``, ``no_player``, or
        ``blocking`` (the caller's code for "I block them already"); None: I may."""
        if me == other:
            return "self"
        if not await self._exists(conn, other):
            return "no_player"
        if await self._blocking(conn, me, other):
            return blocking
        return None

    async def request(self, me: int, other: int, max_pending: int, max_friends: int) -> str:
        """Ask ``other`` to be friends.  ``requested``; ``accepted`` (they had asked me:
        we are friends now); or a refusal: ``self``, ``no_player``, ``you_block``,
        ``already_friends``, ``already_asked``, ``too_many_pending``, ``too_many_friends``
        (one of us has ``max_friends``).  If ``other`` blocks me, the answers are the same
        as if not (the request is stored, and hidden from them)."""
        try:
            async with self._change(me, other) as conn:
                if refused := await self._refused(conn, me, other, blocking="you_block"):
                    return refused
                theirs = await self._link(conn, other, me)
                if theirs == FRIENDS:
                    return "already_friends"
                if await self._friends_count(conn, me) >= max_friends:
                    return "too_many_friends"
                if theirs == ASKED:
                    if await self._friends_count(conn, other) >= max_friends:
                        return "too_many_friends"
                    await self._befriend(conn, me, other)
                    return "accepted"
                if await self._link(conn, me, other) == ASKED:
                    return "already_asked"
                pending = await conn.scalar(select(func.count()).select_from(friend_links)
                                            .where(friend_links.c.account == me,
                                                   friend_links.c.state == ASKED))
                if int(pending or 0) >= max_pending:
                    return "too_many_pending"
                await conn.execute(insert(friend_links).values(
                    account=me, other=other, state=ASKED, since=_now()))
        except IntegrityError:  # the same request at the same moment, from another process
            return "already_asked"
        return "requested"

    async def accept(self, me: int, other: int, max_friends: int) -> str:
        """``accepted``, or ``no_request`` (none, or from someone I block: hidden from
        me), or ``too_many_friends`` (one of us has ``max_friends``)."""
        async with self._change(me, other) as conn:
            if (await self._link(conn, other, me) != ASKED
                    or await self._blocking(conn, me, other)):
                return "no_request"
            if (await self._friends_count(conn, me) >= max_friends
                    or await self._friends_count(conn, other) >= max_friends):
                return "too_many_friends"
            await self._befriend(conn, me, other)
        return "accepted"

    async def decline(self, me: int, other: int) -> str:
        """``declined``, or ``no_request`` (their request to me goes)."""
        return await self._drop_request(other, me, "declined", hidden_if_blocked=True)

    async def cancel(self, me: int, other: int) -> str:
        """``cancelled``, or ``no_request`` (my request to them goes)."""
        return await self._drop_request(me, other, "cancelled")

    async def remove(self, me: int, other: int) -> str:
        """``removed``, or ``not_friends``."""
        async with self._change(me, other) as conn:
            if await self._link(conn, me, other) != FRIENDS:
                return "not_friends"
            await self._unlink(conn, me, other)
        return "removed"

    async def block(self, me: int, other: int, cap: int) -> str:
        """``blocked`` (a friendship and requests between us end), or ``self``,
        ``no_player``, ``already_blocked``, ``too_many_blocks``."""
        try:
            async with self._change(me, other) as conn:
                if refused := await self._refused(conn, me, other,
                                                  blocking="already_blocked"):
                    return refused
                count = await conn.scalar(select(func.count()).select_from(blocks)
                                          .where(blocks.c.blocker == me))
                if int(count or 0) >= cap:
                    return "too_many_blocks"
                # The friendship and my request to them end; their request to me stays,
                # hidden from me (gone, it would tell them they are blocked).
                fl = friend_links.c
                await conn.execute(delete(friend_links).where(or_(
                    and_(fl.account == me, fl.other == other),
                    and_(fl.account == other, fl.other == me, fl.state == FRIENDS))))
                await conn.execute(insert(blocks).values(blocker=me, blocked=other,
                                                         since=_now()))
        except IntegrityError:
            return "already_blocked"
        return "blocked"

    async def unblock(self, me: int, other: int) -> str:
        """``unblocked``, or ``not_blocked``."""
        async with self._change(me, other) as conn:
            gone = await conn.execute(delete(blocks).where(blocks.c.blocker == me,
                                                           blocks.c.blocked == other))
        return "unblocked" if gone.rowcount else "not_blocked"

    # ------------------------------------------------------------------ helpers
    async def _drop_request(self, asker: int, asked: int, done: str,
                            hidden_if_blocked: bool = False) -> str:
        async with self._change(asker, asked) as conn:
            if hidden_if_blocked and await self._blocking(conn, asked, asker):
                return "no_request"  # hidden from the one who blocks the asker
            fl = friend_links.c
            gone = await conn.execute(delete(friend_links).where(
                fl.account == asker, fl.other == asked, fl.state == ASKED))
        return done if gone.rowcount else "no_request"

    async def _friends_count(self, conn: AsyncConnection, account: int) -> int:
        return int(await conn.scalar(select(func.count()).select_from(friend_links).where(
            friend_links.c.account == account, friend_links.c.state == FRIENDS)) or 0)

    async def _exists(self, conn: AsyncConnection, account: int) -> bool:
        return (await conn.execute(select(users.c.id).where(users.c.id == account))
                ).first() is not None

    async def _blocking(self, conn: AsyncConnection, blocker: int, blocked: int) -> bool:
        return (await conn.execute(select(blocks.c.blocker).where(
            blocks.c.blocker == blocker, blocks.c.blocked == blocked))).first() is not None

    async def _link(self, conn: AsyncConnection, account: int, other: int) -> str | None:
        row = (await conn.execute(select(friend_links.c.state).where(
            friend_links.c.account == account, friend_links.c.other == other))).first()
        return None if row is None else str(row[0])

    async def _unlink(self, conn: AsyncConnection, a: int, b: int) -> None:
        fl = friend_links.c
        await conn.execute(delete(friend_links).where(or_(
            and_(fl.account == a, fl.other == b), and_(fl.account == b, fl.other == a))))

    async def _befriend(self, conn: AsyncConnection, a: int, b: int) -> None:
        await self._unlink(conn, a, b)
        now = _now()
        await conn.execute(insert(friend_links), [
            {"account": a, "other": b, "state": FRIENDS, "since": now},
            {"account": b, "other": a, "state": FRIENDS, "since": now}])
