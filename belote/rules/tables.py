"""Card orders and points common to every preset (RULES.md, "Common ground").

Tables are indexed by ``Rank`` (7 8 9 10 J Q K A).  A strength is a position in the playing
order, higher wins: trump order J 9 A 10 K Q 8 7, plain order A 10 K Q J 9 8 7.
"""

from __future__ import annotations

from belote.cards import Rank

R = Rank
TRUMP_ORDER: tuple[Rank, ...] = (R.JACK, R.NINE, R.ACE, R.TEN, R.KING, R.QUEEN, R.EIGHT, R.SEVEN)
PLAIN_ORDER: tuple[Rank, ...] = (R.ACE, R.TEN, R.KING, R.QUEEN, R.JACK, R.NINE, R.EIGHT, R.SEVEN)

TRUMP_POINTS: dict[Rank, int] = {
    R.JACK: 20, R.NINE: 14, R.ACE: 11, R.TEN: 10, R.KING: 4, R.QUEEN: 3, R.EIGHT: 0, R.SEVEN: 0,
}
PLAIN_POINTS: dict[Rank, int] = {
    R.ACE: 11, R.TEN: 10, R.KING: 4, R.QUEEN: 3, R.JACK: 2, R.NINE: 0, R.EIGHT: 0, R.SEVEN: 0,
}


def strengths(order: tuple[Rank, ...]) -> tuple[int, ...]:
    """Strength per rank index (0 weakest .. 7 strongest) for a high-to-low order."""
    table = [0] * 8
    for position, rank in enumerate(order):
        table[rank] = 7 - position
    return tuple(table)


TRUMP_STRENGTH = strengths(TRUMP_ORDER)
PLAIN_STRENGTH = strengths(PLAIN_ORDER)
