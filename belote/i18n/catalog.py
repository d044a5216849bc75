"""Message catalogs: gettext ``.po`` files per language, read once with Babel.

A language's catalog is every ``.po`` file in its ``LC_MESSAGES`` folder, merged: one file per
domain (``game.po`` for the game itself, ``table.po`` for the table page, ``tournament.po`` ...),
the domain of a message named by the prefix of its id in :data:`DOMAIN_PREFIXES`.  A message id
defined in two files is an error, so domains never override one another.  Files outside the
table (``new_<name>.po``, messages written on a branch) load too, until
``scripts/catalog_domains.py`` moves their messages into their domains.

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
LOCALE_DIR = Path(__file__).resolve().parent / "locale"

# The domains, one catalog file each (``<domain>.po``), with what they hold; the first is the
# main one.  scripts/catalog_domains.py writes this description at the head of each file.
DOMAINS: dict[str, str] = {
    "game": "the game: cards, seats, contracts, actions, events, the engine's refusals",
    "rules": "the rule sheet and the problems of rule flags",
    "cli": "the command line and the terminal table (belote/cli)",
    "scorekeeper": "the scorekeeper: games played with real cards (belote/scorekeeper)",
    "tournament": "tournaments: formats, standings, the console and the pages",
    "lobby": "the lobby: the list of tables, creating and joining a table",
    "table": "the table page: seats, keys, prompts, information, settings, connection",
    "replays": "replays and their analysis",
    "ratings": "ratings: the leaderboard and the profiles",
    "accounts": "accounts: sign-up, sign-in, guests, devices",
    "web": "every page: layout, navigation, the room's refusals on the web and the wire, limits",
}
MAIN_DOMAIN = "game"

# Message-id prefix -> domain; the longest prefix that starts an id names its domain.  A new
# prefix goes here (scripts/catalog_domains.py refuses ids that no prefix names).
DOMAIN_PREFIXES: dict[str, str] = {
    "action.": "game", "announce.": "game", "card.": "game", "declaration.": "game",
    "error.": "game", "event.": "game", "list.": "game", "preset.": "game", "seat.": "game",
    "team.": "game", "trump.": "game",
    "sheet.": "rules", "rules.": "rules",
    "cli.": "cli", "ui.": "cli",
    "score.": "scorekeeper",
    "tournament.": "tournament",
    "lobby.": "lobby", "web.lobby.": "lobby", "web.create.": "lobby", "sala.create.": "lobby",
    "sala.join.": "lobby",
    "sala.": "table", "stall.": "table", "web.table.": "table", "web.seat.": "table",
    "web.key.": "table", "web.keys.": "table", "web.js.": "table", "web.chat.": "table",
    "web.notice.": "table", "web.level.": "table", "web.bot_name": "table",
    "replays.": "replays", "web.replay.": "replays",
    "ratings.": "ratings", "web.league.": "ratings", "web.stats.": "ratings",
    "web.account.": "accounts", "web.login.": "accounts", "web.register.": "accounts",
    "web.guest.": "accounts", "web.form.": "accounts", "web.mail.": "accounts",
    "web.": "web", "error.web.": "web", "error.wire.": "web", "limits.": "web",
    "web.phone.": "web",
    "web.friends.": "web",
    "web.daily.": "web",
    "daily2.": "web",
    "web.moderation.": "web",
    "modfix.": "web",
    "web.saved.": "table",
    "web.privacy.": "accounts",
}


def domain_of(key: str) -> str | None:
    """The domain of message id ``key`` (longest matching prefix), or None if none matches."""
    matches = [prefix for prefix in DOMAIN_PREFIXES if key.startswith(prefix)]
    return DOMAIN_PREFIXES[max(matches, key=len)] if matches else None


def check_language(lang: str) -> str:
    """Return ``lang`` if it is one of ``LANGUAGES``, else raise ``ValueError``."""
    if lang not in LANGUAGES:
        raise ValueError(
            f"unknown language {lang!r}: expected one of {', '.join(LANGUAGES)}"
        )
    return lang


def catalog_path(lang: str) -> Path:
    """The main catalog file of ``lang`` (the game's messages)."""
    return LOCALE_DIR / check_language(lang) / "LC_MESSAGES" / f"{MAIN_DOMAIN}.po"


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
