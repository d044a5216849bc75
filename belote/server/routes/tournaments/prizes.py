"""The prize list: public and printable (who takes each prize, as the standings stand), and
the organisers' form that sets it (a ``prizes`` event: the audit log keeps every version).

The form works without scripts: one prize a line for the places, and for each category of
the registry (:data:`belote.tournament.prizes.CATEGORIES`) its prize and, for a category the
organiser marks, the entrants it covers, one name a line.
"""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import Response

from belote.i18n import translate
from belote.server.routes.common import language, read_form
from belote.server.routes.tournaments.common import (
    NAME,
    NAME_LINES,
    PRIZE,
    PRIZE_LINES,
    back_to,
    form_choice,
    form_lines,
    form_text,
    is_organiser,
    not_organiser,
    render,
    say,
    service,
    tournament,
    who,
)
from belote.tournament.export import prize_label
from belote.tournament.model import TournamentError
from belote.tournament.prizes import CATEGORIES, Prize, awards, parse_form
from belote.tournament.text import error_text


async def prizes_page(request: Request) -> Response:
    tid, t = await tournament(request)
    lang = language(request)
    found = await asyncio.to_thread(awards, t, t.prizes)
    rows = [(prize_label(lang, a.prize.place, a.prize.category), a.prize.prize, a.winners)
            for a in found]
    places = "\n".join(p.prize for p in _by_place(t.prizes.prizes))
    names = {e.id: e.name for e in t.entrants.values()}
    categories = {p.category: (p.prize, "\n".join(names[e] for e in p.eligible if e in names))
                  for p in t.prizes.prizes if p.category is not None}
    return await render(request, "tournament_prizes.html", tid=tid, tour=t, s=t.s, rows=rows,
                        organiser=await is_organiser(request, tid), places=places,
                        prize_categories=CATEGORIES, chosen=categories,
                        cumulative=t.prizes.cumulative, withdrawn=t.prizes.withdrawn)


def _by_place(prizes: tuple[Prize, ...]) -> list[Prize]:
    """The place prizes in a list where the n-th line is the n-th place (gaps empty)."""
    places = {p.place: p for p in prizes if p.place is not None}
    top = max(places, default=0)
    return [places.get(n, Prize("")) for n in range(1, top + 1)]


async def prizes_post(request: Request) -> Response:
    tid, t = await tournament(request)
    data = await read_form(request)
    lang = language(request)
    if not await is_organiser(request, tid):
        return not_organiser(request, tid)
    try:
        categories = {name: (form_text(data, f"prize_{name}", PRIZE), "\n".join(
            form_lines(data, f"eligible_{name}", NAME, NAME_LINES))) for name in CATEGORIES}
        places = "\n".join(form_lines(data, "places", PRIZE, PRIZE_LINES))
        prizes = parse_form(t, places, categories)
        prizes["cumulative"] = form_choice(data, "cumulative", ("on",), default="") == "on"
        prizes["withdrawn"] = form_choice(data, "withdrawn", ("on",), default="") == "on"
        await service(request).change(tid, "prizes", prizes, who(request))
    except TournamentError as error:
        say(request, error_text(lang, error), True)
    else:
        say(request, translate(lang, "tournament.web.prizes_saved"))
    return back_to(f"/tournaments/{tid}/prizes")
