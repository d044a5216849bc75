"""The scorekeeper's words, both ways, all from the catalogs (``scorekeeper.po``).

Reading: what the scorer may type for a team, a trump, a double, "none", "yes", "capot",
"belote", a declaration or a CSV column, in any of the catalog languages at once (a table in
Aosta may write "cuori" on a sheet whose header is English).  The words are the catalogs'
``score.input.*`` alternatives plus the game's own names (``card.suit.*``, ``trump.*``,
``seat.*``, ``team.*``, ``action.contro``, ``declaration.*``), so a corrected translation is
understood at once.  A word that would mean two things is an error when the table is built,
never a silent pick.

Writing: team labels, trump words, level ranges, column headers, in one language.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from typing import Any

from belote.engine.events import ALL_TRUMP, NO_TRUMP
from belote.i18n import (
    LANGUAGES,
    declaration_name,
    join_list,
    seat_name,
    suit_name,
    team_name,
    translate,
    trump_name,
)
from belote.i18n.catalog import messages
from belote.i18n.parse import normalize
from belote.notation import SUIT_LETTERS, SUIT_SYMBOLS, TRUMP_WORDS
from belote.rules.declarations import RANK_CODES

PREFIX = "score."
# Every CSV column, input ones first; the catalogs name each as ``score.column.<code>``.
COLUMNS: tuple[str, ...] = ("hand", "taker", "trump", "level", "double", "tricks_ns",
                            "tricks_ew", "capot", "decl_ns", "decl_ew", "belote")
RESULT_COLUMNS: tuple[str, ...] = ("outcome", "capot_team", "points_ns", "points_ew",
                                   "score_ns", "score_ew", "pot", "pot_team", "pot_won_by",
                                   "pot_won", "total_ns", "total_ew", "winner")
SUIT_KEYS: tuple[str, ...] = ("hearts", "diamonds", "clubs", "spades")
DECLARATION_CODES: tuple[str, ...] = (
    *(f"sequence_{n}" for n in range(3, 9)), *(f"carre_{code}" for code in RANK_CODES))


def message(key: str, lang: str = "en", **values: Any) -> str:
    """The scorekeeper's message ``key`` (without the ``score.`` prefix) in ``lang``."""
    return translate(lang, PREFIX + key, **values)


class _Catalog(Mapping[str, str]):
    """The scorekeeper's templates of one language, keyed without the ``score.`` prefix."""

    def __init__(self, lang: str) -> None:
        self._lang = lang

    def _table(self) -> dict[str, str]:
        return {key[len(PREFIX):]: text for key, text in messages(self._lang).items()
                if key.startswith(PREFIX) and not key.startswith(PREFIX + "input.")}

    def __getitem__(self, key: str) -> str:
        return self._table()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._table())

    def __len__(self) -> int:
        return len(self._table())


# The English templates (read from the catalog when used, not at import).
MESSAGES: Mapping[str, str] = _Catalog("en")


# --- Reading --------------------------------------------------------------------------------


def key(text: str) -> str:
    """The matching form of a word: no case, accents, spaces, dashes, slashes, dots."""
    return re.sub(r"[\s\-/_.]", "", normalize(text))


def _alternatives(name: str) -> Iterator[tuple[str, str]]:
    """(language, word) for each alternative of ``score.input.<name>`` in every language."""
    for lang in LANGUAGES:
        for word in message(f"input.{name}", lang).split("|"):
            yield lang, word


def _merge(what: str, pairs: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    table: dict[str, Any] = {}
    for word, value in pairs:
        k = key(word)
        if not k:
            continue
        if table.get(k, value) != value:
            raise ValueError(f"the {what} word {word!r} means both {table[k]!r} and {value!r}")
        table[k] = value
    return table


@cache
def team_words() -> dict[str, int]:
    """Team 0 (N-S) or 1 (E-W): codes, seats (N E S W, North ... Ovest), team names."""
    pairs: list[tuple[str, int]] = []
    for team, code in enumerate(("ns", "ew")):
        pairs += [(word, team) for _, word in _alternatives(f"team.{code}")]
    for lang in LANGUAGES:
        pairs += [(seat_name(seat, lang), seat % 2) for seat in range(4)]
        pairs += [(team_name(team, lang), team) for team in (0, 1)]
    return _merge("team", pairs)


@cache
def none_words() -> frozenset[str]:
    return frozenset({""} | set(_merge("none", ((w, 0) for _, w in _alternatives("none")))))


@cache
def yes_words() -> frozenset[str]:
    return frozenset(_merge("yes", ((w, 1) for _, w in _alternatives("yes"))))


@cache
def trump_words() -> dict[str, int]:
    """A trump code: suits by letter, symbol or name in any language; senza; tutte."""
    pairs: list[tuple[str, int]] = []
    for suit, suit_key in enumerate(SUIT_KEYS):
        pairs += [(SUIT_LETTERS[suit], suit), (SUIT_SYMBOLS[suit], suit),
                  (TRUMP_WORDS[suit], suit)]
        pairs += [(word, suit) for _, word in _alternatives(f"suit.{suit_key}")]
        pairs += [(suit_name(suit, lang), suit) for lang in LANGUAGES]
    for trump, name in ((NO_TRUMP, "no_trump"), (ALL_TRUMP, "all_trump")):
        pairs += [(TRUMP_WORDS[trump], trump)]
        pairs += [(word, trump) for _, word in _alternatives(name)]
        pairs += [(trump_name(trump, lang), trump) for lang in LANGUAGES]
    return _merge("trump", pairs)


@cache
def double_words() -> dict[str, int]:
    """0 none, 1 contro (coinche, contra, double), 2 surcontro (surcoinche, redouble)."""
    pairs: list[tuple[str, int]] = [("1", 0), ("x1", 0), ("2", 1), ("4", 2)]
    for double, name in ((1, "contro"), (2, "surcontro")):
        pairs += [(word, double) for _, word in _alternatives(name)]
        pairs += [(translate(lang, f"action.{name}"), double) for lang in LANGUAGES]
    return _merge("double", pairs)


@cache
def capot_words() -> frozenset[str]:
    return frozenset(_merge("capot", ((w, 1) for _, w in _alternatives("capot"))))


@cache
def belote_words() -> frozenset[str]:
    return frozenset(_merge("belote", ((w, 1) for _, w in _alternatives("belote"))))


@cache
def declaration_words() -> dict[str, str]:
    """Word -> declaration code ("sequence_3", "carre_J"): the codes, "poker_j", the
    catalog names in every language ("poker di fanti") and the spoken ones ("terza")."""
    pairs: list[tuple[str, str]] = []
    for code in DECLARATION_CODES:
        pairs.append((code, code))
        if code.startswith("carre_"):
            pairs.append((f"poker_{code[6:]}", code))
        pairs += [(declaration_name(code, lang), code) for lang in LANGUAGES]
    for lang, spoken in _alternatives("declarations"):
        word, _, code = spoken.partition("=")
        if code not in DECLARATION_CODES:
            raise ValueError(f"score.input.declarations ({lang}): {spoken!r} names no "
                             "declaration")
        pairs.append((word, code))
    return _merge("declaration", pairs)


@cache
def column_codes() -> dict[str, str]:
    """A CSV header, in any language, -> the column's code ("prese_ns" -> "tricks_ns")."""
    codes = (*COLUMNS, *RESULT_COLUMNS)
    pairs = [(code, code) for code in codes]
    pairs += [(column_header(code, lang), code) for code in codes for lang in LANGUAGES]
    return _merge("column", pairs)


# --- Writing --------------------------------------------------------------------------------


def team_label(team: int, lang: str) -> str:
    """N-S / E-W (E-O in Italian, Spanish and French)."""
    return message(("team.ns", "team.ew")[team], lang)


def team_code(team: int | None, lang: str) -> str:
    """The team as a CSV cell (NS, EW / EO), empty for none."""
    return "" if team is None else message(("csv.team.ns", "csv.team.ew")[team], lang)


def trump_word(trump: int, lang: str) -> str:
    return trump_name(trump, lang)


def double_word(double: int, lang: str) -> str:
    return "" if not double else translate(lang, ("action.contro", "action.surcontro")[double - 1])


def capot_word(lang: str) -> str:
    return message("word.capot", lang)


def levels_text(levels: Iterable[int], capot_level: int, lang: str) -> str:
    """"82 to 802", or "80 to 160, capot": the plain levels, then the capot contract."""
    plain = [lv for lv in levels if lv != capot_level]
    if len(plain) > 2:
        parts = [message("levels.range", lang, low=plain[0], high=plain[-1])]
    else:
        parts = [str(lv) for lv in plain]
    if capot_level:
        parts.append(capot_word(lang))
    return join_list(parts, lang)


def trump_choices(lang: str, senza: bool = True, tutte: bool = True) -> str:
    """The trumps a prompt offers: the suits, then senza and tutte where the preset has them."""
    parts = [message("choices.suits", lang)]
    parts += [trump_name(t, lang) for t, on in ((NO_TRUMP, senza), (ALL_TRUMP, tutte)) if on]
    return join_list(parts, lang)


def column_header(code: str, lang: str) -> str:
    return message(f"column.{code}", lang)


def declarations_text(names: Iterable[str], lang: str, separator: str | None = None) -> str:
    """Declaration codes in words; an empty list says "none"."""
    words = [declaration_name(name, lang) for name in names]
    if not words:
        return message("none", lang)
    return separator.join(words) if separator is not None else join_list(words, lang)
