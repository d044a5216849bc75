"""Card-play search in plain Python, for any seat count (2, 3 or 4 players).

The exact search for fewer players (seed 000: "a tre o addirittura a due") is compiled
(:mod:`belote.engine.search_seats`); the expert bot searches here only where that is too large
(no follow-suit obligation, early in the hand), as the four-seat playout kernels refuse them.
Slower by two orders of magnitude, so it solves exactly only the last tricks (``solve``, a
"paranoid" search: one side maximises its own points, every other seat minimises them) and estimates
earlier positions by random legal playouts (``playouts``).

Values are the card points one side takes from here, with the last trick's bonus and the
monte (``rules.widow == "last_trick"``) going to the last trick's winner.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from belote.cards import Card, CardSet, card_list
from belote.engine.obligations import legal_plays
from belote.engine.tricks import CARD_POINTS, trick_winner
from belote.errors import BeloteError
from belote.rules.base import Rules


@dataclass(frozen=True, slots=True)
class SeatPosition:
    """A card-play position with every hand known, for ``rules.players`` seats."""

    rules: Rules
    hands: tuple[CardSet, ...]  # cards still held, by seat
    trick: tuple[Card, ...]  # cards on the table, leader first
    leader: int
    trump: int
    widow_points: int = 0  # the monte's card points, won with the last trick

    def check(self) -> None:
        n = self.rules.players
        if len(self.hands) != n or not 0 <= self.leader < n or len(self.trick) >= n:
            raise BeloteError(f"a position of {n} seats needs {n} hands, a leader 0..{n - 1} "
                              f"and fewer than {n} cards on the table")

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % self.rules.players


def _after(pos: SeatPosition, card: Card) -> tuple[SeatPosition, int, int]:
    """The position after the player to move plays ``card``; (position, winner, points): the
    winner of a trick it completes (-1: none) and what that trick is worth."""
    rules = pos.rules
    n = rules.players
    seat = pos.to_move
    hands = list(pos.hands)
    hands[seat] &= ~(1 << card)
    trick = (*pos.trick, card)
    if len(trick) < n:
        return SeatPosition(rules, tuple(hands), trick, pos.leader, pos.trump,
                            pos.widow_points), -1, 0
    winner = (pos.leader + trick_winner(trick, pos.trump)) % n
    points = sum(CARD_POINTS[pos.trump][c] for c in trick)
    if not any(hands):
        points += rules.last_trick_bonus + pos.widow_points
    return SeatPosition(rules, tuple(hands), (), winner, pos.trump, pos.widow_points), \
        winner, points


def _legal(pos: SeatPosition) -> list[Card]:
    return card_list(legal_plays(pos.hands[pos.to_move], pos.trick, pos.trump, pos.rules))


def solve(pos: SeatPosition, side: int, node_limit: int = 200_000) -> dict[Card, int]:
    """The points ``side`` takes from here after each legal card of the player to move, with
    ``side`` playing its best and every other seat playing against it (paranoid search).
    BeloteError past ``node_limit`` nodes (the caller then uses :func:`playouts`)."""
    pos.check()
    nodes = [0]
    side_of = pos.rules.side_of

    def value(p: SeatPosition, alpha: int, beta: int) -> int:
        nodes[0] += 1
        if nodes[0] > node_limit:
            raise BeloteError(f"the pure-Python search passed {node_limit} nodes")
        cards = _legal(p)
        if not cards:
            return 0
        ours = side_of(p.to_move) == side
        best = -1 if ours else 1 << 30
        for card in cards:
            child, winner, points = _after(p, card)
            gained = points if winner >= 0 and side_of(winner) == side else 0
            v = gained
            if any(child.hands):  # a trick in progress leaves a card in some hand
                v += value(child, alpha - gained, beta - gained)
            if ours:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    result: dict[Card, int] = {}
    for card in _legal(pos):
        child, winner, points = _after(pos, card)
        gained = points if winner >= 0 and side_of(winner) == side else 0
        rest = value(child, -1, 1 << 30) if any(child.hands) else 0
        result[card] = gained + rest
    return result


def playouts(pos: SeatPosition, card: Card, count: int,
             rng: random.Random) -> list[tuple[int, ...]]:
    """Points of every side from here after the player to move plays ``card``, in ``count``
    uniformly random legal playouts (every obligation flag applied)."""
    pos.check()
    sides = pos.rules.sides
    side_of = pos.rules.side_of
    out: list[tuple[int, ...]] = []
    for _ in range(count):
        points = [0] * sides
        p, winner, value = _after(pos, card)
        while True:
            if winner >= 0:
                points[side_of(winner)] += value
            if not any(p.hands):
                break
            p, winner, value = _after(p, rng.choice(_legal(p)))
        out.append(tuple(points))
    return out


def side_totals(results: Sequence[tuple[int, ...]], side: int) -> float:
    """The average points of ``side`` over playout results."""
    return sum(r[side] for r in results) / len(results) if results else 0.0
