"""The account mails' words: plain text, short, in the account's language."""

from __future__ import annotations

from datetime import datetime

from belote.i18n import translate
from belote.server.mail.sender import Letter


def _until(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def verification(lang: str, to: str, name: str, link: str, until: datetime) -> Letter:
    """The link that confirms ``to`` as the address of account ``name``."""
    return Letter(to, translate(lang, "web.mail.letter.verify.subject"),
                  translate(lang, "web.mail.letter.verify.body", name=name, link=link,
                            until=_until(until)))


def reset(lang: str, to: str, name: str, link: str, until: datetime) -> Letter:
    """The link that lets the owner of account ``name`` choose a new password."""
    return Letter(to, translate(lang, "web.mail.letter.reset.subject"),
                  translate(lang, "web.mail.letter.reset.body", name=name, link=link,
                            until=_until(until)))
