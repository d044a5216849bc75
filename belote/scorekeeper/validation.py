"""Refusals and the checks of a hand against the preset's rules.

A refusal is a :class:`Reason` code, the field at fault and the values that explain it (raw:
team numbers, trump codes, level tables, declaration codes).  :func:`refusal_text` is the one
place that turns it into a sentence, in the user's language (``score.error.<reason>``).

=================================================  ==========================================
check                                              rule (RULES.md)
=================================================  ==========================================
trick points sum to the hand's total, computed     "152 card points + 10 for the last trick =
from the card tables (162; senza 130 before        162"; senza "4 x 30 + 10 = 130"; tutte
doubling; tutte 258)                               "4 x 62 + 10 = 258"
a belote needs a trump suit                        "Belote / rebelote ..., all presets but senza"
declarations only where the preset has them,       "Declarations": 20, 50, 100, 150, 200 (no 30)
with values (or names) from its table
one team only scores declarations (pinasca,        "team with the best declaration scores all
valdostana): both teams typed, the names decide    of its own; the other none"; seed 001 "ottiene
who (a carré, a longer sequence); two sequences    i punti solo la squadra che fa la
of one length: the table says                      dichiarazione più alta"
a level of the preset's auction; contro and        "Bidding systems": auction levels, contro,
surcontro only in an auction                       surcontro
a capot leaves the other team no card point        "capot (one team takes every trick)"
no cappotto against a belote (italian)             seed 000, flag ``capot_all_points``
=================================================  ==========================================
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from belote.engine.events import ALL_TRUMP, NO_TRUMP
from belote.engine.scoring import HandFacts, hand_total
from belote.i18n import preset_name
from belote.rules.base import Rules
from belote.scorekeeper.declarations import declaration_table, possible_totals, scoring_team
from belote.scorekeeper.hand import HandEntry
from belote.scorekeeper.vocabulary import (
    COLUMNS,
    RESULT_COLUMNS,
    column_header,
    declarations_text,
    double_word,
    levels_text,
    message,
    team_label,
    trump_choices,
    trump_word,
)


class Reason(StrEnum):
    """Why a field, a hand or a CSV file is refused (``score.error.<value>`` says it)."""

    BAD_TEAM = "bad_team"
    BAD_TRUMP = "bad_trump"
    BAD_NUMBER = "bad_number"
    NEGATIVE = "negative"
    BAD_LEVEL = "bad_level"
    BAD_DOUBLE = "bad_double"
    BAD_FLAG = "bad_flag"
    UNKNOWN_DECLARATION = "unknown_declaration"
    BAD_HAND_NUMBER = "bad_hand_number"
    SENZA_NOT_ALLOWED = "senza_not_allowed"
    TUTTE_NOT_ALLOWED = "tutte_not_allowed"
    TRICKS_SUM = "tricks_sum"
    LEVEL_NEEDED = "level_needed"
    LEVEL_NOT_AUCTION = "level_not_auction"
    LEVEL_UNKNOWN = "level_unknown"
    DOUBLE_NOT_AUCTION = "double_not_auction"
    CAPOT_POINTS = "capot_points"
    CAPPOTTO_BELOTE = "cappotto_belote"
    BELOTE_DISABLED = "belote_disabled"
    BELOTE_SENZA = "belote_senza"
    BELOTE_TWICE = "belote_twice"
    DECLARATIONS_DISABLED = "declarations_disabled"
    DECLARATIONS_VALUE = "declarations_value"
    DECLARATIONS_MISMATCH = "declarations_mismatch"
    DECLARATIONS_ONE_TEAM = "declarations_one_team"
    DECLARATIONS_NAMES_NEEDED = "declarations_names_needed"
    DECLARATIONS_UNDECIDED = "declarations_undecided"
    HAND_NUMBER = "hand_number"
    MATCH_OVER = "match_over"
    NOTHING_TO_UNDO = "nothing_to_undo"
    CSV_EMPTY = "csv_empty"
    CSV_UNKNOWN_COLUMN = "csv_unknown_column"
    CSV_MISSING_COLUMN = "csv_missing_column"
    CSV_DUPLICATE_COLUMN = "csv_duplicate_column"
    CSV_ROW_LENGTH = "csv_row_length"


class ScoreError(ValueError):
    """A refusal: a hand (or a field of one, or a CSV file) that the sheet rejects; nothing
    was changed.  ``reason`` says why, ``field`` is the CSV column (and interactive question)
    at fault, ``values`` explain it.  ``str()`` is the English sentence."""

    def __init__(self, reason: Reason | str, field: str, **values: Any) -> None:
        self.reason = Reason(reason)
        self.field = field
        self.values = values
        super().__init__(refusal_text(self, "en"))

    @property
    def key(self) -> str:
        """The message key of the reason, without the ``score.`` prefix ("error.tricks_sum")."""
        return f"error.{self.reason.value}"


class CsvError(ValueError):
    """A bad CSV: the line (1 = the header), the field (a column code, or the header the file
    wrote) and the refusal.  ``named`` is the field as the file's own header names it (None
    when the file does not name it: a missing column, said in the reader's language)."""

    def __init__(self, line: int, field: str, refusal: ScoreError,
                 named: str | None = None) -> None:
        self.line = line
        self.field = field
        self.refusal = refusal
        self.named = named
        super().__init__(refusal_text(self, "en"))

    @property
    def reason(self) -> str:
        return str(self.refusal)


_ALL_COLUMNS = frozenset((*COLUMNS, *RESULT_COLUMNS))


def _value(name: str, value: Any, lang: str) -> Any:
    """One value of a refusal in words of ``lang`` (by the value's name)."""
    if name in ("team", "winner") and isinstance(value, int):
        return team_label(value, lang)
    if name == "trump" and isinstance(value, int):
        return trump_word(value, lang)
    if name == "preset":
        return preset_name(value, lang)
    if name == "levels":
        levels, capot = value
        return levels_text(levels, capot, lang)
    if name in ("names", "names_ns", "names_ew"):
        return declarations_text(value, lang)
    if name == "combination":
        return declarations_text(value, lang, "+")
    if name == "values":
        return ", ".join(map(str, value))
    if name == "columns":
        return ", ".join(column_header(code, lang) for code in value)
    if name == "column" and value in _ALL_COLUMNS:
        return column_header(value, lang)
    return value


def refusal_text(error: ScoreError | CsvError, lang: str) -> str:
    """The refusal as a sentence in ``lang``; a CSV refusal names its line and field."""
    if isinstance(error, CsvError):
        named = error.named
        if named is None:
            named = "+".join(column_header(part, lang) if part in _ALL_COLUMNS else part
                             for part in error.field.split("+"))
        return message("csv.location", lang, line=error.line, field=named,
                       message=refusal_text(error.refusal, lang))
    values = {name: _value(name, value, lang) for name, value in error.values.items()}
    if error.reason is Reason.BAD_TRUMP:
        values["choices"] = trump_choices(lang)
    if error.reason in (Reason.BAD_DOUBLE, Reason.DOUBLE_NOT_AUCTION):
        values["contro"], values["surcontro"] = double_word(1, lang), double_word(2, lang)
    return message(error.key, lang, **values)


def check_hand(rules: Rules, entry: HandEntry) -> HandFacts:
    """The :class:`HandFacts` of ``entry``, or a :class:`ScoreError` naming what is wrong."""
    preset = rules.name
    tt = entry.taker
    if tt not in (0, 1):
        raise ScoreError(Reason.BAD_TEAM, "taker", value=str(tt))
    trump = entry.trump
    if not 0 <= trump <= ALL_TRUMP:
        raise ScoreError(Reason.BAD_TRUMP, "trump", value=str(trump))
    if trump == NO_TRUMP and not rules.allow_senza:
        raise ScoreError(Reason.SENZA_NOT_ALLOWED, "trump", preset=preset)
    if trump == ALL_TRUMP and not rules.allow_tutte:
        raise ScoreError(Reason.TUTTE_NOT_ALLOWED, "trump", preset=preset)

    auction = rules.auction
    capot_contract = False
    if auction is None:
        if entry.level:
            raise ScoreError(Reason.LEVEL_NOT_AUCTION, "level", preset=preset,
                             level=entry.level)
        if entry.double:
            raise ScoreError(Reason.DOUBLE_NOT_AUCTION, "double", preset=preset)
    else:
        levels = (auction.levels, auction.capot_level)
        if not entry.level:
            raise ScoreError(Reason.LEVEL_NEEDED, "level", preset=preset, levels=levels)
        if entry.level not in auction.levels:
            raise ScoreError(Reason.LEVEL_UNKNOWN, "level", preset=preset, level=entry.level,
                             levels=levels)
        capot_contract = bool(auction.capot_level) and entry.level == auction.capot_level
        if entry.double not in (0, 1, 2):
            raise ScoreError(Reason.BAD_DOUBLE, "double", value=str(entry.double))

    ns, ew = entry.tricks
    for team, counted in enumerate(entry.tricks):
        if counted < 0:
            raise ScoreError(Reason.NEGATIVE, ("tricks_ns", "tricks_ew")[team], value=counted)
    total = hand_total(rules, trump)
    if ns + ew != total:
        raise ScoreError(Reason.TRICKS_SUM, "tricks_ns+tricks_ew", total=total, trump=trump,
                         last=rules.last_trick_bonus, ns=ns, ew=ew, sum=ns + ew)

    belote = [0, 0]
    if entry.belote is not None:
        if not rules.belote_enabled:
            raise ScoreError(Reason.BELOTE_DISABLED, "belote", preset=preset)
        if trump == NO_TRUMP:
            raise ScoreError(Reason.BELOTE_SENZA, "belote")
        belote[entry.belote] = rules.belote_points

    if entry.capot is not None:
        other = 1 - entry.capot
        if entry.tricks[other]:
            raise ScoreError(Reason.CAPOT_POINTS, "capot", team=entry.capot,
                             points=entry.tricks[other])
        if rules.capot_all_points and belote[other]:
            raise ScoreError(Reason.CAPPOTTO_BELOTE, "capot", team=entry.capot, preset=preset)
        tricks_won = (8, 0) if entry.capot == 0 else (0, 8)
    else:
        # Only "8 tricks" (capot) and "some tricks" (cappotto, with no card point for the
        # others) matter to the scoring; a team with card points has won some trick.
        tricks_won = (4, 4)

    points = _check_declarations(rules, entry)

    multiplier = 1
    last_caller: int | None = None
    if auction is not None:
        multiplier = (1, auction.contro_multiplier, auction.surcontro_multiplier)[entry.double]
        # contro is said by the defenders, surcontro by the takers: the last call's side.
        last_caller = 1 - tt if entry.double == 1 else tt
    return HandFacts(
        taker_team=tt,
        trump=trump,
        card_points=(ns, ew),
        tricks_won=tricks_won,
        belote=(belote[0], belote[1]),
        declarations=points,
        level=entry.level,
        capot_contract=capot_contract,
        multiplier=multiplier,
        last_caller_team=last_caller,
    )


def _check_declarations(rules: Rules, entry: HandEntry) -> tuple[int, int]:
    declared = entry.declarations
    points = (declared[0].points, declared[1].points)
    fields = ("decl_ns", "decl_ew")
    if not any(d.points or d.names for d in declared):
        return points
    preset = rules.name
    decl_rules = rules.declarations
    if decl_rules is None:
        raise ScoreError(Reason.DECLARATIONS_DISABLED,
                         fields[0 if declared[0].points or declared[0].names else 1],
                         preset=preset)
    table = declaration_table(rules)
    possible = possible_totals(rules)
    for team, d in enumerate(declared):
        for name in d.names:
            if name not in table:
                raise ScoreError(Reason.UNKNOWN_DECLARATION, fields[team], value=name,
                                 preset=preset, names=tuple(table))
        expected = sum(table[n] for n in d.names)
        if d.names and expected != d.points:
            raise ScoreError(Reason.DECLARATIONS_MISMATCH, fields[team], combination=d.names,
                             points=d.points, expected=expected)
        if d.points not in possible:
            raise ScoreError(Reason.DECLARATIONS_VALUE, fields[team], points=d.points,
                             preset=preset, values=tuple(sorted(set(table.values()))))
    if decl_rules.policy != "same_length" and points[0] and points[1]:
        # Both teams typed: the preset's rule decides who scores, from the names.
        if not (declared[0].names and declared[1].names):
            raise ScoreError(Reason.DECLARATIONS_NAMES_NEEDED, "decl_ns", preset=preset)
        scorer = scoring_team(rules, (declared[0].names, declared[1].names), entry.taker)
        if scorer is None:
            raise ScoreError(Reason.DECLARATIONS_UNDECIDED, "decl_ns", preset=preset,
                             names_ns=declared[0].names, names_ew=declared[1].names)
        return (points[0], 0) if scorer == 0 else (0, points[1])
    return points
