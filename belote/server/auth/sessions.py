"""Server-side sessions: the signed cookie carries a session id, the database the session.

A session exists while its row does: signing out deletes it, so a copy of the old cookie
replayed later is only a signed-out visitor.  Rows are cached in memory (every request and
WebSocket handshake looks its session up); ending a session drops it from the cache at once,
and another process of the room drops its copy at the next minute's touch, which finds the
row gone.  Where a minute is too long (every session of an account ends: a password reset,
the account deleted, suspended or banned), :meth:`Sessions.end_account` also tells every
process at once to forget the account's cached sessions (``ENDED_NEWS``, the room's news).
``last_seen`` is written at most once a minute per session.  A guest's session holds its
name in :class:`~belote.server.auth.names.GuestNames` until it ends or expires.

:class:`ServerSessions` is the ASGI middleware (inside Starlette's ``SessionMiddleware``) that
puts the request's session, or None, in ``scope["sala.session"]``.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Collection
from datetime import UTC, datetime, timedelta
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from belote.server.auth.names import AuthError, GuestNames
from belote.server.persistence import SessionRow, Store

log = logging.getLogger(__name__)
SCOPE_KEY = "sala.session"
TOUCH_EVERY = timedelta(seconds=60)
PURGE_EVERY = 600.0  # seconds between sweeps of expired sessions
CACHE_SIZE = 10_000
RESERVED = "reserved:"  # a name held by a sign-up in progress, not by a session
# Cookie entries of the release before server sessions: such a cookie is signed out.
LEGACY_KEYS = ("uid", "name", "account")
ENDED_NEWS = "account_sessions_ended"  # the room's news: forget this account's sessions


def public_id(session_id: str) -> str:
    """The session's id as others may see it (a seat's owner, the account page's forms):
    a digest, from which the cookie's secret id cannot be found."""
    digest = hashlib.sha256(b"sala-session:" + session_id.encode()).digest()
    return base64.urlsafe_b64encode(digest[:16]).decode().rstrip("=")


def _now() -> datetime:
    return datetime.now(UTC)


class Sessions:
    def __init__(self, store: Store, *, guest_idle: timedelta, account_idle: timedelta,
                 clock: Callable[[], datetime] = _now) -> None:
        self.store = store
        self.guest_idle = guest_idle
        self.account_idle = account_idle
        self.clock = clock
        self.guests = GuestNames()
        self._cache: OrderedDict[str, SessionRow] = OrderedDict()
        self._next_purge = 0.0
        # Told the ids of ended sessions (the room closes their open sockets).
        self.on_end: list[Callable[[list[str]], None]] = []
        # The room's news to every process, this one included (None: the room is alone):
        # an account's sessions ended (:meth:`end_account`).
        self.relay: Callable[[str, dict[str, Any]], None] | None = None

    async def open(self) -> None:
        """Drop expired sessions; the live guests' names are held again."""
        await self.purge()
        for row in reversed(await self.store.sessions(None)):  # oldest first keeps its name
            if not self.guests.claim(row.name_key, row.id):
                log.warning("guest session %s shares a name with an older one: ended",
                            public_id(row.id))
                await self.store.delete_sessions([row.id])

    def _expired(self, row: SessionRow, now: datetime) -> bool:
        idle = self.guest_idle if row.account is None else self.account_idle
        return now - row.last_seen > idle

    def _remember(self, row: SessionRow) -> None:
        self._cache[row.id] = row
        self._cache.move_to_end(row.id)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)

    async def start(self, name: str, name_key: str, account: int | None, *, user_agent: str,
                    address: str, replacing: str | None = None) -> SessionRow:
        """A new session (ending ``replacing``, the browser's previous one).  A guest's
        name must be free among live guests: else ``AuthError("name_in_use")``."""
        if replacing is not None:
            await self.end(replacing)
        session_id = secrets.token_urlsafe(32)
        if account is None and not self.guests.claim(name_key, session_id):
            raise AuthError("name_in_use")
        now = self.clock()
        row = SessionRow(id=session_id, account=account, name=name, name_key=name_key,
                         created=now, last_seen=now, user_agent=user_agent[:256],
                         address=address[:64])
        try:
            await self.store.add_session(row)
        except BaseException:
            self.guests.release(session_id)
            raise
        self._remember(row)
        return row

    async def get(self, session_id: str) -> SessionRow | None:
        """The live session ``session_id``, or None (ended, expired, never made)."""
        await self._maybe_purge()
        row = self._cache.get(session_id)
        if row is None:
            row = await self.store.session(session_id)
            if row is None:
                return None
        now = self.clock()
        if self._expired(row, now):
            await self.end(session_id)
            return None
        if now - row.last_seen >= TOUCH_EVERY:
            row = dataclasses.replace(row, last_seen=now)
            if not await self.store.touch_session(session_id, now):
                # Ended by another process of the room (a sign-out, a password reset, an
                # account deleted there): its row is gone, and this cached copy with it,
                # within TOUCH_EVERY of the end.
                self._cache.pop(session_id, None)
                self.guests.release(session_id)
                return None
        self._remember(row)
        return row

    async def guest_holding(self, name_key: str) -> str | None:
        """The live guest session holding ``name_key`` (one that expired lets it go now)."""
        holder = self.guests.holder(name_key)
        if (holder is not None and not holder.startswith(RESERVED)
                and await self.get(holder) is None):
            self.guests.release(holder)  # its row was gone: the name is free
            return None
        return self.guests.holder(name_key)

    def reserve(self, name_key: str) -> str | None:
        """Hold ``name_key`` against guests while an account is made with it: a token for
        :meth:`unreserve`, or None if a guest holds it."""
        token = f"{RESERVED}{secrets.token_urlsafe(8)}"
        return token if self.guests.claim(name_key, token) else None

    def unreserve(self, token: str) -> None:
        self.guests.release(token)

    async def end(self, *session_ids: str) -> None:
        for session_id in session_ids:
            self._cache.pop(session_id, None)
            self.guests.release(session_id)
        await self.store.delete_sessions(list(session_ids))
        for listener in self.on_end:
            listener(list(session_ids))

    def forget_account(self, account: int) -> None:
        """Drop the account's sessions from this process's cache: they ended in another
        process (:meth:`end_account`), whose rows are gone; the next request looks again."""
        for session_id in [k for k, row in self._cache.items() if row.account == account]:
            del self._cache[session_id]

    def heard_ended(self, data: dict[str, Any]) -> None:
        """The room's news ``ENDED_NEWS``, in this process."""
        account = data.get("account")
        if isinstance(account, int):
            self.forget_account(account)
        else:
            log.error("sessions: news of ended sessions without an account: %r", data)

    async def end_account(self, account: int, *, keep: str | None = None,
                          ids: Collection[str] | None = None) -> int:
        """End every session of the account but ``keep`` (their sockets close, in every
        process: ``on_end``), and have every process forget them at once, not at its next
        touch; how many ended.  ``ids``: the sessions, read before their rows went (an
        account deleted); else read here."""
        if ids is None:
            ids = [r.id for r in await self.store.sessions(account)]
        ended = [i for i in ids if i != keep]
        if not ended:
            return 0
        # Forgotten before the rows go (the news arrive in order: a process has forgotten
        # them when it closes their sockets), and again after, for a request that read a
        # row in between.
        self._spread_ended(account)
        await self.end(*ended)
        self._spread_ended(account)
        return len(ended)

    def _spread_ended(self, account: int) -> None:
        if self.relay is None:
            self.forget_account(account)
        else:
            self.relay(ENDED_NEWS, {"account": account})

    async def of_account(self, account: int) -> list[SessionRow]:
        return await self.store.sessions(account)

    async def end_others(self, account: int, keep: str) -> int:
        return await self.end_account(account, keep=keep)

    async def purge(self) -> None:
        now = self.clock()
        stale = await self.store.stale_sessions(now - self.guest_idle, now - self.account_idle)
        if stale:
            await self.end(*stale)
            log.info("%d expired sessions ended", len(stale))
        self._next_purge = time.monotonic() + PURGE_EVERY

    async def _maybe_purge(self) -> None:
        if time.monotonic() >= self._next_purge:
            await self.purge()


class ServerSessions:
    """Resolves the cookie's session id (``sid``) to the live session, or signs it out."""

    def __init__(self, app: ASGIApp, sessions: Sessions) -> None:
        self.app = app
        self.sessions = sessions

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            cookie = scope.get("session")
            row = None
            if cookie is not None:
                for key in LEGACY_KEYS:
                    cookie.pop(key, None)
                session_id = cookie.get("sid")
                if isinstance(session_id, str):
                    row = await self.sessions.get(session_id)
                if row is None:
                    cookie.pop("sid", None)
            scope[SCOPE_KEY] = row
        await self.app(scope, receive, send)
