"""Saved games: the page of an account's saved tables, and its forms to resume or abandon
one (docs/room.md, "Saved games").  A saved table is the account's, whichever device asks:
each form acts by the signed-in account's id, on a table it sat at, and on nothing else."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from belote.i18n import preset_name, translate
from belote.server.limits import Refusal
from belote.server.routes.common import account, back, language, read_form, when
from belote.server.routes.pages import render
from belote.server.saved.service import Resumed
from belote.server.saved.store import SavedGame
from belote.server.shared import shared

# Resumes and abandons one account may ask for: a few at once, then a steady rate (each
# resume replays a whole match's log).
ACTIONS_BURST = 10
ACTIONS_PER_HOUR = 60.0


def saved_rows(games: list[SavedGame], lang: str) -> list[dict[str, Any]]:
    """Each saved table as the page and the lobby list it (texts made here)."""
    rows = []
    for game in games:
        players = ", ".join(name for _, name in game.players)
        score = " – ".join(str(t) for t in game.totals)
        rows.append({"id": game.table_id, "preset": preset_name(game.preset, lang),
                     "players": players, "hands": game.hands,
                     "score": translate(lang, "web.saved.score", score=score or "0",
                                        count=game.hands),
                     "saved": when(game.saved)})
    return rows


async def saved_for(request: Request) -> list[dict[str, Any]] | None:
    """The signed-in account's saved tables as rows; None: no account (a guest, nobody)."""
    mine = account(request)
    if mine is None:
        return None
    return saved_rows(await shared(request).saved_games.mine(mine), language(request))


async def saved_page(request: Request) -> Response:
    rows = await saved_for(request)
    return render(request, "saved.html", saved_games=rows,
                  cap=shared(request).settings.saved_tables_per_account)


async def _allowed(request: Request, who: int) -> None:
    limits = shared(request).store.rate_limits
    if not await limits.bucket("saved_actions", ACTIONS_BURST, ACTIONS_PER_HOUR).take(
            str(who)):
        raise Refusal(429, "web.saved.too_fast", 60.0)


async def resume(request: Request) -> Response:
    await read_form(request)  # (same origin, and the body's limits)
    who = account(request)
    if who is None:
        return back(request, "/saved", "saved_sign_in")
    await _allowed(request, who)
    table_id = int(request.path_params["table_id"])
    outcome = await shared(request).saved_games.resume(table_id, who)
    if outcome is Resumed.NONE:
        return back(request, "/saved", "saved_none")
    return back(request, f"/table/{table_id}")


async def abandon(request: Request) -> Response:
    await read_form(request)
    who = account(request)
    if who is None:
        return back(request, "/saved", "saved_sign_in")
    await _allowed(request, who)
    table_id = int(request.path_params["table_id"])
    if not await shared(request).saved_games.abandon(table_id, who):
        return back(request, "/saved", "saved_none")
    return back(request, "/saved")


routes = [
    Route("/saved", saved_page),
    Route("/saved/{table_id:id}/resume", resume, methods=["POST"]),
    Route("/saved/{table_id:id}/abandon", abandon, methods=["POST"]),
]
