"""The organisers' changes from the console (``POST /tournaments/{tid}/do/{action}``): each
action reads its form and asks the service; every change goes through the tournament's
event log, which is its audit log.  An action returns the message that says it is done, or
raises ``TournamentError`` saying why not."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.datastructures import FormData
from starlette.requests import Request

from belote.server.auth.names import name_key
from belote.server.routes.tournaments.common import (
    REASON,
    account_name,
    form_int,
    form_text,
    service,
    who,
)
from belote.server.shared import shared
from belote.tournament.events import Tournament
from belote.tournament.model import TournamentError

Action = Callable[[Request, int, Tournament, FormData], Awaitable[str]]
CHANGED = "tournament.web.changed"


async def do_register(request: Request, tid: int, t: Tournament, data: FormData) -> str:
    def entrant(prefix: str) -> dict[str, Any]:
        players = [form_text(data, f"{prefix}player{n}") for n in t.fmt.player_numbers]
        return {"name": form_text(data, f"{prefix}name"), "players": players,
                "club": form_text(data, "club") or None, "checked_in": False}
    group = [entrant(prefix) for prefix in t.fmt.entry_prefixes]
    await service(request).change(tid, "registered", {"entrants": group}, who(request))
    return CHANGED


async def do_checkin(request: Request, tid: int, t: Tournament, data: FormData) -> str:
    await service(request).change(tid, "checked_in", {"entrant": form_int(data, "entrant")},
                                  who(request))
    return CHANGED


async def do_bind(request: Request, tid: int, t: Tournament, data: FormData) -> str:
    """Bind a registered player to an account (its name; empty: unbind): signed in with
    it, the player scores and takes their seats with no code."""
    name = account_name(data, "account")
    key = name_key(name) if name else ""
    if key and await shared(request).store.account_by_key(key) is None:
        raise TournamentError("no_account", name=name)
    await service(request).change(tid, "bound", {"entrant": form_int(data, "entrant"),
                                                 "player": form_int(data, "player"),
                                                 "account": key}, who(request))
    return CHANGED


async def do_draw(request: Request, tid: int, t: Tournament, data: FormData) -> str:
    await service(request).draw(tid, who(request))
    return CHANGED


async def do_tables(request: Request, tid: int, t: Tournament, data: FormData) -> str:
    await shared(request).tournaments.open_tables(tid, who(request))
    return CHANGED


async def do_result(request: Request, tid: int, t: Tournament, data: FormData) -> str:
    totals = [form_int(data, "total_a"), form_int(data, "total_b")]
    # Typed at the console: its own origin, never called a correction (issue 24).
    await service(request).record(tid, form_int(data, "game"), totals, "console",
                                  who(request))
    return CHANGED


async def do_correct(request: Request, tid: int, t: Tournament, data: FormData) -> str:
    await service(request).change(tid, "corrected", {
        "game": form_int(data, "game"),
        "totals": [form_int(data, "total_a"), form_int(data, "total_b")],
        "reason": form_text(data, "reason", REASON)}, who(request))
    return CHANGED


async def do_adjust(request: Request, tid: int, t: Tournament, data: FormData) -> str:
    await service(request).change(tid, "adjusted", {
        "subject": form_text(data, "subject"), "points": form_int(data, "points"),
        "reason": form_text(data, "reason", REASON)}, who(request))
    return CHANGED


async def do_lineup(request: Request, tid: int, t: Tournament, data: FormData) -> str:
    """Seed 001: "Dopo ogni partita si possono sostituire ... i componenti della
    squadra": the players seated at a game, until its result (a new one, a new code)."""
    lineup = [[form_text(data, f"{side}{n}") for n in (1, 2)] for side in ("a", "b")]
    await service(request).change(tid, "lineup", {"game": form_int(data, "game"),
                                                  "lineup": lineup}, who(request))
    return CHANGED


async def do_close(request: Request, tid: int, t: Tournament, data: FormData) -> str:
    number = t.current.number if t.current else 0
    await service(request).change(tid, "closed", {"round": number}, who(request))
    return CHANGED


async def do_organiser(request: Request, tid: int, t: Tournament, data: FormData) -> str:
    name = account_name(data, "name")
    key = name_key(name)
    if not name or await shared(request).store.account_by_key(key) is None:
        raise TournamentError("no_subject", subject=name)
    await service(request).store.add_organiser(tid, key)
    return CHANGED


ACTIONS: dict[str, Action] = {
    "register": do_register, "checkin": do_checkin, "bind": do_bind, "draw": do_draw,
    "tables": do_tables, "result": do_result, "correct": do_correct, "adjust": do_adjust,
    "lineup": do_lineup, "close": do_close, "organiser": do_organiser,
}
