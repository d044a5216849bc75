"""Bots think outside the event loop: in a process pool, under a time limit.

A worker keeps one bot per level (bots are stateless between decisions: everything they use
is in the observation), so an expert's solver tables are built once per process.  A decision
that is late or fails falls back to the heuristic bot in the server, so a table never stalls.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

from belote.ai import DECLINE, make_bot
from belote.ai.base import Player
from belote.engine.observation import Observation

log = logging.getLogger(__name__)

_BOTS: dict[str, Player] = {}


def think(level: str, observation: Observation) -> int:
    """The action of a ``level`` bot (``DECLINE`` for an optional announcement it skips)."""
    bot = _BOTS.get(level)
    if bot is None:
        bot = _BOTS[level] = make_bot(level)
    return bot.choose(observation)


def warm_up() -> None:
    """Load (or, on a fresh install, compile) the expert's kernels with one small decision,
    so that the first real decision of the room is not the one that pays for it."""
    from belote.engine.state import Game
    from belote.rules import find_preset

    game = Game(find_preset("classic"))
    game.deal(list(range(32)))
    think("expert", game.observation(game.current_player()))


class BotPool:
    def __init__(self, workers: int, timeout: float) -> None:
        self.timeout = timeout
        self._executor: Executor
        if workers > 0:
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(workers, mp_context=context)
            for _ in range(workers):
                self._executor.submit(warm_up)  # starts the workers now, not at the first turn
        else:
            self._executor = ThreadPoolExecutor(1, thread_name_prefix="bot")

    async def choose(self, level: str, observation: Observation) -> int:
        loop = asyncio.get_running_loop()
        try:
            future = loop.run_in_executor(self._executor, think, level, observation)
            action = await asyncio.wait_for(future, self.timeout)
        except (TimeoutError, Exception) as error:  # a broken worker must not stop the table
            log.warning("bot %s failed (%r); the heuristic plays instead", level, error)
            action = think("normal", observation)
        if action != DECLINE and action not in observation.legal_actions:
            log.warning("bot %s chose illegal action %s; the heuristic plays instead",
                        level, action)
            action = think("normal", observation)
        return action

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
