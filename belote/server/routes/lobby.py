"""The lobby: the list of tables (one page of it, kept live by ``static/lobby.js`` over the
lobby's WebSocket), the forms to open a table, and the latest finished matches."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from belote.i18n import messages
from belote.rules import PRESETS
from belote.server.levels import fewest_players
from belote.server.lobby import page_number
from belote.server.routes.common import identity, language
from belote.server.routes.pages import error_page, render
from belote.server.routes.saved import saved_for
from belote.server.seats import level_label
from belote.server.shared import shared

FINISHED_LISTED = 20  # finished matches the lobby links to (their replays)
LIVE_PREFIXES = ("web.lobby.", "web.seat.", "web.level.", "lobby.")


def lobby_strings(lang: str, levels: tuple[str, ...]) -> str:
    """The sentences the live list builds rows with (``static/lobby.js``), as patterns."""
    found = {key: text for key, text in messages(lang).items()
             if key.startswith(LIVE_PREFIXES)}
    # plug-in levels have no message: their label is the bot's name
    found.update({f"web.level.{level}": level_label(lang, level) for level in levels})
    fewest = {level: fewest_players(level) for level in levels}
    return json.dumps({"strings": found, "levels": list(levels), "fewest_players": fewest},
                      ensure_ascii=False)


async def lobby_page(request: Request) -> dict[str, Any] | Response:
    """The page of the list asked for (``?page=N``), or the error page for a bad number."""
    try:
        number = page_number(request.query_params.get("page"))
    except ValueError:
        return error_page(request, 400, "lobby.error.bad_page")
    who = identity(request)
    return await shared(request).lobby.page(language(request), who[0] if who else None,
                                            number)


async def lobby(request: Request) -> Response:
    page = await lobby_page(request)
    if isinstance(page, Response):
        return page
    state = shared(request)
    finished = [r.id for r in await state.store.list_tables("finished", limit=FINISHED_LISTED)]
    daily = await state.daily.store.tables_among(finished)  # listed on the daily's own pages
    return render(request, "lobby.html", listing=page, tables=page["tables"],
                  presets=list(PRESETS), levels=state.levels,
                  finished=[t for t in finished if t not in daily],
                  saved_games=await saved_for(request),
                  lobby_data=lobby_strings(language(request), state.levels))


async def tables_fragment(request: Request) -> Response:
    page = await lobby_page(request)
    if isinstance(page, Response):
        return page
    return render(request, "_tables.html", listing=page, tables=page["tables"],
                  levels=shared(request).levels)


routes = [
    Route("/", lobby),
    Route("/fragment/tables", tables_fragment),
]
