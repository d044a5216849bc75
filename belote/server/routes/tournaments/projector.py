"""The projector view (``/tournaments/{tid}/projector``): the standings and the current
round's tables for a screen at the venue.  Full screen, no site chrome (no navigation, no
settings), large print and high contrast; the page's script shows as many rows as the
screen holds and turns the pages by itself, refreshing the figures every few seconds
(``?fragment=1``); the round, its clock and "final" once the tournament is finished.
Without the script every row is on the page, which scrolls.  Public, as the standings are:
no seat code is on it."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import Response

from belote.server.routes.tournaments.common import render, tournament
from belote.server.routes.tournaments.round_end import clock_view
from belote.tournament.standings import standings

PAGE_SECONDS = 10  # how long the projector shows one page of rows (``?seconds=``: 3 to 120)
PAGE_LIMITS = (3, 120)
REFRESH_SECONDS = 15  # how often it reads the figures again


async def projector(request: Request) -> Response:
    tid, t = await tournament(request)
    lines = await asyncio.to_thread(standings, t)
    rnd = t.current
    games = [g for g in rnd.games if not g.bye] if rnd is not None else []
    byes = [g for g in rnd.games if g.bye] if rnd is not None else []
    try:
        seconds = int(request.query_params.get("seconds", PAGE_SECONDS))
    except ValueError:
        seconds = PAGE_SECONDS
    seconds = min(max(seconds, PAGE_LIMITS[0]), PAGE_LIMITS[1])
    template = ("_tournament_projector_body.html" if request.query_params.get("fragment")
                else "tournament_projector.html")
    return await render(request, template, tid=tid, tour=t, s=t.s, lines=lines,
                        games=games, byes=byes, missing=len(t.missing_games()),
                        clock=clock_view(t), page_seconds=seconds,
                        refresh_seconds=REFRESH_SECONDS)
