"""The round clock: the time a round has left, started, paused, resumed and adjusted by an
organiser (the ``clock`` event), shown on the console and the projector.

The clock is data rebuilt from the events like the rest of the tournament: each ``clock``
event carries its action, and the time it happened is the event's own stamp (``at``), so a
replay gives the same clock and the core reads no clock of its own.  The time left at a
moment is :meth:`RoundClock.left` of that moment, which the pages pass in.

=============  ===================================================================
``action``     what it does (``minutes``: a whole number)
=============  ===================================================================
``start``      the round's clock set to ``minutes`` (1 to 600) and running; a
               clock already set starts again from ``minutes``
``pause``      stopped where it is (a running clock only)
``resume``     running again from where it stopped (a paused clock only)
``adjust``     ``minutes`` added (negative: taken away; at most 600 either way); the
               time left never goes below zero
=============  ===================================================================

A clock belongs to one round (``round``): a new round has none until it is started.  It
announces nothing and ends nothing by itself: "time" is a fact the pages show (and say,
politely, to screen-reader users); the organiser still closes the round.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from belote.tournament.model import TournamentError

MAX_MINUTES = 600
ACTIONS = ("start", "pause", "resume", "adjust")


@dataclass(frozen=True, slots=True)
class RoundClock:
    """A round's clock: ``seconds`` in all, ``spent`` before ``since``; running when
    ``since`` is set (the moment it last started or resumed)."""

    round: int
    seconds: float
    spent: float = 0.0
    since: datetime | None = None

    @property
    def running(self) -> bool:
        return self.since is not None

    def left(self, now: datetime) -> float:
        """Seconds left at ``now`` (never below zero)."""
        spent = self.spent + (max(0.0, (now - self.since).total_seconds())
                              if self.since is not None else 0.0)
        return max(0.0, self.seconds - spent)

    def paused_at(self, now: datetime) -> RoundClock:
        return replace(self, spent=self.seconds - self.left(now), since=None)


def stamp(at: str) -> datetime:
    """The moment of an event (its ``at``: ISO 8601 with its offset); refused otherwise."""
    try:
        moment = datetime.fromisoformat(at)
    except ValueError:
        raise TournamentError("bad_clock") from None
    if moment.tzinfo is None:
        raise TournamentError("bad_clock")
    return moment


def check_clock(clock: RoundClock | None, current: int | None, data: dict[str, Any],
                at: str) -> dict[str, Any]:
    """The ``clock`` event's data as stored, for the open round ``current`` (None: no round
    is open); raises :class:`TournamentError` and changes nothing if refused."""
    if current is None:
        raise TournamentError("no_open_round")
    stamp(at)
    action = data.get("action")
    if action not in ACTIONS:
        raise TournamentError("bad_clock")
    mine = clock if clock is not None and clock.round == current else None
    out: dict[str, Any] = {"round": current, "action": action}
    if action in ("start", "adjust"):
        minutes = data.get("minutes")
        low = 1 if action == "start" else -MAX_MINUTES
        if (not isinstance(minutes, int) or isinstance(minutes, bool)
                or not low <= minutes <= MAX_MINUTES or minutes == 0):
            raise TournamentError("bad_minutes", limit=MAX_MINUTES)
        out["minutes"] = minutes
    if action != "start" and mine is None:
        raise TournamentError("no_clock")
    if action == "pause" and mine is not None and not mine.running:
        raise TournamentError("clock_paused")
    if action == "resume" and mine is not None and mine.running:
        raise TournamentError("clock_running")
    return out


def clock_after(clock: RoundClock | None, data: dict[str, Any], at: str) -> RoundClock:
    """The clock after a checked ``clock`` event."""
    now = stamp(at)
    action = data["action"]
    if action == "start":
        return RoundClock(int(data["round"]), 60.0 * int(data["minutes"]), 0.0, now)
    assert clock is not None
    if action == "pause":
        return clock.paused_at(now)
    if action == "resume":
        return replace(clock, since=now)
    # adjust: the time left moves by the minutes, never below zero
    left = clock.left(now)
    added = max(-left, 60.0 * int(data["minutes"]))
    return replace(clock, seconds=clock.seconds + added)
