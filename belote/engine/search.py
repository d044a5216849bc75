"""Plain-Python wrappers over the compiled kernels: checked inputs, Python types out.

Importing this module compiles nothing either: :mod:`belote.engine._kernels` (numba) is
imported on the first call.  Values are the card points of team 0 (seats 0 and 2) from the
cards still on the table and in hand, with the last trick's bonus and the capot bonus.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from types import ModuleType

import numpy as np

from belote.cards import NUM_CARDS, Card, CardSet
from belote.engine.obligations import OBLIGATION_FIELDS
from belote.errors import BeloteError
from belote.rules.base import Rules

_kernels: ModuleType | None = None


def kernels() -> ModuleType:
    """The compiled kernels (compiled on first use, then loaded from numba's cache)."""
    global _kernels
    if _kernels is None:
        from belote.engine import _kernels as module

        _kernels = module
    return _kernels


def rule_flags(rules: Rules) -> int:
    """The card-play obligations of ``rules`` packed for the four-seat kernels: one bit per
    field of :data:`OBLIGATION_FIELDS`.  Rules with an obligation the kernels do not
    implement are refused (BeloteError), never searched as if the flag were not there."""
    if rules.players != 4:
        # The four-seat kernels (solve_root, playouts, batched games) model two partnerships
        # (trick of four, team = seat % 2); the exact solver for fewer players is
        # belote.engine.search_seats (kernel solve_root_n).
        raise BeloteError(f"the compiled kernels play four seats, not {rules.players} "
                          f"(rules {rules.name!r}); use belote.engine.search_seats")
    return pack_flags(rules)


def pack_flags(rules: Rules) -> int:
    """:func:`rule_flags` for any seat count: without partners (fewer than four players)
    ``partner_master_frees`` never applies (:func:`belote.engine.obligations.legal_plays`),
    so its bit is left out."""
    bits: dict[str, int] = kernels().FLAG_BITS
    missing = [name for name in OBLIGATION_FIELDS if name not in bits]
    if missing:
        raise BeloteError(f"the solver does not model the rule flag(s) {', '.join(missing)}")
    flags = sum(bits[name] for name in OBLIGATION_FIELDS if getattr(rules, name))
    if not rules.partners:
        flags &= ~bits["partner_master_frees"]
    return flags


@dataclass(frozen=True)
class Position:
    """A card-play position with every hand known (a deal, or one sampled world)."""

    hands: tuple[CardSet, CardSet, CardSet, CardSet]  # cards still held, by seat
    trick: tuple[Card, ...]  # cards on the table, leader first
    leader: int
    trump: int
    won: int = 0  # bit t set if team t has already taken a trick (capot bonus)

    def check(self) -> None:
        for hand in self.hands:
            if not 0 <= hand < 1 << NUM_CARDS:
                raise BeloteError("a hand is a 32-bit card mask")
        if any(not 0 <= c < NUM_CARDS for c in self.trick):
            raise BeloteError("a card on the table is not a card (0..31)")
        if not 0 <= self.won <= 3:
            raise BeloteError("won is a 2-bit set of teams that took a trick (0..3)")
        seen = 0
        for hand in (*self.hands, *(1 << c for c in self.trick)):
            if seen & hand:
                raise BeloteError("a card is in two places")
            seen |= hand
        if not 0 <= self.leader < 4 or not 0 <= self.trump <= 5 or len(self.trick) > 3:
            raise BeloteError("bad leader, trump or trick")
        sizes = [h.bit_count() for h in self.hands]
        n = len(self.trick)
        expected = [sizes[(self.leader + n) % 4] - (1 if (i - self.leader) % 4 < n else 0)
                    for i in range(4)]
        if sizes != expected or seen.bit_count() % 4 or seen.bit_count() > NUM_CARDS:
            raise BeloteError("hand sizes do not match the trick")

    @property
    def tricks_left(self) -> int:
        return (sum(h.bit_count() for h in self.hands) + len(self.trick)) // 4

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % 4


# The node rate assumed before a solver has measured its own (nodes per second): on the low
# side of what this machine does (3 to 8 million), so that a first decision is not late.
INITIAL_RATE = 2_000_000.0
RATE_WEIGHT = 0.2  # how far a faster call moves the rate up


class TableSearch:
    """What every exact solver keeps across calls: the transposition table, the node
    counters and limit, and the measured node rate (a time budget as a node limit)."""

    def __init__(self) -> None:
        k = kernels()
        # one row per slot: the key (-1: empty), then bounds and best move packed
        self.tt = np.zeros((k.TT_SIZE, 2), dtype=np.int64)
        self.tt[:, 0] = -1
        # nodes, root passes, node limit (0: none), aborted: see _kernels.solve_root
        self.stats = np.zeros(4, dtype=np.int64)
        self.generation = 0
        self.aborted = False  # whether the last call stopped at its node limit
        # Nodes per second of wall time, measured on this solver's calls: turns a time
        # budget into a node limit (the kernels cannot read a clock).  Two rates: a whole
        # deal's search (value) runs slower per node than a card's (its table is colder).
        # Pessimistic: a slower call is believed at once, a faster one by RATE_WEIGHT.
        self.rates = [INITIAL_RATE, INITIAL_RATE]  # solve, value
        # A solver's first call may also load (or compile) the kernels: its rate may say
        # nothing of the search, and believing it would starve the next worlds (so each
        # solver's first call of each kind is not measured).
        self._measured = [False, False]

    def nodes_for(self, seconds: float, whole_deal: bool = False) -> int:
        """A node limit that should take about ``seconds`` at the measured rate of
        :meth:`solve` (or of :meth:`value` with ``whole_deal``)."""
        return max(1, int(seconds * self.rates[whole_deal]))

    def _measure(self, which: int, nodes_before: int, started: float) -> None:
        elapsed = time.perf_counter() - started
        nodes = int(self.stats[0]) - nodes_before
        if not self._measured[which]:
            self._measured[which] = True
            return
        if elapsed > 0.002 and nodes > 1000:  # too short a call says little
            rate = nodes / elapsed
            old = self.rates[which]
            self.rates[which] = rate if rate < old else old + RATE_WEIGHT * (rate - old)

    @property
    def nodes(self) -> int:
        """Nodes searched by this solver so far (all calls)."""
        return int(self.stats[0])

    def _limit(self, node_limit: int | None) -> None:
        """Arm the kernels' node limit for one call (None: search to the end)."""
        if node_limit is not None and node_limit < 1:
            raise BeloteError(f"a node limit is at least 1, not {node_limit}")
        self.stats[2] = 0 if node_limit is None else self.stats[0] + node_limit
        self.stats[3] = 0

    def clear(self) -> None:
        self.tt[:, 0] = -1
        self.generation = 0

    def _next_generation(self) -> int:
        """A fresh key space for a new deal (the table's keys assume one deal)."""
        self.generation += 1
        if self.generation >= 1 << 22:
            self.clear()
            self.generation = 1
        return self.generation


class Solver(TableSearch):
    """Exact ("double-dummy") solver for four seats with a transposition table that lives
    across calls (fewer seats: :class:`belote.engine.search_seats.SeatSolver`)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.flags = rule_flags(rules)
        super().__init__()

    def solve(self, position: Position, check: bool = True,
              node_limit: int | None = None) -> dict[Card, int]:
        """Value (team 0's points from here) of every legal card of the player to move.

        With ``node_limit``, the search stops after that many nodes: ``aborted`` is then
        True and only the cards solved before it are in the answer (exact values)."""
        if check:
            position.check()
        self._limit(node_limit)
        k = kernels()
        gen = self._next_generation()
        hands = np.array(position.hands, dtype=np.int64)
        trick = np.zeros(4, dtype=np.int64)
        trick[: len(position.trick)] = position.trick
        cards = np.zeros(8, dtype=np.int64)
        values = np.zeros(8, dtype=np.int64)
        nodes, started = int(self.stats[0]), time.perf_counter()
        count = k.solve_root(hands, trick, len(position.trick), position.leader,
                             position.trump, self.flags, self.rules.last_trick_bonus,
                             self.rules.capot_bonus, position.won, position.tricks_left,
                             self.tt, cards, values, self.stats, gen)
        self._measure(0, nodes, started)
        self.aborted = bool(self.stats[3])
        return {int(cards[i]): int(values[i]) for i in range(count)}

    def value(self, hands: tuple[CardSet, CardSet, CardSet, CardSet], leader: int, trump: int,
              guess: int = 81, node_limit: int | None = None,
              tolerance: int = 0) -> int | None:
        """Team 0's points over a whole deal (8 cards each) with perfect play (within
        ``tolerance`` points); None if ``node_limit`` nodes were searched first
        (``aborted``)."""
        if tolerance < 0:
            raise BeloteError(f"a tolerance is 0 or more points, not {tolerance}")
        self._limit(node_limit)
        k = kernels()
        gen = self._next_generation()
        tricks = sum(h.bit_count() for h in hands) // 4
        nodes, started = int(self.stats[0]), time.perf_counter()
        found = int(k.solve_value(np.array(hands, dtype=np.int64), leader, trump, self.flags,
                                  self.rules.last_trick_bonus, self.rules.capot_bonus, 0,
                                  tricks, guess, self.tt, self.stats, gen, tolerance))
        self._measure(1, nodes, started)
        self.aborted = bool(self.stats[3])
        return None if self.aborted else found


def random_playouts(rules: Rules, n_hands: int, seed: int = 0) -> int:
    """Play ``n_hands`` random hands in the compiled kernel (benchmark); a checksum."""
    k = kernels()
    return int(k.random_hands(n_hands, seed, rule_flags(rules), rules.last_trick_bonus,
                              rules.capot_bonus))



def playout_outcomes(rules: Rules, position: Position, card: Card, count: int,
                     seed: int) -> list[int]:
    """Team 0's points from ``position`` after the player to move plays ``card``, in
    ``count`` uniformly random legal playouts (the kernels' ``playout``, every obligation
    flag applied): the expert's estimate where an exact search is too large."""
    k = kernels()
    n = len(position.trick)
    seat = position.to_move
    hands = np.array(position.hands, dtype=np.int64)
    hands[seat] &= ~(1 << card)
    trick = np.zeros(4, dtype=np.int64)
    trick[:n] = position.trick
    trick[n] = card
    state = np.array([(seed * 2654435761 + 88172645) & ((1 << 48) - 1)], dtype=np.int64)
    flags = rule_flags(rules)
    return [int(k.playout(hands, trick, n + 1, position.leader, position.trump, flags,
                          rules.last_trick_bonus, rules.capot_bonus, position.won,
                          position.tricks_left, state))
            for _ in range(count)]
