"""The room's expert reads its table (issue 23, item 2): each table knows who sits where and
learns of its seats from its own hands played out, keeps that (plain counts) per seat
occupant, and sends it with each decision of a level that reads it; the worker's expert
builds its seat models from it for that decision alone, so nothing of one table reaches
another (docs/room.md, "What the expert knows of its table")."""

from __future__ import annotations

import asyncio
import dataclasses
import pickle
import time
from typing import Any

from belote.ai.decision import Decision, DecisionMethod
from belote.ai.expert import ExpertBot
from belote.ai.models import SeatContext, SeatCounts, TableSeat, models_at
from belote.ai.models.seats import KnownBidder
from belote.ai.models.words import KINDS, PASSO
from belote.ai.registry import make_decider
from belote.engine import actions as A
from belote.engine.dealing import seeded_deck_source
from belote.engine.events import HandScored
from belote.engine.observation import Observation
from belote.engine.state import Game, Phase
from belote.rules import find_preset
from belote.server.bots import BotPool, decide
from belote.server.bots import worker as worker_module
from belote.server.bots.context import TableSeats
from belote.server.persistence import LogEntry
from belote.server.seats import Seat
from belote.server.table import Table

PRESET = "valdostana"  # words (passo, aspetto, support calls), signals, an auction on 8 cards


def _people_and_bots() -> list[Seat]:
    return [Seat("bot", level="expert"), Seat("human", "ann", "s-ann", account=7),
            Seat("bot", level="normal"), Seat("human", "bob", "s-bob")]


def _play(knowledge: TableSeats, hands: int, seed: int, preset: str = PRESET) -> Game:
    """Play ``hands`` hands with the normal bot at every seat, telling ``knowledge`` what a
    room table tells it once each change is stored; the game, as it ends."""
    game = Game(find_preset(preset), 0)
    decks = seeded_deck_source(seed)
    bot = make_decider("normal", seed)  # its own: the same cuts whatever ran before
    while game.hands_scored < hands and game.phase != Phase.MATCH_OVER:
        if game.phase == Phase.DEAL:
            game.deal(decks())
            knowledge.dealt()
            continue
        seat = game.current_player()
        view = game.observation(None) if knowledge.wants_view(game) else None
        events = game.apply(bot.decide(game.observation(seat), None).action, seat)
        if any(isinstance(e, HandScored) for e in events):
            knowledge.hand_scored(view, events)
    return game


def _total(counts: SeatCounts) -> int:
    return sum(t + f for t, f in counts.words) + sum(counts.bids)


# ------------------------------------------------------------------------- the table's side
def test_two_tables_with_different_compositions_get_different_models() -> None:
    bots = TableSeats(4)
    bots.seated([Seat("bot", level="expert"), Seat("bot", level="normal"),
                 Seat("bot", level="expert"), Seat("bot", level="normal")])
    mixed = TableSeats(4)
    mixed.seated(_people_and_bots())
    assert bots.context.seats == (TableSeat.bot("expert"), TableSeat.bot("normal"),
                                  TableSeat.bot("expert"), TableSeat.bot("normal"))
    assert mixed.context.seats[1] == mixed.context.seats[3] == TableSeat.person()
    # seat 1 as the expert at seat 0 models it: the normal bidder itself (a known bidder),
    # or, for a person, the normal bidder with a trust it learns
    known = models_at(bots.context, 0).models[1]
    learned = models_at(mixed.context, 0).models[1]
    assert isinstance(known.bids, KnownBidder) and known.bids.tally is None and not known.words
    assert isinstance(learned.bids, KnownBidder) and learned.bids.tally is not None
    assert set(learned.words) == set(KINDS)


def test_a_person_learned_of_at_one_table_is_unknown_at_another() -> None:
    here, there = TableSeats(4), TableSeats(4)
    here.seated(_people_and_bots())
    there.seated(_people_and_bots())  # the same person (account 7) at seat 1 of both
    _play(here, 6, seed=11)
    assert here.hands_learned > 0
    assert _total(here.context.learned[1]) > 0 and _total(here.context.learned[3]) > 0
    assert there.context.learned == (SeatCounts(),) * 4 and there.hands_learned == 0
    # what the expert at the other table builds: its priors alone
    fresh = models_at(there.context, 0).models[1]
    taught = models_at(here.context, 0).models[1]
    assert fresh.words[PASSO].true + fresh.words[PASSO].false < (
        taught.words[PASSO].true + taught.words[PASSO].false) or (
        fresh.bids is not None and taught.bids is not None
        and fresh.bids.agreement() != taught.bids.agreement())


def test_another_person_in_the_seat_starts_from_nothing_the_same_one_keeps_it() -> None:
    knowledge = TableSeats(4)
    seats = _people_and_bots()
    knowledge.seated(seats)
    _play(knowledge, 6, seed=12)
    learned = knowledge.context.learned
    assert _total(learned[1]) > 0 and _total(learned[3]) > 0
    seats[3] = dataclasses.replace(seats[3], standin=True)  # bob's seat: a stand-in plays
    knowledge.seated(seats)
    assert knowledge.context.seats[3] == TableSeat.bot("normal")
    assert knowledge.context.learned[3] == learned[3]  # still bob's, while he is away
    seats[1] = Seat("human", "carl", "s-carl")  # another person in ann's seat
    knowledge.seated(seats)
    assert knowledge.context.learned[1] == SeatCounts()
    assert knowledge.context.learned[3] == learned[3]


def test_hands_played_for_a_person_by_a_stand_in_teach_nothing_of_that_person() -> None:
    knowledge = TableSeats(4)
    seats = _people_and_bots()
    knowledge.seated(seats)
    game = Game(find_preset(PRESET), 0)
    decks = seeded_deck_source(13)
    while knowledge.hands_learned < 3:
        if game.phase == Phase.DEAL:
            game.deal(decks())
            knowledge.dealt()
            continue
        seat = game.current_player()
        if seat == 3:
            knowledge.played_for(3)  # every move of bob's seat by a stand-in
        view = game.observation(None) if knowledge.wants_view(game) else None
        events = game.apply(decide("normal", game.observation(seat)).action, seat)
        if any(isinstance(e, HandScored) for e in events):
            knowledge.hand_scored(view, events)
    assert knowledge.context.learned[3] == SeatCounts()
    assert _total(knowledge.context.learned[1]) > 0


def test_learning_skips_the_hands_not_played_out() -> None:
    knowledge = TableSeats(4)
    knowledge.seated(_people_and_bots())
    game = _play(knowledge, 12, seed=5)
    # A hand everybody passed is dealt again, its cards never shown: it teaches nothing
    # (its words included), and is no hand scored.
    assert game.deal_no > game.hands_scored, "the seed has a hand everybody passed"
    assert knowledge.hands_learned == game.hands_scored == knowledge.context.hands
    # A hand scored without its last card played (none in today's rules): nothing more
    # than was seen is revealed, so nothing is learned; counted.
    before = knowledge.context
    knowledge.hand_scored(None, [])
    assert knowledge.hands_skipped == 1 and knowledge.context == before


def test_only_the_spectators_view_is_learned_from_and_the_context_holds_no_card() -> None:
    knowledge = TableSeats(4)
    knowledge.seated(_people_and_bots())
    game = Game(find_preset(PRESET), 0)
    decks = seeded_deck_source(3)
    bot = make_decider("normal", 3)
    while True:  # up to a hand's last card, seen from its seat
        if game.phase == Phase.DEAL:
            game.deal(decks())
            knowledge.dealt()
            continue
        seat = game.current_player()
        if game.phase == Phase.PLAYING and sum(h.bit_count() for h in game.hands) == 1:
            break
        game.apply(bot.decide(game.observation(seat), None).action, seat)
    own_view = game.observation(seat)
    events = game.apply(bot.decide(own_view, None).action, seat)
    knowledge.hand_scored(own_view, events)  # a seat's view holds its hand: refused
    assert knowledge.hands_learned == 0 and knowledge.hands_skipped == 1
    # the context: seats (levels) and counts, ints only
    context = knowledge.context
    for counts in context.learned:
        assert all(isinstance(n, int) for pair in (*counts.words, counts.bids) for n in pair)
    assert len(pickle.dumps(context)) < 1000


def test_a_table_without_a_bot_that_reads_it_learns_nothing() -> None:
    knowledge = TableSeats(4)
    knowledge.seated([Seat("bot", level="normal"), Seat("human", "ann", "s-ann"),
                      Seat("bot", level="easy"), Seat("human", "bob", "s-bob")])
    _play(knowledge, 4, seed=11)
    assert not knowledge.learns and knowledge.hands_learned == knowledge.hands_skipped == 0


def test_learning_a_hand_costs_well_under_the_loops_budget() -> None:
    knowledge = TableSeats(4)
    knowledge.seated([Seat("bot", level="expert"), Seat("human", "ann", "s-ann"),
                      Seat("bot", level="expert"), Seat("human", "bob", "s-bob")])
    scored = knowledge.hand_scored
    took: list[float] = []

    def timed(view: Observation | None, events: Any) -> None:
        # the thread's CPU time: what the learning costs the loop, not the wait for a core
        # on a busy machine (a preemption there is not the learning's cost)
        started = time.thread_time()
        scored(view, events)
        took.append(time.thread_time() - started)

    knowledge.hand_scored = timed  # type: ignore[method-assign]
    _play(knowledge, 8, seed=21)
    assert knowledge.hands_learned > 0 and max(took) < 0.05  # the room's 50 ms


# ------------------------------------------------------------------------ the bot's side
def _context(learned: int) -> SeatContext:
    counts = SeatCounts(tuple((learned, 0) if k == PASSO else (0, 0) for k in KINDS),
                        (0, learned))
    seats = (TableSeat.bot("expert"), TableSeat.person(), TableSeat.bot("normal"),
             TableSeat.person())
    return SeatContext(seats, (SeatCounts(), counts, SeatCounts(), SeatCounts()), learned)


def _bidding_view() -> Observation:
    """The first bid of a hand, at a seat other than 1 (the person the tests teach of)."""
    game = Game(find_preset(PRESET), 0)
    game.deal(seeded_deck_source(4)())
    assert game.current_player() != 1
    return game.observation(game.current_player())


def test_the_expert_builds_its_models_from_the_context_for_one_decision_alone() -> None:
    bot = ExpertBot(0)
    seen: list[Any] = []

    def record(observation: Observation, deadline: float | None) -> Decision:
        seen.append((bot.seats, bot.models))
        return Decision(observation.legal_actions[0], DecisionMethod.HEURISTIC)

    bot.decide = record  # type: ignore[method-assign]
    view = _bidding_view()
    assert view.seat is not None
    bot.decide_at(view, None, _context(30))
    bot.decide_at(view, None, _context(0))
    (seats_a, models_a), (_, models_b) = seen
    assert seats_a == _context(30).seats and models_a is not models_b
    taught, fresh = models_a.models[1], models_b.models[1]  # the person at seat 1
    assert taught.words[PASSO].true == fresh.words[PASSO].true + 30  # the counts sent...
    assert isinstance(taught.bids, KnownBidder) and isinstance(fresh.bids, KnownBidder)
    assert taught.bids.tally is not None and fresh.bids.tally is not None
    assert taught.bids.tally.false == fresh.bids.tally.false + 30  # ...for that decision
    # nothing of either table stays in the bot
    assert bot.seats is None and bot.models is None and bot.evidence is None


class _Recorder:
    """A bot that says which decisions came with their table's seats."""

    name = "recorder"

    def __init__(self) -> None:
        self.calls: list[SeatContext | None] = []

    def notify(self, event: object) -> None:
        pass

    def decide(self, observation: Observation, deadline: float | None) -> Decision:
        self.calls.append(None)
        return Decision(observation.legal_actions[0], DecisionMethod.HEURISTIC)

    def decide_at(self, observation: Observation, deadline: float | None,
                  table: SeatContext) -> Decision:
        self.calls.append(table)
        return Decision(observation.legal_actions[0], DecisionMethod.HEURISTIC)


def test_the_worker_hands_the_context_to_a_bot_that_takes_it() -> None:
    recorder = _Recorder()
    worker_module._BOTS["recorder"] = recorder  # type: ignore[assignment]
    try:
        decide("recorder", _bidding_view(), None, seats=_context(2))
        decide("recorder", _bidding_view(), None)
    finally:
        del worker_module._BOTS["recorder"]
    assert recorder.calls == [_context(2), None]


# --------------------------------------------------------------------------- a room table
asked: list[tuple[str, int | None, SeatContext | None, bool]] = []


def _record(level: str, observation: Observation, deadline: float,
            seats: SeatContext | None = None) -> Decision:
    window = A.ANNOUNCE_BELOTE in observation.legal_actions
    asked.append((level, observation.seat, seats, window))
    return decide("normal", observation, deadline)


class _Log:
    def __init__(self) -> None:
        self.entries: list[tuple[str, dict[str, Any]]] = []

    async def append(self, table_id: int, version: int, kind: str, data: dict[str, Any]
                     ) -> None:
        self.entries.append((kind, data))

    async def finish(self, table_id: int, record: dict[str, Any]) -> None:
        pass


def test_the_expert_at_a_room_table_is_sent_its_tables_seats_with_each_decision() -> None:
    asked.clear()
    seats = [Seat("bot", level="expert"), Seat("bot", level="normal"),
             Seat("bot", level="expert"), Seat("bot", level="easy")]

    log = _Log()

    async def run() -> Table:
        pool = BotPool(0, 30.0, task=_record, warm=lambda: None,
                       reads_table=lambda level: level == "expert")
        table = Table(1, PRESET, {}, log, pool, bot_delay=0.0)  # type: ignore[arg-type]
        table._deck_source = seeded_deck_source(8)
        table.start()
        try:
            await table.call(lambda: table.seat_everyone(seats))
            await table.call(lambda: table.start_match(0))
            for _ in range(6000):
                if table.seat_knowledge.hands_learned >= 2 or table.finished:
                    break
                await asyncio.sleep(0.01)
            await table.stop()
            await asyncio.sleep(0.2)  # a lesson still counting in its thread
            return table
        finally:
            await table.stop()
            pool.close()

    table = asyncio.run(run())
    expected = (TableSeat.bot("expert"), TableSeat.bot("normal"), TableSeat.bot("expert"),
                TableSeat.bot("easy"))
    experts = [context for level, _, context, window in asked if level == "expert" and not window]
    others = [context for level, _, context, _ in asked if level != "expert"]
    assert experts and all(c is not None and c.seats == expected for c in experts)
    assert others and all(c is None for c in others)  # no other level is sent it
    assert table.seat_knowledge.hands_learned >= 2
    # what was sent grew with the hands the table learned from
    assert max(c.hands for c in experts if c is not None) >= 1
    # a table restored from its log knows what it knew (learned while replaying)
    replayed = Table(1, PRESET, {}, log, None)  # type: ignore[arg-type]
    entries = [LogEntry(n + 1, kind, data) for n, (kind, data) in enumerate(log.entries)]
    asyncio.run(replayed.restore(entries))
    assert replayed.seat_knowledge.hands_learned == table.seat_knowledge.hands_learned
    assert replayed.seat_knowledge.context == table.seat_knowledge.context


def test_two_room_tables_learn_each_of_their_own_hands() -> None:
    knowledge = [TableSeats(4), TableSeats(4)]
    for k in knowledge:
        k.seated(_people_and_bots())
    _play(knowledge[0], 4, seed=31)
    _play(knowledge[1], 4, seed=32)
    a, b = (k.context.learned for k in knowledge)
    assert a != b  # different hands, different counts: each its own
