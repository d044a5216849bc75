"""The daily duplicate's pages: today's (enter, play the next deal, the live ranking) and
each closed day's (the ranking, every entrant's result on every deal, the replays).

Entering and playing need an account (a guest is told why, and nothing changes); both are
idempotent (the same entry, the same deal's table) and limited per account all the same,
each request costing the database a few queries.  A day's deals and results per deal are
served only once it has closed (:meth:`belote.server.daily.room.DailyRoom.closed_day`).  The
ranking is computed once per request, from the days kept in the process
(:mod:`belote.server.daily.cache`).
"""

from __future__ import annotations

import logging
from datetime import date
from typing import Any

from babel.numbers import format_decimal
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from belote.i18n import seat_name
from belote.server.daily.deals import ENTRANT_SEAT, LEVEL, PRESET
from belote.server.daily.room import DailyError
from belote.server.daily.scoring import Standing
from belote.server.limits import Refusal
from belote.server.routes.common import back, identity, language, read_form, session
from belote.server.routes.pages import render
from belote.server.shared import shared

log = logging.getLogger(__name__)
PAST_DAYS = 14  # closed days linked from today's page
FLASH = "daily_flash"  # the session's key for this page's own message (web.daily.error.*)
# Requests to enter or play per account: a burst, then so many an hour (each is idempotent;
# the limit bounds what a script costs the database).
BURST = 20
PER_HOUR = 240.0


def percent_text(value: float, lang: str) -> str:
    return str(format_decimal(round(value, 1), format="0.0", locale=lang))


def ranking_rows(rows: list[Standing], lang: str) -> list[dict[str, Any]]:
    shown = []
    for row in rows:
        score = row.score
        shown.append({
            "rank": row.rank, "name": row.name, "played": row.played,
            "complete": row.complete,
            "mean": None if score is None else percent_text(score.mean, lang),
            "low": None if score is None or score.low is None else percent_text(
                score.low, lang),
            "high": None if score is None or score.high is None else percent_text(
                score.high, lang)})
    return shown


def _day_of(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise HTTPException(404) from None


def _flash(request: Request) -> str | None:
    code = request.session.pop(FLASH, None)
    return code if isinstance(code, str) else None


async def today_page(request: Request) -> Response:
    daily = shared(request).daily
    lang = language(request)
    row = session(request)
    day = daily.today()
    mine = await daily.my_day(row.account if row is not None else None)
    return render(
        request, "daily.html", day=day.isoformat(), deals=daily.deals,
        preset=PRESET, level=LEVEL, seat=seat_name(ENTRANT_SEAT, lang),
        signed=identity(request) is not None, mine=mine,
        dealers={d.number: seat_name(d.dealer, lang) for d in mine.deals},
        rows=ranking_rows(await daily.ranking(day), lang),
        past=await daily.store.days(day.isoformat(), PAST_DAYS),
        daily_error=_flash(request))


async def day_page(request: Request) -> Response:
    daily = shared(request).daily
    day = _day_of(str(request.path_params["day"]))
    if day >= daily.today():
        if day == daily.today():
            return back(request, "/daily")
        raise HTTPException(404)  # a day to come has no page (and says nothing of its deals)
    lang = language(request)
    ranking, results = await daily.closed_day(day)  # (the day scored once)
    return render(
        request, "daily_day.html", day=day.isoformat(), deals=daily.deals,
        rows=ranking_rows(ranking, lang),
        dealers={n: seat_name((n - 1) % 4, lang) for n in range(1, daily.deals + 1)},
        results={n: [{"name": r.name, "score": r.score, "table_id": r.table_id,
                      "percent": percent_text(r.percent, lang)} for r in rows]
                 for n, rows in results.items()})


async def _entrant(request: Request) -> tuple[int, str, str] | Response:
    """(account, name, session's public id) of a signed-in account, within its limit;
    else the page again with the reason."""
    await read_form(request)  # (this site's form: its origin and size are checked)
    row = session(request)
    who = identity(request)
    if row is None or who is None:
        request.session[FLASH] = "sign_in"
        return back(request, "/daily")
    if row.account is None:
        request.session[FLASH] = "guest"
        return back(request, "/daily")
    bucket = shared(request).store.rate_limits.bucket("daily", BURST, PER_HOUR)
    if not await bucket.take(str(row.account)):
        log.warning("daily: account %d refused: too many requests", row.account)
        shared(request).refused["daily"] += 1
        raise Refusal(429, "web.daily.error.too_fast",
                      await bucket.retry_after(str(row.account)))
    return row.account, row.name, who[0]


async def enter(request: Request) -> Response:
    found = await _entrant(request)
    if isinstance(found, Response):
        return found
    account, name, _ = found
    await shared(request).daily.enter(account, name)
    return back(request, "/daily")


async def play(request: Request) -> Response:
    found = await _entrant(request)
    if isinstance(found, Response):
        return found
    account, _, uid = found
    try:
        table_id = await shared(request).daily.play(account, uid)
    except DailyError as error:
        request.session[FLASH] = error.code
        return back(request, "/daily")
    return back(request, f"/table/{table_id}")


routes = [
    Route("/daily", today_page),
    Route("/daily/enter", enter, methods=["POST"]),
    Route("/daily/play", play, methods=["POST"]),
    Route("/daily/{day}", day_page),
]
