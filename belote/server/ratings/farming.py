"""The rule against farming: matches with the same other account count less and less.

One person with several accounts can play rated matches against themselves in a third of a
second, always letting their main account win (issue 28).  Counting repeats of the same set
of four was not enough: rotating a farm over eight accounts (one main account and seven
others) meets a new set of four almost every match.  So the rule counts PAIRS of accounts: a
rating must measure a player against the room, not against the same few people.

For a rated match (four accounts, a winner) and each of its players: for each of the three
other accounts at the table (partner or opponent), ``k`` is how many such matches within the
rolling :data:`WINDOW` before it, this one included, the two of them played together, in
any seats.  The player's ``k`` is the largest of the three (the account they met most), and
their weight is :func:`weight` of it:

=================================  =============================================
the player's k                     what the match counts for, for that player
=================================  =============================================
1, 2                               full weight (1): their rating moves as always
3, 4                               half weight: their ``mu`` and ``sigma`` move by
                                   half of what a full match would move them
5 and more                         not rated for them (weight 0): counted in the
                                   statistics, does not move their rating, gives no
                                   league point
=================================  =============================================

Each player has a weight of their own (:func:`belote.server.ratings.model.rate` scales each
seat's update by it).  What it bounds: the weights of one pair sum to at most
:data:`PAIR_BUDGET` (3) within any 7 days, and a player's weight is at most each of its three
pairs' weights, hence at most their mean; so within any 7 days the weights of one account's
matches add up to at most the number of different accounts it played with (seven for a farm
of eight accounts, however it rotates them), and its league points to twice that.

The rule is pure (no clock, no database); :class:`~belote.server.ratings.store.RatingsStore`
counts the earlier matches of each pair under its lock.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import timedelta

WINDOW = timedelta(days=7)
WEIGHTS = (1.0, 1.0, 0.5, 0.5)  # a pair's 1st, 2nd, 3rd, 4th match; then 0
PAIR_BUDGET = sum(WEIGHTS)  # the most one pair's matches weigh within a window

Pair = tuple[int, int]


def weight(k: int) -> float:
    """The weight of a player's match whose most repeated pair meets for the ``k``-th time
    (from 1) within the window."""
    if k < 1:
        raise ValueError("matches are counted from 1")
    return WEIGHTS[k - 1] if k <= len(WEIGHTS) else 0.0


def pair(a: int, b: int) -> Pair:
    """Two accounts as counted: the smaller id first (seats and roles do not matter)."""
    if a == b:
        raise ValueError("a pair is two different accounts")
    return (a, b) if a < b else (b, a)


def repeats(accounts: Sequence[int], earlier: Mapping[Pair, int]) -> dict[int, int]:
    """Each player's ``k``: 1 + the most matches within the window they played earlier with
    one of the others at this table (``earlier``: per :func:`pair`, absent for none)."""
    if len(set(accounts)) != 4 or len(accounts) != 4:
        raise ValueError("four different accounts are needed")
    return {a: 1 + max(earlier.get(pair(a, b), 0) for b in accounts if b != a)
            for a in accounts}


def four_key(accounts: Iterable[int]) -> str:
    """The set of four accounts as stored with the match (informative: the rule counts
    pairs): their ids, sorted, comma-separated."""
    ids = sorted(set(accounts))
    if len(ids) != 4:
        raise ValueError("four different accounts are needed")
    return ",".join(str(a) for a in ids)
