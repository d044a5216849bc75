"""Accounts and sessions: argon2 password hashes, guest nicknames, a login rate limit.

The session (a signed cookie, see :mod:`belote.server.app`) holds a random session id
(``uid``), the display name, and for a registered player the account id.  A guest is only a
nickname with a session id; a registered name cannot be taken by a guest.
"""

from __future__ import annotations

import re
import time
from collections import deque

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

NAME = re.compile(r"^[\w][\w .'-]{1,23}$")
MIN_PASSWORD = 8

_hasher = PasswordHasher()


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


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(password_hash: str, password: str) -> bool:
    try:
        return _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(password_hash: str) -> bool:
    return _hasher.check_needs_rehash(password_hash)


class RateLimiter:
    """At most ``attempts`` failed logins per key (client address, account name) per window."""

    def __init__(self, attempts: int, window: float) -> None:
        self.attempts = attempts
        self.window = window
        self._failures: dict[str, deque[float]] = {}

    def _recent(self, key: str, now: float) -> deque[float]:
        failures = self._failures.setdefault(key, deque())
        while failures and now - failures[0] > self.window:
            failures.popleft()
        return failures

    def blocked(self, *keys: str) -> bool:
        now = time.monotonic()
        return any(len(self._recent(k, now)) >= self.attempts for k in keys)

    def fail(self, *keys: str) -> None:
        now = time.monotonic()
        for key in keys:
            self._recent(key, now).append(now)

    def clear(self, *keys: str) -> None:
        for key in keys:
            self._failures.pop(key, None)
