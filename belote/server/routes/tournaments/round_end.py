"""The end of a round, from the console: the tables still to report (a fragment the console
refreshes by itself), the close and the next draw (refused while a result is missing, the
tables listed), the forced close with a reason, and the round clock.

The actions here are the console's like those of :mod:`.actions` (``POST
/tournaments/{tid}/do/{action}``, organisers only): :data:`ROUND_ACTIONS`.

A forced close leaves the missing games unplayed: no result, counted for nobody, and no
later result (their round is closed).  An organiser who knows a missing table's score types
it in the game's line before forcing (docs/tournaments.md, "The console").
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response

from belote.server.routes.tournaments.actions import CHANGED, Action
from belote.server.routes.tournaments.common import (
    REASON,
    form_choice,
    form_int,
    form_text,
    form_value,
    is_organiser,
    render,
    service,
    tournament,
    who,
)
from belote.tournament.clock import ACTIONS as CLOCK_ACTIONS
from belote.tournament.events import Tournament
from belote.tournament.model import TournamentError

FINISHED = "tournament.web.finished_now"
SAY_AT = (10, 5, 1)  # minutes left at which the console says so (then at time)


@dataclass(frozen=True, slots=True)
class ClockView:
    """The open round's clock as a page shows it: whole seconds left at the page's moment
    (the page's script counts down from there), running or paused."""

    round: int
    left: int
    running: bool

    @property
    def text(self) -> str:
        return clock_text(self.left)


def clock_text(seconds: int) -> str:
    """``mm:ss`` (``h:mm:ss`` from an hour)."""
    hours, rest = divmod(max(0, seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes:02}:{secs:02}"


def clock_view(t: Tournament, now: datetime | None = None) -> ClockView | None:
    """The clock of the open round (None: no round open, or its clock not started)."""
    rnd, clock = t.current, t.clock
    if rnd is None or rnd.closed or clock is None or clock.round != rnd.number:
        return None
    left = clock.left(now or datetime.now(UTC))
    return ClockView(rnd.number, math.ceil(left), clock.running)


async def live(request: Request) -> Response:
    """The console's live part: the clock and the tables still to report (organisers)."""
    tid, t = await tournament(request)
    if not await is_organiser(request, tid):
        return Response(status_code=403)
    return await render(request, "_tournament_round_live.html", tid=tid, tour=t,
                        missing=t.missing_games(), clock=clock_view(t))


async def _draw_unless_over(request: Request, tid: int) -> str:
    """The next round drawn after a close, or the tournament said finished."""
    if (await service(request).get(tid)).complete:
        return FINISHED
    await service(request).draw(tid, who(request))
    return CHANGED


async def do_next(request: Request, tid: int, t: Tournament, data: FormData) -> str:
    """Close the round and draw the next: refused while a result is missing (the refusal
    lists the tables; the organiser may force it)."""
    rnd = t.current
    if rnd is not None and not rnd.closed:
        await service(request).change(tid, "closed", {"round": rnd.number}, who(request))
    return await _draw_unless_over(request, tid)


async def do_force(request: Request, tid: int, t: Tournament, data: FormData) -> str:
    """Close the round although results are missing, with a reason (the ``forced`` event);
    ``then=draw``: and draw the next round."""
    rnd = t.current
    number = rnd.number if rnd is not None else 0
    reason = form_text(data, "reason", REASON)
    then = form_choice(data, "then", ("close", "draw"), default="close")
    latest = await service(request).get(tid)
    if latest.missing_games() or not reason.strip():
        await service(request).change(tid, "forced", {"round": number, "reason": reason},
                                      who(request))
    else:  # every result came in meanwhile: an ordinary close
        await service(request).change(tid, "closed", {"round": number}, who(request))
    if then == "draw":
        return await _draw_unless_over(request, tid)
    return CHANGED


async def do_clock(request: Request, tid: int, t: Tournament, data: FormData) -> str:
    """The round clock: start (minutes), pause, resume, adjust (minutes, ``sign`` ``-`` to
    take them away)."""
    action = form_value(data, "clock")
    if action not in CLOCK_ACTIONS:
        raise TournamentError("bad_clock")
    change: dict[str, object] = {"action": action}
    if action in ("start", "adjust"):
        minutes = form_int(data, "minutes")
        sign = form_choice(data, "sign", ("+", "-"), default="+")
        change["minutes"] = -minutes if sign == "-" else minutes
    await service(request).change(tid, "clock", change, who(request))
    return CHANGED


ROUND_ACTIONS: dict[str, Action] = {"next": do_next, "force": do_force, "clock": do_clock}
