"""The declarations a preset scores: names with their points, the words for them, and the
totals one team can make (RULES.md "Declarations": 20, 50, 100, 150, 200; no 30)."""

from __future__ import annotations

from itertools import combinations_with_replacement

from belote.cards import Rank
from belote.engine.events import NO_TRUMP
from belote.rules.base import Rules
from belote.rules.declarations import (
    RANK_CODES,
    Declaration,
    carre_value,
    comparison_key,
    sequence_value,
)
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


# How much of the rules' comparison key (belote.rules.declarations.POLICY_KEYS) a name fixes:
# a carré's name fixes all of it (its rank); a sequence's name fixes its length (pinasca:
# "carré over sequence; sequences by length, top card, trump suit") or its value
# (valdostana: "the figure's value, then the top card, then trump"), never its top card or
# suit, which the sheet is not told.
_KNOWN_OF_SEQUENCE = {"best_team": 2, "best_team_all": 1}


def _named(name: str, points: int) -> Declaration:
    """A declaration from its name alone; a sequence's top card and suit are placeholders
    (see :data:`_KNOWN_OF_SEQUENCE`)."""
    kind, _, rest = name.partition("_")
    if kind == "carre":
        return Declaration("carre", 0, 4, RANK_CODES.index(rest), None, points, name)
    return Declaration("sequence", 0, int(rest), 0, 0, points, name)


def _known_key(name: str, rules: Rules) -> tuple[int, ...]:
    decl_rules = rules.declarations
    assert decl_rules is not None
    decl = _named(name, declaration_table(rules)[name])
    key = comparison_key(decl, decl_rules, NO_TRUMP)
    if decl.kind == "sequence":
        return key[:_KNOWN_OF_SEQUENCE[decl_rules.policy]]
    return key


def _surely_beats(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """Whether a declaration of known key ``a`` beats one of ``b`` whatever the unknown rest."""
    n = min(len(a), len(b))
    return a[:n] > b[:n]


def scoring_team(rules: Rules, names: tuple[tuple[str, ...], tuple[str, ...]],
                 taker: int) -> int | None:
    """The team whose declarations score when both teams declared, under a policy where only
    one does (seed 001: "ottiene i punti solo la squadra che fa la dichiarazione più alta";
    valdostana: the line of the best accuso, or the taker's line): 0, 1, or None when the
    names cannot tell (two sequences of one length: the top card decides, then trump, else
    nobody scores) and the table must say."""
    decl_rules = rules.declarations
    assert decl_rules is not None and decl_rules.policy != "same_length"
    if decl_rules.policy == "best_team_all" and decl_rules.declarations_to == "contract":
        return taker
    keys = [[_known_key(name, rules) for name in team] for team in names]
    for team in (0, 1):
        mine, theirs = keys[team], keys[1 - team]
        if any(all(_surely_beats(a, b) for b in theirs) for a in mine):
            return team
    return None
