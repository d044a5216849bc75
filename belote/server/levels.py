"""The bot levels a table's host chooses per seat, and where the room decides for each.

* ``normal``: the heuristic bot, a decent club player with the seed's conventions (mossa
  Casaro, the 10 on partner's ace, no trumping of partner's winning trick).
* ``easy``: the same conventions, but it bids cautiously and, now and then, plays a random
  legal card instead of its best one, as a beginner would (:mod:`belote.ai.easy`).
* ``quick``: bids by a small network trained on simulated contract values where it reads the
  auction (take-or-pass without senza or tutte; the normal bot's bids elsewhere), and cards
  chosen by a small network distilled from the exact solver (:mod:`belote.ai.quick`):
  microseconds a decision, four-seat tables only.
* ``expert``: information-set search over the exact solver, bidding by simulation
  (:mod:`belote.ai.expert`).

After its own three the room offers the bots that other installed packages declare in the
``belote.bots`` entry-point group (this package's own entry points, colver's agents, need
the arena's side channel: never a level).

Each level says where the room's bot path (:meth:`belote.server.bots.BotPool.decide`) runs
it (:class:`RunsIn`): a bot that does not search decides in well under a millisecond, so
on the event loop (a trip to a worker process would cost more than the decision); a
searching bot, and any plug-in (whose cost nobody here knows), in the bot pool's worker
processes, under its time limit and watchdog.  A level also says where its belote windows
are decided (``windows_in``): the expert searches for its cards and bids, but announces a
belote by rule, with the card, so its windows decide on the loop too; a window asked in
the pool would queue behind card searches while the table's own task waits for it.  And
whether it is told what its table knows of the seats (``reads_table``: the expert, which
models them, belote.server.bots.context).

This module imports no bot, nor the bot layer: the wire codec validates levels with it
(the ``codec-imports-no-bot`` import contract); a level's bot is made by name, by the
worker that first decides for it (:func:`belote.ai.registry.make_decider`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

# (the plug-ins' group and which of them a room offers: one home, below the bot layer)
from belote.bot_group import room_plugin_names


class RunsIn(StrEnum):
    """Where the room's bot path decides for a level."""

    INLINE = "inline"  # on the event loop: no search, well under a millisecond
    POOL = "pool"  # in a worker process, under the pool's time limit and watchdog


@dataclass(frozen=True, slots=True)
class Level:
    name: str  # also the bot's name (belote.ai.registry.BOTS)
    runs_in: RunsIn  # its cards, bids and declarations
    # Its belote windows (announce or let the window close): INLINE only for a bot whose
    # answer there is a rule, no search (tests/server/test_bots_path.py checks each).
    windows_in: RunsIn
    # Whether its decisions are sent what the table knows of its seats (who sits where,
    # what the table learned of each: belote.ai.models.SeatContext): a bot that models
    # the other seats (the expert), and no other (a plug-in's decide takes no such thing).
    reads_table: bool = False
    # The fewest players at a table it can sit at (the quick bot's network knows two
    # partnerships of two: four seats).
    min_players: int = 2


# The room's own levels, in the order the pages offer them.  The expert's belote windows
# are the heuristic's rule (belote.ai.expert: "announcements follow the heuristic bot").
OWN = (Level("easy", RunsIn.INLINE, RunsIn.INLINE),
       Level("normal", RunsIn.INLINE, RunsIn.INLINE),
       Level("quick", RunsIn.INLINE, RunsIn.INLINE, min_players=4),
       Level("expert", RunsIn.POOL, RunsIn.INLINE, reads_table=True))
# Built-in bots that are no level of the room but decide as cheaply (tests, benchmarks).
UNOFFERED = (Level("random", RunsIn.INLINE, RunsIn.INLINE),
             Level("heuristic", RunsIn.INLINE, RunsIn.INLINE))
_BY_NAME = {level.name: level for level in (*OWN, *UNOFFERED)}


# The room's levels: its own, then the plug-ins of other installed packages.
OWN_LEVELS = tuple(level.name for level in OWN)
LEVELS = (*OWN_LEVELS, *room_plugin_names())


def runs_in(name: str) -> RunsIn:
    """Where the bot ``name`` decides: a plug-in or any name not listed, in the pool (its
    time limit and its process bound what it costs)."""
    level = _BY_NAME.get(name)
    return RunsIn.POOL if level is None else level.runs_in


def runs_inline(name: str) -> bool:
    return runs_in(name) is RunsIn.INLINE


def windows_in(name: str) -> RunsIn:
    """Where the bot ``name`` decides its belote windows: a plug-in or any name not listed,
    in the pool (nobody here knows whether it searches there)."""
    level = _BY_NAME.get(name)
    return RunsIn.POOL if level is None else level.windows_in


def windows_inline(name: str) -> bool:
    return windows_in(name) is RunsIn.INLINE


def reads_table(name: str) -> bool:
    """Whether the bot ``name`` is sent its table's seats with each decision (no plug-in
    or unlisted name is)."""
    level = _BY_NAME.get(name)
    return level is not None and level.reads_table


def fewest_players(name: str) -> int:
    """The fewest players at a table the bot ``name`` can sit at (a plug-in or unlisted
    name: any table, its own refusals are its own)."""
    level = _BY_NAME.get(name)
    return 2 if level is None else level.min_players


def seats_at(name: str, players: int) -> bool:
    """Whether the bot ``name`` can sit at a table of ``players``."""
    return players >= fewest_players(name)


def own_levels_for(players: int) -> tuple[str, ...]:
    """The room's own levels a table of ``players`` offers (the table page's buttons)."""
    return tuple(name for name in OWN_LEVELS if seats_at(name, players))
