"""The wall lists of a round (``/tournaments/{tid}/rounds/{n}/wall``): the pairings to post
at the venue, one list by table (``?by=table``, the default) and one by name (``?by=name``:
every seated player in alphabetical order with their table), each one printable page on A4
(the print stylesheet drops the site's chrome).  Public, as the standings are: names and
tables only, never a seat code."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from belote.server.routes.tournaments.common import render, tournament
from belote.tournament.events import Tournament
from belote.tournament.model import Round


@dataclass(frozen=True, slots=True)
class NameLine:
    """A seated player, their side (entrant names) and where they sit (0: a bye)."""

    player: str
    side: str
    table: int
    against: str


def by_name(t: Tournament, rnd: Round) -> list[NameLine]:
    """Every player of the round by name (then table), a bye's too."""
    out: list[NameLine] = []
    for game in rnd.games:
        for index, side in enumerate(game.sides):
            against = "" if game.bye else t.side_name(game.sides[1 - index])
            players = game.lineup[index] if index < len(game.lineup) else ()
            if not players:  # a bye has no line-up: its entrants' players
                players = tuple(p for e in side for p in t.entrants[e].players)
            for player in players:
                out.append(NameLine(player, t.side_name(side), game.table, against))
    return sorted(out, key=lambda n: (natural(n.player), n.player, n.table))


def natural(name: str) -> tuple[tuple[int, int | str], ...]:
    """A name's order as people read a list: letters without case, numbers by value
    ("Anna 2" before "Anna 10")."""
    return tuple((1, int(part)) if part.isdecimal() else (0, part.casefold())
                 for part in re.split(r"(\d+)", name) if part)


async def wall(request: Request) -> Response:
    tid, t = await tournament(request)
    number = int(request.path_params["number"])
    if not 1 <= number <= len(t.rounds):
        raise HTTPException(404)
    rnd = t.rounds[number - 1]
    order = "name" if request.query_params.get("by") == "name" else "table"
    names = await asyncio.to_thread(by_name, t, rnd) if order == "name" else []
    return await render(request, "tournament_wall.html", tid=tid, tour=t, s=t.s, rnd=rnd,
                        order=order, names=names,
                        games=[g for g in rnd.games if not g.bye],
                        byes=[g for g in rnd.games if g.bye])
