"""argon2id password hashes, computed off the event loop.

One hash or verification costs tens of milliseconds of CPU and 64 MiB: run on the event loop,
it stalls every table of the room (16 concurrent sign-ups gave everybody a p99 of 1.96 s).  The
pool runs them in a few threads (argon2-cffi releases the GIL while it hashes); its size bounds
the CPU and memory that logins can take at once, the others wait their turn.

A login for a name that has no account verifies the password against a dummy hash, so that
the answer takes as long as for a real account (the time no longer says whether a name exists).

The cost of a hash is the room's setting ``password_cost``: ``"strong"`` (argon2-cffi's
defaults, RFC 9106's second recommendation: 3 passes over 64 MiB, 4 lanes) in every room,
``"test"`` (1 pass over 64 KiB) only in the test suite, whose hundreds of rooms and sign-ups
spent minutes of CPU hashing.  A hash made at another cost than the room's is made again at
the room's at its next login (:meth:`PasswordHasherPool.needs_rehash`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import secrets
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from belote.server.config import PasswordCost

# The hashers by cost.  "test" is for the test suite only: never for people's passwords.
HASHERS: dict[str, PasswordHasher] = {
    "strong": PasswordHasher(),
    "test": PasswordHasher(time_cost=1, memory_cost=64, parallelism=1),
}
_hasher = HASHERS["strong"]


def hash_password(password: str, hasher: PasswordHasher = _hasher) -> str:
    return hasher.hash(password)


def verify_password(password_hash: str, password: str, hasher: PasswordHasher = _hasher) -> bool:
    try:
        return hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(password_hash: str, hasher: PasswordHasher = _hasher) -> bool:
    return hasher.check_needs_rehash(password_hash)


# How much lower than the event loop's the hashing threads' CPU priority is: on a machine
# with few cores, hashes running on all of them would otherwise keep the loop's thread
# waiting for a core (Linux gives each thread its own priority; elsewhere: nothing).
HASH_NICENESS = 5


def _yield_to_the_loop() -> None:
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(),
                       os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) + HASH_NICENESS)


class PasswordHasherPool:
    """Hash and verify in ``workers`` threads, at ``cost``; :meth:`close` stops them."""

    def __init__(self, workers: int, cost: PasswordCost = "strong") -> None:
        if workers < 1:
            raise ValueError("the password pool needs at least one thread")
        if cost not in HASHERS:
            raise ValueError(f"no password cost {cost!r} (one of {', '.join(HASHERS)})")
        self.hasher = HASHERS[cost]
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="argon2",
                                            initializer=_yield_to_the_loop)
        self._dummy: str | None = None

    async def _run(self, function: Callable[..., object], *args: str) -> object:
        loop = asyncio.get_running_loop()
        work = functools.partial(function, hasher=self.hasher)
        return await loop.run_in_executor(self._executor, work, *args)

    async def hash(self, password: str) -> str:
        return str(await self._run(hash_password, password))

    async def verify(self, password_hash: str | None, password: str) -> bool:
        """Whether ``password`` matches; with no hash (no such account), the same work
        against a dummy hash, and False."""
        if password_hash is None:
            await self._run(verify_password, await self._dummy_hash(), password)
            return False
        return bool(await self._run(verify_password, password_hash, password))

    def needs_rehash(self, password_hash: str) -> bool:
        """Whether ``password_hash`` was made at another cost than this pool's."""
        return needs_rehash(password_hash, self.hasher)

    async def _dummy_hash(self) -> str:
        if self._dummy is None:
            self._dummy = await self.hash(secrets.token_urlsafe(24))
        return self._dummy

    async def prepare(self) -> None:
        """Make the dummy hash now, so that the first unknown name is not slower (only the
        hash: a verification against it at the start would be work for nobody)."""
        await self._dummy_hash()

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
