"""The arena: two bots compared on duplicate deals (DESIGN.md: how strength is measured).

A **duplicate pair** is one shuffled deck played twice as a single hand (not a match): first
with bot A at North-South (seats 0 and 2) and bot B at East-West (seats 1 and 3), then with
the teams swapped, B at North-South and A at East-West.  The deck, the dealer and the
seat-by-seat hands are the same in both plays, so the luck of the cards cancels out.

Each hand is scored on its own with the preset's scoring (``HandScored.scores``): no match
target, nothing carried over -- a litige's stake is not carried to a next hand (the takers'
points in the pot are lost for this deal), and a hand where all four pass scores 0 for both.

The **margin** of pair ``i``, in points, with ``(ns1, ew1)`` the scores of the first play
and ``(ns2, ew2)`` those of the second::

    margin_i = ((ns1 - ew1) + (ew2 - ns2)) / 2

that is, A's score minus B's score, averaged over the two plays: what A gains over B per
deal.  The arena reports the mean margin with its 95% confidence interval
(:func:`belote.sim.stats.mean_interval`, pairs being independent) and how many pairs A won
(margin > 0), tied (0) and lost.

**Same bidder at every seat** (``bidder``): when set, that bot makes every bid at every seat
in both plays, so the contracts come from one bidding system and the comparison is of card
play only; otherwise each bot bids for itself.

Seeds: the deck of pair ``i`` comes from ``random.Random(f"arena:{seed}:{i}")``, the dealer
is ``i % 4``; the bot at seat ``s`` of pair ``i`` gets the seed ``(seed * 1_000_003 + i) * 4 +
s`` in both plays, so two deterministic copies of one bot give a margin of exactly 0.

**Mixed teams**: a side may be two bots, ``"expert+normal"``: the first sits at seat 0 (or
1 when the side plays East-West), the second at seat 2 (or 3).  The duplicate swap is the
same: the sides exchange their cards, each side's first bot taking the first seat of the
other line.  A plain name is a side of two copies of that bot.

**Who sits where** is public: before each hand every player with a ``meet(seats)`` method
(:mod:`belote.ai.models.table`) is told each seat's level and the level that bids for it
(the common bidder, when set).

**Learning carries across the pairs of a run.**  A player that learns from what it sees
(the expert's seat models: a ``learned()`` method giving its state, ``go_on_from(state)``
taking it) would forget it all with the fresh players each pair gets (their seeds are the
pair's, above).  So the run keeps, per play order (A at North-South first, then B), per
seat and per role (the card player, the common bidder), the last state learned there, and
hands it to the next pair's player at that seat and order: the expert at a seat has learned
from every earlier deal of the run.  Duplicate fairness: the two orders' players at a seat
have learned from the same earlier deals (same decks, same dealers, in the same order),
each at its own table; what they saw there differs only by who played which cards, which
is what duplicate compares (a deal all passed at one table and played at the other taught
only the latter: the expert learns from hands played out).  Bots that learn nothing play
exactly as before (a pair's result depends on its seeds only).  The memory starts empty
with each run; with ``workers`` > 1 each worker process keeps its own (over the chunks it
plays), and a resumed run starts it afresh at the resumed pair: with learning bots the
result then depends on how the pairs were split.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from belote.ai import Player, make_bot
from belote.ai.models.table import TableSeat, meet_all
from belote.ai.registry import check_seatable
from belote.cards import NUM_CARDS, Card, CardSet
from belote.engine import actions as A
from belote.engine.dealing import DeckSource
from belote.engine.events import AllPassed, Event, HandScored
from belote.engine.observation import Observation
from belote.engine.state import Game, Phase
from belote.rules.base import Rules
from belote.sim.match import play_step
from belote.sim.stats import mean_interval

__all__ = [
    "ArenaResult",
    "Compute",
    "PairResult",
    "SameBidder",
    "pair_deck",
    "play_hand",
    "play_pair",
    "run_arena",
    "team",
]

Progress = Callable[[int, int], None]  # (pairs done, pairs in all)


# ----------------------------------------------------------------------------- players


class SameBidder:
    """One seat's player whose bids come from another player (the arena's common bidder).

    Both players are notified of every event the seat sees, so each stays in step with the
    game; ``choose`` asks the bidder during the auction and the card player afterwards.
    """

    def __init__(self, bidder: Player, player: Player) -> None:
        self.bidder = bidder
        self.player = player
        self.name = f"{player.name} (bids: {bidder.name})"

    def meet(self, seats: tuple[TableSeat, ...]) -> None:
        meet_all((self.bidder, self.player), seats)

    def see_deal(self, dealer: int, hands: Sequence[CardSet]) -> None:
        for inner in (self.bidder, self.player):
            see = getattr(inner, "see_deal", None)
            if see is not None:
                see(dealer, hands)

    def notify(self, event: Event) -> None:
        self.bidder.notify(event)
        self.player.notify(event)

    def choose(self, observation: Observation) -> int:
        if observation.phase == Phase.BIDDING:
            return self.bidder.choose(observation)
        return self.player.choose(observation)


# What learning players carry across the pairs of a run (see the module doc): the state a
# player's ``learned()`` gave, by (play order, seat, role: 0 the card player, 1 the bidder).
Memory = dict[tuple[int, int, int], object]


def _roles(player: Player) -> tuple[object, ...]:
    """The players behind one seat: the card player, and the common bidder if any."""
    return (player.player, player.bidder) if isinstance(player, SameBidder) else (player,)


def _go_on(players: Sequence[Player], memory: Memory, order: int) -> None:
    """Hand each player what its seat learned in the run's earlier pairs (after ``meet``)."""
    for seat, player in enumerate(players):
        for role, inner in enumerate(_roles(player)):
            state = memory.get((order, seat, role))
            go_on = getattr(inner, "go_on_from", None)
            if state is not None and callable(go_on):
                go_on(state)


def _remember(players: Sequence[Player], memory: Memory, order: int) -> None:
    """Keep what each player has learned, for its seat's player of the next pair."""
    for seat, player in enumerate(players):
        for role, inner in enumerate(_roles(player)):
            learned = getattr(inner, "learned", None)
            state = learned() if callable(learned) else None
            if state is not None:
                memory[(order, seat, role)] = state


def _seat_players(names: Sequence[str], bidder: str | None, seeds: Sequence[int]) -> list[Player]:
    players: list[Player] = []
    for name, seed in zip(names, seeds, strict=True):
        player = make_bot(name, seed)
        if bidder is not None:
            player = SameBidder(make_bot(bidder, seed), player)
        players.append(player)
    return players


@dataclass
class Compute:
    """The compute one side used for its card moves with a choice (more than one legal
    card): how many, the wall time they took and, for bots that say it (``last_worlds``:
    the expert), the worlds they searched."""

    moves: int = 0
    seconds: float = 0.0
    worlds: int = 0  # summed over the moves of bots that report worlds
    counted: int = 0  # moves whose bot reported its worlds
    # worlds that did not fit the bids heard, for bots drawing worlds that fit them
    # (``last_misfits``: the expert with a bid model), and the worlds of those moves
    misfits: int = 0
    fitting_worlds: int = 0

    def add(self, other: Compute) -> None:
        self.moves += other.moves
        self.seconds += other.seconds
        self.worlds += other.worlds
        self.counted += other.counted
        self.misfits += other.misfits
        self.fitting_worlds += other.fitting_worlds

    @property
    def ms_per_move(self) -> float:
        return 1000 * self.seconds / self.moves if self.moves else 0.0

    @property
    def worlds_per_move(self) -> float | None:
        return self.worlds / self.counted if self.counted else None

    @property
    def misfit_share(self) -> float | None:
        """The share of worlds that did not fit the bids (None: no bid model)."""
        return self.misfits / self.fitting_worlds if self.fitting_worlds else None


class _Metered:
    """A seat's player whose card moves with a choice are timed into ``meter``."""

    def __init__(self, player: Player, meter: Compute) -> None:
        self.player = player
        self.meter = meter
        self.name = player.name
        # the player whose worlds count: the card player behind a common bidder
        self._searcher = player.player if isinstance(player, SameBidder) else player

    def meet(self, seats: tuple[TableSeat, ...]) -> None:
        meet_all((self.player,), seats)

    def see_deal(self, dealer: int, hands: Sequence[CardSet]) -> None:
        see = getattr(self.player, "see_deal", None)
        if see is not None:
            see(dealer, hands)

    def notify(self, event: Event) -> None:
        self.player.notify(event)

    def choose(self, observation: Observation) -> int:
        timed = observation.phase == Phase.PLAYING and len(
            {a & 31 for a in observation.legal_actions if a < A.PASS}) > 1
        started = time.perf_counter()
        action = self.player.choose(observation)
        if timed:
            self.meter.moves += 1
            self.meter.seconds += time.perf_counter() - started
            worlds = getattr(self._searcher, "last_worlds", None)
            if isinstance(worlds, int):
                self.meter.worlds += worlds
                self.meter.counted += 1
                misfits = getattr(self._searcher, "last_misfits", None)
                if isinstance(misfits, int):
                    self.meter.misfits += misfits
                    self.meter.fitting_worlds += worlds
        return action


# ----------------------------------------------------------------------------- one hand


def pair_deck(seed: int, index: int) -> list[Card]:
    """The deck of pair ``index`` of an arena run with ``seed``."""
    deck = list(range(NUM_CARDS))
    random.Random(f"arena:{seed}:{index}").shuffle(deck)
    return deck


def play_hand(rules: Rules, players: Sequence[Player], deck: Sequence[Card],
              dealer: int) -> tuple[int, int]:
    """Play one hand from ``deck`` and return its score (N-S, E-W); (0, 0) if all pass.

    Players with a ``see_deal(dealer, hands)`` method (the colver adapters) are handed the
    four hands before the deal's events: the arena's side channel, see
    :mod:`belote.oracles.colver.agents`.
    """
    if len(players) != 4:
        raise ValueError("a hand needs four players")
    hands = _hands_of(rules, deck, dealer)
    for player in players:
        see = getattr(player, "see_deal", None)
        if see is not None:
            see(dealer, hands)
    game = Game(rules, dealer)
    outcome: list[tuple[int, int]] = []

    def listen(_game: Game, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, HandScored):
                outcome.append((event.scores[0], event.scores[1]))  # four seats: two teams
            elif isinstance(event, AllPassed):
                outcome.append((0, 0))

    dealt = False

    def source() -> list[Card]:
        nonlocal dealt
        if dealt:
            raise RuntimeError("the arena deals one hand per deck")
        dealt = True
        return list(deck)

    deck_source: DeckSource = source
    while not outcome:
        if game.is_terminal():  # e.g. an italian ottava ends the match in the first trick
            break
        play_step(game, players, deck_source, listen)
    if outcome:
        return outcome[0]
    return (0, 0)


def _hands_of(rules: Rules, deck: Sequence[Card], dealer: int) -> tuple[CardSet, ...]:
    """The hands a deal of ``deck`` gives (with a turned card: the first five cards)."""
    probe = Game(rules, dealer)
    probe.deal(deck)
    return tuple(probe.hands)


# ----------------------------------------------------------------------------- one pair


@dataclass(frozen=True)
class PairResult:
    index: int
    dealer: int
    first: tuple[int, int]  # (N-S, E-W) scores, A at N-S
    second: tuple[int, int]  # (N-S, E-W) scores, B at N-S
    # A's and B's card moves over both plays (timings: not part of a result's equality)
    compute_a: Compute = field(default_factory=Compute, compare=False)
    compute_b: Compute = field(default_factory=Compute, compare=False)

    @property
    def score_a(self) -> float:
        """A's mean score per deal in this pair."""
        return (self.first[0] + self.second[1]) / 2

    @property
    def score_b(self) -> float:
        return (self.first[1] + self.second[0]) / 2

    @property
    def margin(self) -> float:
        """((ns1 - ew1) + (ew2 - ns2)) / 2: A's score minus B's, per deal."""
        return self.score_a - self.score_b


def team(side: str) -> tuple[str, str]:
    """A side's two bots from its name: ``"expert+normal"``, or one name for two copies."""
    names = tuple(part.strip() for part in side.split("+"))
    if len(names) == 1:
        return names[0], names[0]
    if len(names) != 2 or not all(names):
        raise ValueError(f"a side is one bot or two joined by '+', not {side!r}")
    return names[0], names[1]


def play_pair(rules: Rules, bot_a: str, bot_b: str, seed: int, index: int,
              bidder: str | None = None, memory: Memory | None = None) -> PairResult:
    """Play duplicate pair ``index``: the same deck and dealer, A at N-S then at E-W
    (``bot_a``, ``bot_b``: sides, see :func:`team`).  With ``memory`` (a run's), learning
    players go on from what their seat learned in earlier pairs and leave what they learned
    here (see the module doc)."""
    deck = pair_deck(seed, index)
    dealer = index % 4
    base = (seed * 1_000_003 + index) * 4
    seeds = [base + s for s in range(4)]
    meters = (Compute(), Compute())  # A's, B's
    a1, a2 = team(bot_a)
    b1, b2 = team(bot_b)

    def play(names: list[str], order: int) -> tuple[int, int]:
        players = _seat_players(names, bidder, seeds)
        meet_all(players, [TableSeat.bot(name, bidder) for name in names])
        if memory is not None:
            _go_on(players, memory, order)
        metered = [_Metered(p, meters[(s & 1) != order]) for s, p in enumerate(players)]
        score = play_hand(rules, metered, deck, dealer)
        if memory is not None:
            _remember(players, memory, order)
        return score

    first = play([a1, b1, a2, b2], 0)
    second = play([b1, a1, b2, a2], 1)
    return PairResult(index, dealer, first, second, meters[0], meters[1])


def _play_chunk(rules: Rules, bot_a: str, bot_b: str, seed: int, indices: Sequence[int],
                bidder: str | None, memory: Memory | None = None) -> list[PairResult]:
    return [play_pair(rules, bot_a, bot_b, seed, i, bidder, memory) for i in indices]


# A worker process's memory of the run it serves (a pool lives for one run: emptied by the
# pool's initializer when the process starts).
_WORKER_MEMORY: Memory = {}


def _fresh_worker_memory() -> None:
    _WORKER_MEMORY.clear()


def _play_chunk_in_worker(rules: Rules, bot_a: str, bot_b: str, seed: int,
                          indices: Sequence[int], bidder: str | None) -> list[PairResult]:
    return _play_chunk(rules, bot_a, bot_b, seed, indices, bidder, _WORKER_MEMORY)


# ----------------------------------------------------------------------------- results


@dataclass
class ArenaResult:
    rules: str
    bot_a: str
    bot_b: str
    bidder: str | None
    seed: int
    deals: int  # pairs asked for
    pairs: list[PairResult] = field(default_factory=list)
    seconds: float = 0.0  # wall time spent playing (over every resumed run)

    @property
    def margins(self) -> list[float]:
        return [p.margin for p in self.pairs]

    @property
    def complete(self) -> bool:
        return len(self.pairs) >= self.deals

    def mean_margin(self) -> tuple[float, float]:
        """Mean margin per deal (A minus B, points) and the half-width of its 95% CI."""
        return mean_interval(self.margins)

    def mean_scores(self) -> tuple[float, float]:
        n = len(self.pairs) or 1
        return (sum(p.score_a for p in self.pairs) / n, sum(p.score_b for p in self.pairs) / n)

    @property
    def wins(self) -> int:
        return sum(p.margin > 0 for p in self.pairs)

    @property
    def ties(self) -> int:
        return sum(p.margin == 0 for p in self.pairs)

    @property
    def losses(self) -> int:
        return sum(p.margin < 0 for p in self.pairs)

    @property
    def seconds_per_pair(self) -> float:
        return self.seconds / len(self.pairs) if self.pairs else 0.0

    def compute(self) -> tuple[Compute, Compute]:
        """The compute A and B used for their card moves, over every pair."""
        a, b = Compute(), Compute()
        for p in self.pairs:
            a.add(p.compute_a)
            b.add(p.compute_b)
        return a, b

    def to_dict(self) -> dict[str, Any]:
        mean, half = self.mean_margin()
        score_a, score_b = self.mean_scores()
        compute_a, compute_b = self.compute()
        return {
            "rules": self.rules, "bot_a": self.bot_a, "bot_b": self.bot_b,
            "team_a": list(team(self.bot_a)), "team_b": list(team(self.bot_b)),
            "bidder": self.bidder, "seed": self.seed, "deals": self.deals,
            "pairs_played": len(self.pairs),
            "mean_margin": mean, "ci95": half if math.isfinite(half) else None,
            "mean_score_a": score_a, "mean_score_b": score_b,
            "wins": self.wins, "ties": self.ties, "losses": self.losses,
            "seconds": self.seconds, "seconds_per_pair": self.seconds_per_pair,
            "ms_per_move_a": compute_a.ms_per_move, "ms_per_move_b": compute_b.ms_per_move,
            "worlds_per_move_a": compute_a.worlds_per_move,
            "worlds_per_move_b": compute_b.worlds_per_move,
            "misfit_share_a": compute_a.misfit_share,
            "misfit_share_b": compute_b.misfit_share,
            "pairs": [asdict(p) for p in self.pairs],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ArenaResult:
        pairs = [PairResult(p["index"], p["dealer"], tuple(p["first"]), tuple(p["second"]),
                            Compute(**p.get("compute_a", {})),
                            Compute(**p.get("compute_b", {}))) for p in data["pairs"]]
        return cls(data["rules"], data["bot_a"], data["bot_b"], data["bidder"], data["seed"],
                   data["deals"], pairs, data.get("seconds", 0.0))

    def same_run(self, other: ArenaResult) -> bool:
        return (self.rules, self.bot_a, self.bot_b, self.bidder, self.seed) == (
            other.rules, other.bot_a, other.bot_b, other.bidder, other.seed)


# ----------------------------------------------------------------------------- the run


def run_arena(
    rules: Rules,
    bot_a: str,
    bot_b: str,
    deals: int,
    seed: int = 0,
    bidder: str | None = None,
    progress: Progress | None = None,
    *,
    workers: int = 1,
    chunk: int = 0,
    checkpoint: Path | None = None,
) -> ArenaResult:
    """Play ``deals`` duplicate pairs of ``bot_a`` against ``bot_b`` (see the module doc).

    Pairs are played in chunks (``chunk`` pairs; 0: a size that reports often); after each
    chunk ``progress(done, deals)`` is called and, with ``checkpoint``, the result so far is
    written there as JSON.  A run given a checkpoint that holds the same run (rules, bots,
    bidder, seed) resumes after its last pair.  ``workers`` > 1 plays chunks in a process
    pool (spawned processes: each builds its own bots); the result is the same as with one
    for bots that learn nothing (learning ones: see the module doc).
    """
    if deals < 1:
        raise ValueError("deals must be at least 1")
    if workers < 1:
        raise ValueError("workers must be at least 1")
    for name in {*team(bot_a), *team(bot_b)} | ({bidder} if bidder else set()):
        # unknown names, a missing colver and a bot that cannot sit here fail before any play
        check_seatable(make_bot(name, 0), rules)
    result = ArenaResult(rules.name, bot_a, bot_b, bidder, seed, deals)
    if checkpoint is not None and checkpoint.exists():
        saved = ArenaResult.from_dict(json.loads(checkpoint.read_text()))
        if not saved.same_run(result):
            raise ValueError(f"{checkpoint} holds another run "
                             f"({saved.bot_a} v {saved.bot_b}, seed {saved.seed})")
        result.pairs = saved.pairs[:deals]
        result.seconds = saved.seconds
    todo = list(range(len(result.pairs), deals))
    size = chunk or max(1, min(10, len(todo) // (4 * workers) or 1))
    chunks = [todo[i:i + size] for i in range(0, len(todo), size)]
    if progress is not None:
        progress(len(result.pairs), deals)

    def record(pairs: list[PairResult], started: float) -> None:
        result.pairs.extend(pairs)
        result.seconds += time.perf_counter() - started
        if checkpoint is not None:
            checkpoint.write_text(json.dumps(result.to_dict()))
        if progress is not None:
            progress(len(result.pairs), deals)

    if workers == 1 or len(chunks) <= 1:
        memory: Memory = {}  # this run's, in this process
        for indices in chunks:
            started = time.perf_counter()
            record(_play_chunk(rules, bot_a, bot_b, seed, indices, bidder, memory), started)
        return result
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"),
                             initializer=_fresh_worker_memory) as pool:
        futures = [pool.submit(_play_chunk_in_worker, rules, bot_a, bot_b, seed, indices,
                               bidder) for indices in chunks]
        started = time.perf_counter()
        for future in futures:  # in order, so the result is the same as a serial run
            record(future.result(), started)
            started = time.perf_counter()
    return result

