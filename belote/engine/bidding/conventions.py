"""Valdostana conventional bids (seed 000 "ACCORDI LICITATIVI PARTICOLARI"), flag
``auction.conventional_bids``.

* Suit-only opening: "anziché fare un licita completa del tipo 82 Fiori si omette il numero
  (si dice solo il seme) col significato di mano che può reggere il contratto".  The action is
  the suit name (``NAME_SUIT_BASE + suit``); it is open only while no contract stands, and it
  sets a contract at the table's lowest level (82) in that suit, said by that seat.
* Support responses "nel colore del compagno": DO 10 / DO 20 ("il 14 secco" / "il Vallet
  secco": one trump), ANCORA 10 / 20 (two trumps, one of them the 14 / the Vallet), ALZO
  10 / 20 (three trumps, one the 14 / the Vallet).  Reading (RULES.md "auction"): each raises
  the partner's standing contract by its number of points in the same suit; the partner stays
  the bidder (the suit is his), the responder is the last caller.  Open to the partner of the
  standing contract's bidder while it is not doubled, when the raised level is in the table.

What each response promises (for bots and world sampling, never checked by the engine, as in
a real game): the number of trumps (DO one, ANCORA two, ALZO three or more, as the plain
ALZO) and the honour (20: the Jack, the "Vallet"; 10: the 9, the "14", without the Jack).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from belote.cards import Rank
from belote.engine import actions as A

# action -> (word, points): the spoken form and the raise.
RAISES: dict[int, tuple[str, int]] = {
    A.DO_10: ("do", 10), A.DO_20: ("do", 20),
    A.ANCORA_10: ("ancora", 10), A.ANCORA_20: ("ancora", 20),
    A.ALZO_10: ("alzo", 10), A.ALZO_20: ("alzo", 20),
}
# Trumps a response promises: exactly 1 or 2, or -1 for "three or more".
PROMISED_TRUMPS = {"do": 1, "ancora": 2, "alzo": -1}
# The honour a response's number promises (seed: 10 "il 14", 20 "il Vallet").
PROMISED_HONOUR = {10: Rank.NINE, 20: Rank.JACK}


def is_raise(action: int) -> bool:
    return action in RAISES


def is_suit_only(action: int) -> bool:
    return A.NAME_SUIT_BASE <= action < A.NAME_SUIT_BASE + 4


def raised_index(levels: Sequence[int], index: int, action: int) -> int | None:
    """The level index a response reaches from the standing ``index``, or None when the
    raised level is not in the table."""
    target = levels[index] + RAISES[action][1]
    return levels.index(target) if target in levels else None


def response_for(trumps: int, honour: int | None) -> int | None:
    """The response that describes ``trumps`` cards in the partner's suit with ``honour``
    (Rank.JACK, Rank.NINE or None) as its best: None when no convention says it."""
    if honour is None or trumps < 1:
        return None
    word = "do" if trumps == 1 else "ancora" if trumps == 2 else "alzo"
    points = 20 if honour == Rank.JACK else 10
    return next(a for a, said in RAISES.items() if said == (word, points))


def standing(bids: Iterable[tuple[int, int]],
             levels: Sequence[int]) -> tuple[int, int, int, int] | None:
    """The standing contract after ``bids`` (seat, action) of an auction, as (bidder, level
    index, suit, doubled 0/1/2): contracts, suit-only openings and raises; None before any.
    ``levels`` is the auction's table (empty: no auction, a named suit is no opening)."""
    current: tuple[int, int, int, int] | None = None
    for seat, action in bids:
        if A.CONTRACT_BASE <= action < A.CONTRACT_END:
            current = (seat, A.contract_level_index(action), A.contract_suit(action), 0)
        elif is_suit_only(action) and levels:
            current = (seat, 0, action - A.NAME_SUIT_BASE, 0)
        elif current is not None and is_raise(action) and levels:
            index = raised_index(levels, current[1], action)
            if index is not None:
                current = (current[0], index, current[2], current[3])
        elif current is not None and action in (A.CONTRO, A.SURCONTRO):
            current = (*current[:3], 1 if action == A.CONTRO else 2)
    return current
