"""Work too heavy for the event loop: the replays and card analyses of finished matches.

The room's standard: no request holds the event loop more than 50 ms.  Telling a match takes
milliseconds per deal (a long match, a second or more), a card's analysis up to
``DEADLINE_SECONDS`` of search whose kernels hold the interpreter: on the loop, or in a thread
of the server, either would stall every table.  So :class:`HeavyWork` runs them in a process
of its own (``Settings.heavy_workers``; 0: a thread of the server, for tests), niced below
the bots, and:

- **caches** each answer per match (a finished match never changes, so an answer never goes
  stale): the replay's page parts per language, the record file, each card's analysis; the
  cache is bounded in bytes (``heavy_cache_mib``), least recently used out;
- computes the same answer asked for twice at once only once (the second waits for it);
- **limits per client** (the address) what it computes: a burst, then so many an hour
  (``analyses_*``, ``replays_*``; a cached answer costs nothing), and **in all**: at most
  ``heavy_queue`` jobs in or waiting for the process; past either, the request is refused
  with 429, a translated message and ``Retry-After`` (:class:`belote.server.limits.Refusal`);
- counts (:attr:`HeavyWork.stats`) and logs every refusal, failure and replacement: nothing
  degrades silently.  A process that dies, or does not answer a job within
  ``heavy_timeout`` seconds of the job's start (hung: killed), is replaced; the job it held
  answers 503.  A process that is only starved (niced below the rest, on a busy machine: it
  got some CPU while it waited, less than a timeout's worth in all) is not hung: it is given
  more time, ``STARVED_WAITS`` timeouts at most, logged and counted.  A job is handed to
  the pool only when one of its processes is free (and a new pool's processes have started,
  within ``START_SECONDS`` at least), so its time is counted from when it starts running,
  never while it waits behind others or for a process to start on a loaded machine: a
  healthy process is never taken for a hung one;
- keeps "this step cannot be analysed" (not a card; too many unknown cards) like an answer:
  it never changes either, so asking again costs neither a job nor the client's token; and
  a request refused because all are busy costs its client nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import multiprocessing
import os
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import (
    BrokenExecutor,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
)
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from belote.ai.analysis import AnalysisUnavailable, PlayAnalysis
from belote.server.config import Settings
from belote.server.limits import KeyedLimiter, Refusal

if TYPE_CHECKING:  # not imported at run time: the heavy-work process starts light
    from belote.server.persistence.rate_limits import RateLimits
from belote.server.replay import ReplayPage, record_file, replay_page
from belote.server.replay_analysis import StepError, analyse_step

log = logging.getLogger(__name__)
T = TypeVar("T")

# How much lower than the bots' the heavy process's CPU priority is (on top of theirs): the
# tables' moves first, the bots' next, replays and analyses with what is left.
EXTRA_NICENESS = 5
ANALYSIS_BYTES = 1024  # what one cached analysis is counted as
ERROR_BYTES = 256  # what one kept "cannot be analysed" is counted as
START_SECONDS = 60.0  # a new pool's processes have this long to start (at least the timeout)
# A process that used less CPU than this share of a timeout while it waited is stopped (a
# signal, swapping, asleep for ever): hung.  One that used more but less than a whole
# timeout of CPU in all is starved: niced below the tables and the bots on a busy machine it
# may get a few percent of a core, and a job of a second takes a minute; it waits on, up to
# STARVED_WAITS timeouts in all.  (No job needs a timeout of CPU: one that used it is a loop.)
STOPPED_SHARE = 0.005
STARVED_WAITS = 10
# Errors that are the answer itself (the step is not a card; the position cannot be
# analysed): they never change, so they are kept like answers.
FINAL_ERRORS = (AnalysisUnavailable, StepError)


class HeavyFailed(RuntimeError):
    """The job was lost (its process died); asking again computes it anew."""


@dataclass
class HeavyStats:
    computed: int = 0
    cached: int = 0
    shared: int = 0  # asked while the same answer was being computed
    failed: int = 0
    replacements: int = 0
    starved: int = 0  # jobs given more time: their process got little CPU, but some
    refused: dict[str, int] = field(default_factory=dict)  # "analysis/client", "busy"...


def _cpu_seconds(executor: Executor) -> float | None:
    """The CPU time the pool's processes have used so far (Linux's /proc); None where it
    cannot be known (a thread pool, another system): then a late job is hung, as before."""
    if not isinstance(executor, ProcessPoolExecutor):
        return None
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in list(getattr(executor, "_processes", None) or {}):
        try:  # the fields after the name: utime and stime are the 12th and 13th
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / ticks
        except (OSError, IndexError, ValueError):
            return None
    return total


def _retrieved(answer: asyncio.Future[Any]) -> None:
    if not answer.cancelled():
        answer.exception()


def _init_process(parent: int) -> None:
    from belote.server.bots.worker import init_worker

    init_worker(parent)  # dies with the server, niced like a bot worker
    with contextlib.suppress(OSError):
        os.nice(EXTRA_NICENESS)


def _warm(modules: tuple[str, ...] = ()) -> None:
    """Sent at start, so that the process starts and imports this module and the modules of
    the jobs the room has sent so far then (and before the first job of a module new to the
    pool): a job's time is its work, never an import (seconds, on a loaded machine)."""
    for name in modules:
        importlib.import_module(name)


def _all_done(jobs: list[Future[None]]) -> Future[None]:
    """One future for several: done when all are, with the first error among them."""
    done: Future[None] = Future()
    left = [len(jobs)]

    def one_done(job: Future[None]) -> None:
        left[0] -= 1
        error = None if job.cancelled() else job.exception()
        if job.cancelled() and not done.done():
            done.cancel()
        elif error is not None and not done.done():
            done.set_exception(error)
        elif left[0] == 0 and not done.done():
            done.set_result(None)

    for job in jobs:
        job.add_done_callback(one_done)
    return done


@dataclass(frozen=True)
class _Raised:
    """A kept answer that is an error (see ``FINAL_ERRORS``)."""

    error: Exception


class _Bucket(Protocol):
    """A limit per address: the room's shared one (in the database), or this process's."""

    async def take(self, key: str) -> bool: ...

    async def retry_after(self, key: str) -> float: ...


class _Local:
    """This process's own limit, as a :class:`_Bucket` (a HeavyWork built alone: tests)."""

    def __init__(self, limiter: KeyedLimiter) -> None:
        self.limiter = limiter

    async def take(self, key: str) -> bool:
        return self.limiter.take(key)

    async def retry_after(self, key: str) -> float:
        return self.limiter.retry_after(key)


class HeavyWork:
    """Replays and analyses of finished matches, off the event loop (see the module)."""

    def __init__(self, settings: Settings) -> None:
        if settings.heavy_workers < 0 or settings.heavy_queue < 1:
            raise ValueError("heavy work needs heavy_workers >= 0 and heavy_queue >= 1")
        self.workers = settings.heavy_workers
        self.queue = settings.heavy_queue
        self.cache_bytes = settings.heavy_cache_mib * 1024 * 1024
        self.timeout = settings.heavy_timeout
        self.start_timeout = max(self.timeout, START_SECONDS)  # a process starting, importing
        self.stats = HeavyStats()
        self._settings = settings
        analyses = _Local(KeyedLimiter(settings.analyses_burst, settings.analyses_per_hour))
        replays = _Local(KeyedLimiter(settings.replays_burst, settings.replays_per_hour))
        self._limits: dict[str, _Bucket] = {"analysis": analyses, "replay": replays,
                                            "record": replays}
        self._cache: OrderedDict[tuple[Any, ...], tuple[Any, int]] = OrderedDict()
        self._cached_bytes = 0
        self._running: dict[tuple[Any, ...], asyncio.Future[Any]] = {}
        self._jobs = 0  # in or waiting for the workers
        self._mean_seconds = 1.0  # of a job, for Retry-After when busy
        self._executor: Executor | None = None
        self._warming: Future[None] | None = None  # the new pool's processes starting
        self._modules: set[str] = set()  # of the jobs sent: a new pool imports them at start
        self._slots: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None
        self._watches: set[asyncio.Future[Any]] = set()  # each job's, until it ends

    def share_limits(self, limits: RateLimits) -> None:
        """Count what each address had computed in the database (``limits``), the same
        whichever of the room's processes it asks (the app does, once the store is built)."""
        settings = self._settings
        analyses = limits.bucket("analyses", settings.analyses_burst, settings.analyses_per_hour)
        replays = limits.bucket("replays", settings.replays_burst, settings.replays_per_hour)
        self._limits = {"analysis": analyses, "replay": replays, "record": replays}

    # ------------------------------------------------------------------ the three answers
    async def replay(self, table_id: int, record: dict[str, Any], lang: str,
                     client: str) -> ReplayPage:
        page: ReplayPage = await self._get(("replay", table_id, lang), client,
                                           lambda p: p.size, replay_page, record, lang)
        return page

    async def record(self, table_id: int, record: dict[str, Any], client: str) -> str:
        text: str = await self._get(("record", table_id), client, len, record_file, record)
        return text

    async def analysis(self, table_id: int, record: dict[str, Any], step: int,
                       client: str) -> PlayAnalysis:
        found: PlayAnalysis = await self._get(("analysis", table_id, step), client,
                                              lambda _: ANALYSIS_BYTES, analyse_step,
                                              record, step)
        return found

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in the heavy-work process, uncached and limited by its caller
        (a tournament's draw, one at a time per tournament): the same process, niceness,
        timeout (hung: killed, replaced, :class:`HeavyFailed`), logging and counting as the
        answers above.  ``function`` and its arguments must pickle (the process is spawned)."""
        self._jobs += 1
        started = time.monotonic()
        try:
            result = await self._submit(function, *args)
        finally:
            self._jobs -= 1
            self._mean_seconds = 0.8 * self._mean_seconds + 0.2 * (time.monotonic() - started)
        self.stats.computed += 1
        return result

    # ------------------------------------------------------------------ the machinery
    async def _get(self, key: tuple[Any, ...], client: str, size: Callable[[Any], int],
                   function: Callable[..., Any], *args: Any) -> Any:
        hit = self._cache.get(key)
        if hit is not None:
            self._cache.move_to_end(key)
            self.stats.cached += 1
            if isinstance(hit[0], _Raised):  # "cannot be analysed" is an answer too
                raise hit[0].error.with_traceback(None)
            return hit[0]
        running = self._running.get(key)
        if running is not None:
            self.stats.shared += 1
            return await asyncio.shield(running)
        kind = str(key[0])
        limiter = self._limits[kind]
        # "Busy" first: a request refused for everyone's load costs its client nothing.
        if self._jobs >= self.queue:
            self._refuse("busy", key, client)
            raise Refusal(429, "limits.busy", self._mean_seconds * self._jobs
                          / max(1, self.workers))
        if not await limiter.take(client):
            self._refuse(f"{kind}/client", key, client)
            raise Refusal(429, f"limits.{kind}_limited", await limiter.retry_after(client))
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._running[key] = future
        self._jobs += 1
        started = time.monotonic()
        try:
            result = await self._submit(function, *args)
        except BaseException as error:
            if not future.done():
                # Those waiting for the same answer get the error; a cancelled request
                # (its client gone) leaves them a failure, not its own cancellation.
                future.set_exception(HeavyFailed("the request computing it was cancelled")
                                     if isinstance(error, asyncio.CancelledError) else error)
                future.exception()  # retrieved: nobody else need hear of it
            if isinstance(error, FINAL_ERRORS):
                # The step is not a card, or the position cannot be analysed: that never
                # changes either, so asking again costs neither a job nor a token.
                self._keep(key, _Raised(error), ERROR_BYTES)
                self.stats.computed += 1
            raise
        else:
            future.set_result(result)
            self._keep(key, result, size(result))
            self.stats.computed += 1
            return result
        finally:
            self._jobs -= 1
            del self._running[key]
            self._mean_seconds = 0.8 * self._mean_seconds + 0.2 * (time.monotonic() - started)

    async def _submit(self, function: Callable[..., T], *args: Any) -> T:
        # A job is handed to the pool only when a process is free for it (one per process),
        # so that its time is counted from when it starts running: a job waiting behind
        # others waits here, untimed, and a healthy process is never taken for a hung one.
        # The process is free again when its job ends (a request cancelled meanwhile does
        # not end it), or when it is replaced.
        slots = self._free_process()
        await slots.acquire()
        held = [True]

        def release(*_: object) -> None:
            if held[0]:
                held[0] = False
                slots.release()

        try:
            executor = await self._ready()
            module = getattr(function, "__module__", None)
            if self.workers and module is not None and module not in self._modules:
                self._modules.add(module)
                await self._answer(executor, executor.submit(_warm, (module,)), "its start",
                                   self.start_timeout)
            try:
                job = executor.submit(function, *args)
            except BrokenExecutor as error:  # broke while idle: nothing was lost, start anew
                self._replace(executor, error)
                executor = await self._ready()
                job = executor.submit(function, *args)
        except BaseException:
            release()
            raise
        # No job takes this long (an analysis stops starting worlds after 4 s): a process
        # that has not answered is hung (stopped, swapping) and is replaced.  The watch is
        # a task of its own: it goes on if the request is cancelled (its client gone), so a
        # process that hangs then is still found, and its place freed.
        watch = asyncio.ensure_future(self._answer(executor, job, "the job"))
        self._watches.add(watch)
        watch.add_done_callback(self._watches.discard)
        watch.add_done_callback(_retrieved)
        watch.add_done_callback(release)  # the job ended, or its process was replaced
        return await asyncio.shield(watch)

    async def _answer(self, executor: Executor, job: Future[T], what: str,
                      timeout: float | None = None) -> T:
        timeout = self.timeout if timeout is None else timeout
        try:
            answer = asyncio.wrap_future(job)
            answer.add_done_callback(_retrieved)  # a hung job's end is no news to log
            started = last = _cpu_seconds(executor)
            for waits in range(1, STARVED_WAITS + 1):
                try:
                    return await asyncio.wait_for(asyncio.shield(answer), timeout)
                except TimeoutError:
                    now = _cpu_seconds(executor)
                    if (waits == STARVED_WAITS or now is None or last is None
                            or started is None or now - last < STOPPED_SHARE * timeout
                            or now - started >= timeout):
                        raise
                    if waits == 1:
                        self.stats.starved += 1
                    log.warning("heavy-work process starved: %.2f s of CPU in %.0f s for %s "
                                "(niced below the tables and the bots on a busy machine); "
                                "it is given %.0f s more (%d starved so far)", now - started,
                                waits * timeout, what, timeout, self.stats.starved)
                    last = now
            raise AssertionError("unreachable: the last wait raises")  # pragma: no cover
        except BrokenExecutor as error:
            self.stats.failed += 1
            self._replace(executor, error)
            raise HeavyFailed(f"the heavy-work process died with {what}") from error
        except TimeoutError as error:
            self.stats.failed += 1
            self._replace(executor, error, kill=True)
            raise HeavyFailed(f"no answer from the heavy-work process in time to {what} "
                              f"(hung)") from error

    def _free_process(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if self._slots is None or self._slots[0] is not loop:
            self._slots = (loop, asyncio.Semaphore(max(1, self.workers)))
        return self._slots[1]

    async def _ready(self) -> Executor:
        """The pool, its processes started (spawned, imports done): that time is no job's."""
        executor = self._executor or self._start()
        warming = self._warming
        if warming is not None:
            # A process starting (an interpreter, the imports) on a loaded machine may take
            # longer than any job: it is not hung for that.
            await self._answer(executor, warming, "its start", self.start_timeout)
            if self._warming is warming:
                self._warming = None
        return executor

    def _start(self) -> Executor:
        if self.workers == 0:
            self._executor = ThreadPoolExecutor(1, thread_name_prefix="heavy")
        else:
            # Started from the event loop's thread, which lives as long as the server: the
            # processes' parent-death signal follows it (see bots/worker.py).
            spawn = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(self.workers, mp_context=spawn,
                                                 initializer=_init_process,
                                                 initargs=(os.getpid(),))
            # One warm-up per process: each submit with no idle process spawns one.
            modules = tuple(sorted(self._modules))
            warmups = [self._executor.submit(_warm, modules) for _ in range(self.workers)]
            self._warming = _all_done(warmups)
        return self._executor

    def _replace(self, broken: Executor, error: BaseException, kill: bool = False) -> None:
        if broken is not self._executor:
            return  # replaced already
        self.stats.replacements += 1
        log.error("heavy-work process lost (%r): a new one is started at the next job "
                  "(replacement %d)", error, self.stats.replacements)
        if kill and isinstance(broken, ProcessPoolExecutor):
            # A hung process never finishes its job: end it (SIGKILL also ends a stopped one).
            for process in list(getattr(broken, "_processes", {}).values()):
                with contextlib.suppress(OSError):
                    process.kill()
        broken.shutdown(wait=False, cancel_futures=True)
        self._executor = None
        self._warming = None

    def _keep(self, key: tuple[Any, ...], value: Any, size: int) -> None:
        if size > self.cache_bytes:
            return
        self._cache[key] = (value, size)
        self._cached_bytes += size
        while self._cached_bytes > self.cache_bytes:
            _, (_, dropped) = self._cache.popitem(last=False)
            self._cached_bytes -= dropped

    def _refuse(self, reason: str, key: tuple[Any, ...], client: str) -> None:
        self.stats.refused[reason] = self.stats.refused.get(reason, 0) + 1
        log.warning("%s refused for %s (%s): %d jobs in or waiting for the heavy-work "
                    "process; refusals so far %s", key[0], client, reason, self._jobs,
                    self.stats.refused)

    def close(self) -> None:
        log.info("heavy work closing: %s", self.stats)
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
