"""Message catalogs: gettext ``.po`` files per language, read once with Babel.

A language's catalog is every ``.po`` file in its ``LC_MESSAGES`` folder (``belote.po`` for the
game, one file per further area such as ``sala.po``), merged; a message id defined in two files
is an error, so areas never override one another.

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
    """The main catalog file of ``lang`` (the game's messages)."""
    return LOCALE_DIR / check_language(lang) / "LC_MESSAGES" / f"{DOMAIN}.po"


def catalog_files(lang: str) -> list[Path]:
    """Every catalog file of ``lang``, the main one first."""
    folder = LOCALE_DIR / check_language(lang) / "LC_MESSAGES"
    main = catalog_path(lang)
    return [main, *sorted(p for p in folder.glob("*.po") if p != main)]


@cache
def messages(lang: str) -> dict[str, str]:
    """The catalog of ``lang`` as ``{msgid: msgstr}``; untranslated (empty) entries are left out.

    Raises ``ValueError`` when two files of the language define the same message id.
    """
    table: dict[str, str] = {}
    origin: dict[str, str] = {}
    for path in catalog_files(lang):
        with path.open("rb") as po:
            catalog = read_po(po, locale=lang, domain=path.stem)
        for message in catalog:
            key, text = message.id, message.string
            if not (key and isinstance(key, str)):
                continue
            if key in origin and origin[key] != path.name:
                raise ValueError(f"message {key!r} ({lang}) is defined in both "
                                 f"{origin[key]} and {path.name}")
            origin[key] = path.name
            if text and isinstance(text, str):
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
