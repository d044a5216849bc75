"""The room's one bot path (issue 22, item 3): every decision, belote windows included, goes
through ``BotPool.decide`` and comes back as a Decision; the levels that do not search
decide on the event loop (no trip to a worker), the others in the workers; the wire codec
loads no bot."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import subprocess
import sys
import threading
import time
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any

import pytest

from belote.ai.decision import Decision, DecisionMethod, Fallback
from belote.engine import actions as A
from belote.engine.dealing import seeded_deck_source
from belote.engine.observation import Observation
from belote.engine.state import Game, Phase
from belote.rules import find_preset
from belote.server.bots import BotPool, decide
from belote.server.levels import (
    LEVELS,
    OWN,
    OWN_LEVELS,
    UNOFFERED,
    RunsIn,
    runs_in,
    runs_inline,
    windows_in,
)
from belote.server.seats import Seat
from belote.server.table import Table


def test_the_levels_registry_says_where_each_level_decides() -> None:
    from belote import bot_group

    assert OWN_LEVELS == ("easy", "normal", "quick", "expert") and LEVELS[:4] == OWN_LEVELS
    assert runs_in("easy") is runs_in("normal") is runs_in("random") is RunsIn.INLINE
    assert runs_in("expert") is RunsIn.POOL
    # a plug-in or any other name: its cost is unknown, the pool bounds it
    assert runs_in("tiny") is RunsIn.POOL and not runs_inline("examples.first_legal_bot:X")
    # the plug-ins' group and which of them a room offers: one home, below the bot layer,
    # that the room reads without loading it and the bot layer loads plug-ins from
    assert bot_group.BOT_GROUP == "belote.bots"
    assert LEVELS[len(OWN_LEVELS):] == bot_group.room_plugin_names()


def _observation() -> Observation:
    game = Game(find_preset("classic"))
    game.deal(list(range(32)))
    return game.observation(game.current_player())


def no_warm_up() -> None:
    pass


class _Threads(BotPool):
    """Workers as threads whose names say where a decision ran."""

    def _start(self) -> Executor:
        return ThreadPoolExecutor(1, thread_name_prefix="bot-worker")


def _where(level: str, observation: Observation, deadline: float) -> Decision:
    """A normal bot's decision, its method saying the thread it ran in (loop or worker)."""
    decision = decide("normal", observation, deadline)
    on_loop = threading.current_thread() is threading.main_thread()
    return dataclasses.replace(decision, method=DecisionMethod.RULE if on_loop
                               else DecisionMethod.HEURISTIC)


def test_levels_that_do_not_search_decide_on_the_loop_and_the_others_in_the_workers() -> None:
    async def run() -> tuple[list[Decision], BotPool]:
        pool = _Threads(0, 30.0, task=_where, warm=no_warm_up)
        try:
            levels = ("normal", "easy", "expert", "normal")
            return [await pool.decide(level, _observation(), table=1) for level in levels], pool
        finally:
            pool.close()

    decisions, pool = asyncio.run(run())
    on_loop = [d.method is DecisionMethod.RULE for d in decisions]
    assert on_loop == [True, True, False, True]
    stats = pool.stats
    assert (stats.decisions, stats.inline, stats.fallback_total) == (4, 3, 0)
    assert stats.methods[DecisionMethod.RULE] == 3 and stats.p99 is not None
    assert all(d.fallback is None and d.ms >= 0 for d in decisions)


def test_an_inline_answer_that_is_no_decision_falls_back_and_is_counted(
        caplog: pytest.LogCaptureFixture) -> None:
    def old_style(level: str, observation: Observation, deadline: float) -> Any:
        return observation.legal_actions[0]  # a bare action: not the contract

    async def run() -> tuple[Decision, BotPool]:
        pool = BotPool(0, 30.0, task=old_style, warm=no_warm_up)
        try:
            return await pool.decide("normal", _observation(), table=4), pool
        finally:
            pool.close()

    with caplog.at_level(logging.WARNING, logger="belote.server.bots"):
        decision, pool = asyncio.run(run())
    assert decision.fallback is Fallback.FAILED and decision.method is DecisionMethod.FALLBACK
    assert decision.action in _observation().legal_actions
    assert pool.stats.fallbacks[Fallback.FAILED] == 1
    assert "not a Decision" in caplog.text


def test_a_slow_inline_decision_is_counted_and_logged_and_one_past_the_limit_is_late(
        caplog: pytest.LogCaptureFixture) -> None:
    def slow(level: str, observation: Observation, deadline: float) -> Decision:
        time.sleep(0.06)
        return decide("normal", observation, deadline)

    async def run(timeout: float) -> tuple[Decision, BotPool]:
        pool = BotPool(0, timeout, task=slow, warm=no_warm_up)
        try:
            return await pool.decide("normal", _observation(), table=2), pool
        finally:
            pool.close()

    with caplog.at_level(logging.WARNING, logger="belote.server.bots"):
        kept, pool = asyncio.run(run(30.0))
    assert kept.fallback is None and pool.stats.slow_inline == 1
    assert "held the event loop" in caplog.text
    late, pool = asyncio.run(run(0.01))
    assert late.fallback is Fallback.LATE and pool.stats.fallbacks[Fallback.LATE] == 1


# ------------------------------------------------------------------------ belote windows

class _Log:
    """A store that keeps the table's log in memory."""

    def __init__(self) -> None:
        self.entries: list[tuple[str, dict[str, Any]]] = []

    async def append(self, table_id: int, version: int, kind: str, data: dict[str, Any]
                     ) -> None:
        self.entries.append((kind, data))

    async def finish(self, table_id: int, record: dict[str, Any]) -> None:
        pass


asked: list[Observation] = []


def withheld_belote(level: str, observation: Observation, deadline: float) -> Decision:
    """The normal bot, but it plays a belote card as soon as it may, bare: its announcement
    comes in the window after the card, the decision this test is about."""
    asked.append(observation)
    belote = [a - A.PLAY_ANNOUNCE_BASE for a in observation.legal_actions
              if A.PLAY_ANNOUNCE_BASE <= a < A.PASS]
    if belote:
        return Decision(belote[0], DecisionMethod.RULE)
    return decide("normal", observation, deadline)


@pytest.mark.parametrize("inline", [True, False], ids=["inline", "in-the-pool"])
def test_a_bots_belote_window_is_decided_through_the_bot_path(inline: bool) -> None:
    asked.clear()

    async def announced(log: _Log, table: Table) -> list[dict[str, Any]]:
        for _ in range(6000):
            said = [d for kind, d in log.entries
                    if kind == "act" and d["action"] == A.ANNOUNCE_BELOTE]
            if said or table.finished:
                return said
            await asyncio.sleep(0.01)
        raise AssertionError("no belote in a minute")

    async def run() -> tuple[list[dict[str, Any]], BotPool, _Log]:
        pool = BotPool(0, 30.0, task=withheld_belote, warm=no_warm_up,
                       inline=lambda level: inline)
        log = _Log()
        table = Table(1, "classic", {}, log, pool, bot_delay=0.0)  # type: ignore[arg-type]
        table._deck_source = seeded_deck_source(3)
        table.start()
        try:
            await table.call(lambda: table.seat_everyone([Seat("bot") for _ in range(4)]))
            await table.call(lambda: table.start_match(0))
            return await announced(log, table), pool, log
        finally:
            await table.stop()
            pool.close()

    first, pool, log = asyncio.run(run())
    windows = [o for o in asked if A.ANNOUNCE_BELOTE in o.legal_actions]
    assert first and windows, "a bot's belote window came and was announced"
    # asked of the window's seat, out of turn, through the path: counted like any decision.
    # The table plays on until it stops (a loaded machine: into a later hand), so the log
    # is read once it has stopped; a window asked as it stopped may have no answer logged.
    said = {d["seat"] for kind, d in log.entries
            if kind == "act" and d["action"] == A.ANNOUNCE_BELOTE}
    assert said <= {o.seat for o in windows}
    assert {o.seat for o in windows} - said <= {windows[-1].seat}
    assert all(o.seat != o.current_player for o in windows)
    # Every answer is counted.  On the loop, every decision asked is answered at once; the
    # table was stopped once the belote was said, so a decision asked in the pool's thread
    # at that moment may have lost its table before its answer came back (nothing to count).
    low = len(asked) if inline else len(asked) - 1
    assert low <= pool.stats.decisions <= len(asked)
    assert pool.stats.inline == (pool.stats.decisions if inline else 0)


def _bare_belote(observation: Observation) -> int:
    """withheld_belote's move, counting nothing: a belote card bare as soon as it may."""
    belote = [a - A.PLAY_ANNOUNCE_BASE for a in observation.legal_actions
              if A.PLAY_ANNOUNCE_BASE <= a < A.PASS]
    return belote[0] if belote else decide("normal", observation).action


def _belote_window() -> Observation:
    """The observation of a seat whose belote window is open, out of its turn."""
    decks = seeded_deck_source(3)
    game = Game(find_preset("classic"))
    for _ in range(5000):
        window = game.seats_with_open_window()
        if window:
            return game.observation(window[0])
        if game.phase == Phase.MATCH_OVER:
            break
        if game.phase == Phase.DEAL:
            game.deal(decks())
            continue
        seat = game.current_player()
        game.apply(_bare_belote(game.observation(seat)), seat)
    raise AssertionError("no belote window in a match")


def test_the_registry_says_where_belote_windows_are_decided_and_it_is_true() -> None:
    # the expert searches its cards and bids in the pool, but its windows are a rule
    assert runs_in("expert") is RunsIn.POOL and windows_in("expert") is RunsIn.INLINE
    assert windows_in("tiny") is RunsIn.POOL  # a plug-in: nobody here knows its cost
    window = _belote_window()
    assert A.ANNOUNCE_BELOTE in window.legal_actions and window.seat != window.current_player
    for level in (*OWN, *UNOFFERED):
        if level.windows_in is RunsIn.INLINE:
            decision = decide(level.name, window, time.monotonic() + 1.0)
            # a rule (or a random slip), no search: no world solved, no searching method
            assert decision.worlds is None, level.name
            assert decision.method not in SEARCHED, (level.name, decision.method)


SEARCHED = {DecisionMethod.EXACT, DecisionMethod.PLAYOUTS, DecisionMethod.SIMULATED,
            DecisionMethod.ESTIMATED, DecisionMethod.HURRIED}


def _loop_or_busy_worker(level: str, observation: Observation, deadline: float) -> Decision:
    """On the loop: the normal bot's decision, marked RULE.  In the worker: it holds the
    worker until ``_release`` is set (a long card search), marked HEURISTIC."""
    if threading.current_thread() is threading.main_thread():
        return dataclasses.replace(decide("normal", observation, deadline),
                                   method=DecisionMethod.RULE)
    _release.wait(10.0)
    return dataclasses.replace(decide("normal", observation, deadline),
                               method=DecisionMethod.HEURISTIC)


_release = threading.Event()


def test_a_searching_levels_belote_window_is_decided_on_the_loop_not_behind_its_searches(
        ) -> None:
    # (review of issue 22: an expert's window queued in the pool behind card searches while
    # its table's task waited, and a late window fell back)
    _release.clear()
    window = _belote_window()

    async def run() -> tuple[Decision, float, Decision, BotPool]:
        pool = _Threads(1, 30.0, task=_loop_or_busy_worker, warm=no_warm_up)
        try:
            search = asyncio.create_task(pool.decide("expert", _observation(), table=1))
            while pool.queued == 0:  # the expert's card search holds the one worker
                await asyncio.sleep(0.001)
            started = time.monotonic()
            expert = await pool.decide("expert", window, table=2, window=True)
            took = time.monotonic() - started
            plugin = asyncio.create_task(pool.decide("tiny", window, table=3, window=True))
            await asyncio.sleep(0.05)
            _release.set()
            await search
            return expert, took, await plugin, pool
        finally:
            _release.set()
            pool.close()

    expert, took, plugin, pool = asyncio.run(run())
    assert expert.method is DecisionMethod.RULE and expert.fallback is None  # on the loop
    # queued behind the search it would have waited for the release (10 s): 5 s tells
    # the two apart on a busy machine too
    assert expert.action == A.ANNOUNCE_BELOTE and took < 5.0
    assert plugin.method is DecisionMethod.HEURISTIC  # a plug-in's window: in the worker
    # still the one path: counted like any decision
    assert (pool.stats.decisions, pool.stats.inline, pool.stats.fallback_total) == (3, 1, 0)


where_asked: list[tuple[Observation, bool]] = []


def withheld_belote_where(level: str, observation: Observation, deadline: float) -> Decision:
    """withheld_belote, noting whether each decision ran on the event loop."""
    where_asked.append((observation, threading.current_thread() is threading.main_thread()))
    return Decision(_bare_belote(observation), DecisionMethod.RULE)


def test_an_expert_tables_belote_windows_are_decided_on_the_loop_its_cards_in_the_pool(
        ) -> None:
    where_asked.clear()

    async def run() -> tuple[list[dict[str, Any]], BotPool, _Log]:
        pool = BotPool(0, 30.0, task=withheld_belote_where, warm=no_warm_up)  # the registry
        log = _Log()
        table = Table(1, "classic", {}, log, pool, bot_delay=0.0)  # type: ignore[arg-type]
        table._deck_source = seeded_deck_source(3)
        table.start()
        try:
            await table.call(lambda: table.seat_everyone(
                [Seat("bot", level="expert") for _ in range(4)]))
            await table.call(lambda: table.start_match(0))
            for _ in range(6000):
                said = [d for kind, d in log.entries
                        if kind == "act" and d["action"] == A.ANNOUNCE_BELOTE]
                if said or table.finished:
                    return said, pool
                await asyncio.sleep(0.01)
            raise AssertionError("no belote in a minute")
        finally:
            await table.stop()
            pool.close()

    said, pool = asyncio.run(run())
    # a window out of turn: on the loop; a card or bid (no window open): in the pool
    windows = [on_loop for o, on_loop in where_asked if o.seat != o.current_player]
    moves = [on_loop for o, on_loop in where_asked if A.ANNOUNCE_BELOTE not in o.legal_actions]
    assert said and windows and moves
    assert all(windows) and not any(moves)
    # counted like any decision (a decision in the worker when the table stopped is not)
    assert pool.stats.inline == sum(on_loop for _, on_loop in where_asked)
    assert len(where_asked) - 1 <= pool.stats.decisions <= len(where_asked)


# ------------------------------------------------------------------------ the wire codec

def _loaded_by_the_codec(prefixes: tuple[str, ...]) -> list[str]:
    code = ("import sys, belote.server.protocol; "
            f"print(sorted(m for m in sys.modules if m.startswith({prefixes!r})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    return list(eval(out.stdout))  # a list of module names, printed by ourselves


def test_the_wire_codec_loads_no_bot() -> None:
    # (the import contract codec-imports-no-bot says it of the import graph; this, of a run)
    assert _loaded_by_the_codec(("belote.ai", "belote.oracles", "belote.server.bots")) == []
