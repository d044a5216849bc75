"""A score sheet for games played with real cards (the Pinasca tournament is played at tables).

The table types each hand (contract, trick points as counted, declarations, belote); the sheet
checks it against the preset's rules, scores it with :func:`belote.engine.scoring.score_hand`
(never with a scoring of its own), carries the litige / prigione pot, keeps the match totals
and says when the match is over.  A rejected hand changes nothing; :meth:`ScoreSheet.undo`
takes the last hand back.

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
valdostana)                                        of its own; the other none"
a level of the preset's auction; contro and        "Bidding systems": auction levels, contro,
surcontro only in an auction                       surcontro
a capot leaves the other team no card point        "capot (one team takes every trick)"
no cappotto against a belote (italian)             seed 000, flag ``capot_all_points``
match over: target reached (exceeded with          "match target"; "if both pass it, the
``target_strict``); both past: the higher wins     higher wins"
=================================================  ==========================================

Every message the sheet says is a template of :data:`MESSAGES`, filled with named values, so
that the templates can move to the message catalogs (``belote/i18n``) unchanged in form.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import combinations_with_replacement
from typing import Any, TextIO

from belote.cards import Rank
from belote.engine.events import ALL_TRUMP, NO_TRUMP
from belote.engine.scoring import HandFacts, HandOutcome, Pot, hand_total, score_hand
from belote.i18n import LANGUAGES, suit_name, team_name, trump_name
from belote.i18n.parse import normalize
from belote.notation import SUIT_LETTERS, SUIT_SYMBOLS, TRUMP_WORDS
from belote.rules.base import Rules
from belote.rules.declarations import RANK_CODES, carre_value, sequence_value

# --- Messages (English; one place, ready for the catalogs) ---------------------------------

MESSAGES: dict[str, str] = {
    # Parsing a field.
    "error.bad_team": "{value!r} is not a team: say NS or EW (or a seat N, E, S, W)",
    "error.bad_trump": "{value!r} is not a trump: say {choices}",
    "error.bad_number": "{value!r} is not a whole number of points",
    "error.negative": "points cannot be negative ({value})",
    "error.bad_level": "{value!r} is not a contract level",
    "error.bad_double": "{value!r} is not a double: say contro, surcontro or nothing",
    "error.bad_flag": "{value!r} is not a team or nothing (no, NS, EW)",
    "error.unknown_declaration": "{value!r} is not a declaration of {preset}: known are {names}",
    "error.bad_hand_number": "{value!r} is not a hand number",
    # Checking a hand.
    "error.senza_not_allowed": "{preset} has no senza (no-trump) hands",
    "error.tutte_not_allowed": "{preset} has no tutte (all-trump) hands",
    "error.tricks_sum": (
        "trick points must sum to {total} with {trump} (as counted, with the {last} of the "
        "last trick, no capot bonus); got N-S {ns} + E-W {ew} = {sum}"
    ),
    "error.level_needed": "{preset} is an auction: the contract level is missing ({levels})",
    "error.level_not_auction": "{preset} has no auction: no contract level ({level})",
    "error.level_unknown": "{level} is not a contract level of {preset} ({levels})",
    "error.double_not_auction": "{preset} has no auction: no contro or surcontro",
    "error.capot_points": (
        "a capot for {team} leaves the other team no card point, but it has {points}"
    ),
    "error.cappotto_belote": (
        "no cappotto for {team}: the other team scored a belote (it cannot happen in {preset})"
    ),
    "error.belote_disabled": "{preset} has no belote",
    "error.belote_senza": "no belote in senza: there is no trump suit",
    "error.declarations_disabled": "{preset} has no declarations (only the belote)",
    "error.declarations_value": (
        "{points} is not a possible declaration total in {preset} (values {values})"
    ),
    "error.declarations_mismatch": (
        "the declarations {names} are worth {expected}, not {points}"
    ),
    "error.declarations_one_team": (
        "in {preset} only the team with the best declaration scores: not both teams"
    ),
    "error.hand_number": "hand number {value} where {expected} was expected",
    "error.match_over": "the match is over ({winner} won): no more hands; undo the last one",
    "error.nothing_to_undo": "there is no hand to undo",
    # CSV.
    "error.csv_empty": "the file is empty: it needs a header line ({columns})",
    "error.csv_unknown_column": "unknown column {column!r}; the columns are {columns}",
    "error.csv_missing_column": "the column {column!r} is missing",
    "error.csv_row_length": "{count} fields where the header has {expected}",
    "error.csv_location": "line {line}, field {field}: {message}",
    # Reports.
    "report.hand": (
        "Hand {number}: {taker} {outcome}{capot}; N-S {score_ns}, E-W {score_ew}{pot}. "
        "Match: N-S {total_ns}, E-W {total_ew}."
    ),
    "report.outcome.made": "made it",
    "report.outcome.failed": "went down",
    "report.outcome.litige": "tied",
    "report.capot": ", capot {team}",
    "report.pot_won": ", {team} takes {points} from the pot",
    "report.pot_kept": ", {points} at stake for the next hand ({team}'s)",
    "report.match_over": "Match over: {winner} wins, {total_w} to {total_l}.",
    "report.match_going": "Match: N-S {total_ns}, E-W {total_ew}; target {target}.",
    "report.undone": "Hand {number} undone. Match: N-S {total_ns}, E-W {total_ew}.",
    "report.game_scores": (
        "Tournament game score (target {target}, bonus {bonus}): N-S {ns}, E-W {ew}."
    ),
    # Interactive questions, one per line.
    "ask.taker": "Hand {number}. Taker team (NS/EW)?",
    "ask.trump": "Trump ({choices})?",
    "ask.level": "Contract level ({levels})?",
    "ask.double": "Double (Enter: none, c: contro, sc: surcontro)?",
    "ask.tricks_ns": "Trick points N-S, with the last trick?",
    "ask.tricks_ew": "Trick points E-W?",
    "ask.capot": "Capot, a team took every trick (Enter: no, NS, EW)?",
    "ask.decl_ns": "Declarations N-S (Enter: none; points, or names like tierce+carre_J)?",
    "ask.decl_ew": "Declarations E-W?",
    "ask.belote": "Belote (Enter: none, NS, EW)?",
    "ask.after_match": "The match is over. u undoes the last hand, q ends.",
    "ask.help": "Answer each question and press Enter; u undoes the last hand, q ends.",
    "error.bad_answer": "{message}.",
    "report.end": "Scoring ended after {count} hands.",
}


def message(key: str, **values: Any) -> str:
    """The English text of ``key`` filled with ``values``."""
    return MESSAGES[key].format(**values)


class ScoreError(ValueError):
    """A hand (or a field of one) that the sheet rejects; nothing was changed.

    ``key`` names the template in :data:`MESSAGES`, ``values`` fill it, ``field`` is the CSV
    column (and interactive question) at fault.
    """

    def __init__(self, key: str, field: str, **values: Any) -> None:
        self.key = key
        self.field = field
        self.values = values
        super().__init__(message(key, **values))


class CsvError(ValueError):
    """A bad CSV: the line (1 = the header) and the field it names, with the reason."""

    def __init__(self, line: int, field: str, reason: str) -> None:
        self.line = line
        self.field = field
        self.reason = reason
        super().__init__(message("error.csv_location", line=line, field=field, message=reason))


# --- Teams, trumps, levels ------------------------------------------------------------------

TEAM_CODES: tuple[str, str] = ("NS", "EW")
TEAM_LABELS: tuple[str, str] = ("N-S", "E-W")
DOUBLE_NAMES: tuple[str, str, str] = ("", "contro", "surcontro")
CAPOT_WORD = "capot"
_NONE_WORDS = frozenset({"", "-", "no", "none", "nessuno", "nessuna", "ninguno", "aucun", "x"})


def _squash(text: str) -> str:
    return re.sub(r"[\s\-/_.]", "", normalize(text))


def _team_words() -> dict[str, int]:
    words = {"ns": 0, "ew": 1, "eo": 1, "0": 0, "1": 1,
             "n": 0, "s": 0, "e": 1, "w": 1, "o": 1}
    for lang in LANGUAGES:
        for team in (0, 1):
            words[_squash(team_name(team, lang))] = team
    for seat_word, team in (("north", 0), ("south", 0), ("east", 1), ("west", 1),
                            ("nord", 0), ("sud", 0), ("est", 1), ("ovest", 1),
                            ("norte", 0), ("sur", 0), ("este", 1), ("oeste", 1),
                            ("ouest", 1)):
        words[seat_word] = team
    return words


_TEAMS = _team_words()


def parse_team(text: str, field: str) -> int:
    """A team 0 (N-S) or 1 (E-W) from "NS", "EW", "N-S", a seat (N E S W) or a team name."""
    team = _TEAMS.get(_squash(text))
    if team is None:
        raise ScoreError("error.bad_team", field, value=text)
    return team


def parse_optional_team(text: str, field: str) -> int | None:
    """A team, or None for nothing ("", "no", "-")."""
    if normalize(text) in _NONE_WORDS:
        return None
    try:
        return parse_team(text, field)
    except ScoreError:
        raise ScoreError("error.bad_flag", field, value=text) from None


def _trump_words() -> dict[str, int]:
    words: dict[str, int] = {}
    for suit in range(4):
        words[SUIT_LETTERS[suit].lower()] = suit
        words[SUIT_SYMBOLS[suit]] = suit
        words[TRUMP_WORDS[suit]] = suit
        words[TRUMP_WORDS[suit].rstrip("s")] = suit
        for lang in LANGUAGES:
            words[normalize(suit_name(suit, lang))] = suit
    for trump, extra in ((NO_TRUMP, ("senza", "nt", "no trump", "notrump", "sa", "sans atout")),
                         (ALL_TRUMP, ("tutte", "at", "all trump", "alltrump", "ta",
                                      "tout atout"))):
        for word in extra:
            words[word] = trump
        for lang in LANGUAGES:
            words[normalize(trump_name(trump, lang))] = trump
    return words


_TRUMPS = _trump_words()


def parse_trump(text: str, field: str = "trump") -> int:
    """A trump code: a suit 0..3 (letter H D C S, symbol or name), senza (4) or tutte (5)."""
    trump = _TRUMPS.get(normalize(text))
    if trump is None:
        raise ScoreError("error.bad_trump", field, value=text,
                         choices="H, D, C, S (or the suit's name), senza, tutte")
    return trump


def parse_points(text: str, field: str) -> int:
    text = text.strip()
    if not re.fullmatch(r"[+-]?\d+", text):
        raise ScoreError("error.bad_number", field, value=text)
    value = int(text)
    if value < 0:
        raise ScoreError("error.negative", field, value=value)
    return value


def parse_level(text: str, rules: Rules, field: str = "level") -> int:
    """A contract level: a number, "capot" (the preset's capot level), or "" for none."""
    word = normalize(text)
    if word in _NONE_WORDS:
        return 0
    if word == CAPOT_WORD:
        if rules.auction is None or not rules.auction.capot_level:
            raise ScoreError("error.bad_level", field, value=text)
        return rules.auction.capot_level
    if not word.isdigit():
        raise ScoreError("error.bad_level", field, value=text)
    return int(word)


_DOUBLES = {"contro": 1, "coinche": 1, "double": 1, "x2": 1, "2": 1, "c": 1,
            "surcontro": 2, "surcoinche": 2, "redouble": 2, "x4": 2, "4": 2, "sc": 2}


def parse_double(text: str, field: str = "double") -> int:
    """0 none, 1 contro (coinche), 2 surcontro (surcoinche)."""
    word = normalize(text)
    if word in _NONE_WORDS or word in ("1", "x1"):
        return 0
    if word not in _DOUBLES:
        raise ScoreError("error.bad_double", field, value=text)
    return _DOUBLES[word]


def format_level(level: int, rules: Rules) -> str:
    if not level:
        return ""
    if rules.auction is not None and level == rules.auction.capot_level:
        return CAPOT_WORD
    return str(level)


def format_team(team: int | None) -> str:
    return "" if team is None else TEAM_CODES[team]


# --- Declarations ---------------------------------------------------------------------------

_SPOKEN = {"tierce": "sequence_3", "terza": "sequence_3", "terzo": "sequence_3",
           "cinquante": "sequence_4", "quarta": "sequence_4", "cinquanta": "sequence_4",
           "cent": "sequence_5", "cento": "sequence_5", "quinta": "sequence_5",
           "sesta": "sequence_6", "settima": "sequence_7", "ottava": "sequence_8"}


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
    """Accepted words -> declaration name: the names themselves and the spoken ones."""
    table = declaration_table(rules)
    aliases = {name.lower(): name for name in table}
    aliases.update({word: name for word, name in _SPOKEN.items() if name in table})
    for name in table:
        if name.startswith("carre_"):
            aliases[f"poker_{name[6:].lower()}"] = name
    return aliases


# Most declarations one team can hold in a hand (two players, two carrés and two tierces each
# at most); bounds the totals accepted as "possible".
MAX_TEAM_DECLARATIONS = 8


def possible_totals(rules: Rules) -> frozenset[int]:
    """The declaration totals one team can score in the preset (sums of table values)."""
    values = sorted(set(declaration_table(rules).values()))
    totals = {0}
    for count in range(1, MAX_TEAM_DECLARATIONS + 1):
        totals.update(sum(c) for c in combinations_with_replacement(values, count))
    return frozenset(totals)


@dataclass(frozen=True, slots=True)
class Declared:
    """A team's declarations: the points decided at the table, or the names (or both)."""

    points: int = 0
    names: tuple[str, ...] = ()

    def __str__(self) -> str:
        return "+".join(self.names) if self.names else (str(self.points) if self.points else "")


def parse_declared(text: str, rules: Rules, field: str) -> Declared:
    """"" (none), a number (the team's points) or names joined by "+" ("tierce+carre_J")."""
    text = text.strip()
    if not text or normalize(text) in _NONE_WORDS:
        return Declared()
    if re.fullmatch(r"[+-]?\d+", text):
        return Declared(points=parse_points(text, field))
    aliases = declaration_aliases(rules)
    table = declaration_table(rules)
    names: list[str] = []
    for word in re.split(r"[+,;\s]+", text):
        if not word:
            continue
        name = aliases.get(word.lower())
        if name is None:
            known = ", ".join(table) if table else "none"
            raise ScoreError("error.unknown_declaration", field, value=word, preset=rules.name,
                             names=known)
        names.append(name)
    return Declared(points=sum(table[n] for n in names), names=tuple(names))


# --- Hands ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandEntry:
    """One hand as the table tells it.  Teams: 0 = N-S, 1 = E-W."""

    taker: int
    trump: int  # a suit 0..3 (hearts, diamonds, clubs, spades), NO_TRUMP (senza), ALL_TRUMP
    tricks: tuple[int, int]  # card points as counted, with the last trick's 10, no capot bonus
    capot: int | None = None  # the team that took every trick
    declarations: tuple[Declared, Declared] = (Declared(), Declared())
    belote: int | None = None  # the team that scored belote-rebelote
    level: int = 0  # the contract level of an auction (the capot level: a capot contract)
    double: int = 0  # 0, 1 contro / coinche, 2 surcontro / surcoinche
    number: int | None = None  # the hand number the table wrote, checked if given


def _levels_text(rules: Rules) -> str:
    assert rules.auction is not None
    levels = rules.auction.levels
    plain = [lv for lv in levels if lv != rules.auction.capot_level]
    text = f"{plain[0]}..{plain[-1]}" if len(plain) > 2 else ", ".join(map(str, plain))
    return text + (f", {CAPOT_WORD}" if rules.auction.capot_level else "")


def check_hand(rules: Rules, entry: HandEntry) -> HandFacts:
    """The :class:`HandFacts` of ``entry``, or a :class:`ScoreError` naming what is wrong."""
    preset = rules.name
    tt = entry.taker
    if tt not in (0, 1):
        raise ScoreError("error.bad_team", "taker", value=str(tt))
    trump = entry.trump
    if not 0 <= trump <= ALL_TRUMP:
        raise ScoreError("error.bad_trump", "trump", value=str(trump), choices="0..5")
    if trump == NO_TRUMP and not rules.allow_senza:
        raise ScoreError("error.senza_not_allowed", "trump", preset=preset)
    if trump == ALL_TRUMP and not rules.allow_tutte:
        raise ScoreError("error.tutte_not_allowed", "trump", preset=preset)

    auction = rules.auction
    capot_contract = False
    if auction is None:
        if entry.level:
            raise ScoreError("error.level_not_auction", "level", preset=preset,
                             level=entry.level)
        if entry.double:
            raise ScoreError("error.double_not_auction", "double", preset=preset)
    else:
        if not entry.level:
            raise ScoreError("error.level_needed", "level", preset=preset,
                             levels=_levels_text(rules))
        if entry.level not in auction.levels:
            raise ScoreError("error.level_unknown", "level", preset=preset, level=entry.level,
                             levels=_levels_text(rules))
        capot_contract = bool(auction.capot_level) and entry.level == auction.capot_level
        if entry.double not in (0, 1, 2):
            raise ScoreError("error.bad_double", "double", value=str(entry.double))

    ns, ew = entry.tricks
    for team, counted in enumerate(entry.tricks):
        if counted < 0:
            raise ScoreError("error.negative", ("tricks_ns", "tricks_ew")[team], value=counted)
    total = hand_total(rules, trump)
    if ns + ew != total:
        raise ScoreError("error.tricks_sum", "tricks_ns+tricks_ew", total=total,
                         trump=TRUMP_WORDS[trump], last=rules.last_trick_bonus, ns=ns, ew=ew,
                         sum=ns + ew)

    belote = [0, 0]
    if entry.belote is not None:
        if not rules.belote_enabled:
            raise ScoreError("error.belote_disabled", "belote", preset=preset)
        if trump == NO_TRUMP:
            raise ScoreError("error.belote_senza", "belote")
        belote[entry.belote] = rules.belote_points

    if entry.capot is not None:
        other = 1 - entry.capot
        if entry.tricks[other]:
            raise ScoreError("error.capot_points", "capot", team=TEAM_LABELS[entry.capot],
                             points=entry.tricks[other])
        if rules.capot_all_points and belote[other]:
            raise ScoreError("error.cappotto_belote", "capot", team=TEAM_LABELS[entry.capot],
                             preset=preset)
        tricks_won = (8, 0) if entry.capot == 0 else (0, 8)
    else:
        # Only "8 tricks" (capot) and "some tricks" (cappotto, with no card point for the
        # others) matter to the scoring; a team with card points has won some trick.
        tricks_won = (4, 4)

    declared = entry.declarations
    points = [d.points for d in declared]
    fields = ("decl_ns", "decl_ew")
    if any(d.points or d.names for d in declared):
        decl_rules = rules.declarations
        if decl_rules is None:
            raise ScoreError("error.declarations_disabled",
                             fields[0 if declared[0].points or declared[0].names else 1],
                             preset=preset)
        table = declaration_table(rules)
        possible = possible_totals(rules)
        for team, d in enumerate(declared):
            for name in d.names:
                if name not in table:
                    raise ScoreError("error.unknown_declaration", fields[team], value=name,
                                     preset=preset, names=", ".join(table))
            if d.names and sum(table[n] for n in d.names) != d.points:
                raise ScoreError("error.declarations_mismatch", fields[team],
                                 names="+".join(d.names), points=d.points,
                                 expected=sum(table[n] for n in d.names))
            if d.points not in possible:
                values = ", ".join(map(str, sorted(set(table.values()))))
                raise ScoreError("error.declarations_value", fields[team], points=d.points,
                                 preset=preset, values=values)
        if decl_rules.policy != "same_length" and points[0] and points[1]:
            raise ScoreError("error.declarations_one_team", "decl_ew", preset=preset)

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
        declarations=(points[0], points[1]),
        level=entry.level,
        capot_contract=capot_contract,
        multiplier=multiplier,
        last_caller_team=last_caller,
    )


@dataclass(frozen=True, slots=True)
class HandResult:
    """A scored hand: what it added, the match totals after it, the pot it left."""

    number: int
    entry: HandEntry
    facts: HandFacts
    outcome: HandOutcome
    totals: tuple[int, int]
    winner: int | None  # the match winner after this hand, if the match is over

    @property
    def scores(self) -> tuple[int, int]:
        return self.outcome.scores

    @property
    def pot(self) -> Pot:
        return self.outcome.pot


def match_winner(rules: Rules, totals: tuple[int, int]) -> int | None:
    """The team that has won: past the target (reached, or exceeded with ``target_strict``)
    and ahead; both past: the higher; equal: the match goes on."""
    target = rules.target_score
    reached = [t > target if rules.target_strict else t >= target for t in totals]
    if not any(reached) or totals[0] == totals[1]:
        return None
    return 0 if totals[0] > totals[1] else 1


@dataclass
class ScoreSheet:
    """The hands of one match for a preset, with the pot and the match totals."""

    rules: Rules
    _hands: list[HandResult] = field(default_factory=list)

    @property
    def hands(self) -> tuple[HandResult, ...]:
        return tuple(self._hands)

    @property
    def totals(self) -> tuple[int, int]:
        return self._hands[-1].totals if self._hands else (0, 0)

    @property
    def pot(self) -> Pot:
        """Points at stake after a tie (litige / prigione), and whose they are."""
        return self._hands[-1].pot if self._hands else Pot()

    @property
    def winner(self) -> int | None:
        return self._hands[-1].winner if self._hands else None

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def next_number(self) -> int:
        return len(self._hands) + 1

    def check(self, entry: HandEntry) -> HandFacts:
        """Validate ``entry`` as the next hand (nothing changes)."""
        if self.winner is not None:
            raise ScoreError("error.match_over", "hand", winner=TEAM_LABELS[self.winner])
        if entry.number is not None and entry.number != self.next_number:
            raise ScoreError("error.hand_number", "hand", value=entry.number,
                             expected=self.next_number)
        return check_hand(self.rules, entry)

    def add(self, entry: HandEntry) -> HandResult:
        """Check, score and record the next hand; a :class:`ScoreError` changes nothing."""
        facts = self.check(entry)
        outcome = score_hand(self.rules, facts, self.pot)
        before = self.totals
        totals = (before[0] + outcome.scores[0], before[1] + outcome.scores[1])
        result = HandResult(self.next_number, entry, facts, outcome, totals,
                            match_winner(self.rules, totals))
        self._hands.append(result)
        return result

    def undo(self) -> HandResult:
        """Take the last hand back (its pot and totals with it)."""
        if not self._hands:
            raise ScoreError("error.nothing_to_undo", "hand")
        return self._hands.pop()


# --- Reports --------------------------------------------------------------------------------


def describe_hand(result: HandResult) -> str:
    """One line: the hand's outcome and scores, the pot, the match totals."""
    out = result.outcome
    capot = ("" if out.capot_team is None
             else message("report.capot", team=TEAM_LABELS[out.capot_team]))
    pot = ""
    if out.pot_winner is not None:
        pot += message("report.pot_won", team=TEAM_LABELS[out.pot_winner], points=out.pot_won)
    if out.pot.points and out.pot.team is not None:
        pot += message("report.pot_kept", points=out.pot.points, team=TEAM_LABELS[out.pot.team])
    return message(
        "report.hand", number=result.number, taker=TEAM_LABELS[result.entry.taker],
        outcome=message(f"report.outcome.{out.outcome}"), capot=capot,
        score_ns=out.scores[0], score_ew=out.scores[1], pot=pot,
        total_ns=result.totals[0], total_ew=result.totals[1],
    )


def describe_match(sheet: ScoreSheet) -> str:
    totals = sheet.totals
    if sheet.winner is not None:
        w = sheet.winner
        return message("report.match_over", winner=TEAM_LABELS[w], total_w=totals[w],
                       total_l=totals[1 - w])
    return message("report.match_going", total_ns=totals[0], total_ew=totals[1],
                   target=sheet.rules.target_score)


# --- CSV ------------------------------------------------------------------------------------

# Input columns: what the table writes.  Required: taker, trump, tricks_ns, tricks_ew.
COLUMNS: tuple[str, ...] = ("hand", "taker", "trump", "level", "double", "tricks_ns",
                            "tricks_ew", "capot", "decl_ns", "decl_ew", "belote")
REQUIRED_COLUMNS: tuple[str, ...] = ("taker", "trump", "tricks_ns", "tricks_ew")
# Computed columns added on export; ignored on import (the sheet recomputes them).
RESULT_COLUMNS: tuple[str, ...] = ("outcome", "capot_team", "points_ns", "points_ew",
                                   "score_ns", "score_ew", "pot", "pot_team", "pot_won_by",
                                   "pot_won", "total_ns", "total_ew", "winner")


def parse_row(row: dict[str, str], rules: Rules) -> HandEntry:
    """A :class:`HandEntry` from one CSV row (column -> text); a :class:`ScoreError` names
    the field at fault."""
    def get(name: str) -> str:
        return (row.get(name) or "").strip()

    number_text = get("hand")
    number: int | None = None
    if number_text:
        if not number_text.isdigit():
            raise ScoreError("error.bad_hand_number", "hand", value=number_text)
        number = int(number_text)
    return HandEntry(
        taker=parse_team(get("taker"), "taker"),
        trump=parse_trump(get("trump"), "trump"),
        level=parse_level(get("level"), rules, "level"),
        double=parse_double(get("double"), "double"),
        tricks=(parse_points(get("tricks_ns"), "tricks_ns"),
                parse_points(get("tricks_ew"), "tricks_ew")),
        capot=parse_optional_team(get("capot"), "capot"),
        declarations=(parse_declared(get("decl_ns"), rules, "decl_ns"),
                      parse_declared(get("decl_ew"), rules, "decl_ew")),
        belote=parse_optional_team(get("belote"), "belote"),
        number=number,
    )


def _rows(stream: TextIO) -> Iterator[tuple[int, list[str]]]:
    text = stream.read()
    first = text.split("\n", 1)[0]
    delimiter = ";" if ";" in first and "," not in first else ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    for row in reader:
        yield reader.line_num, row


def load_csv(stream: TextIO, rules: Rules) -> ScoreSheet:
    """A score sheet from CSV text (a header line, then one hand per line).

    Raises :class:`CsvError` with the line and the field at the first problem.
    """
    sheet = ScoreSheet(rules)
    header: list[str] | None = None
    for line, row in _rows(stream):
        if not any(cell.strip() for cell in row):
            continue
        if header is None:
            header = [cell.strip().lower() for cell in row]
            for column in header:
                if column not in COLUMNS and column not in RESULT_COLUMNS:
                    raise CsvError(line, column, message(
                        "error.csv_unknown_column", column=column, columns=", ".join(COLUMNS)))
            for column in REQUIRED_COLUMNS:
                if column not in header:
                    raise CsvError(line, column,
                                   message("error.csv_missing_column", column=column))
            continue
        if len(row) != len(header):
            raise CsvError(line, "-", message("error.csv_row_length", count=len(row),
                                              expected=len(header)))
        try:
            sheet.add(parse_row(dict(zip(header, row, strict=True)), rules))
        except ScoreError as exc:
            raise CsvError(line, exc.field, str(exc)) from None
    if header is None:
        raise CsvError(1, "-", message("error.csv_empty", columns=", ".join(COLUMNS)))
    return sheet


def entry_row(entry: HandEntry, rules: Rules) -> dict[str, str]:
    """The input columns of a hand, as :func:`parse_row` reads them back."""
    return {
        "hand": "" if entry.number is None else str(entry.number),
        "taker": TEAM_CODES[entry.taker],
        "trump": TRUMP_WORDS[entry.trump],
        "level": format_level(entry.level, rules),
        "double": DOUBLE_NAMES[entry.double],
        "tricks_ns": str(entry.tricks[0]),
        "tricks_ew": str(entry.tricks[1]),
        "capot": format_team(entry.capot),
        "decl_ns": str(entry.declarations[0]),
        "decl_ew": str(entry.declarations[1]),
        "belote": format_team(entry.belote),
    }


def result_row(result: HandResult, rules: Rules) -> dict[str, str]:
    out = result.outcome
    row = entry_row(result.entry, rules)
    row["hand"] = str(result.number)
    row.update({
        "outcome": out.outcome,
        "capot_team": format_team(out.capot_team),
        "points_ns": str(out.card_points[0]),
        "points_ew": str(out.card_points[1]),
        "score_ns": str(out.scores[0]),
        "score_ew": str(out.scores[1]),
        "pot": str(out.pot.points),
        "pot_team": format_team(out.pot.team if out.pot.points else None),
        "pot_won_by": format_team(out.pot_winner),
        "pot_won": str(out.pot_won),
        "total_ns": str(result.totals[0]),
        "total_ew": str(result.totals[1]),
        "winner": format_team(result.winner),
    })
    return row


def write_csv(sheet: ScoreSheet | Iterable[HandResult], stream: TextIO,
              rules: Rules | None = None) -> None:
    """Export the hands with their computed scores and running totals."""
    if isinstance(sheet, ScoreSheet):
        rules, results = sheet.rules, sheet.hands
    else:
        results = tuple(sheet)
    if rules is None:
        raise ValueError("rules are needed to export bare results")
    writer = csv.DictWriter(stream, fieldnames=[*COLUMNS, *RESULT_COLUMNS], lineterminator="\n")
    writer.writeheader()
    for result in results:
        writer.writerow(result_row(result, rules))


__all__ = [
    "COLUMNS",
    "MESSAGES",
    "REQUIRED_COLUMNS",
    "RESULT_COLUMNS",
    "TEAM_CODES",
    "CsvError",
    "Declared",
    "HandEntry",
    "HandResult",
    "ScoreError",
    "ScoreSheet",
    "check_hand",
    "declaration_table",
    "describe_hand",
    "describe_match",
    "hand_total",
    "load_csv",
    "match_winner",
    "message",
    "parse_declared",
    "parse_double",
    "parse_level",
    "parse_optional_team",
    "parse_points",
    "parse_row",
    "parse_team",
    "parse_trump",
    "possible_totals",
    "write_csv",
]
