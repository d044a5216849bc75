"""argon2id password hashes, computed off the event loop.

One hash or verification costs tens of milliseconds of CPU and 64 MiB: run on the event loop,
it stalls every table of the room (16 concurrent sign-ups gave everybody a p99 of 1.96 s).  The
pool runs them in a few threads (argon2-cffi releases the GIL while it hashes); its size bounds
the CPU and memory that logins can take at once, the others wait their turn.

A login for a name that has no account verifies the password against a dummy hash, so that
the answer takes as long as for a real account (the time no longer says whether a name exists).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

_hasher = PasswordHasher()


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(password_hash: str, password: str) -> bool:
    try:
        return _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(password_hash: str) -> bool:
    return _hasher.check_needs_rehash(password_hash)


# How much lower than the event loop's the hashing threads' CPU priority is: on a machine
# with few cores, hashes running on all of them would otherwise keep the loop's thread
# waiting for a core (Linux gives each thread its own priority; elsewhere: nothing).
HASH_NICENESS = 5


def _yield_to_the_loop() -> None:
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(),
                       os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) + HASH_NICENESS)


class PasswordHasherPool:
    """Hash and verify in ``workers`` threads; :meth:`close` stops them."""

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise ValueError("the password pool needs at least one thread")
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="argon2",
                                            initializer=_yield_to_the_loop)
        self._dummy: str | None = None

    async def _run(self, function: object, *args: str) -> object:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, function, *args)  # type: ignore[arg-type]

    async def hash(self, password: str) -> str:
        return str(await self._run(hash_password, password))

    async def verify(self, password_hash: str | None, password: str) -> bool:
        """Whether ``password`` matches; with no hash (no such account), the same work
        against a dummy hash, and False."""
        if password_hash is None:
            await self._run(verify_password, await self._dummy_hash(), password)
            return False
        return bool(await self._run(verify_password, password_hash, password))

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
