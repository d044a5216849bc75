"""Each flag's domain: the values :meth:`Rules.with_flags` may be asked for, from the flag's
declared type and the ranges of :mod:`belote.rules.validation`.

For every flag of a preset (dotted names for the groups' flags), :func:`flag_domain` lists
values to try: both booleans, every word of a Literal, the lowest and highest whole number the
validation accepts (and the preset's own value's neighbours), ``null`` where allowed, and a few
tables (deal packets, contract levels, declaration tables) from the smallest to the largest
accepted.  Not every value is accepted on every preset (a flag may depend on another): the
caller asks :meth:`Rules.with_flags`, which refuses with a ``ValueError``.

``scripts/fuzz_rules.py --domain`` plays a match for every accepted single change of every
preset (the full sweep) and ``tests/server/test_rules_fuzz.py`` a seeded sample of them:
every accepted rule setting must play (issue 21, item 10).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from belote.rules.base import AuctionRules, Rules
from belote.rules.declarations import DeclarationRules
from belote.rules.validation import (
    INT_RANGES,
    MAX_LEVEL,
    MAX_LEVELS,
    MAX_LOWEST_LEVEL,
    MAX_POINTS,
)

GROUPS: dict[str, type] = {"auction": AuctionRules, "declarations": DeclarationRules}

# Tables: a few values each, from the smallest to the largest the validation accepts.
PACKETS: tuple[tuple[int, ...], ...] = (
    (3, 2), (2, 3), (5,), (1,) * 5, (3, 3, 2), (2, 3, 3), (4, 4), (8,), (1,) * 8, (5, 5),
    (10,), (3, 3, 4), (8, 8), (16,), (4, 4, 4, 4),
)
LEVELS: tuple[tuple[int, ...], ...] = (
    (1,), (80,), (120,), tuple(range(80, 161, 10)), (*range(80, 161, 10), 250),
    (120, MAX_LEVEL), tuple(range(1, MAX_LEVELS + 1)),
    (MAX_LOWEST_LEVEL, *range(MAX_LEVEL - 10 * (MAX_LEVELS - 2), MAX_LEVEL + 1, 10)),
)
CARRES: tuple[tuple[int, ...], ...] = (
    (0,) * 8, (MAX_POINTS,) * 8, (0, 0, 150, 100, 200, 100, 100, 100),
)
SEQUENCES: tuple[tuple[tuple[int, int], ...], ...] = (
    (), ((3, 20),), ((8, MAX_POINTS),), ((3, 0),), ((3, 20), (4, 50), (5, 100)),
    ((3, MAX_POINTS), (4, MAX_POINTS), (5, MAX_POINTS), (6, MAX_POINTS), (7, MAX_POINTS),
     (8, MAX_POINTS)),
)


def flag_domain(rules: Rules) -> list[tuple[str, Any]]:
    """Every (flag, value) single change to try on ``rules``: values other than its own."""
    domain: list[tuple[str, Any]] = []
    current = dict(rules.flag_items())
    hints = get_type_hints(Rules)
    for group in GROUPS:  # a whole group switched off, or on with its defaults
        value = getattr(rules, group)
        domain.append((group, None) if value is not None else (group, {}))
    for flag, own in current.items():
        if flag == "name":
            continue
        group, _, leaf = flag.rpartition(".")
        hint = get_type_hints(GROUPS[group])[leaf] if group else hints[flag]
        for value in values_of(flag, hint, own, rules):
            if value != own:
                domain.append((flag, value))
    return domain


def values_of(flag: str, hint: Any, own: Any, rules: Rules) -> list[Any]:
    """The values of the type ``hint`` to try for ``flag`` (``own``: the preset's)."""
    leaf = flag.rpartition(".")[2]
    if leaf == "deal_packets":
        return list(PACKETS)
    if leaf == "levels":
        return list(LEVELS)
    if leaf == "carre_points":
        return list(CARRES)
    if leaf == "sequence_points":
        return list(SEQUENCES)
    if leaf == "capot_level":
        levels = rules.auction.levels if rules.auction is not None else ()
        return [0, *levels[:1], *levels[-1:]]
    origin, args = get_origin(hint), get_args(hint)
    if hint is bool:
        return [True, False]
    if origin is Literal:
        return list(args)
    if origin is Union or (origin is not None and type(None) in args):
        inner = [a for a in args if a is not type(None)]
        return [None, *(v for a in inner for v in values_of(flag, a, own, rules))]
    if hint is int:
        low, high = INT_RANGES.get(flag, (0, MAX_POINTS))
        near = [own - 1, own + 1] if isinstance(own, int) and not isinstance(own, bool) else []
        return sorted({low, high, *(v for v in near if low <= v <= high)})
    if dataclasses.is_dataclass(hint):
        return [None, {}]
    return []


__all__ = ["flag_domain", "values_of"]
