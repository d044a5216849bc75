"""What a rules object may hold: every flag's type, range and agreement with the others.

A table host builds rules from a preset and ``NAME=VALUE`` flags, so every value the engine
could not play, or a match could not end with, is refused here, before a table exists:
:func:`check_rules` runs when a :class:`~belote.rules.base.Rules` (or one of its groups) is
built, hence in :meth:`Rules.with_flags` and for every preset.  The error
(:class:`FlagError`, a ``ValueError``) names each bad flag, its value and what is allowed.

Types first; the other checks run only when every type is right (they rely on it):

1. types: each value fits the field's declared type (``bool`` is not an ``int``, ``1.5`` is
   not an ``int``, a Literal takes one of its words);
2. ranges and tables: scores, bonuses, multipliers, contract levels, deal packets and the
   declaration tables hold values a match can be played with;
3. agreement between flags: the bidding system against the deal and the auction table, the
   italian calls against the bidding, the capot level against the levels.

The bounds are generous (a club may play to 100000) but finite: bots play every accepted
combination to the end in ``scripts/fuzz_rules.py`` and ``tests/test_rules_validation.py``.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
import types
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

# The engine numbers auction contracts in a fixed action-id space of 80 levels
# (``belote.engine.actions.MAX_LEVELS``; the rules never import the engine).
MAX_LEVELS = 80
MAX_TARGET = 100_000
MAX_POINTS = 1000  # any bonus, fixed score or declaration value
MAX_MULTIPLIER = 100
MAX_SENZA_MULTIPLIER = 10
MAX_LEVEL = 1000
# The lowest contract must be one a good hand bids, or nearly every deal is passed out and a
# match may never end: with the lowest level at 130 a bots' match to 150 took 42 deals, at 140
# 356, at 162 (every card point of a hand) none ended in 3000 deals.
MAX_LOWEST_LEVEL = 120
# A failed contract gives the defenders at least half a hand, so that a match always moves
# towards its target even when no contract is ever made.
MIN_FAILED_DEFENDERS_POINTS = 80
CARDS_EACH = 8
TURNED_DEAL = 5  # take-or-pass: five cards each, a turned card, then the rest
FULL_DEAL = CARDS_EACH  # auction: all eight cards before the bidding
SEQUENCE_LENGTHS = (3, CARDS_EACH)  # the shortest and longest sequence that may score
RANKS = 8
NAME_PATTERN = re.compile(r"[a-z][a-z0-9_-]{0,39}")

# Whole-number flags and their (lowest, highest) values; a dotted name is a group's flag.
INT_RANGES: dict[str, tuple[int, int]] = {
    "target_score": (1, MAX_TARGET),
    "match_hands": (0, 200),
    "belote_points": (0, MAX_POINTS),
    "last_trick_bonus": (0, MAX_POINTS),
    "capot_bonus": (0, MAX_POINTS),
    "taker_min_points": (0, MAX_POINTS),
    "failed_defenders_points": (MIN_FAILED_DEFENDERS_POINTS, MAX_POINTS),
    "senza_multiplier": (1, MAX_SENZA_MULTIPLIER),
    "cut_min_cards": (1, 16),
    "players": (2, 4),  # each part of a cut keeps at least this many of the 32
    "auction.contro_multiplier": (1, MAX_MULTIPLIER),
    "auction.surcontro_multiplier": (1, MAX_MULTIPLIER),
    "declarations.belote_in_sequence_bonus": (0, MAX_POINTS),
    "declarations.bluff_penalty": (0, MAX_POINTS),
}

# Flags that only the take-or-pass bidding reads (a turned card, the italian call).
TAKE_OR_PASS_FLAGS = ("jack_oblige", "allow_senza", "allow_tutte", "senza_override")


@dataclass(frozen=True, slots=True)
class Problem:
    """One bad flag: its dotted name, its value and what is allowed instead.

    ``allowed`` says it in English (for developers and logs); ``code`` and ``values`` say it
    as data, so that the text layer can say it in the host's language
    (:func:`belote.i18n.flag_problems.problem_text`).
    """

    flag: str
    value: Any
    allowed: str
    code: str = "type"
    values: tuple[tuple[str, Any], ...] = ()

    def __str__(self) -> str:
        return f"{self.flag}={shown(self.value)} (allowed: {self.allowed})"


class FlagError(ValueError):
    """Rule flags that cannot be played; ``problems`` lists each one."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("bad rule flag value(s): " + "; ".join(map(str, self.problems)))


def shown(value: Any) -> str:
    """A flag value as the host would write it (JSON, or the plain word)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = dataclasses.asdict(value)
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


# --- 1. Types --------------------------------------------------------------------------------

_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = get_type_hints(cls)
    return hints


def fits(value: Any, hint: Any) -> bool:
    """Whether ``value`` fits the type ``hint`` exactly (no bool for int, no float for int)."""
    origin, args = get_origin(hint), get_args(hint)
    if hint is Any:
        return True
    if hint is type(None):
        return value is None
    if origin is Literal:
        return any(value == a and type(value) is type(a) for a in args)
    if origin is Union or origin is types.UnionType:
        return any(fits(value, a) for a in args)
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is str:
        return isinstance(value, str)
    if origin is tuple:
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(fits(v, args[0]) for v in value)
        return len(args) == len(value) and all(
            fits(v, a) for v, a in zip(value, args, strict=True)
        )
    if isinstance(hint, type):
        return isinstance(value, hint)
    return True


_WORDS: dict[Any, str] = {
    bool: "true or false",
    int: "a whole number",
    str: "a word",
    type(None): "null",
}


def describe(hint: Any) -> str:
    """A type in words: ``"clockwise" or "counterclockwise"``, ``a list of whole numbers``."""
    origin, args = get_origin(hint), get_args(hint)
    if origin is Literal:
        return " or ".join(json.dumps(a) for a in args)
    if origin is Union or origin is types.UnionType:
        return " or ".join(describe(a) for a in args)
    if hint in _WORDS:
        return _WORDS[hint]
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return f"a list of {describe(args[0]).removeprefix('a ')}s"
        return "[" + ", ".join(describe(a) for a in args) + "]"
    if dataclasses.is_dataclass(hint):
        return "an object of its flags"
    return str(hint).replace("typing.", "")


def type_problems(obj: Any, prefix: str = "") -> list[Problem]:
    """Each field of the dataclass ``obj`` (and of its nested groups) whose value does not
    fit its declared type."""
    problems: list[Problem] = []
    hints = _hints(type(obj))
    for field in dataclasses.fields(obj):
        value = getattr(obj, field.name)
        hint = hints[field.name]
        if not fits(value, hint):
            problems.append(Problem(prefix + field.name, value, describe(hint), "type",
                                    (("expected", describe(hint)),)))
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            problems += type_problems(value, f"{prefix}{field.name}.")
    return problems


# --- 2. Ranges and tables --------------------------------------------------------------------


def _range_problem(flag: str, value: Any) -> Problem | None:
    low, high = INT_RANGES[flag]
    if value is None or low <= value <= high:
        return None
    nullable = flag == "failed_defenders_points"
    none = " or null" if nullable else ""
    return Problem(flag, value, f"a whole number from {low} to {high}{none}",
                   "range_or_null" if nullable else "range", (("low", low), ("high", high)))


def _int_ranges(obj: Any, prefix: str) -> list[Problem]:
    problems = []
    for field in dataclasses.fields(obj):
        flag = prefix + field.name
        if flag in INT_RANGES:
            problem = _range_problem(flag, getattr(obj, field.name))
            if problem is not None:
                problems.append(problem)
    return problems


def _levels_problems(levels: tuple[int, ...], capot_level: int) -> list[Problem]:
    flag = "auction.levels"
    allowed = (f"1 to {MAX_LEVELS} contract levels, strictly increasing, each from 1 to "
               f"{MAX_LEVEL}, the lowest at most {MAX_LOWEST_LEVEL}")
    if (
        not 1 <= len(levels) <= MAX_LEVELS
        or any(not 1 <= level <= MAX_LEVEL for level in levels)
        or any(b <= a for a, b in itertools.pairwise(levels))
        or levels[0] > MAX_LOWEST_LEVEL
    ):
        return [Problem(flag, levels, allowed, "levels", (
            ("count", MAX_LEVELS), ("high", MAX_LEVEL), ("lowest", MAX_LOWEST_LEVEL)))]
    if capot_level != 0 and capot_level not in levels:
        return [Problem("auction.capot_level", capot_level, "0 (no capot contract) or one of "
                        "auction.levels", "capot_level")]
    return []


def auction_problems(auction: Any, prefix: str = "auction.") -> list[Problem]:
    """Ranges of an :class:`~belote.rules.base.AuctionRules` (types already checked)."""
    problems = _int_ranges(auction, prefix)
    problems += _levels_problems(auction.levels, auction.capot_level)
    if auction.surcontro_multiplier < auction.contro_multiplier:
        problems.append(Problem(f"{prefix}surcontro_multiplier", auction.surcontro_multiplier,
                                f"at least auction.contro_multiplier "
                                f"({auction.contro_multiplier})", "surcontro",
                                (("contro", auction.contro_multiplier),)))
    return problems


def declaration_problems(decl: Any, prefix: str = "declarations.") -> list[Problem]:
    """Tables of a :class:`~belote.rules.declarations.DeclarationRules` (types checked)."""
    problems = _int_ranges(decl, prefix)
    rows = decl.sequence_points
    lengths = [length for length, _ in rows]
    shortest, longest = SEQUENCE_LENGTHS
    if (
        any(not shortest <= length <= longest for length in lengths)
        or lengths != sorted(set(lengths))
        or any(not 0 <= points <= MAX_POINTS for _, points in rows)
    ):
        problems.append(Problem(
            f"{prefix}sequence_points", rows,
            f"[length, points] rows, lengths strictly ascending from {shortest} to {longest}, "
            f"points from 0 to {MAX_POINTS}", "sequence_points",
            (("shortest", shortest), ("longest", longest), ("high", MAX_POINTS)),
        ))
    carres = decl.carre_points
    if len(carres) != RANKS or any(not 0 <= points <= MAX_POINTS for points in carres):
        problems.append(Problem(
            f"{prefix}carre_points", carres,
            f"one value per rank 7 8 9 10 J Q K A ({RANKS}), each from 0 to {MAX_POINTS}",
            "carre_points", (("count", RANKS), ("high", MAX_POINTS)),
        ))
    return problems


def _seat_problems(rules: Any) -> list[Problem]:
    """Fewer than four players: the auction only (the turned-card deal and the italian call
    are written for four), each player at least 8 cards, never more than the deck holds."""
    low, high_players = INT_RANGES["players"]
    if rules.players == 4 or not low <= rules.players <= high_players:
        return []  # out of its range: said once, with the other ranges
    if rules.bidding != "auction":
        return [Problem("players", rules.players, "4 unless bidding=auction", "needs",
                        (("condition", "bidding=auction"),))]
    packets = rules.deal_packets
    total = sum(packets)
    high = 32 // rules.players
    if not packets or any(p < 1 for p in packets) or not CARDS_EACH <= total <= high:
        return [Problem("deal_packets", packets,
                        f"packets of at least 1 card adding up to {CARDS_EACH}..{high} "
                        f"with players={rules.players}", "deal_packets_seats",
                        (("low", CARDS_EACH), ("high", high), ("players", rules.players)))]
    return []


def _deal_problems(rules: Any) -> list[Problem]:
    packets = rules.deal_packets
    if rules.players != 4:
        return _seat_problems(rules)
    need = FULL_DEAL if rules.bidding == "auction" else TURNED_DEAL
    if not packets or any(p < 1 for p in packets) or sum(packets) != need:
        how = ("all eight cards before the auction" if need == FULL_DEAL
               else "five cards before a turned card")
        return [Problem("deal_packets", packets,
                        f"packets of at least 1 card adding up to {need} with "
                        f"bidding={rules.bidding} ({how})", "deal_packets",
                        (("total", need), ("bidding", rules.bidding)))]
    return []


# --- 3. Agreement between flags --------------------------------------------------------------


def _consistency_problems(rules: Any) -> list[Problem]:
    problems: list[Problem] = []
    if rules.bidding == "auction" and rules.auction is None:
        problems.append(Problem("auction", None, "an auction table with bidding=auction",
                                "auction_missing"))
    if rules.bidding != "auction" and rules.auction is not None:
        problems.append(Problem("auction", rules.auction,
                                f"null with bidding={rules.bidding} (no auction is held)",
                                "auction_unused", (("bidding", rules.bidding),)))
    if rules.bidding != "take_or_pass":
        problems += [
            Problem(flag, True, f"false with bidding={rules.bidding} (only take-or-pass "
                                "bidding has a turned card and the italian call)",
                    "take_or_pass_only", (("bidding", rules.bidding),))
            for flag in TAKE_OR_PASS_FLAGS if getattr(rules, flag)
        ]
    if rules.senza_override and not rules.allow_senza:
        problems.append(Problem("senza_override", True, "false unless allow_senza is true",
                                "senza_override"))
    # deal_rest_from_taker has no effect without a turned card (an auction deals all eight
    # cards first): a host turning classic into an auction need not clear it.
    if not rules.senza_capot_multiplied and not rules.allow_senza:
        problems.append(Problem("senza_capot_multiplied", False,
                                "true unless allow_senza is true (no senza is played)",
                                "needs", (("condition", "allow_senza=true"),)))
    if rules.tie_freezes_belote and not rules.belote_enabled:
        problems.append(Problem("tie_freezes_belote", True,
                                "false unless belote_enabled is true", "needs",
                                (("condition", "belote_enabled=true"),)))
    if rules.surcontro_failed_points == "type_a" and (
        rules.bidding != "auction" or rules.multiplier_scope != "lines"
    ):
        problems.append(Problem("surcontro_failed_points", "type_a",
                                '"type_b" unless bidding=auction and multiplier_scope=lines '
                                "(only a surcontro on the lines' points pays Tipo A)", "needs",
                                (("condition", "bidding=auction, multiplier_scope=lines"),)))
    return problems


def check_group(obj: Any, prefix: str) -> None:
    """FlagError unless the group ``obj`` (auction or declarations) is playable."""
    problems = type_problems(obj, prefix)
    if not problems:
        check = auction_problems if prefix == "auction." else declaration_problems
        problems = check(obj, prefix)
    if problems:
        raise FlagError(problems)


def check_rules(rules: Any) -> None:
    """FlagError unless every flag of ``rules`` is playable (see the module's stages)."""
    problems = type_problems(rules)
    if not problems:
        if not NAME_PATTERN.fullmatch(rules.name):
            problems.append(Problem("name", rules.name,
                                    "1 to 40 lower-case letters, digits, _ or -", "name"))
        problems += _int_ranges(rules, "")
        problems += _deal_problems(rules)
        if rules.auction is not None:
            problems += auction_problems(rules.auction)
        if rules.declarations is not None:
            problems += declaration_problems(rules.declarations)
        problems += _consistency_problems(rules)
    if problems:
        raise FlagError(problems)


__all__ = [
    "INT_RANGES",
    "MAX_LEVELS",
    "FlagError",
    "Problem",
    "check_group",
    "check_rules",
    "describe",
    "fits",
    "shown",
    "type_problems",
]
