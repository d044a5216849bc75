"""The exact ("double-dummy") solver for any seat count: 2, 3 or 4 players in two lines.

A plain-Python wrapper over the compiled kernel :func:`belote.engine._kernels.solve_root_n`
(imported on the first call, like :mod:`belote.engine.search`).  The four-seat
:class:`belote.engine.search.Solver` stays the faster one for partnerships (its kernel is
unrolled for tricks of four); this one serves ``valdostana3`` / ``valdostana2``.

Lines: each seat is on line 0 (the line whose points are counted and maximised: the player
to move and, with three players, whoever plays with him) or line 1 (everyone against it,
searched as one player: with three players the two defenders of the taker's opponents, or
the taker against two defenders).  Values are line 0's card points from the cards on the
table and in hand, with the last trick's bonus and the monte's points (``widow_points``,
``rules.widow == "last_trick"``) to the last trick's winner; no capot bonus.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from belote.cards import NUM_CARDS, Card, CardSet
from belote.engine.search import TableSearch, kernels, pack_flags
from belote.errors import BeloteError
from belote.rules.base import Rules


@dataclass(frozen=True)
class SeatsPosition:
    """A card-play position with every hand known, for as many seats as ``hands``."""

    hands: tuple[CardSet, ...]  # cards still held, by seat
    trick: tuple[Card, ...]  # cards on the table, leader first
    leader: int
    trump: int
    sides: tuple[int, ...]  # by seat: 0 the line counted, 1 the other
    widow_points: int = 0  # the monte's card points, won with the last trick

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def tricks_left(self) -> int:
        return (sum(h.bit_count() for h in self.hands) + len(self.trick)) // self.players

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % self.players

    def check(self, players: int) -> None:
        """BeloteError unless this is a position of ``players`` seats whose hands, trick
        and lines fit together."""
        n = len(self.trick)
        if len(self.hands) != players or not 2 <= players <= 4:
            raise BeloteError(f"a position of {players} seats needs {players} hands")
        if len(self.sides) != players or any(s not in (0, 1) for s in self.sides):
            raise BeloteError("sides gives each seat its line, 0 or 1")
        if not 0 <= self.leader < players or not 0 <= self.trump <= 5 or n >= players:
            raise BeloteError("bad leader, trump or trick")
        if not 0 <= self.widow_points <= 162:
            raise BeloteError(f"the monte holds 0 .. 162 points, not {self.widow_points}")
        if any(not 0 <= c < NUM_CARDS for c in self.trick):
            raise BeloteError("a card on the table is not a card (0..31)")
        seen = 0
        for hand in (*self.hands, *(1 << c for c in self.trick)):
            if not 0 <= hand < 1 << NUM_CARDS:
                raise BeloteError("a hand is a 32-bit card mask")
            if seen & hand:
                raise BeloteError("a card is in two places")
            seen |= hand
        sizes = [h.bit_count() for h in self.hands]
        expected = [sizes[self.to_move] - (1 if (i - self.leader) % players < n else 0)
                    for i in range(players)]
        if sizes != expected or seen.bit_count() % players or sizes[self.to_move] == 0:
            raise BeloteError("hand sizes do not match the trick")


def lines_of(players: int, mover: int, taker: int | None) -> tuple[int, ...]:
    """Each seat's line seen from ``mover``: 0 for the mover's line, 1 for the other.  The
    taker plays against everyone else (with three players the two defenders are one line);
    without a taker every other seat is against the mover."""
    if taker is None:
        return tuple(0 if s == mover else 1 for s in range(players))
    return tuple(0 if (s == taker) == (mover == taker) else 1 for s in range(players))


class SeatSolver(TableSearch):
    """Exact solver for ``rules.players`` seats with a transposition table that lives
    across calls; node limits and rates as :class:`belote.engine.search.Solver`."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.flags = pack_flags(rules)
        super().__init__()
        # The table's keys are (cards left, leader): valid while each card left has the
        # owner it had when the entry was stored.  A call whose cards all sit where the
        # current generation's first world put them (same trump, lines and monte) keeps
        # that generation: the table carries over from world to world when the worlds
        # agree (two players, every card known) and from card to card along a hand, and
        # a search stopped at its node limit leaves its finished nodes for the next call.
        self._owners: tuple[int, ...] = ()
        self._owners_key: tuple[int, tuple[int, ...], int] = (-1, (), 0)
        self._owners_gen = -1

    def _generation_for(self, position: SeatsPosition) -> int:
        """The table generation for ``position``: the current one when its card owners
        agree with it (see ``__init__``), else a fresh one."""
        owners = list(position.hands)
        for i, card in enumerate(position.trick):
            owners[(position.leader + i) % len(owners)] |= 1 << card
        key = (position.trump, position.sides, position.widow_points)
        if (self._owners_gen == self.generation and key == self._owners_key
                and all(o & ~prev == 0 for o, prev in zip(owners, self._owners, strict=True))):
            return self.generation
        gen = self._next_generation()
        self._owners, self._owners_key, self._owners_gen = tuple(owners), key, gen
        return gen

    def solve(self, position: SeatsPosition, check: bool = True,
              node_limit: int | None = None) -> dict[Card, int]:
        """Value (line 0's points from here) of every legal card of the player to move.
        With ``node_limit`` the search stops after that many nodes: ``aborted`` is then
        True and only the cards solved before it are in the answer (exact values)."""
        players = self.rules.players
        if check:
            position.check(players)
        self._limit(node_limit)
        k = kernels()
        gen = self._generation_for(position)
        hands = np.zeros(4, dtype=np.int64)
        hands[:players] = position.hands
        trick = np.zeros(4, dtype=np.int64)
        trick[: len(position.trick)] = position.trick
        sides = np.array(position.sides, dtype=np.int64)
        cards = np.zeros(k.MAX_HAND_N, dtype=np.int64)
        values = np.zeros(k.MAX_HAND_N, dtype=np.int64)
        nodes, started = int(self.stats[0]), time.perf_counter()
        count = k.solve_root_n(hands, trick, len(position.trick), position.leader, players,
                               position.trump, self.flags, sides,
                               self.rules.last_trick_bonus + position.widow_points,
                               position.tricks_left, self.tt, cards, values, self.stats, gen)
        self._measure(0, nodes, started)
        self.aborted = bool(self.stats[3])
        return {int(cards[i]): int(values[i]) for i in range(count)}
