"""Message catalogs: one gettext ``.po`` file per language, read once with Babel.

Message ids are symbolic (``card.rank.jack``, ``event.card_played``), so a message missing from
a catalog is an error, never a silent fallback to English.  Messages are ``str.format`` templates
with named placeholders; values the template does not use are ignored.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from string import Formatter
from typing import Any

from babel.messages.pofile import read_po

LANGUAGES: tuple[str, ...] = ("it", "es", "fr", "en")
DOMAIN = "belote"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"


def check_language(lang: str) -> str:
    """Return ``lang`` if it is one of ``LANGUAGES``, else raise ``ValueError``."""
    if lang not in LANGUAGES:
        raise ValueError(
            f"unknown language {lang!r}: expected one of {', '.join(LANGUAGES)}"
        )
    return lang


def catalog_path(lang: str) -> Path:
    return LOCALE_DIR / check_language(lang) / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def messages(lang: str) -> dict[str, str]:
    """The catalog of ``lang`` as ``{msgid: msgstr}``; untranslated (empty) entries are left out."""
    with catalog_path(lang).open("rb") as po:
        catalog = read_po(po, locale=lang, domain=DOMAIN)
    table: dict[str, str] = {}
    for message in catalog:
        key, text = message.id, message.string
        if key and isinstance(key, str) and text and isinstance(text, str):
            table[key] = text
    return table


def has_message(lang: str, key: str) -> bool:
    return key in messages(check_language(lang))


def placeholders(template: str) -> frozenset[str]:
    """The named placeholders of a ``str.format`` template."""
    return frozenset(name for _, name, _, _ in Formatter().parse(template) if name)


def translate(lang: str, key: str, **values: Any) -> str:
    """The message ``key`` of ``lang`` filled with ``values``.

    Raises ``ValueError`` for an unknown language and ``KeyError`` naming the key and the
    language for a missing message or a placeholder left without a value.
    """
    table = messages(check_language(lang))
    try:
        template = table[key]
    except KeyError:
        raise KeyError(f"no message {key!r} in the {lang!r} catalog") from None
    try:
        return template.format(**values)
    except KeyError as missing:
        raise KeyError(
            f"message {key!r} ({lang}) needs a value for placeholder {missing.args[0]!r}"
        ) from None
