"""The SMTP client: one mail at a time per call, in a thread (smtplib blocks), with a
timeout on every network step; a failure is logged, counted and raised as :class:`MailFailed`.

Why the standard library's smtplib in a thread rather than an asyncio SMTP client: mails
are rare (a few per account and hour), smtplib knows STARTTLS, TLS and login, and a thread
per mail keeps the event loop free without a new dependency.
"""

from __future__ import annotations

import asyncio
import logging
import smtplib
import ssl
from collections import Counter
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import make_msgid

from belote.server.config import Settings

log = logging.getLogger(__name__)


class MailFailed(Exception):
    """The mail could not be handed to the SMTP server (or none is set up)."""


@dataclass(frozen=True, slots=True)
class Letter:
    to: str
    subject: str
    body: str  # plain text


class Mailer:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        # Mails handed to the server, and failures by kind (unreachable, refused, ...).
        self.sent = 0
        self.failures: Counter[str] = Counter()

    @property
    def ready(self) -> bool:
        return self.settings.mail_ready

    async def send(self, letter: Letter) -> None:
        """Hand ``letter`` to the SMTP server; :class:`MailFailed` if it could not be."""
        if not self.ready:
            self.failures["not_configured"] += 1
            raise MailFailed("no SMTP server is set up")
        try:
            await asyncio.to_thread(self._send_now, letter)
        except (smtplib.SMTPException, OSError) as error:
            kind = ("refused" if isinstance(error, smtplib.SMTPResponseException)
                    else "tls" if isinstance(error, ssl.SSLError)  # a certificate refused
                    else "unreachable")
            self.failures[kind] += 1
            # The error's text, never the settings: the password stays out of the log.
            log.warning("mail to the SMTP server %s:%d failed (%s): %s: %s",
                        self.settings.smtp_host, self.settings.smtp_port, kind,
                        type(error).__name__, error)
            raise MailFailed(str(error)) from error
        self.sent += 1

    def message(self, letter: Letter) -> EmailMessage:
        message = EmailMessage()
        message["From"] = self.settings.smtp_from
        message["To"] = letter.to
        message["Subject"] = letter.subject
        message["Message-ID"] = make_msgid(domain=self.settings.smtp_host or None)
        message["Auto-Submitted"] = "auto-generated"  # RFC 3834: no automatic replies
        message.set_content(letter.body)
        return message

    def _send_now(self, letter: Letter) -> None:
        s = self.settings
        context = ssl.create_default_context()
        smtp: smtplib.SMTP
        if s.smtp_security == "tls":
            smtp = smtplib.SMTP_SSL(s.smtp_host, s.smtp_port, timeout=s.smtp_timeout,
                                    context=context)
        else:
            smtp = smtplib.SMTP(s.smtp_host, s.smtp_port, timeout=s.smtp_timeout)
        with smtp:
            if s.smtp_security == "starttls":
                smtp.starttls(context=context)
            if s.smtp_user:
                smtp.login(s.smtp_user, s.smtp_password)
            smtp.send_message(self.message(letter))
