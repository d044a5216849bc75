"""The frozen rules object: every flag and table of RULES.md that the engine reads.

A preset is an instance of :class:`Rules`; a table host starts from one and changes flags with
:meth:`Rules.with_flags`.  The engine branches on these fields only, never on ``name``.
Where a variant differs in kind (bidding system, scoring policy) a field names a strategy.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal

Bidding = Literal["take_or_pass", "italian", "auction"]
BeloteWindow = Literal["next_card", "trick"]
TieRule = Literal["litige"]
Direction = Literal["clockwise", "counterclockwise"]


@dataclass(frozen=True, slots=True)
class Rules:
    """Flags and tables of one way to play belote.  See RULES.md for the source of each."""

    name: str
    # Seating is presentation only: the engine numbers seats in playing order.
    direction: Direction = "clockwise"
    # Packets for the first five cards of each player (3+2 or 2+3).
    deal_packets: tuple[int, ...] = (3, 2)

    # Bidding.
    bidding: Bidding = "take_or_pass"
    jack_oblige: bool = False

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

    # Scoring a hand.
    last_trick_bonus: int = 10
    capot_points: int = 252
    taker_min_points: int = 82
    taker_must_beat_defenders: bool = True
    failed_defenders_points: int = 162
    tie_rule: TieRule = "litige"

    # Match.
    target_score: int = 1000
    target_strict: bool = False  # True: a team must exceed the target, not just reach it.

    def with_flags(self, **flags: Any) -> Rules:
        """A copy with some flags changed; unknown flag names are an error."""
        known = {f.name for f in dataclasses.fields(self)}
        unknown = sorted(set(flags) - known)
        if unknown:
            raise ValueError(f"unknown rule flag(s): {', '.join(unknown)}")
        return dataclasses.replace(self, **flags)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def flags_changed_from(self, base: Rules) -> dict[str, Any]:
        """The flags whose value differs from ``base`` (for records and table summaries)."""
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if f.name != "name" and getattr(self, f.name) != getattr(base, f.name)
        }
