"""The "known device" cookie: a browser where an account signed in before.

Set at every successful sign-in (signed with the room's key, kept a year), it lets the owner
of a name sign in while others' failed attempts block that name: the per-name limit does not
apply to it (the per-address limit still does).  It grants nothing else: a password is still
needed.
"""

from __future__ import annotations

from collections.abc import Callable

from starlette.requests import HTTPConnection
from starlette.responses import Response

from belote.server.signed_cookies import SignedCookie

DEVICE_COOKIE = "sala_device"
MAX_AGE = 365 * 24 * 3600


class KnownDevices:
    def __init__(self, key: Callable[[], str], secure: bool) -> None:
        """``key`` gives the room's signing key: it is read when the room opens, after this
        object is made."""
        self.cookie = SignedCookie(DEVICE_COOKIE, "sala-known-device", MAX_AGE, key,
                                   secure=secure)

    def account(self, conn: HTTPConnection) -> int | None:
        """The account this browser signed in to, if its cookie is genuine and current."""
        found = self.cookie.read(conn)
        account = None if found is None else found[0]
        return account if isinstance(account, int) else None

    def remember(self, response: Response, account: int) -> Response:
        return self.cookie.write(response, account)
