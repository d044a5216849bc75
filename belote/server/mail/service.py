"""The two e-mail flows of an account, with their limits.

- **Verification.**  The account's owner sets an address (the account page, with the
  password); a link goes to it, and the address counts as verified once it is followed.
- **Password reset.**  Anyone may ask, by account name or address: the answer never says
  whether such an account exists (the page says the same sentence either way, at once, and
  the mail leaves in the background, so the answer's delay says nothing either).  Only a
  verified address gets the link.

Every mail counts against three limits kept in the database (the same in every process):
per account, per e-mail address, and, for the requests anyone can make, per client
address.  The first two are silent towards an anonymous asker (a refusal would say the
account exists) but logged and counted; the page tells, in every case, how many links an hour
are sent at most.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections import Counter
from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from belote.i18n import LANGUAGES
from belote.server.config import Settings
from belote.server.mail import letters
from belote.server.mail.schema import ADDRESS_CHARS
from belote.server.mail.sender import Letter, Mailer, MailFailed
from belote.server.mail.store import MailStore, Purpose, StoredAddress, TokenCheck
from belote.server.name_keys import name_key
from belote.server.persistence import Store
from belote.server.persistence.rate_limits import SharedWindow
from belote.server.persistence.schema import users
from belote.server.settings import preferences_from_data

log = logging.getLogger(__name__)
HOUR = 3600.0
LOCAL_CHARS = 64  # RFC 5321's limit on the part before the @
# Characters refused in an address: separators of a header's list of addresses, quotes,
# angle brackets (a typed address is one plain address).
FORBIDDEN = set('<>,;:"()[]\\')
PATHS: dict[Purpose, str] = {"verify": "/account/email/verify", "reset": "/account/reset"}


class MailError(ValueError):
    """A request the e-mail flows refuse; ``code`` names the ``web.mail.error.*`` message."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def check_address(text: str) -> str:
    """The typed address, trimmed, if it looks like one plain address; else
    ``MailError("bad_address")``.  Whether it receives mail only its link can tell."""
    address = text.strip()
    local, at, domain = address.rpartition("@")
    if (not at or not local or len(address) > ADDRESS_CHARS or len(local) > LOCAL_CHARS
            or "@" in local or "." not in domain.strip(".") or ".." in domain
            or any(c.isspace() or ord(c) < 32 or c in FORBIDDEN for c in address)):
        raise MailError("bad_address")
    return address


def _address_key(address: str) -> str:
    # The limits' key for an address: its digest, so that the limits' table holds none.
    return "addr:" + hashlib.sha256(address.strip().casefold().encode()).hexdigest()[:40]


class AccountMail:
    def __init__(self, settings: Settings, store: Store, mailer: Mailer) -> None:
        self.settings = settings
        self.store = store
        self.mails = MailStore(store.engine)
        self.mailer = mailer
        window = store.rate_limits.window
        keys = settings.limiter_max_keys
        self.per_account: SharedWindow = window(
            "mail_account", settings.mails_per_account_per_hour, HOUR, keys)
        self.per_address: SharedWindow = window(
            "mail_address", settings.mails_per_address_per_hour, HOUR, keys)
        self.per_ip: SharedWindow = window(
            "mail_requests_ip", settings.mail_requests_per_ip_per_hour, HOUR, keys)
        # Mails not sent because a limit held them back, by limit (each is logged too).
        self.withheld: Counter[str] = Counter()
        self._background: set[asyncio.Task[None]] = set()
        self._limit_turn = asyncio.Lock()

    @property
    def ready(self) -> bool:
        return self.mailer.ready

    # ------------------------------------------------------------------ helpers
    async def _name_and_language(self, account: int, fallback: str) -> tuple[str, str] | None:
        async with self.store.engine.connect() as conn:
            name = await conn.scalar(select(users.c.name).where(users.c.id == account))
        if name is None:
            return None
        prefs = preferences_from_data(await self.store.account_settings(account))
        lang = prefs.lang if prefs is not None and prefs.lang in LANGUAGES else fallback
        return str(name), str(lang)

    def _link(self, purpose: Purpose, token: str) -> str:
        return f"{self.settings.public_url.rstrip('/')}{PATHS[purpose]}?token={token}"

    def _lifetime(self, purpose: Purpose) -> timedelta:
        hours = (self.settings.verify_link_hours if purpose == "verify"
                 else self.settings.reset_link_hours)
        return timedelta(hours=hours)

    async def _take(self, account: int, address: str) -> str | None:
        """Count one mail to ``address`` for ``account``, unless a limit holds it back:
        then which one (and nothing is counted).  One look and count at a time in this
        process (the windows' check and count are two statements): concurrent requests for
        one account cannot all pass the check before any is counted.  Between processes,
        two requests in the same instant may each pass once."""
        async with self._limit_turn:
            if await self.per_account.blocked(f"account:{account}"):
                return "account"
            if await self.per_address.blocked(_address_key(address)):
                return "address"
            await self.per_account.hit(f"account:{account}")
            await self.per_address.hit(_address_key(address))
        return None

    async def _letter(self, purpose: Purpose, account: int, address: str,
                      fallback_lang: str) -> Letter | None:
        """A new link for ``account`` (its older ones void), in its mail; None: the account
        is gone."""
        found = await self._name_and_language(account, fallback_lang)
        if found is None:
            return None
        name, lang = found
        lifetime = self._lifetime(purpose)
        token = await self.mails.new_token(account, purpose, address, lifetime)
        until = datetime.now(UTC) + lifetime
        make = letters.verification if purpose == "verify" else letters.reset
        return make(lang, address, name, self._link(purpose, token), until)

    # ------------------------------------------------------------------ verification
    async def address_of(self, account: int) -> StoredAddress | None:
        return await self.mails.address_of(account)

    async def change_address(self, account: int, typed: str, lang: str) -> bool:
        """Set (or, empty, remove) ``account``'s address; a new one gets its link at once.
        True if a link was sent.  Raises :class:`MailError` (a bad address, no mail here,
        a limit) or :class:`MailFailed` (the address is kept, unverified: "send again")."""
        if not typed.strip():
            await self.mails.set_address(account, None)
            return False
        if not self.ready:
            raise MailError("not_ready")
        address = check_address(typed)
        current = await self.mails.address_of(account)
        if current is not None and current.address == address and current.verified:
            return False  # the same verified address: nothing to do
        await self.mails.set_address(account, address)
        await self.send_verification(account, lang)
        return True

    async def send_verification(self, account: int, lang: str) -> None:
        """A new verification link to ``account``'s unverified address (the older void)."""
        if not self.ready:
            raise MailError("not_ready")
        current = await self.mails.address_of(account)
        if current is None or current.verified is not None:
            raise MailError("nothing_to_verify")
        limit = await self._take(account, current.address)
        if limit is not None:
            self.withheld[limit] += 1
            log.info("verification mail of account %d held back: its %s's limit",
                     account, limit)
            raise MailError("limited")
        letter = await self._letter("verify", account, current.address, lang)
        if letter is not None:
            await self.mailer.send(letter)

    async def verify(self, token: str) -> TokenCheck:
        """Follow a verification link: "ok" once the address is marked verified."""
        found = await self.mails.use_token(token, "verify")
        if found.outcome == "ok":
            assert found.account is not None
            if not await self.mails.mark_verified(found.account, found.address):
                return TokenCheck("used")  # the address changed since: a newer link counts
        return found

    # ------------------------------------------------------------------ password reset
    async def request_reset(self, who: str, client: str, lang: str) -> None:
        """Send a reset link to the verified address of the account named ``who`` (or of
        the accounts whose verified address ``who`` is), in the background.  Raises
        :class:`MailError` only for what does not depend on any account: no mail here, the
        client's own limit, an empty answer."""
        if not self.ready:
            raise MailError("not_ready")
        typed = " ".join(who.split())[:ADDRESS_CHARS]
        if not typed:
            raise MailError("empty_request")
        if await self.per_ip.blocked(f"ip:{client}"):
            raise MailError("requests_limited")
        await self.per_ip.hit(f"ip:{client}")
        task = asyncio.create_task(self._send_resets(typed, lang))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _send_resets(self, typed: str, lang: str) -> None:
        try:
            for account, address in await self._reset_targets(typed):
                limit = await self._take(account, address)
                if limit is not None:
                    self.withheld[limit] += 1
                    log.info("reset mail of account %d held back: its %s's limit",
                             account, limit)
                    continue
                letter = await self._letter("reset", account, address, lang)
                if letter is not None:
                    await self.mailer.send(letter)
        except MailFailed:
            pass  # logged and counted by the mailer; the asker was told to try later
        except Exception:  # a background task: nobody else would hear of it
            log.exception("a password reset request failed")
            self.withheld["error"] += 1

    async def _reset_targets(self, typed: str) -> list[tuple[int, str]]:
        if "@" in typed:
            accounts = await self.mails.verified_accounts(typed)
        else:
            found = await self.store.account_by_key(name_key(typed))
            accounts = [] if found is None else [found.id]
        targets = []
        for account in accounts:
            stored = await self.mails.address_of(account)
            if stored is not None and stored.verified is not None:
                targets.append((account, stored.address))
        return targets

    async def settle(self) -> None:
        """Wait for the reset mails being sent (tests; the server's end)."""
        while self._background:
            await asyncio.gather(*self._background, return_exceptions=True)

    async def check_reset(self, token: str) -> TokenCheck:
        return await self.mails.check_token(token, "reset")

    async def use_reset(self, token: str) -> TokenCheck:
        return await self.mails.use_token(token, "reset")
