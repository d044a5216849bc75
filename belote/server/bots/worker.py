"""What runs inside a bot worker process: the decision itself, the warm-up, and the
guards that make a worker die with the server that started it.

A worker keeps one bot per level (bots are stateless between decisions: everything they use
is in the observation and, for a level that reads its table, the table's
:class:`~belote.ai.models.SeatContext` sent with the decision, from which the expert builds
its seat models for that decision alone; an expert with a bid model keeps worlds for speed
only, and the room's levels have none), so an expert's solver tables are built once per
process.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable

from belote.ai import Bot, Decision, make_decider
from belote.ai.models import SeatContext
from belote.engine.observation import Observation

log = logging.getLogger(__name__)

# One bot per level per thread: a bot keeps state within a decision (the expert its
# deadline and method), and with 0 workers the server's event loop (the inline levels, every
# built-in level's belote windows) and the pool's thread decide at the same time.  The main
# thread's (a worker process's, the event loop's) are these; other threads have their own.
_BOTS: dict[str, Bot] = {}
_LOCAL = threading.local()

# linux/prctl.h
PR_SET_PDEATHSIG = 1
PR_SET_NAME = 15
# The watchdog thread's name, also given to the OS thread (``ps -L``, /proc/PID/task/*/comm).
WATCHDOG = "bot-watchdog"
# How much lower than the server's a worker's CPU priority is (os.nice).
WORKER_NICENESS = 5
# How often the portable watchdog looks at its parent: an orphan lingers at most this long.
WATCH_INTERVAL = 0.5


def decide(level: str, observation: Observation, deadline: float | None = None, *,
           seats: SeatContext | None = None) -> Decision:
    """The decision of a ``level`` bot (its action is ``DECLINE`` for an optional
    announcement it skips): what a worker runs, and what the room runs on its event loop for
    the levels that decide there (:mod:`belote.server.levels`).

    ``deadline`` (``time.monotonic()`` seconds, one clock for every process of the machine):
    when the answer is wanted; a bot that searches (the expert) starts no second world after
    it, its own hard limit bounding the first (:func:`belote.ai.expert.make_clock`).
    ``seats``: what the table knows of its seats, for a bot that takes it per decision
    (``decide_at``: the expert), which keeps nothing of it afterwards."""
    bots = _bots()
    bot = bots.get(level)
    if bot is None:
        bot = bots[level] = make_decider(level)
    decide_at = getattr(bot, "decide_at", None)
    if seats is not None and callable(decide_at):
        decision: Decision = decide_at(observation, deadline, seats)
        return decision
    return bot.decide(observation, deadline)


def _bots() -> dict[str, Bot]:
    if threading.current_thread() is threading.main_thread():
        return _BOTS
    bots: dict[str, Bot] | None = getattr(_LOCAL, "bots", None)
    if bots is None:
        bots = _LOCAL.bots = {}
    return bots


def think(level: str, observation: Observation, deadline: float | None = None) -> int:
    """The action alone of :func:`decide` (the stand-in's move, tests)."""
    return decide(level, observation, deadline).action


def warm_up() -> None:
    """Load (or, on a fresh install, compile) the expert's kernels with its first decisions
    of a deal (bids and a card, four seats and three), so that the first real decision of
    the room is not the one that pays for it."""
    from belote.engine import actions as A
    from belote.engine.state import Game, Phase
    from belote.rules import find_preset

    for preset in ("classic", "valdostana3"):
        game = Game(find_preset(preset))
        game.deal(list(range(32)))
        if game.phase == Phase.CUT:
            game.apply(A.KNOCK)
        # a deadline already past: one world each, the kernels loaded all the same
        while game.phase == Phase.BIDDING:
            seat = game.current_player()
            game.apply(think("expert", game.observation(seat), time.monotonic()), seat)
        if game.phase == Phase.PLAYING:
            seat = game.current_player()
            think("expert", game.observation(seat), time.monotonic())


def warm_inline(level_names: Iterable[str]) -> None:
    """Build once, in the thread that calls this (not the event loop), the bots of the
    levels that decide on the loop: what such a bot reads once per process (the quick bot's
    network, 800 KB of weights) is then not read by the loop at the room's first decision.
    A failure is logged; that bot is then built by its first decision, as without this."""
    for level in level_names:
        try:
            make_decider(level)
        except Exception:
            log.exception("warming up the %s bot failed: its first decision builds it", level)


def init_worker(parent: int) -> None:
    """Initializer of every worker process: die when ``parent`` (the server) dies.

    A SIGKILLed server runs no shutdown code, so its workers must notice by themselves, or
    they would live on as orphans holding memory and CPU.  On Linux the kernel does it
    (PR_SET_PDEATHSIG); everywhere a daemon thread also watches the parent pid, which also
    catches a server that died before the prctl call took effect.
    """
    # Bot work yields the CPU to the server's event loop: under load a human's move is
    # broadcast first, and the bots (whose answers have deadlines and a bot delay to hide
    # in) take what is left.  Not fatal where refused.
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)
    if not set_parent_death_signal():
        log.debug("no parent-death signal on %s; the watchdog thread alone guards", sys.platform)
    threading.Thread(target=_watchdog, args=(parent,), name=WATCHDOG, daemon=True).start()


def set_parent_death_signal() -> bool:
    """Ask Linux to SIGKILL this process when its parent dies; False where unavailable.

    The kernel ties the signal to the parent *thread* that created this process: the pool
    starts its workers from the thread running the server's event loop, which lives as long
    as the server does.
    """
    return _prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL))


def _prctl(option: int, argument: int | bytes) -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(option, argument, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _watchdog(parent: int) -> None:
    _prctl(PR_SET_NAME, WATCHDOG.encode())  # so that one can see it from outside
    watch_parent(parent, WATCH_INTERVAL, _exit_orphan)


def watch_parent(parent: int, interval: float, on_orphan: Callable[[], None]) -> None:
    """Call ``on_orphan`` as soon as this process's parent is no longer ``parent``
    (an orphan is adopted by init or a subreaper, so its parent pid changes)."""
    while os.getppid() == parent:
        time.sleep(interval)
    on_orphan()


def _exit_orphan() -> None:
    # os._exit: the server is gone, nobody waits for a clean shutdown of this worker.
    os._exit(1)
