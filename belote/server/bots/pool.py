"""The one way the room asks a bot for a move, :meth:`BotPool.decide`: on the event loop for
the levels that do not search, else in a pool of worker processes under a time limit."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
import multiprocessing
import os
import signal
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable
from concurrent.futures import (
    BrokenExecutor,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
)
from typing import cast

from belote.ai import DECLINE
from belote.ai.decision import Decision, DecisionMethod, Fallback
from belote.ai.models import SeatContext
from belote.engine.observation import Observation
from belote.server import levels
from belote.server.bots.stats import BotStats, Counters
from belote.server.bots.worker import decide, init_worker, warm_inline, warm_up

log = logging.getLogger(__name__)

# What a worker runs for a decision, and what the event loop runs for a level that decides
# there: (level, observation, deadline) -> Decision; the deadline is in time.monotonic()
# seconds (one clock for the whole machine), see BotPool.decide.  For a level that reads
# its table (belote.server.levels), the task is also given ``seats=`` the table's
# SeatContext (the default task, worker.decide, takes it).
Task = Callable[[str, Observation, float], Decision]
# How a path's decision went: the bot's answer, or why it falls back and the error.
Outcome = tuple[Decision | None, Fallback | None, BaseException | None]
# The bots that stand in for a late, failing, illegal or lost decision (decided inline):
# the quick bot's network where it can sit (four seats; microseconds a card, fewer points
# lost per decision than the heuristic on held-out positions, level with it at the table:
# docs/bots.md), else the normal bot, which also stands in for a quick bot that failed.
STAND_IN = "quick"
LAST_STAND_IN = "normal"
# An inline decision slower than this holds the event loop too long (the room allows no
# request 50 ms of it): logged and counted (BotStats.slow_inline), its answer kept.
SLOW_INLINE = 0.05

# The share of the pool's time limit that a decision's own (soft) deadline allows, measured
# from when a worker takes it: the expert starts no new world after it, and its own hard
# limit bounds the first world (EXPERT_HARD at most), so its answer comes within the pool's
# limit (the rest is margin for the queue and the machine).  A decision that has less than
# this share of its limit left when a worker is free is late already: it is not started.
THINK_SHARE = 0.2
# The expert's longest hard limit (a bid's first world, ExpertBot's bid_hard_ms): a pool
# whose share is shorter warns at start that expert decisions may come late.
EXPERT_HARD = 0.8
# How long past a decision's time limit a worker may still be on it before the watchdog
# calls it hung (stopped, deadlocked, looping): its workers are then replaced, its table
# already had the heuristic's move at the limit.  Generous: a searching bot answers within
# its soft deadline and its hard limit (EXPERT_HARD), well inside the pool's limit.
HUNG_MARGIN = 2.0


def resolve_workers(workers: int | None) -> int:
    """Worker processes for a setting: None is one per CPU, 0 a thread of the server."""
    if workers is None:
        return os.cpu_count() or 1
    if workers < 0:
        raise ValueError(f"bot workers must be 0 (a thread) or more, not {workers}")
    return workers


def stand_in_for(level: str, observation: Observation) -> str:
    """Who plays for a ``level`` bot that did not answer: the quick bot where it can sit,
    unless it is the one that failed."""
    rules = observation.ruleset
    players = rules.players if rules is not None else len(observation.hand_sizes)
    if level != STAND_IN and levels.seats_at(STAND_IN, players):
        return STAND_IN
    return LAST_STAND_IN


def stand_in_action(stand_in: str, observation: Observation) -> int:
    """The stand-in's action; should the quick bot itself fail, the normal bot's (logged):
    a stand-in never stops a table."""
    try:
        return decide(stand_in, observation, None).action
    except Exception:
        if stand_in == LAST_STAND_IN:
            raise
        log.exception("stand-in %s failed; the %s bot plays", stand_in, LAST_STAND_IN)
        return decide(LAST_STAND_IN, observation, None).action


class BotPool:
    """Bot decisions, first come first served, under a time limit (see the package docstring).

    ``task`` and ``warm`` are what workers run for a decision and once when they start; tests
    replace them with module-level (picklable) functions.  ``inline`` says which levels
    decide on the event loop (by the same ``task``), ``windows_inline`` which decide their
    belote windows there: the levels' registry by default (a caller that replaces
    ``inline`` alone moves the windows with it).  ``reads_table`` says which levels are
    sent their table's :class:`~belote.ai.models.SeatContext` (``seats=``): the registry's
    with the default task, none with a task of the caller's unless it says which.
    """

    def __init__(self, workers: int | None, timeout: float, *, task: Task = decide,
                 warm: Callable[[], None] = warm_up, hung_margin: float = HUNG_MARGIN,
                 inline: Callable[[str], bool] = levels.runs_inline,
                 windows_inline: Callable[[str], bool] | None = None,
                 reads_table: Callable[[str], bool] | None = None) -> None:
        self.workers = resolve_workers(workers)
        self._inline = inline  # which levels decide on the event loop (belote.server.levels)
        if windows_inline is None:
            windows_inline = (levels.windows_inline if inline is levels.runs_inline
                              else inline)
        self._windows_inline = windows_inline
        if reads_table is None:
            reads_table = levels.reads_table if task is decide else _reads_nothing
        self._reads_table = reads_table  # which levels are sent their table's SeatContext
        self.timeout = timeout
        self.hung_margin = hung_margin
        self._task = task
        self._warm = warm
        self.think_within = timeout * THINK_SHARE
        if self.think_within < EXPERT_HARD:
            log.warning("bot pool: a %.1f s time limit leaves expert decisions %.2f s, under "
                        "their %.1f s hard limit: some may come late", timeout,
                        self.think_within, EXPERT_HARD)
        # At most this many decisions are in the workers at once; the others wait in
        # _waiting, first come first served, and get their deadline when a worker is free
        # (a deadline that ran out in a queue would leave the search no time at all).
        self.capacity = max(1, self.workers)
        self._busy = 0
        self._waiting: deque[asyncio.Future[None]] = deque()
        self._counters = Counters()
        self._closed = False
        # Per table, a future that completes once its latest decision has left the pool.
        self._outstanding: dict[int, asyncio.Future[None]] = {}
        # Executors the watchdog replaced: their other decisions were innocent, and go to
        # the new workers when they have the time (see _ask).
        self._retired: weakref.WeakSet[Executor] = weakref.WeakSet()
        self._warming: list[Future[None]] = []  # the current executor's warm-ups
        self._executor: Executor = self._start()
        # The levels deciding on the event loop are built beside it, not by their first
        # decision on it (the quick bot reads its network once per process); kept so that
        # whoever needs them built (a test) can wait for this thread.
        self.inline_warm_up: threading.Thread | None = None
        if task is decide:
            self.inline_warm_up = threading.Thread(
                target=warm_inline, name="bot-warm-inline", daemon=True,
                args=([name for name in levels.LEVELS if inline(name) or name == STAND_IN],))
            self.inline_warm_up.start()

    @property
    def stats(self) -> BotStats:
        return self._counters.snapshot()

    async def decide(self, level: str, observation: Observation, *,
                     table: int | None = None, window: bool = False,
                     seats: SeatContext | None = None) -> Decision:
        """The decision of a ``level`` bot for ``observation``: every decision of the room
        (cards, bids, declarations, belote windows) comes through here.  Never raises for
        the bot's sake: a late, failing, illegal or lost decision is the heuristic bot's
        move (``Decision.fallback`` says why), counted and logged with ``table`` and the
        observation's seat.  A level that does not search decides at once, on the loop;
        so does a belote ``window`` (announce or not) of a level that decides it by rule,
        as the table's own task waits for it (belote.server.levels).  ``seats``: what the
        table knows of its seats (belote.server.bots.context), sent with the decision to a
        level that reads it (its cards and bids, not its windows), and to no other."""
        started = time.monotonic()
        thinker = self._task
        if seats is not None and not window and self._reads_table(level):
            # (a partial of a module's function pickles: it goes to a worker too)
            thinker = functools.partial(cast(Callable[..., Decision], self._task), seats=seats)
        if self._windows_inline(level) if window else self._inline(level):
            self._counters.inline += 1
            answer, fallback, error = self._decide_inline(thinker, level, observation, started)
        else:
            answer, fallback, error = await self._decide_in_pool(thinker, level, observation,
                                                                 table, started)
        if fallback is None:
            fallback, error = _checked(answer, observation)
        decision = self._settle(level, observation, table, answer, fallback, error)
        decision = dataclasses.replace(decision, ms=(time.monotonic() - started) * 1000.0)
        self._counters.record(decision)
        return decision

    def _decide_inline(self, thinker: Task, level: str, observation: Observation,
                       started: float) -> Outcome:
        """A decision on the event loop: no worker, no queue; the time limit still holds
        (an answer after it is late) and a bot that raises falls back."""
        try:
            answer = thinker(level, observation, started + self.think_within)
        except Exception as caught:  # a failing bot must not stop the table
            return None, Fallback.FAILED, caught
        took = time.monotonic() - started
        if took > self.timeout:
            return None, Fallback.LATE, TimeoutError(f"answered inline in {took:.3f} s")
        if took > SLOW_INLINE:
            self._counters.slow_inline += 1
            log.warning("bot %s held the event loop %.1f ms (a level that decides there "
                        "should take well under one; %d so slow)", level, took * 1000,
                        self._counters.slow_inline)
        return answer, None, None

    async def _decide_in_pool(self, thinker: Task, level: str, observation: Observation,
                              table: int | None, started: float) -> Outcome:
        """A decision in a worker, first come first served, one per table at a time."""
        deadline = started + self.timeout
        previous = self._outstanding.get(table) if table is not None else None
        slot = _Slot(asyncio.get_running_loop().create_future())
        if table is not None:
            self._outstanding[table] = slot.left_pool
            slot.left_pool.add_done_callback(lambda done: self._forget(table, done))
        try:
            if previous is not None:
                # The table's earlier decision still occupies a worker (it was late): this
                # one queues behind it rather than taking a second worker.
                await asyncio.wait_for(asyncio.shield(previous), deadline - time.monotonic())
            return await self._ask(thinker, level, observation, deadline, slot), None, None
        except TimeoutError as caught:
            return None, Fallback.LATE, caught
        except BrokenExecutor as caught:
            return None, Fallback.POOL_BROKEN, caught
        except Exception as caught:  # a failing bot must not stop the table
            return None, Fallback.FAILED, caught
        finally:
            if not slot.submitted:  # else the job resolves it when it leaves the pool
                # Never submitted, but the table's earlier job may still hold a worker: the
                # table's next decision must wait for that one, as this one did.
                _resolve_after(previous, slot.left_pool)

    def _settle(self, level: str, observation: Observation, table: int | None,
                answer: Decision | None, fallback: Fallback | None,
                error: BaseException | None) -> Decision:
        """The decision the table plays: the bot's, or the stand-in's (logged)."""
        if fallback is not None or answer is None:
            stand_in = stand_in_for(level, observation)
            log.warning("table %s seat %s: bot %s %s (%r); the %s bot plays instead",
                        table, observation.seat, level, fallback, error, stand_in)
            action = stand_in_action(stand_in, observation)
            return Decision(action, DecisionMethod.FALLBACK, None, fallback=fallback)
        if answer.method is DecisionMethod.HURRIED:
            # The bot answered in time, but with its heuristic's move (no world solved by its
            # deadline): counted and announced like any quick move, never silent.
            log.warning("table %s seat %s: bot %s hurried; it played its heuristic's move",
                        table, observation.seat, level)
            return dataclasses.replace(answer, fallback=Fallback.HURRIED)
        if answer.method is DecisionMethod.ESTIMATED:
            # Its own search, at its roughest (playouts, no world solved exactly): not the
            # heuristic standing in, but counted and logged all the same.
            log.info("table %s seat %s: bot %s valued its cards by playouts (no world "
                     "solved exactly in time)", table, observation.seat, level)
        return dataclasses.replace(answer, fallback=None)

    @property
    def queued(self) -> int:
        """Decisions in the workers or waiting for one."""
        return self._busy + len(self._waiting)

    def think_deadline(self, taken: float) -> float:
        """The (soft) deadline of a decision that a worker takes at ``taken``
        (``time.monotonic()``): a share of the time limit, less when more decisions are in
        or waiting for the workers than there are workers (each gets its part of the
        pool), so that a long queue shortens every search rather than making the last ones
        late."""
        return taken + self.think_within * min(1.0, self.capacity / max(1, self.queued))

    async def _take_worker(self, deadline: float) -> None:
        """Wait, first come first served, until a worker is free for one more decision
        (TimeoutError at ``deadline``)."""
        if self._busy < self.capacity and not self._waiting:
            self._busy += 1
            return
        turn = asyncio.get_running_loop().create_future()
        self._waiting.append(turn)
        try:
            # asyncio.timeout, not wait_for: Python 3.11's wait_for can swallow a
            # cancellation that comes as the worker is handed over
            async with asyncio.timeout(deadline - time.monotonic()):
                await turn
        except BaseException:
            if turn.done() and not turn.cancelled():
                self._free_worker()  # handed a worker just as it gave up: pass it on
            else:
                with contextlib.suppress(ValueError):
                    self._waiting.remove(turn)
            raise

    def _free_worker(self) -> None:
        while self._waiting:
            turn = self._waiting.popleft()
            if not turn.done():
                turn.set_result(None)  # the worker goes straight to the next in line
                return
        self._busy -= 1

    async def _ask(self, thinker: Task, level: str, observation: Observation,
                   deadline: float, slot: _Slot) -> Decision:
        while True:
            executor, job, answer = await self._submit(thinker, level, observation, deadline,
                                                       slot)
            try:
                return await asyncio.wait_for(asyncio.shield(answer),
                                              deadline - time.monotonic())
            except TimeoutError:
                job.cancel()  # still queued: drop it; already running: it finishes, unused
                raise
            except asyncio.CancelledError:
                job.cancel()
                task = asyncio.current_task()
                if (task is not None and task.cancelling()) or not answer.cancelled():
                    raise  # this decision's caller cancelled it
                # Still queued when the watchdog replaced the workers (shutdown cancels the
                # queue): lost through no fault of its own, it goes to the new workers.
                if deadline - time.monotonic() < self.think_within:
                    raise TimeoutError("its workers were replaced") from None
                self._counters.retried += 1
                log.warning("bot %s: queued for workers replaced for a hung one; asked again "
                            "of the new workers", level)
                continue
            except BrokenExecutor as error:
                if executor in self._retired and (deadline - time.monotonic()
                                                  >= self.think_within):
                    # The watchdog replaced these workers for another decision's sake: this
                    # one was lost through no fault of its own, and goes to the new ones.
                    self._counters.retried += 1
                    log.warning("bot %s: its worker was replaced for a hung one; asked again "
                                "of the new workers", level)
                    continue
                self._replace(executor, error)
                raise

    async def _submit(self, thinker: Task, level: str, observation: Observation,
                      deadline: float, slot: _Slot
                      ) -> tuple[Executor, Future[Decision], asyncio.Future[Decision]]:
        """Take a worker and hand it the decision: the executor, the job and its answer."""
        await self._take_worker(deadline)
        taken = time.monotonic()
        if deadline - taken < self.think_within:
            # Too little of its time limit left to think in: late already, so it does not
            # hold a worker that the next decisions need.
            self._free_worker()
            raise TimeoutError("waited too long for a worker")
        executor = self._executor
        think_by = self.think_deadline(taken)
        try:
            try:
                job = executor.submit(thinker, level, observation, think_by)
            except BrokenExecutor as error:
                # The pool broke while idle: nothing of this decision was lost, so it goes
                # to the replacement instead of falling back.
                self._replace(executor, error)
                executor = self._executor
                job = executor.submit(thinker, level, observation, think_by)
        except BaseException:
            self._free_worker()
            raise
        slot.submitted = True
        answer = asyncio.wrap_future(job)
        watch = None
        if self.workers > 0:  # a thread cannot be killed: only worker processes are watched
            watch = asyncio.get_running_loop().call_later(
                max(0.0, deadline + self.hung_margin - time.monotonic()),
                self._check_hung, executor, job, level, observation.seat)
        answer.add_done_callback(lambda done: self._answered(done, slot.left_pool, watch))
        return executor, job, answer

    def _check_hung(self, executor: Executor, job: Future[Decision], level: str,
                    seat: int | None) -> None:
        """The watchdog: a decision still in its worker ``hung_margin`` after its time limit
        means a hung worker (its table had the heuristic's move at the limit)."""
        if job.done() or executor is not self._executor or self._closed:
            return  # answered at last, or these workers were replaced already
        if not all(warm.done() for warm in self._warming):
            # Still warming up (a first compile of the kernels can take minutes): the
            # decision waits behind the warm-up, its worker is not hung.  Look again later.
            asyncio.get_running_loop().call_later(self.hung_margin, self._check_hung,
                                                  executor, job, level, seat)
            return
        self._counters.hung += 1
        log.error("bot worker hung: no answer from bot %s (seat %s) %.1f s after its %.1f s "
                  "limit; replacing the workers (hung %d)", level, seat, self.hung_margin,
                  self.timeout, self._counters.hung)
        processes = list((getattr(executor, "_processes", None) or {}).values())
        self._retired.add(executor)
        self._replace(executor, TimeoutError("a bot worker hung"))
        for process in processes:
            # SIGKILL: a stopped process ignores everything else until it is continued
            with contextlib.suppress(OSError, ValueError, AttributeError):
                if process.pid is not None:
                    os.kill(process.pid, signal.SIGKILL)

    def _answered(self, answer: asyncio.Future[Decision], left_pool: asyncio.Future[None],
                  watch: asyncio.TimerHandle | None) -> None:
        if watch is not None:
            watch.cancel()
        self._free_worker()
        _settle(answer, left_pool)

    def _start(self) -> Executor:
        if self.workers == 0:
            return ThreadPoolExecutor(1, thread_name_prefix="bot")
        # Workers are started from this thread (the event loop's), which lives as long as the
        # server: Linux's parent-death signal follows the thread that started the process.
        spawn = multiprocessing.get_context("spawn")
        executor = ProcessPoolExecutor(self.workers, mp_context=spawn,
                                       initializer=init_worker, initargs=(os.getpid(),))
        self._warming = [executor.submit(self._warm) for _ in range(self.workers)]
        for warming in self._warming:  # starts the workers now, not at the first turn
            warming.add_done_callback(_report_warm_up)
        return executor

    def _replace(self, broken: Executor, error: BaseException) -> None:
        if broken is not self._executor or self._closed:
            return  # another decision has replaced it already
        self._counters.replacements += 1
        log.error("bot pool broken (%r): starting %d new workers (replacement %d)",
                  error, self.workers, self._counters.replacements)
        broken.shutdown(wait=False, cancel_futures=True)
        self._executor = self._start()

    def _forget(self, table: int, left_pool: asyncio.Future[None]) -> None:
        # Only the table's latest decision is waited on; drop it once it is done.
        if self._outstanding.get(table) is left_pool:
            del self._outstanding[table]

    def close(self) -> None:
        stats = self.stats
        # One line for the record (benchmarks/room_load.py reads it from the server's log).
        log.info("bot pool closing: %d decisions, %d fallbacks %s, %d estimated, %d searched "
                 "with %.1f worlds on average, latency p50 %s p99 %s ms, %d replacements "
                 "(%d hung), %d retried, %d inline (%d slow)", stats.decisions,
                 stats.fallback_total, {str(k): v for k, v in stats.fallbacks.items() if v},
                 stats.estimated, stats.searches, stats.mean_worlds, _ms(stats.p50),
                 _ms(stats.p99), stats.replacements, stats.hung, stats.retried, stats.inline,
                 stats.slow_inline)
        self._closed = True
        self._executor.shutdown(wait=False, cancel_futures=True)


def _reads_nothing(level: str) -> bool:
    return False


def _ms(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1000:.1f}"


class _Slot:
    """A decision's place in the pool: ``left_pool`` completes when it no longer occupies
    (or waits for) a worker; once ``submitted``, its job completes it, else decide() does."""

    __slots__ = ("left_pool", "submitted")

    def __init__(self, left_pool: asyncio.Future[None]) -> None:
        self.left_pool = left_pool
        self.submitted = False


def _checked(answer: object, observation: Observation
             ) -> tuple[Fallback | None, BaseException | None]:
    """Why a bot's answer cannot be played, if it cannot: not a Decision (a plug-in's
    ``decide`` of its own making), or not a legal action."""
    if not isinstance(answer, Decision):
        return Fallback.FAILED, TypeError(f"answered {answer!r}, not a Decision")
    if answer.action != DECLINE and answer.action not in observation.legal_actions:
        return Fallback.ILLEGAL, ValueError(f"illegal action {answer.action}")
    return None, None


def _resolve_after(previous: asyncio.Future[None] | None,
                   left_pool: asyncio.Future[None]) -> None:
    if previous is None or previous.done():
        left_pool.set_result(None)
    else:
        previous.add_done_callback(lambda _: _settle_slot(left_pool))


def _settle_slot(left_pool: asyncio.Future[None]) -> None:
    if not left_pool.done():
        left_pool.set_result(None)


def _settle(answer: asyncio.Future[Decision], left_pool: asyncio.Future[None]) -> None:
    if not answer.cancelled():
        answer.exception()  # retrieved: a late answer's error is no news to log
    _settle_slot(left_pool)


def _report_warm_up(job: Future[None]) -> None:
    if job.cancelled():
        return
    error = job.exception()
    if error is not None and not isinstance(error, BrokenExecutor):
        log.warning("bot worker warm-up failed (%r); its first decision pays for it", error)
