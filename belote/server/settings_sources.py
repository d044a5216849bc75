"""Where a player's preferences are kept, and which apply on a page or a socket.

- **The account's**, for a signed-in account: a row of ``account_settings`` (one JSON value,
  :meth:`Preferences.to_data`), so that signing in on any device brings them back.
- **The device's**, in a long-lived signed cookie (:data:`COOKIE`), for everyone: a guest's
  or a visitor's settings across sessions, and the settings an account holder chose for this
  device only (``own``: large print and a slower pace on the phone, say).

Which apply is :func:`belote.server.settings.in_force`: the device's own, else the account's,
else what the device last used without them, else the defaults.  The middleware
(:class:`ApplySettings`) works it out once per request or WebSocket handshake and puts it in
``scope["sala.settings"]`` (:func:`settings_of`), where the pages, the socket and the
language of every answer read it.

Why the device's settings live in the cookie itself rather than behind a device id mapped
to a stored row: a row per browser would be written for every visitor (crawlers too) and
never known to be dead, so the table would grow without bound and need its own sweeping;
a page would need a query more.  The values are few and bounded (one language, one
verbosity, eight table settings: about 400 characters signed), so the cookie cannot grow: it
is written from checked values only, and one longer than :data:`MAX_COOKIE` is not read.  It
is signed with the room's key, so a value the room did not write (tampered, or of another
room) is refused unread, and versioned (``v``), so one of an older release reads as nothing
stored: the defaults, or the account's, never an error page.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from starlette.datastructures import MutableHeaders
from starlette.requests import HTTPConnection
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from belote.i18n import LANGUAGES
from belote.i18n.announce import VERBOSITIES
from belote.server.auth.sessions import SCOPE_KEY as SESSION_KEY
from belote.server.persistence import SessionRow, Store
from belote.server.settings import (
    DEFAULT_PACE,
    Preferences,
    Source,
    defaults,
    from_session,
    in_force,
    preferences_from_data,
)
from belote.server.signed_cookies import SignedCookie

log = logging.getLogger(__name__)
SCOPE_KEY = "sala.settings"
COOKIE = "sala_settings"
# Browsers keep a cookie 400 days at most (RFC 6265bis; Chrome's cap): the cookie is signed
# again on a page at most a week after it was last written, so a player who comes now and
# then keeps their settings for good.
MAX_AGE = 400 * 24 * 3600
REFRESH_AFTER = 7 * 24 * 3600
MAX_COOKIE = 2048  # characters: what the room writes is under 600; a longer value is not read
# An account's settings are cached for pages and sockets (every request reads them); a save
# made by this process replaces its entry at once, one made by another process of the room
# shows here within ACCOUNT_TTL seconds.
ACCOUNT_TTL = 30.0
CACHE_SIZE = 10_000
# Where the release before this one kept the preferences: the session cookie.  Read once as
# the device's settings (not its own: an account's then apply), then moved to COOKIE.
LEGACY_KEYS = ("lang", "verbosity", "settings")


@dataclass(frozen=True, slots=True)
class InForce:
    """The preferences that apply to a request, and where they come from."""

    prefs: Preferences
    source: Source
    device_own: bool  # this device has settings of its own, chosen for it alone
    account: int | None  # the signed-in account (None: a guest or a visitor)

    @property
    def place(self) -> str:
        """Where a save goes unless the form says: where the settings in force come from
        (the account's for an account holder whose device has none of its own)."""
        if self.account is not None and not self.device_own:
            return "account"
        return "device"


def settings_of(conn: HTTPConnection) -> InForce:
    """The preferences in force for this request or socket (:class:`ApplySettings`); the
    defaults where the middleware did not run."""
    found = conn.scope.get(SCOPE_KEY)
    if isinstance(found, InForce):
        return found
    return InForce(defaults(DEFAULT_PACE), "defaults", False, None)


class SettingsSources:
    def __init__(self, store: Store, key: Callable[[], str], *, secure: bool,
                 default_pace: float = DEFAULT_PACE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """``key`` gives the room's signing key: it is read when the room opens, after this
        object is made."""
        self.store = store
        self.cookie = SignedCookie(COOKIE, "sala-device-settings", MAX_AGE, key,
                                   secure=secure, max_length=MAX_COOKIE)
        self.default_pace = default_pace
        self.clock = clock
        self._accounts: OrderedDict[int, tuple[float, Preferences | None]] = OrderedDict()

    # ------------------------------------------------------------------ the device's
    def read_device(self, conn: HTTPConnection) -> tuple[Preferences | None, bool, float]:
        """(the device's settings or None, whether they are its own, the cookie's age in
        seconds).  A cookie tampered with, too long, too old or of another release: None."""
        found = self.cookie.read(conn)
        if found is None:
            return None, False, 0.0
        data, signed = found
        prefs = preferences_from_data(data, self.default_pace)
        if prefs is None:
            return None, False, 0.0
        own = isinstance(data, dict) and data.get("own") is True
        return prefs, own, (datetime.now(UTC) - signed).total_seconds()

    def keep_on_device(self, response: Response, prefs: Preferences, own: bool) -> Response:
        """``response`` sets this device's settings (``own``: for this device only)."""
        return self.cookie.write(response, {**prefs.to_data(), "own": own})

    def forget_device(self, response: Response) -> Response:
        """``response`` drops this device's settings: the account's (or the defaults) apply."""
        return self.cookie.delete(response)

    def _header(self, prefs: Preferences, own: bool) -> str:
        """The Set-Cookie header value that keeps ``prefs`` on the device."""
        return self.keep_on_device(Response(), prefs, own).headers["set-cookie"]

    # ------------------------------------------------------------------ the account's
    async def account(self, account: int) -> Preferences | None:
        """The preferences ``account`` saved, or None (cached: see :data:`ACCOUNT_TTL`)."""
        now = self.clock()
        cached = self._accounts.get(account)
        if cached is not None and now - cached[0] < ACCOUNT_TTL:
            self._accounts.move_to_end(account)
            return cached[1]
        prefs = preferences_from_data(await self.store.account_settings(account),
                                      self.default_pace)
        self._remember(account, prefs)
        return prefs

    async def save_account(self, account: int, prefs: Preferences) -> None:
        await self.store.set_account_settings(account, prefs.to_data())
        self._remember(account, prefs)

    def _remember(self, account: int, prefs: Preferences | None) -> None:
        self._accounts[account] = (self.clock(), prefs)
        self._accounts.move_to_end(account)
        while len(self._accounts) > CACHE_SIZE:
            self._accounts.popitem(last=False)

    # ------------------------------------------------------------------ which apply
    async def resolve(self, conn: HTTPConnection) -> tuple[InForce, str | None]:
        """The preferences in force for ``conn``, and a Set-Cookie header value the answer
        should carry (the device's cookie signed again, or moved from the session), if any."""
        device, own, age = self.read_device(conn)
        header = None
        if device is not None and age > REFRESH_AFTER:
            header = self._header(device, own)
        session: dict[str, Any] | None = conn.scope.get("session")
        if session is not None and any(k in session for k in LEGACY_KEYS):
            if device is None:
                device = _legacy(session, self.default_pace)
                header = self._header(device, False)
            if conn.scope["type"] == "http":  # a socket cannot set the cookie: keep them
                for key in LEGACY_KEYS:
                    session.pop(key, None)
        row = conn.scope.get(SESSION_KEY)
        account_id = row.account if isinstance(row, SessionRow) else None
        account = None if account_id is None else await self.account(account_id)
        prefs, source = in_force(device, own, account, self.default_pace)
        return InForce(prefs, source, own and device is not None, account_id), header


def _legacy(session: dict[str, Any], default_pace: float) -> Preferences:
    """The preferences the release before this one kept in the session cookie."""
    lang, verbosity = session.get("lang"), session.get("verbosity")
    return Preferences(lang if lang in LANGUAGES else None,
                       verbosity if verbosity in VERBOSITIES else "normal",
                       from_session(session.get("settings"), default_pace))


class ApplySettings:
    """Works out the preferences in force (:meth:`SettingsSources.resolve`) for each request
    and WebSocket handshake; inside ``ServerSessions``, which finds the signed-in account."""

    def __init__(self, app: ASGIApp, sources: SettingsSources) -> None:
        self.app = app
        self.sources = sources

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        found, header = await self.sources.resolve(HTTPConnection(scope))
        scope[SCOPE_KEY] = found
        if header is None or scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                # A handler that wrote the cookie itself (a save) has the last word.
                if not any(v.startswith(f"{COOKIE}=") for v in headers.getlist("set-cookie")):
                    headers.append("set-cookie", header)
            await send(message)

        await self.app(scope, receive, send_with_cookie)


__all__ = ["COOKIE", "SCOPE_KEY", "ApplySettings", "InForce", "SettingsSources", "settings_of"]
