"""What one side of a table playing with real cards has entered and the other side has not
yet confirmed (issue 24; Bridgemate's practice: North enters, East confirms).

==========================================  ===================================================
rule                                        source
==========================================  ===================================================
a hand or a final total a player enters is  issue 24: "every hand or final total is confirmed
pending until a player of the other side    by a player of the other side on their own phone
confirms it; only confirmed hands count     (or the same phone, with their code) before it
for the sheet and the result                counts"
the other side may dispute instead; a       issue 24: "disagreements go to the organiser's
dispute, and whatever is left unconfirmed,  queue"
is the organiser's to resolve (accept or
reject, with a reason)
an organiser's entry counts at once         the organiser is who resolves a dispute
hands stored before confirmations existed   an old event log replays unchanged
count (no claim: every hand confirmed)
==========================================  ===================================================

A game has at most one claim, by one side: while it stands the other side confirms (or
disputes) before entering anything itself, so the hands of a sheet never interleave two
unconfirmed authors.  The claim knows how many of the game's hands counted before it
(``confirmed``); the hands after them are its pending hands.
"""

from __future__ import annotations

from dataclasses import dataclass

from belote.tournament.model import Game


@dataclass(frozen=True, slots=True)
class Claim:
    """A side's entries that await the other side."""

    side: int  # the side that entered them: the other side confirms
    confirmed: int  # the game's hands that count (the first ones); the rest are pending
    totals: tuple[int, int] | None = None  # final totals typed by the side, pending
    dispute: str | None = None  # the other side's reason, once it disputed
    since: str = ""  # when the first pending entry was made (ISO time)

    @property
    def disputed(self) -> bool:
        return self.dispute is not None


@dataclass(frozen=True, slots=True)
class Pending:
    """One line of the organiser's queue: a game, its claim, what is pending."""

    game: Game
    claim: Claim
    hands: tuple[int, ...]  # the numbers of its pending hands

    @property
    def disputed(self) -> bool:
        return self.claim.disputed
