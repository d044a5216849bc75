"""The declarations a preset scores: names with their points, the words for them, and the
totals one team can make (RULES.md "Declarations": 20, 50, 100, 150, 200; no 30)."""

from __future__ import annotations

from itertools import combinations_with_replacement

from belote.cards import Rank
from belote.rules.base import Rules
from belote.rules.declarations import RANK_CODES, carre_value, sequence_value
from belote.scorekeeper.vocabulary import declaration_words

# Most declarations one team can hold in a hand (two players, two carrés and two tierces each
# at most); bounds the totals accepted as "possible".
MAX_TEAM_DECLARATIONS = 8


def declaration_table(rules: Rules) -> dict[str, int]:
    """Every declaration name of the preset with its points ("sequence_3": 20, "carre_J": 200).

    Beloté sequences (valdostana) are entered as the sequence plus the belote: the engine
    counts the belote's 20 once, by the announcement.  Empty when the preset declares nothing.
    """
    decl = rules.declarations
    if decl is None:
        return {}
    table: dict[str, int] = {}
    for length in range(3, 9):
        points = sequence_value(length, decl)
        if points > 0:
            table[f"sequence_{length}"] = points
    for rank in Rank:
        points = carre_value(rank, decl)
        if points > 0:
            table[f"carre_{RANK_CODES[rank]}"] = points
    return table


def declaration_aliases(rules: Rules) -> dict[str, str]:
    """Accepted words (matching form) -> declaration name, for the preset's table only:
    the names themselves and their words in every catalog language."""
    table = declaration_table(rules)
    return {word: name for word, name in declaration_words().items() if name in table}


def possible_totals(rules: Rules) -> frozenset[int]:
    """The declaration totals one team can score in the preset (sums of table values)."""
    values = sorted(set(declaration_table(rules).values()))
    totals = {0}
    for count in range(1, MAX_TEAM_DECLARATIONS + 1):
        totals.update(sum(c) for c in combinations_with_replacement(values, count))
    return frozenset(totals)
