"""The rule against farming: rated matches among the same four accounts count less and less.

One person with four accounts can play a rated match against themselves in a third of a
second, always letting the same partnership win (issue 28).  A rating must measure a player
against the room, not against the same three people, so a rated match is weighed by how many
rated matches the same set of four accounts (whatever the partnerships, whoever won) played
within the rolling :data:`WINDOW` before it, this one included:

=================================  =============================================
the k-th such match                what it counts for
=================================  =============================================
1st and 2nd                        full weight (1): the ratings move as always
3rd and 4th                        half weight: every ``mu`` and ``sigma`` moves
                                   by half of what a full match would move it
5th and later                      not rated (weight 0): counted in the profiles
                                   and statistics, moves no rating, no league point
=================================  =============================================

Every such match is stored with its ``k`` and its weight, so that the players are told on
their statistics page ("not rated: the 5th match in 7 days among the same four players").
The rule is pure (no clock, no database); :class:`~belote.server.ratings.store.RatingsStore`
counts the earlier matches under its lock.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

WINDOW = timedelta(days=7)
WEIGHTS = (1.0, 1.0, 0.5, 0.5)  # the 1st, 2nd, 3rd, 4th match; then 0


def weight(k: int) -> float:
    """The weight of the ``k``-th rated match (from 1) of one set of four in the window."""
    if k < 1:
        raise ValueError("matches are counted from 1")
    return WEIGHTS[k - 1] if k <= len(WEIGHTS) else 0.0


def four_key(accounts: Iterable[int]) -> str:
    """The set of four accounts as stored: their ids, sorted, comma-separated (the
    partnerships and the seats do not matter: rotating them is the same farm)."""
    ids = sorted(set(accounts))
    if len(ids) != 4:
        raise ValueError("four different accounts are needed")
    return ",".join(str(a) for a in ids)
