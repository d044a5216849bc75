"""The organisers' entrants and undo forms (``POST /tournaments/{tid}/manage/{action}``):
withdraw, reinstate, remove before the first draw, the reserve pool, late entries, the
settings an organiser changes on the day (check-in, the late entries' rule, best-of-3,
tie-breaks), and undoing the last draw or round close, with a reason.

Each action reads its form and asks the service: every change is one event of the
tournament's log (its audit log), checked by the core, refused with the reason and nothing
changed.  The console shows these forms from ``tournament_entrants.html``.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from belote.i18n import translate
from belote.server.routes.common import language, read_form
from belote.server.routes.tournaments.common import (
    CHOICE,
    REASON,
    back_to,
    form_int,
    form_text,
    form_value,
    is_organiser,
    not_organiser,
    say,
    service,
    tournament,
    who,
)
from belote.tournament.events import MAX_SEED, Tournament
from belote.tournament.model import TournamentError
from belote.tournament.text import error_text
from belote.tournament.tiebreaks import TIEBREAKS

Action = Callable[[Request, int, Tournament, FormData], Awaitable[None]]
DONE = "tournament.web.changed"
ANCHOR = "?at=manage#manage-heading"  # the forms' section of the console, its notice there


def _entrant(kind: str) -> Action:
    """An action that names one entrant (its id in the form), with an optional reason."""
    async def act(request: Request, tid: int, t: Tournament, data: FormData) -> None:
        change: dict[str, Any] = {"entrant": form_int(data, "entrant")}
        if "reason" in data:
            change["reason"] = form_text(data, "reason", REASON)
        await service(request).change(tid, kind, change, who(request))
    return act


async def do_late(request: Request, tid: int, t: Tournament, data: FormData) -> None:
    players = [form_text(data, f"player{n}") for n in t.fmt.player_numbers]
    await service(request).change(tid, "late_entry", {"entrants": [
        {"name": form_text(data, "name"), "players": players}]}, who(request))


def lot_seed(t: Tournament, chosen: list[str]) -> int | None:
    """The drawing of lots' seed: the one recorded, else a fresh one when lots are chosen
    (drawn here, since the core draws nothing at random; stored with the choice)."""
    if t.s.lot_seed is not None or "lot" not in chosen:
        return t.s.lot_seed
    return secrets.randbelow(MAX_SEED + 1)


async def do_settings(request: Request, tid: int, t: Tournament, data: FormData) -> None:
    """The day's settings: check-in ("format": the format's own way), the late entries'
    rule, best-of (before the first draw) and the tie-breaks, in order (empty: none)."""
    chosen = [form_text(data, f"tiebreak{n}", CHOICE) for n in range(1, len(TIEBREAKS) + 1)]
    chosen = [name for name in chosen if name]
    check_in = {"on": True, "off": False, "format": None}.get(form_value(data, "check_in"),
                                                               "?")
    change: dict[str, Any] = {"check_in": check_in,
                              "late_rule": form_text(data, "late_rule", CHOICE),
                              "tiebreaks": chosen, "lot_seed": lot_seed(t, chosen)}
    if "best_of" in data:
        change["best_of"] = form_int(data, "best_of")
    reason = form_text(data, "reason", REASON)
    if reason:  # needed to change them once results are in
        change["reason"] = reason
    await service(request).change(tid, "configured", change, who(request))


async def do_undraw(request: Request, tid: int, t: Tournament, data: FormData) -> None:
    await service(request).change(tid, "undrawn", {
        "round": t.current.number if t.current else 0,
        "reason": form_text(data, "reason", REASON)}, who(request))


async def do_reopen(request: Request, tid: int, t: Tournament, data: FormData) -> None:
    await service(request).change(tid, "reopened", {
        "round": t.current.number if t.current else 0,
        "reason": form_text(data, "reason", REASON)}, who(request))


ACTIONS: dict[str, Action] = {
    "withdraw": _entrant("withdrawn"), "reinstate": _entrant("reinstated"),
    "remove": _entrant("removed"), "reserve": _entrant("reserve"),
    "promote": _entrant("promoted"), "late": do_late, "settings": do_settings,
    "undraw": do_undraw, "reopen": do_reopen,
}


async def change(request: Request) -> Response:
    """One of the entrants' or undo forms, said done or refused on the console."""
    tid, t = await tournament(request)
    fn = ACTIONS.get(request.path_params["action"])
    if fn is None:
        raise HTTPException(404)
    data = await read_form(request)
    if not await is_organiser(request, tid):
        return not_organiser(request, tid)
    lang = language(request)
    try:
        await fn(request, tid, t, data)
    except TournamentError as error:
        say(request, error_text(lang, error), True)
    else:
        say(request, translate(lang, DONE))
    return back_to(f"/tournaments/{tid}{ANCHOR}")
