"""A value kept in a browser cookie, signed with the room's key.

The room keeps two such values (the known device of :mod:`belote.server.auth.devices`, a
device's settings of :mod:`belote.server.settings_sources`): each is read back only when its
signature is genuine, it is no older than its ``max_age`` and no longer than ``max_length``;
anything else reads as nothing, never as an error.  The salt keeps one kind of value from
being taken for the other.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from itsdangerous import BadData, URLSafeTimedSerializer
from starlette.requests import HTTPConnection
from starlette.responses import Response


class SignedCookie:
    def __init__(self, name: str, salt: str, max_age: int, key: Callable[[], str], *,
                 secure: bool, max_length: int | None = None) -> None:
        """``key`` gives the room's signing key: it is read when the room opens, after this
        object is made."""
        self.name = name
        self.salt = salt
        self.max_age = max_age
        self.key = key
        self.secure = secure
        self.max_length = max_length

    def _signer(self) -> URLSafeTimedSerializer:
        return URLSafeTimedSerializer(self.key(), salt=self.salt)

    def read(self, conn: HTTPConnection) -> tuple[Any, datetime] | None:
        """(the value, when it was signed), or None: no cookie, or not a genuine current one."""
        value = conn.cookies.get(self.name)
        if not value or (self.max_length is not None and len(value) > self.max_length):
            return None
        try:
            data, signed = self._signer().loads(value, max_age=self.max_age,
                                                return_timestamp=True)
        except BadData:  # a bad signature, an expired or unreadable value
            return None
        return data, signed

    def write(self, response: Response, data: Any) -> Response:
        response.set_cookie(self.name, str(self._signer().dumps(data)), max_age=self.max_age,
                            httponly=True, secure=self.secure, samesite="lax")
        return response

    def delete(self, response: Response) -> Response:
        response.delete_cookie(self.name, httponly=True, secure=self.secure, samesite="lax")
        return response
