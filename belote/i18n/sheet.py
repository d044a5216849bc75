"""The rule sheet: what a rules object enforces, in words, generated from the object itself.

``rule_sheet(rules, lang)`` walks :meth:`Rules.flag_items` (every flag, nested groups by dotted
name) and says one catalog sentence per flag value, so the sheet always says what the engine
enforces, including the flags a table host changed.  The sentence of a flag is the message
``sheet.FLAG.VALUE`` when the catalog has one (``sheet.partner_master_frees.true``,
``sheet.tie_rule.prigione``, ``sheet.taker_min_points.0``), else ``sheet.FLAG`` with the value
filled in (``sheet.target_score``: "The match is played to {value} points.").  Tables (contract
levels, declaration points, card orders from :mod:`belote.rules.tables`) are written out.  A flag
the catalogs do not know yet still appears, as ``sheet.generic`` ("flag: value").

Sections: dealing and seating, bidding, card play obligations, belote, declarations, scoring,
match (:data:`SECTIONS`).  With fewer than four players a sentence has its own variant where
the four-seat one speaks of teams and partners (:func:`seat_variants`).  :func:`sheet_lines`
gives the lines with their section, flag and message key (tests check that every flag has its
own sentence).

The sheet lives with the catalogs: :mod:`belote.rules` holds the flags (and checks them, see
:mod:`belote.rules.flags`) and imports nothing from :mod:`belote.i18n`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from belote.i18n.catalog import check_language, has_message, translate
from belote.i18n.names import declaration_name, join_list, preset_name, rank_name
from belote.rules.base import Rules
from belote.rules.declarations import carre_value
from belote.rules.presets import PRESETS
from belote.rules.tables import PLAIN_ORDER, PLAIN_POINTS, TRUMP_ORDER, TRUMP_POINTS
from belote.rules.validation import shown
from belote.rules.vocabulary import RANK_CODES

SECTIONS: tuple[str, ...] = (
    "deal",
    "bidding",
    "play",
    "belote",
    "declarations",
    "scoring",
    "match",
)
OTHER = "other"  # flags without a section yet (a flag added after this module)

# The section of each top-level flag; a nested group's flags go with the group.
SECTION_OF: dict[str, str] = {
    "direction": "deal",
    "players": "deal",
    "widow": "deal",
    "deal_packets": "deal",
    "cut_deck": "deal",
    "cut_min_cards": "deal",
    "deal_rest_from_taker": "deal",
    "bidding": "bidding",
    "jack_oblige": "bidding",
    "allow_senza": "bidding",
    "allow_tutte": "bidding",
    "senza_override": "bidding",
    "auction": "bidding",
    "must_follow_suit": "play",
    "must_trump": "play",
    "partner_master_frees": "play",
    "must_overtrump": "play",
    "must_undertrump": "play",
    "belote_enabled": "belote",
    "belote_points": "belote",
    "belote_king_first": "belote",
    "belote_window": "belote",
    "belote_counts_for_contract": "belote",
    "tutte_only_highest_belote": "belote",
    "declarations": "declarations",
    "ottava": "declarations",
    "last_trick_bonus": "scoring",
    "capot_bonus": "scoring",
    "capot_all_points": "scoring",
    "taker_min_points": "scoring",
    "taker_must_beat_defenders": "scoring",
    "declarations_count_for_contract": "scoring",
    "made_adds_contract": "scoring",
    "failed_defenders_points": "scoring",
    "failed_adds_contract": "scoring",
    "failed_defenders_take_all_declarations": "scoring",
    "failed_takers_keep_belote": "scoring",
    "tie_rule": "scoring",
    "doubled_tie": "scoring",
    "multiplier_scope": "scoring",
    "senza_multiplier": "scoring",
    "senza_capot_multiplied": "scoring",
    "surcontro_failed_points": "scoring",
    "tie_freezes_belote": "scoring",
    "target_score": "match",
    "target_strict": "match",
    "match_hands": "match",
    "discard_signals": "play",
}
TITLE_FLAG = "name"

# Card points of one hand's 32 cards with one trump suit (152).
CARD_POINTS_TOTAL = sum(TRUMP_POINTS.values()) + 3 * sum(PLAIN_POINTS.values())
CARDS_EACH = 8


@dataclass(frozen=True, slots=True)
class SheetLine:
    """One line of the sheet: ``flag`` is the flag it states (None: a fixed rule or heading)."""

    section: str
    flag: str | None
    key: str
    text: str


# --- Values filled into a flag's sentence ----------------------------------------------------

# A formatter returns (key suffix or None, placeholder values) for a flag value.
Formatter = Callable[[Rules, Any, str], tuple[str | None, dict[str, Any]]]


def _deal_packets(rules: Rules, value: Any, lang: str) -> tuple[str | None, dict[str, Any]]:
    count = sum(value)
    values = {
        "packets": "+".join(str(p) for p in value),
        "count": count,
        "rest": CARDS_EACH - count,
        "taker_rest": CARDS_EACH - count - 1,
    }
    return ("turned" if rules.turned_card else None), values


def _widow(rules: Rules, value: Any, lang: str) -> tuple[str | None, dict[str, Any]]:
    # Four players (or 16 cards each for two) leave no monte: say so, not what it would do.
    return ("none" if rules.widow_size == 0 else str(value)), {"count": rules.widow_size}


def _level_runs(levels: Sequence[int]) -> list[tuple[int, int, int] | int]:
    """Levels as arithmetic runs (start, end, step) of three or more, and single levels."""
    out: list[tuple[int, int, int] | int] = []
    i = 0
    while i < len(levels):
        if i + 2 < len(levels):
            step = levels[i + 1] - levels[i]
            if step > 0 and levels[i + 2] - levels[i + 1] == step:
                j = i + 2
                while j + 1 < len(levels) and levels[j + 1] - levels[j] == step:
                    j += 1
                out.append((levels[i], levels[j], step))
                i = j + 1
                continue
        out.append(levels[i])
        i += 1
    return out


def levels_text(levels: Sequence[int], lang: str) -> str:
    """``82 to 802 by 10``; ``80 to 160 by 10, 250``."""
    parts = [
        translate(lang, "sheet.range", start=run[0], end=run[1], step=run[2])
        if isinstance(run, tuple)
        else str(run)
        for run in _level_runs(levels)
    ]
    return join_list(parts, lang)


def _levels(rules: Rules, value: Any, lang: str) -> tuple[str | None, dict[str, Any]]:
    return None, {"levels": levels_text(value, lang)}


def _sequence_points(rules: Rules, value: Any, lang: str) -> tuple[str | None, dict[str, Any]]:
    rows = [
        translate(
            lang,
            "sheet.sequence_row.last" if i == len(value) - 1 else "sheet.sequence_row",
            name=declaration_name(f"sequence_{length}", lang),
            length=length,
            points=points,
        )
        for i, (length, points) in enumerate(value)
        if points
    ]
    return ("none" if not rows else None), {"rows": join_list(rows, lang)}


def _carre_points(rules: Rules, value: Any, lang: str) -> tuple[str | None, dict[str, Any]]:
    decl = rules.declarations
    assert decl is not None
    rows = []
    for rank in TRUMP_ORDER:  # J 9 A 10 K Q 8 7: the order carrés are compared in
        points = carre_value(rank, decl)
        if points > 0:
            name = declaration_name(f"carre_{RANK_CODES[rank]}", lang)
            rows.append(translate(lang, "sheet.carre_row", carre=name, points=points))
    return ("none" if not rows else None), {"rows": join_list(rows, lang)}


def _last_trick(rules: Rules, value: Any, lang: str) -> tuple[str | None, dict[str, Any]]:
    return None, {"total": CARD_POINTS_TOTAL + value}


def _capot(rules: Rules, value: Any, lang: str) -> tuple[str | None, dict[str, Any]]:
    last = rules.last_trick_bonus + value
    return None, {"last": last, "total": CARD_POINTS_TOTAL + last}


def _target(rules: Rules, value: Any, lang: str) -> tuple[str | None, dict[str, Any]]:
    return _token(value), {"target": rules.target_score}


def _cut_min(rules: Rules, value: Any, lang: str) -> tuple[str | None, dict[str, Any]]:
    # Without a cut the minimum is never used: say so rather than describe a cut that the
    # sheet says does not happen (issue 23: "the deck is not cut" beside "a cut leaves 3").
    return (None if rules.cut_deck else "no_cut"), {}


FORMATTERS: dict[str, Formatter] = {
    "deal_packets": _deal_packets,
    "widow": _widow,
    "auction.levels": _levels,
    "declarations.sequence_points": _sequence_points,
    "declarations.carre_points": _carre_points,
    "last_trick_bonus": _last_trick,
    "capot_bonus": _capot,
    "target_strict": _target,
    "cut_min_cards": _cut_min,
}


def _token(value: Any) -> str | None:
    """The key suffix of a plain value: true/false, none, the number or the word."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, (int, str)):
        return str(value)
    return None


def flag_sentence(rules: Rules, flag: str, value: Any, lang: str) -> tuple[str, str]:
    """(message key, sentence) saying what ``flag`` set to ``value`` means at this table."""
    formatter = FORMATTERS.get(flag)
    if formatter is not None:
        suffix, values = formatter(rules, value, lang)
    else:
        suffix, values = _token(value), {}
    values.setdefault("value", value)
    keys = ([f"sheet.{flag}.{suffix}"] if suffix is not None else []) + [f"sheet.{flag}"]
    for found in (variant for key in keys for variant in seat_variants(rules, key)):
        if has_message(lang, found):
            return found, translate(lang, found, **values)
    return "sheet.generic", translate(lang, "sheet.generic", flag=flag, value=shown(value))


# --- The sheet -------------------------------------------------------------------------------


def _order_text(order: Iterable[int], points: dict[Any, int], lang: str) -> str:
    return join_list(
        (
            translate(lang, "sheet.card_points", rank=rank_name(rank, lang), points=points[rank])
            for rank in order
        ),
        lang,
    )


def seat_variants(rules: Rules, key: str) -> list[str]:
    """The message keys to try for ``key``, most specific first: with fewer than four
    players ``KEY.seatsN`` (N players) then ``KEY.fewer_seats`` (no partners, each player his
    own side: docs/rules-2-3-players.md), then ``KEY`` itself, the four-seat sentence."""
    if rules.partners:
        return [key]
    return [f"{key}.seats{rules.players}", f"{key}.fewer_seats", key]


def _fixed_lines(rules: Rules, lang: str) -> dict[tuple[str, str], list[tuple[str, str]]]:
    """Rules no flag changes, as (section, "before"/"after") -> [(key, text)]."""

    def say(key: str, **values: Any) -> tuple[str, str]:
        found = next((k for k in seat_variants(rules, key) if has_message(lang, k)), key)
        return found, translate(lang, found, **values)

    fixed: dict[tuple[str, str], list[tuple[str, str]]] = {
        ("deal", "before"): [say("sheet.common")],
        ("deal", "after"): [say("sheet.dealer_rotates")],
        ("play", "before"): [
            say("sheet.trick"),
            say("sheet.cards.trump_order", cards=_order_text(TRUMP_ORDER, TRUMP_POINTS, lang)),
            say("sheet.cards.plain_order", cards=_order_text(PLAIN_ORDER, PLAIN_POINTS, lang)),
        ],
    }
    if rules.declarations is not None:
        fixed[("declarations", "before")] = [say("sheet.declarations.intro")]
    if rules.auction is not None:
        fixed[("scoring", "before")] = [say("sheet.auction_contract")]
    return fixed


def section_of(flag: str) -> str:
    return SECTION_OF.get(flag.partition(".")[0], OTHER)


def sheet_lines(rules: Rules, lang: str) -> list[SheetLine]:
    """Every line of the sheet in order: the title (flag ``name``), the changed flags, then
    each section's heading (flag None, key ``sheet.section.*``) and sentences."""
    check_language(lang)
    title = SheetLine("", TITLE_FLAG, "sheet.name",
                      translate(lang, "sheet.name", preset=preset_name(rules.name, lang)))
    lines = [title]
    base = PRESETS.get(rules.name)
    if base is not None and base != rules:
        changed = ", ".join(rules.flags_changed_from(base))
        lines.append(SheetLine("", None, "sheet.changed",
                               translate(lang, "sheet.changed", flags=changed)))
    by_section: dict[str, list[SheetLine]] = {}
    for flag, value in rules.flag_items():
        if flag == TITLE_FLAG:
            continue
        section = section_of(flag)
        key, text = flag_sentence(rules, flag, value, lang)
        by_section.setdefault(section, []).append(SheetLine(section, flag, key, text))
    fixed = _fixed_lines(rules, lang)
    for section in (*SECTIONS, OTHER):
        body = by_section.get(section, [])
        if not body:
            continue
        heading = f"sheet.section.{section}"
        lines.append(SheetLine(section, None, heading, translate(lang, heading)))
        lines += [SheetLine(section, None, k, t) for k, t in fixed.get((section, "before"), [])]
        lines += body
        lines += [SheetLine(section, None, k, t) for k, t in fixed.get((section, "after"), [])]
    return lines


def rule_sheet(rules: Rules, lang: str) -> str:
    """The rule sheet of ``rules`` in ``lang``: a title, then one paragraph per section (a
    heading line, then one sentence per line), sections separated by a blank line."""
    out: list[str] = []
    for line in sheet_lines(rules, lang):
        if line.key.startswith("sheet.section."):
            out.append("")
        out.append(line.text)
    return "\n".join(out) + "\n"


__all__ = [
    "SECTIONS",
    "SheetLine",
    "flag_sentence",
    "levels_text",
    "rule_sheet",
    "seat_variants",
    "section_of",
    "sheet_lines",
]
