"""The weekly league's page: this week's standings of a group (the reader's own, or any
other chosen from the list of groups), the reader's division, and their past weeks.

Looking at the page is one of the moments a process notices that a week has ended: the
ended weeks close first (once, whichever process notices: :mod:`belote.server.leagues.store`).
"""

from __future__ import annotations

from datetime import date, timedelta

from babel.dates import format_date
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from belote.server.leagues.model import DIVISIONS, GROUP_SIZE, MOVERS, WIN_POINTS, Line
from belote.server.routes.common import account, form_id, language
from belote.server.routes.pages import error_page, render
from belote.server.shared import shared

MAX_NUMBER = 10_000  # a division or group number asked for beyond this is refused


def day_text(day: date, lang: str) -> str:
    return str(format_date(day, "full", locale=lang))


def _number(text: str | None) -> int | None:
    """A positive number from the query, None when absent; ValueError when malformed (or
    0, or beyond MAX_NUMBER): the page then says so rather than showing another group."""
    if not text:
        return None
    value = form_id(text)
    if value is None or value > MAX_NUMBER:
        raise ValueError(text)
    return value


async def league_page(request: Request) -> Response:
    leagues = shared(request).services.leagues
    try:
        division = _number(request.query_params.get("division"))
        group = _number(request.query_params.get("group"))
    except ValueError:
        return error_page(request, 400, "web.league.error.bad_group")
    await leagues.notice()  # the weeks that ended close first (once)
    week = leagues.current_week()
    lines = await leagues.standings(week)
    me = account(request)
    mine = next((ln for ln in lines if ln.entry.account == me), None)
    if division is None and mine is not None:
        division, group = mine.division, mine.group
    groups: dict[tuple[int, int], list[Line]] = {}
    for line in lines:
        groups.setdefault((line.division, line.group), []).append(line)
    if division is None and groups:
        division, group = min(groups)
    shown = groups.get((division or 0, group or 1), [])
    if division is not None and (division > DIVISIONS or (not shown and groups)):
        return error_page(request, 404, "web.league.error.no_group")
    lang = language(request)
    placed = None if me is None or mine is not None else await leagues.division_of(me, week)
    history = await leagues.history(me) if me is not None else []
    return render(
        request, "leagues.html", week=day_text(week, lang),
        ends=day_text(week + timedelta(days=6), lang), lines=shown, division=division,
        group=group or 1, groups=sorted(groups), counts={k: len(v) for k, v in groups.items()},
        reader=me, mine=mine, placed=placed, history=history,
        day=lambda d: day_text(d, lang), divisions=DIVISIONS, size=GROUP_SIZE,
        movers=MOVERS, win=WIN_POINTS)


routes = [Route("/leagues", league_page)]
