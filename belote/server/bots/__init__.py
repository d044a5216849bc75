"""The room's one bot path, :meth:`BotPool.decide`: every decision (a card, a bid, a
declaration, a belote window) goes through it and comes back as a
:class:`~belote.ai.decision.Decision`, from which the stats are counted.

- **Where.** A level that does not search (easy, normal: well under a millisecond) decides
  on the event loop, where a trip to a worker would cost more than the decision; a searching
  level (the expert) and any plug-in think outside it, in a pool of worker processes, under
  a time limit.  A belote window (announce or not, asked in the table's own task) decides
  on the loop for every built-in level, the expert's included: its answer is a rule, and in
  the pool it would queue behind card searches while its table waits; a plug-in's goes to
  the pool.  The levels' registry says which (:mod:`belote.server.levels`).  An inline
  decision still counts (latency, method), still falls back when it raises or answers an
  illegal action, and is late past the time limit; one that holds the loop over
  ``SLOW_INLINE`` is logged and counted.
- **Sizing.** One worker process per CPU (``os.cpu_count()``) unless ``--bot-workers N``
  says otherwise; 0 thinks in one thread of the server process (the tests).
- **Fairness.** No more decisions run than there are workers; the others wait in one FIFO
  queue, so they are served first come, first served, and each gets its thinking deadline
  when a worker takes it (a deadline that ran out in the queue would leave no time to
  think).  A table has at most one outstanding decision: a decision that a table asks for
  while its earlier (late) one still occupies the pool waits for it, inside its own time
  limit, so a table can never hold more than one worker.
- **Fallbacks.** A decision that is late, fails, answers an illegal action or is lost when
  a worker dies is replaced by the heuristic ("normal") bot's move, so a table never stalls;
  an expert that solved no world in time (hurried) played its heuristic's move itself.
  Each fallback is counted by reason (``BotPool.stats``), logged with the table and seat, and
  reported in the ``Decision`` so that the table can tell the players.
- **Replacement.** A worker that dies (killed by a signal, out of memory) breaks the whole
  executor; the pool then builds a new one, warms it up, logs and counts the replacement.
- **Watchdog.** A worker still on a decision ``hung_margin`` seconds (``HUNG_MARGIN``) after
  its time limit is hung (stopped by SIGSTOP, deadlocked, looping): its table had the
  heuristic's move at the limit (a ``late`` fallback, announced); the pool starts new
  workers, SIGKILLs the old ones (a stopped process heeds nothing else) and counts it
  (``BotStats.hung``).  The other decisions the old workers held are asked again of the new
  ones while they have the time (``BotStats.retried``), else they fall back as any decision
  lost with a worker.  A pool still warming up is not judged.  Threads (0 workers) cannot be
  killed and are not watched.
- **No orphans.** Workers die with the server, even a SIGKILLed one (``worker.init_worker``).
"""

from __future__ import annotations

from belote.ai.decision import Decision, DecisionMethod, Fallback
from belote.server.bots.pool import BotPool, resolve_workers
from belote.server.bots.stats import BotStats
from belote.server.bots.worker import decide, think, warm_up

__all__ = ["BotPool", "BotStats", "Decision", "DecisionMethod", "Fallback", "decide",
           "resolve_workers", "think", "warm_up"]
