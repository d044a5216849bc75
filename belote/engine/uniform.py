"""Exactly uniform deals of cards into bins under rectangular facts (each card may go to a
given set of bins, each bin takes exactly so many cards).

The cards are grouped by the set of bins allowed to hold them (at most 2^bins groups).  The
number of deals that complete a capacity vector is counted by dynamic programming over the
groups, one group at a time: a group of ``n`` cards split ``k_1 .. k_m`` over its ``m``
bins can be dealt in ``n! / (k_1! ... k_m!)`` ways.  A deal is then drawn group by group,
each split with probability (its ways x the completions of what is left) / (all completions):
every deal (every map card -> bin) comes out with the same probability, no retry loop.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from functools import lru_cache
from math import comb

from belote.cards import CardSet


@lru_cache(maxsize=4096)
def _splits(n: int, bins: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every split of ``n`` cards over ``bins`` (bin indices) with its number of ways."""
    out: list[tuple[tuple[int, ...], int]] = []

    def walk(i: int, left: int, parts: list[int], ways: int) -> None:
        if i == len(bins) - 1:
            out.append(((*parts, left), ways))
            return
        for k in range(left + 1):
            walk(i + 1, left - k, [*parts, k], ways * comb(left, k))

    if bins:
        walk(0, n, [], 1)
    elif n == 0:
        out.append(((), 1))
    return tuple(out)


class Deal:
    """Counts and draws the deals of ``groups`` (allowed-bin mask -> cards) into bins of
    ``capacity``; bins are numbered 0..len(capacity)-1."""

    def __init__(self, groups: dict[int, list[int]], capacity: Sequence[int]) -> None:
        self.capacity = tuple(capacity)
        self.groups = sorted(groups.items())
        self.bins = [tuple(b for b in range(len(capacity)) if mask >> b & 1)
                     for mask, _ in self.groups]
        self._memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def count(self, index: int = 0, room: tuple[int, ...] | None = None) -> int:
        """Deals of groups ``index..`` into ``room`` (default: the whole capacity)."""
        if room is None:
            room = self.capacity
        if index == len(self.groups):
            return 0 if any(room) else 1
        key = (index, room)
        memo = self._memo.get(key)
        if memo is not None:
            return memo
        total = 0
        for left, ways in self._options(index, room):
            total += ways * self.count(index + 1, left)
        self._memo[key] = total
        return total

    def _options(self, index: int, room: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], int]]:
        """Each split of group ``index`` that fits ``room``: the room left and its ways."""
        bins = self.bins[index]
        n = len(self.groups[index][1])
        for parts, ways in _splits(n, bins):
            left = list(room)
            for b, k in zip(bins, parts, strict=True):
                left[b] -= k
                if left[b] < 0:
                    break
            else:
                yield tuple(left), ways

    def draw(self, rng: random.Random) -> list[CardSet] | None:
        """One deal drawn uniformly (each bin's cards), or None if there is none."""
        total = self.count()
        if total == 0:
            return None
        hands = [0] * len(self.capacity)
        room = self.capacity
        for index, (_, cards) in enumerate(self.groups):
            pick = rng.randrange(total)
            for left, ways in self._options(index, room):
                weight = ways * self.count(index + 1, left)
                if pick < weight:
                    break
                pick -= weight
            shuffled = rng.sample(cards, len(cards))
            start = 0
            for b in self.bins[index]:
                k = room[b] - left[b]
                for card in shuffled[start:start + k]:
                    hands[b] |= 1 << card
                start += k
            room = left
            total = self.count(index + 1, room)
        return hands


def group_cards(allowed: dict[int, int]) -> dict[int, list[int]]:
    """Cards (card -> allowed-bin mask) grouped by mask."""
    groups: dict[int, list[int]] = {}
    for card, mask in allowed.items():
        groups.setdefault(mask, []).append(card)
    return groups
