"""Messages that count ("1 round", "3 rounds"): the plural form a count takes in a language.

The catalogs hold plain ``str.format`` templates (:mod:`.catalog`), one per message id.  A
message whose words depend on a count has its general form under its id and, where the
language says one thing differently, its singular under ``<id>.one``; the language's plural
rule (CLDR's, from Babel: French says "0 manche", English "0 rounds") picks between them.
CLDR's further forms (Italian, Spanish and French "many", for millions) read the general one.

>>> count_text("en", "tournament.web.summary", 1, rounds=1, format="Pinasca",
...            target=1500, state="running")
'Pinasca, 1 round, target 1500, running.'
>>> count_text("fr", "tournament.web.summary", 3, rounds=3, format="Pinasca",
...            target=1500, state="en cours")
'Pinasca, 3 manches, objectif 1500, en cours.'
"""

from __future__ import annotations

from functools import cache
from typing import Any

from babel import Locale

from belote.i18n.catalog import check_language, has_message, translate


@cache
def _locale(lang: str) -> Locale:
    return Locale.parse(check_language(lang))


def plural_form(lang: str, count: int) -> str:
    """CLDR's plural category of ``count`` in ``lang``: "one", "other", "many"...

    >>> [plural_form("fr", n) for n in (0, 1, 2)], [plural_form("it", n) for n in (0, 1, 2)]
    (['one', 'one', 'other'], ['other', 'one', 'other'])
    """
    return str(_locale(lang).plural_form(count))


def count_text(lang: str, key: str, count: int, **values: Any) -> str:
    """The message ``key`` for ``count`` (its ``{count}`` placeholder filled too): its
    ``.one`` form where the count is singular in ``lang`` and the catalog has one."""
    singular = f"{key}.one"
    if plural_form(lang, count) == "one" and has_message(lang, singular):
        key = singular
    return translate(lang, key, count=count, **values)
