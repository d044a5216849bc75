"""Accounts and sessions: password hashes, names, rate limits, server-side sessions.

- :mod:`.passwords`: argon2id hashes, computed in a small thread pool off the event loop;
- :mod:`.names`: nickname checks and the ``name_key`` that makes look-alike names one name;
- the rate limiter (bounded memory, forgets old keys) is :mod:`belote.server.limits`'s;
- :mod:`.sessions`: the server-side sessions behind the signed cookie, and live guest names.
"""

from belote.server.auth.names import (
    AuthError,
    GuestNames,
    check_name,
    check_password,
    name_key,
)
from belote.server.auth.passwords import (
    PasswordHasherPool,
    hash_password,
    needs_rehash,
    verify_password,
)
from belote.server.limits import RateLimiter

__all__ = [
    "AuthError",
    "GuestNames",
    "PasswordHasherPool",
    "RateLimiter",
    "check_name",
    "check_password",
    "hash_password",
    "name_key",
    "needs_rehash",
    "verify_password",
]
