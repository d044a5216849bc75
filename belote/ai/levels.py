"""Bot levels a table host chooses per seat, and where each one decides: a light registry.

* ``normal``: the heuristic bot, a decent club player with the seed's conventions (mossa
  Casaro, the 10 on partner's ace, no trumping of partner's winning trick).
* ``easy``: the same conventions, but it bids cautiously and, now and then, plays a random
  legal card instead of its best one, as a beginner would (:mod:`belote.ai.easy`).
* ``expert``: information-set search over the exact solver, bidding by simulation
  (:mod:`belote.ai.expert`).

Beside its own three, the room offers the bots that installed packages declare in the
``belote.bots`` entry-point group (:mod:`belote.ai.plugins`).

Each level says where the room runs it (:class:`RunsIn`): a bot that does not search
decides in well under a millisecond, so it decides on the event loop (a trip to a worker
process would cost more than the decision); a searching bot, and any plug-in (whose cost
nobody here knows), decides in the bot pool's worker processes, under its time limit.

This module imports no bot (the wire codec reads the level names from it): the bots are
made by name, when first asked for, by :func:`belote.ai.registry.make_bot`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from belote.ai import plugins


class RunsIn(StrEnum):
    """Where the room's bot path decides for a level."""

    INLINE = "inline"  # on the event loop: no search, well under a millisecond
    POOL = "pool"  # in a worker process, under the pool's time limit and watchdog


@dataclass(frozen=True, slots=True)
class Level:
    name: str  # also the bot's name (belote.ai.registry.BOTS)
    runs_in: RunsIn


# The room's own levels, in the order the pages offer them.
OWN = (Level("easy", RunsIn.INLINE), Level("normal", RunsIn.INLINE),
       Level("expert", RunsIn.POOL))
# Built-in bots that are no level of the room but run as cheaply (tests, benchmarks).
UNOFFERED = (Level("random", RunsIn.INLINE), Level("heuristic", RunsIn.INLINE))
_BY_NAME = {level.name: level for level in (*OWN, *UNOFFERED)}

# The room's levels: its own three, then the bots installed packages declare as plug-ins.
OWN_LEVELS = tuple(level.name for level in OWN)
LEVELS = (*OWN_LEVELS, *plugins.entry_point_names())


def runs_in(name: str) -> RunsIn:
    """Where the bot ``name`` decides: a plug-in or any name not listed, in the pool (its
    time limit and its process bound what it costs)."""
    level = _BY_NAME.get(name)
    return RunsIn.POOL if level is None else level.runs_in


def runs_inline(name: str) -> bool:
    return runs_in(name) is RunsIn.INLINE
