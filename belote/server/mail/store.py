"""Reads and writes of the e-mail tables: an account's address, and the links' tokens."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal

from sqlalchemy import delete, insert, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from belote.server.mail.schema import account_emails, mail_tokens

Purpose = Literal["verify", "reset"]
# What following a link found: it was valid (and is now used), or why it is refused.
Outcome = Literal["ok", "unknown", "used", "expired"]
# Tokens past their expiry by this much are deleted (their refusal then reads "unknown").
KEEP_EXPIRED = timedelta(days=7)


def _now() -> datetime:
    return datetime.now(UTC)


def digest(token: str) -> str:
    """What is stored of a token: its SHA-256, so that the table gives no usable link."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def address_key(address: str) -> str:
    """The key an address is looked up by: the same address typed in another case."""
    return address.strip().casefold()


@dataclass(frozen=True, slots=True)
class StoredAddress:
    address: str
    verified: datetime | None


@dataclass(frozen=True, slots=True)
class TokenCheck:
    outcome: Outcome
    account: int | None = None
    address: str = ""


class MailStore:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    # ------------------------------------------------------------------ addresses
    async def address_of(self, account: int) -> StoredAddress | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(account_emails.c.address,
                                             account_emails.c.verified)
                                      .where(account_emails.c.account == account))).first()
        return None if row is None else StoredAddress(str(row[0]), row[1])

    async def set_address(self, account: int, address: str | None) -> None:
        """``account``'s address, not verified yet (None: none); every link sent before is
        void, the password resets too: a reset sent to the old mailbox (which may be why
        the owner changed it) must not take the account afterwards."""
        now = _now()
        async with self.engine.begin() as conn:
            await conn.execute(delete(account_emails).where(account_emails.c.account == account))
            if address is not None:
                await conn.execute(insert(account_emails).values(
                    account=account, address=address, address_key=address_key(address),
                    verified=None, changed=now))
            await conn.execute(update(mail_tokens).where(
                mail_tokens.c.account == account, mail_tokens.c.used.is_(None))
                .values(used=now))

    async def mark_verified(self, account: int, address: str) -> bool:
        """The address verified, if it is still ``account``'s (False: it changed since)."""
        async with self.engine.begin() as conn:
            result = await conn.execute(update(account_emails).where(
                account_emails.c.account == account,
                account_emails.c.address == address).values(verified=_now()))
        return bool(result.rowcount)

    async def verified_accounts(self, address: str, limit: int = 5) -> list[int]:
        """The accounts whose VERIFIED address this is (at most ``limit``)."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(account_emails.c.account).where(
                account_emails.c.address_key == address_key(address),
                account_emails.c.verified.is_not(None)).order_by(account_emails.c.account)
                .limit(limit))
            return [int(r[0]) for r in rows]

    # ------------------------------------------------------------------ tokens
    async def new_token(self, account: int, purpose: Purpose, address: str,
                        lifetime: timedelta) -> str:
        """A new link's token for ``account``: the older ones of ``purpose`` are void."""
        token = secrets.token_urlsafe(32)
        now = _now()
        async with self.engine.begin() as conn:
            await conn.execute(update(mail_tokens).where(
                mail_tokens.c.account == account, mail_tokens.c.purpose == purpose,
                mail_tokens.c.used.is_(None)).values(used=now))
            await conn.execute(delete(mail_tokens).where(
                mail_tokens.c.expires < now - KEEP_EXPIRED))
            await conn.execute(insert(mail_tokens).values(
                digest=digest(token), account=account, purpose=purpose, address=address,
                expires=now + lifetime, used=None))
        return token

    async def check_token(self, token: str, purpose: Purpose) -> TokenCheck:
        """What the link would do, without using it (the reset page, before its form)."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(
                mail_tokens.c.account, mail_tokens.c.address, mail_tokens.c.expires,
                mail_tokens.c.used).where(mail_tokens.c.digest == digest(token),
                                          mail_tokens.c.purpose == purpose))).first()
        if row is None:
            return TokenCheck("unknown")
        if row.used is not None:
            return TokenCheck("used")
        if row.expires <= _now():
            return TokenCheck("expired")
        return TokenCheck("ok", int(row.account), str(row.address))

    async def use_token(self, token: str, purpose: Purpose) -> TokenCheck:
        """Use the link once: "ok" with its account and address, else why not.  Two uses
        at once: one wins, the other reads "used" (the update is conditional)."""
        found = await self.check_token(token, purpose)
        if found.outcome != "ok":
            return found
        async with self.engine.begin() as conn:
            result = await conn.execute(update(mail_tokens).where(
                mail_tokens.c.digest == digest(token), mail_tokens.c.used.is_(None))
                .values(used=_now()))
        return found if result.rowcount == 1 else TokenCheck("used")

    async def void_tokens(self, account: int, purpose: Purpose) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(update(mail_tokens).where(
                mail_tokens.c.account == account, mail_tokens.c.purpose == purpose,
                mail_tokens.c.used.is_(None)).values(used=_now()))
