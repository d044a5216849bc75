"""Parsing what the scorer types, in any of the catalog languages.

Each function reads one field ("ns", "cuori", "contro", "terza+poker di fanti") and returns
its value, or raises a :class:`~belote.scorekeeper.validation.ScoreError` naming the field.
The words come from :mod:`belote.scorekeeper.vocabulary` (the catalogs), all languages at once.
"""

from __future__ import annotations

import re
from dataclasses import replace

from belote.rules.base import Rules
from belote.scorekeeper.declarations import declaration_aliases, declaration_table
from belote.scorekeeper.hand import Declared, HandEntry
from belote.scorekeeper.validation import Reason, ScoreError
from belote.scorekeeper.vocabulary import (
    belote_words,
    capot_words,
    double_words,
    key,
    none_words,
    team_words,
    trump_words,
    yes_words,
)

_NUMBER = re.compile(r"[+-]?\d+")
# Joining words between declarations ("terza e quarta"), skipped.
_JOINERS = frozenset({"e", "y", "et", "and", "&"})


def is_none(text: str) -> bool:
    """"" or a word for nothing ("no", "nessuno", "ninguno", "aucun", "-")."""
    return key(text) in none_words()


def parse_team(text: str, field: str) -> int:
    """A team 0 (N-S) or 1 (E-W) from "NS", "EW"/"EO", "N-S", a seat (N E S W/O, Nord ...)
    or a team name in any language."""
    team = team_words().get(key(text))
    if team is None:
        raise ScoreError(Reason.BAD_TEAM, field, value=text)
    return team


def parse_optional_team(text: str, field: str, yes_team: int | None = None) -> int | None:
    """A team, or None for nothing ("", "no", "-"); a yes ("sì", "oui") means ``yes_team``
    where the question has one (the capot: the takers)."""
    if is_none(text):
        return None
    if yes_team is not None and key(text) in yes_words():
        return yes_team
    try:
        return parse_team(text, field)
    except ScoreError:
        raise ScoreError(Reason.BAD_FLAG, field, value=text) from None


def parse_trump(text: str, field: str = "trump") -> int:
    """A trump code: a suit 0..3 (letter H D C S, symbol or name in any language), senza (4)
    or tutte (5) ("sans atout", "todo triunfo" ...)."""
    trump = trump_words().get(key(text))
    if trump is None:
        raise ScoreError(Reason.BAD_TRUMP, field, value=text)
    return trump


def parse_points(text: str, field: str) -> int:
    text = text.strip()
    if not _NUMBER.fullmatch(text):
        raise ScoreError(Reason.BAD_NUMBER, field, value=text)
    value = int(text)
    if value < 0:
        raise ScoreError(Reason.NEGATIVE, field, value=value)
    return value


def parse_level(text: str, rules: Rules, field: str = "level") -> int:
    """A contract level: a number, "capot" / "cappotto" / "capote" (the preset's capot
    level), or "" for none."""
    word = key(text)
    if word in none_words():
        return 0
    if word in capot_words():
        if rules.auction is None or not rules.auction.capot_level:
            raise ScoreError(Reason.BAD_LEVEL, field, value=text)
        return rules.auction.capot_level
    # The digits as typed: "8.2" or "8 2" is no level (the matching form would drop the dot).
    digits = text.strip()
    if not digits.isdigit():
        raise ScoreError(Reason.BAD_LEVEL, field, value=text)
    return int(digits)


def parse_double(text: str, field: str = "double") -> int:
    """0 none, 1 contro (coinche, contra, double), 2 surcontro (surcoinche, recontra)."""
    word = key(text)
    if word in none_words():
        return 0
    double = double_words().get(word)
    if double is None:
        raise ScoreError(Reason.BAD_DOUBLE, field, value=text)
    return double


def parse_declared(text: str, rules: Rules, field: str) -> Declared:
    """"" (none), a number (the team's points) or names joined by "+" or "," in any language
    ("tierce+carre_J", "terza + poker di fanti", "tercera, cincuenta").  "belote" among them
    marks the team's belote (see :func:`fold_belote`)."""
    text = text.strip()
    if is_none(text):
        return Declared()
    if _NUMBER.fullmatch(text):
        return Declared(points=parse_points(text, field))
    aliases = declaration_aliases(rules)
    table = declaration_table(rules)
    names: list[str] = []
    belote = False
    for chunk in re.split(r"[+,;]", text):
        words = chunk.split()
        start = 0
        while start < len(words):
            # The longest run of words that names something ("poker di fanti").
            for end in range(len(words), start, -1):
                phrase = key(" ".join(words[start:end]))
                if phrase in aliases:
                    names.append(aliases[phrase])
                    break
                if phrase in belote_words():
                    belote = True
                    break
            else:
                if key(words[start]) not in _JOINERS:
                    raise ScoreError(Reason.UNKNOWN_DECLARATION, field, value=words[start],
                                     preset=rules.name, names=tuple(table))
                end = start + 1
            start = end
    return Declared(points=sum(table[n] for n in names), names=tuple(names), belote=belote)


def fold_belote(entry: HandEntry) -> HandEntry:
    """Move a belote said among a team's declarations to the hand's belote; two teams with a
    belote (or a declared belote against the belote answer) are refused."""
    said = [team for team, d in enumerate(entry.declarations) if d.belote]
    if not said:
        return entry
    if len(said) == 2 or (entry.belote is not None and entry.belote != said[0]):
        raise ScoreError(Reason.BELOTE_TWICE, "belote")
    plain = tuple(replace(d, belote=False) for d in entry.declarations)
    return replace(entry, belote=said[0], declarations=(plain[0], plain[1]))
