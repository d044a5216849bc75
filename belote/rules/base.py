"""The frozen rules object: every flag and table of RULES.md that the engine reads.

A preset is an instance of :class:`Rules`; a table host starts from one and changes flags with
:meth:`Rules.with_flags` (nested groups by dotted name: ``"auction.support_calls"``).  The
engine branches on these fields only, never on ``name``.  Where a variant differs in kind
(the bidding system) a field names a strategy.  Fields marked *reading* are our choice where
a source is silent or ambiguous (RULES.md), so a club can set them the other way.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from belote.rules.declarations import DeclarationRules
from belote.rules.validation import check_group, check_rules

Bidding = Literal["take_or_pass", "auction"]
BeloteWindow = Literal["next_card", "trick"]
TieRule = Literal["litige", "prigione"]
DoubledTie = Literal["last_caller_loses", "litige"]
MultiplierScope = Literal["lines", "contract"]
SurcontroFailedPoints = Literal["type_b", "type_a"]
Direction = Literal["clockwise", "counterclockwise"]
DiscardSignals = Literal["off", "gradimento", "no_gradimento"]
Widow = Literal["last_trick", "dead"]


@dataclass(frozen=True, slots=True)
class AuctionRules:
    """The auction machine (valdostana, coinche), RULES.md "auction"."""

    # Contract levels in increasing order; the first contract may be any level, every later
    # one must be higher than the last contract, in any suit.
    levels: tuple[int, ...] = tuple(range(82, 803, 10))
    # A level that is won only by taking every trick (coinche's "capot"); 0: none.
    capot_level: int = 0
    # Passes say "passo" (no ace) or "aspetto" (at least one ace): both are passes.
    pass_words: bool = True
    # ancora (two cards in partner's suit), alzo (three or more): passes carrying information,
    # said on the partner's standing contract (reading).
    support_calls: bool = True
    contro_multiplier: int = 2
    surcontro_multiplier: int = 4
    # Seed 000 "ACCORDI LICITATIVI PARTICOLARI": the suit-only opening (lowest level) and the
    # do/ancora/alzo 10/20 raises of the partner's contract (belote.engine.bidding.conventions).
    conventional_bids: bool = False

    def __post_init__(self) -> None:
        check_group(self, "auction.")  # types, levels and multipliers (rules.validation)


@dataclass(frozen=True, slots=True)
class Rules:
    """Flags and tables of one way to play belote.  See RULES.md for the source of each."""

    name: str
    # Seating is presentation only: the engine numbers seats in playing order.
    direction: Direction = "clockwise"
    # Seed 000: "è possibile giocare anche con numero ridotto a tre o addirittura a due".
    # 4: two partnerships facing each other; 3 or 2: each player is his own side
    # (``sides``, ``side_of``).  Fewer than 4 only with the auction (rules.validation).
    players: int = 4
    # Cards left after the deal (32 - players x hand size, the "monte"): "last_trick" gives
    # them, unseen, to the winner of the last trick, so a hand still holds 162 points
    # (reading); "dead": they stay out of the hand.
    widow: Widow = "last_trick"
    # Packets dealt to each player before the bidding: 3+2 (five cards and a turned card)
    # or 3+2+3 (all eight cards, no turned card: the auction).
    deal_packets: tuple[int, ...] = (3, 2)
    # Seed 000 (valdostana): "pone al giocatore alla sua sinistra il taglio del mazzo,
    # decidendo di tagliare o fidarsi bussando sul mazzo": a cut before each deal.
    cut_deck: bool = False
    # The fewest cards each part of a cut keeps (the cut's depths run from this to 32 - this).
    cut_min_cards: int = 3
    # Seed 002: "la distribución de las cartas restantes (3 por jugador) se reanuda a partir
    # del tomador": the rest of a turned-card deal starts from the taker (else from the
    # player after the dealer).
    deal_rest_from_taker: bool = False

    # Bidding.
    bidding: Bidding = "take_or_pass"
    jack_oblige: bool = False  # a turned Jack must be taken by the first player
    allow_senza: bool = False  # round 2 may call senza (no trump)
    allow_tutte: bool = False  # round 2 may call tutte (all trump)
    senza_override: bool = False  # partner of a round-2 suit caller may replace it by senza
    auction: AuctionRules | None = None

    # Card-play obligations (RULES.md "Card play obligations").
    must_follow_suit: bool = True
    must_trump: bool = True
    partner_master_frees: bool = True
    must_overtrump: bool = True
    must_undertrump: bool = True

    # Belote / rebelote.
    belote_enabled: bool = True
    belote_points: int = 20
    belote_king_first: bool = False
    belote_window: BeloteWindow = "next_card"
    belote_counts_for_contract: bool = True
    tutte_only_highest_belote: bool = True  # in tutte only the highest suit's belote scores

    # Declarations (sequences and carrés); None: not played.
    declarations: DeclarationRules | None = None
    ottava: bool = False  # all 8 cards of a suit shown wins the match at once

    # Scoring a hand.
    last_trick_bonus: int = 10
    capot_bonus: int = 90  # capot: the last trick is worth 100, the hand 252
    capot_all_points: bool = False  # capot means every point, not every trick (cappotto)
    taker_min_points: int = 82
    taker_must_beat_defenders: bool = True
    declarations_count_for_contract: bool = True
    made_adds_contract: bool = False  # coinche: the takers add the contract level
    failed_defenders_points: int | None = None  # None: every card point of the hand
    failed_adds_contract: bool = False  # coinche: the defenders add the contract level
    failed_defenders_take_all_declarations: bool = False
    failed_takers_keep_belote: bool = True
    tie_rule: TieRule = "litige"
    # A tie with a belote of the takers: their belote scores now (seed 002: "nunca se vuelven
    # a poner en juego") or goes into the pot with their other points (reading, seed 001
    # "l'aggiudicazione dei punti restanti è demandata alla mano che segue").
    tie_freezes_belote: bool = False
    doubled_tie: DoubledTie = "litige"
    multiplier_scope: MultiplierScope = "contract"
    senza_multiplier: int = 1
    # Whether a senza capot's bonus is multiplied with the card points (reading of seed 000:
    # "il tutto moltiplicato per due" after "10 punti extra per l'ultima mano").
    senza_capot_multiplied: bool = True
    # A failed surcontro pays the defenders "Tipo B" points (162 and their valid accusi) or
    # "Tipo A" points (both lines' own points, as a made contract); seed 000 writes "Tipo A"
    # for the surcontro and "Tipo B" for the contro (reading: "type_b", the text's slip).
    surcontro_failed_points: SurcontroFailedPoints = "type_b"

    # Match.
    target_score: int = 1000
    target_strict: bool = False  # True: a team must exceed the target, not just reach it.
    # A fixed number of hands instead of the target (a concours round, seed-free: the
    # organisers' format); the team ahead then wins, a tie plays one more hand.  0: the target.
    match_hands: int = 0

    # What a discard tells the partner (seed 000 "Gradimento"; a convention bots follow, no
    # obligation): "gradimento" the discarded suit is wanted, "no_gradimento" it is not and
    # its same-colour suit is (black calls black, red calls red), "off" nothing.
    discard_signals: DiscardSignals = "off"

    def __post_init__(self) -> None:
        # Every preset and every host's change is checked here, before a table exists: types,
        # ranges and agreement between flags (belote.rules.validation, FlagError).
        check_rules(self)

    @property
    def sides(self) -> int:
        """Scoring sides: two partnerships with four players, else one per player."""
        return 2 if self.players == 4 else self.players

    def side_of(self, seat: int) -> int:
        """The side (team) of ``seat``: partners face each other (seat % 2) with four."""
        return seat % 2 if self.players == 4 else seat

    @property
    def partners(self) -> bool:
        """Whether seats play in partnerships (only four players do)."""
        return self.players == 4

    def partner_of(self, seat: int) -> int | None:
        """The partner of ``seat``, who faces him (seat + 2) with four players; None with
        fewer, where nobody has a partner (docs/rules-2-3-players.md)."""
        return (seat + 2) % 4 if self.players == 4 else None

    @property
    def hand_size(self) -> int:
        """Cards each player holds once the deal is complete: the tricks of a hand."""
        return 8 if self.turned_card else sum(self.deal_packets)

    @property
    def widow_size(self) -> int:
        """Cards left out of the players' hands (the monte), 0 with four players."""
        return 32 - self.players * self.hand_size

    @property
    def turned_card(self) -> bool:
        """Whether the deal stops at five cards and turns one up (take-or-pass, italian)."""
        return sum(self.deal_packets) == 5

    def with_flags(self, **flags: Any) -> Rules:
        """A copy with some flags changed; a ValueError names each unknown or bad flag.

        Nested groups take dotted names: ``with_flags(**{"auction.support_calls": False})``;
        a whole group is an object of its flags (``auction={"levels": [80, 90]}``, the others
        at their defaults) or ``None``.  JSON lists stand for tuples.  The copy is checked as
        a whole (:mod:`belote.rules.validation`): types, ranges, agreement between flags.
        """
        direct: dict[str, Any] = {}
        nested: dict[str, dict[str, Any]] = {}
        for key, value in flags.items():
            group, _, sub = key.partition(".")
            if sub:
                nested.setdefault(group, {})[sub] = value
            else:
                direct[key] = value
        known = {f.name for f in dataclasses.fields(self)}
        unknown = sorted(set(direct) - known) + sorted(g for g in nested if g not in known)
        if unknown:
            raise ValueError(f"unknown rule flag(s): {', '.join(unknown)}")
        values = _coerce(self, direct)
        for group, changes in nested.items():
            if group not in GROUPS:
                raise ValueError(f"rule flag {group!r} has no nested flags")
            current = values.get(group, getattr(self, group))
            if current is None:
                raise ValueError(f"rule group {group!r} is not used by {self.name!r}")
            if not isinstance(current, GROUPS[group]):
                raise ValueError(f"rule group {group!r} must be an object to change "
                                 f"{group}.{next(iter(changes))}")
            values[group] = dataclasses.replace(current, **_coerce(current, changes, group))
        return dataclasses.replace(self, **values)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def flag_items(self) -> Iterator[tuple[str, Any]]:
        """Every flag as (name, value), nested groups flattened to dotted names."""
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if dataclasses.is_dataclass(value):
                for sub in dataclasses.fields(value):
                    yield f"{f.name}.{sub.name}", getattr(value, sub.name)
            else:
                yield f.name, value

    def flags_changed_from(self, base: Rules) -> dict[str, Any]:
        """The flags whose value differs from ``base`` (for records and table summaries)."""
        changed: dict[str, Any] = {}
        for group in GROUPS:
            if (getattr(self, group) is None) != (getattr(base, group) is None):
                value = getattr(self, group)
                changed[group] = None if value is None else dataclasses.asdict(value)
        mine = dict(self.flag_items())
        theirs = dict(base.flag_items())
        for key, value in mine.items():
            if key == "name" or key.partition(".")[0] in changed:
                continue
            if key not in theirs or theirs[key] != value:
                changed[key] = value
        return changed


GROUPS: dict[str, type[Any]] = {"auction": AuctionRules, "declarations": DeclarationRules}


def _coerce(target: Any, values: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """JSON gives lists where the rules hold tuples, objects where they hold groups."""
    known = {f.name for f in dataclasses.fields(target)}
    bad = sorted(set(values) - known)
    if bad:
        raise ValueError(f"unknown rule flag(s): {', '.join(prefix + '.' + b for b in bad)}")
    out = {}
    for key, value in values.items():
        if not prefix and key in GROUPS and isinstance(value, dict):
            value = GROUPS[key](**_coerce(GROUPS[key](), value, key))
        elif isinstance(value, list):
            value = tuple(tuple(v) if isinstance(v, list) else v for v in value)
        out[key] = value
    return out
