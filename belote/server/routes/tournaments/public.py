"""The public tournament pages: the standings (live; the projector view is
:mod:`.projector`), each entrant's history and the blank score sheets to print."""

from __future__ import annotations

import asyncio

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from belote.server.routes.common import language
from belote.server.routes.tournaments.common import back_to, is_organiser, render, tournament
from belote.tournament.events import Tournament
from belote.tournament.export import line_entrants, standin_games
from belote.tournament.records import Line
from belote.tournament.standings import entrant_records, standings
from belote.tournament.text import game_line

SHEET_ROWS = 20  # hands a printed score sheet has room for


async def standings_page(request: Request) -> Response:
    tid, t = await tournament(request)
    if request.query_params.get("projector") == "1":  # the old projector mode's address
        return back_to(f"/tournaments/{tid}/projector")
    template = ("tournament_standings_table.html" if request.query_params.get("fragment")
                else "tournament_standings.html")
    lines, stood = await asyncio.to_thread(_standings_marked, t)
    return await render(request, template, tid=tid, tour=t, s=t.s, lines=lines,
                        organiser=await is_organiser(request, tid), stood=stood)


def _standings_marked(t: Tournament) -> tuple[list[Line], dict[str, int]]:
    """The standings, and per line the games a bot stood in for one of its players (said
    beside the name: a result a bot helped make is never passed off as the players')."""
    lines = standings(t)
    bots = standin_games(t)
    stood = {line.name: sum(bots.get(e.id, 0) for e in line_entrants(t, line))
             for line in lines}
    return lines, stood


async def history(request: Request) -> Response:
    tid, t = await tournament(request)
    entrant = t.entrants.get(int(request.path_params["eid"]))
    if entrant is None:
        raise HTTPException(404)
    lang = language(request)
    games = [g for g in t.games() if any(entrant.id in side for side in g.sides)]
    rec = (await asyncio.to_thread(entrant_records, t))[entrant.id]
    return await render(request, "tournament_history.html", tid=tid, tour=t, entrant=entrant,
                        games=games, rec=rec, line=lambda g: game_line(lang, t, g))


async def sheets(request: Request) -> Response:
    tid, t = await tournament(request)
    games = [g for g in (t.current.games if t.current else []) if not g.bye]
    return await render(request, "tournament_sheets.html", tid=tid, tour=t, games=games,
                        rows=range(1, SHEET_ROWS + 1))
