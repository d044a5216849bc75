"""Nicknames: what a name may be, and the key under which look-alike names are one name.

``name_key`` (:mod:`belote.server.name_keys`, re-exported here) folds a name so that names a
person would read as the same get the same key: NFKC (fullwidth ``Ａｄａ`` is ``Ada``), case
folding (``ADA`` is ``ada``), and the Unicode confusables of UTS #39 (Cyrillic ``а`` is Latin
``a``), from the data of the ``confusable-homoglyphs`` package.  Accounts store the key in a
unique column; live guests hold theirs in :class:`GuestNames`.
"""

from __future__ import annotations

import re

from belote.server.name_keys import name_key as name_key  # re-exported: the one key of a name

NAME = re.compile(r"^[\w][\w .'-]{1,23}$")
MIN_PASSWORD = 8


class AuthError(Exception):
    """Refused: ``code`` names the ``error.web.*`` message."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def check_name(name: str) -> str:
    name = " ".join(name.split())
    if not NAME.match(name):
        raise AuthError("bad_name")
    return name


def check_password(password: str) -> str:
    if len(password) < MIN_PASSWORD or len(password) > 256:
        raise AuthError("bad_password")
    return password


class GuestNames:
    """The keys held by live guest sessions: two guests never share one at the same time.

    In memory only: a guest's name lives as long as its session, which releases it when it
    ends (sign-out, another sign-in) or expires.
    """

    def __init__(self) -> None:
        self._holder: dict[str, str] = {}  # key -> session id
        self._key: dict[str, str] = {}  # session id -> key

    def __len__(self) -> int:
        return len(self._holder)

    def holder(self, key: str) -> str | None:
        return self._holder.get(key)

    def claim(self, key: str, session_id: str) -> bool:
        """Hold ``key`` for ``session_id``; False if another session holds it."""
        holder = self._holder.get(key)
        if holder is not None and holder != session_id:
            return False
        self.release(session_id)
        self._holder[key], self._key[session_id] = session_id, key
        return True

    def release(self, session_id: str) -> None:
        key = self._key.pop(session_id, None)
        if key is not None and self._holder.get(key) == session_id:
            del self._holder[key]
