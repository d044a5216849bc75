"""The daily duplicate's pages: today's (enter, play the next deal, the live ranking) and
each closed day's (the ranking, every entrant's result on every deal, the replays).

Entering and playing need an account (a guest is told why, and nothing changes); both are
idempotent (the same entry, the same deal's table) and limited per account all the same,
each request costing the database a few queries.  A day's deals and results per deal are
served only once it has closed (:meth:`belote.server.daily.room.DailyRoom.closed_day`).

What a view costs is bounded, whatever the day's size (issue 28's review, M1): the day is
read and scored once and kept (:mod:`belote.server.daily.cache`), its results per deal sorted
once with it, and a page formats and renders :data:`~belote.server.daily.paging.PAGE_LINES`
lines of the ranking at most (and :data:`~belote.server.daily.paging.PREVIEW_LINES` of each
deal on a closed day's page; a deal's own page, 100 of its results), plus the reader's own
line.  A percentage is formatted once per language (:func:`percent_text` is memoised: a day
has a few hundred distinct ones).  A closed day's pages, public, are limited per address
(``daily_pages`` in ``rate_limits``; over it, a 429 page saying so).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import date, datetime
from functools import lru_cache
from typing import Any

from babel.numbers import format_decimal
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from belote.i18n import seat_name
from belote.server.daily.deals import ENTRANT_SEAT, LEVEL, PRESET
from belote.server.daily.paging import (
    PREVIEW_LINES,
    NoSuchPage,
    Paged,
    page_number,
    page_of,
)
from belote.server.daily.room import DailyError
from belote.server.daily.scoring import DealResult, Standing
from belote.server.limits import Refusal
from belote.server.routes.common import (
    account,
    address,
    back,
    identity,
    language,
    read_form,
    session,
)
from belote.server.routes.pages import render
from belote.server.shared import shared

log = logging.getLogger(__name__)
PAST_DAYS = 14  # closed days linked from today's page
FLASH = "daily_flash"  # the session's key for this page's own message (web.daily.error.*)
# Requests to enter or play per account: a burst, then so many an hour (each is idempotent;
# the limit bounds what a script costs the database).
BURST = 20
PER_HOUR = 240.0
# The refusals whose messages are not web.daily.error.<code> (added with the review's fixes).
ERROR_KEYS = {"too_new": "daily2.error.too_new"}


@lru_cache(maxsize=8192)
def _formatted(value: float, lang: str) -> str:
    return str(format_decimal(value, format="0.0", locale=lang))


def percent_text(value: float, lang: str) -> str:
    """``value`` (a percentage) to a tenth, in ``lang``'s way of writing numbers; formatted
    once per value and language (babel takes tens of microseconds a number)."""
    return _formatted(round(value, 1), lang)


def ranking_rows(rows: Sequence[Standing], lang: str,
                 me: int | None = None) -> list[dict[str, Any]]:
    """The lines ``rows`` as a page shows them (``me``: the reader's account, marked)."""
    shown = []
    for row in rows:
        score = row.score
        shown.append({
            "rank": row.rank, "name": row.name, "played": row.played,
            "complete": row.complete, "mine": me is not None and row.account == me,
            "mean": None if score is None else percent_text(score.mean, lang),
            "low": None if score is None or score.low is None else percent_text(
                score.low, lang),
            "high": None if score is None or score.high is None else percent_text(
                score.high, lang)})
    return shown


def result_rows(rows: Sequence[DealResult], lang: str,
                me: int | None = None) -> list[dict[str, Any]]:
    return [{"name": r.name, "score": r.score, "table_id": r.table_id,
             "mine": me is not None and r.account == me,
             "percent": percent_text(r.percent, lang)} for r in rows]


def _day_of(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise HTTPException(404) from None


def _page(request: Request) -> int:
    try:
        return page_number(request.query_params.get("page"))
    except NoSuchPage:
        raise HTTPException(404) from None


def _paged(lines: Sequence[Any], page: int, me: int | None, size: int | None = None) -> Paged[Any]:
    try:
        mine = None if me is None else (lambda line: bool(line.account == me))
        return page_of(lines, page, mine=mine) if size is None else page_of(
            lines, page, size, mine)
    except NoSuchPage:
        raise HTTPException(404) from None


def _ranking(paged: Paged[Standing], lang: str, me: int | None) -> dict[str, Any]:
    """What ``_daily_ranking.html`` shows: a page of the ranking and the reader's line."""
    return {"rows": ranking_rows(paged.lines, lang, me), "ranking": paged,
            "own_line": None if paged.mine is None else ranking_rows([paged.mine], lang)[0]}


def _flash(request: Request) -> str | None:
    """The message key of this page's last refusal (kept in the session a request)."""
    code = request.session.pop(FLASH, None)
    if not isinstance(code, str):
        return None
    return ERROR_KEYS.get(code, f"web.daily.error.{code}")


def _hours(request: Request) -> str:
    """How old an account must be to enter, in hours (``daily_entry_account_hours``)."""
    return f"{shared(request).daily.entry_age.total_seconds() / 3600:g}"


async def _viewed(request: Request) -> None:
    """One view of a closed day's pages from this address, within its limit (else 429)."""
    state = shared(request)
    settings = state.settings
    bucket = state.store.rate_limits.bucket("daily_pages", settings.daily_pages_burst,
                                            settings.daily_pages_per_hour)
    key = f"ip:{address(request)}"
    if not await bucket.take(key):
        log.warning("daily: pages refused to %s: too many views", key)
        state.refused["daily_pages"] += 1
        raise Refusal(429, "daily2.too_many_views", await bucket.retry_after(key))


async def today_page(request: Request) -> Response:
    daily = shared(request).daily
    lang = language(request)
    me = account(request)
    day = daily.today()
    page = _page(request)
    mine = await daily.my_day(me)
    opens: datetime | None = None
    if me is not None and mine.entry is None:
        opens = await daily.entry_opens(me)
    return render(
        request, "daily.html", day=day.isoformat(), deals=daily.deals,
        preset=PRESET, level=LEVEL, seat=seat_name(ENTRANT_SEAT, lang),
        signed=identity(request) is not None, mine=mine,
        dealers={d.number: seat_name(d.dealer, lang) for d in mine.deals},
        **_ranking(_paged(await daily.ranking(day), page, me), lang, me),
        base="/daily", past=await daily.store.days(day.isoformat(), PAST_DAYS),
        daily_error=_flash(request), entry_hours=_hours(request),
        entry_opens=None if opens is None else opens.strftime("%Y-%m-%d %H:%M"))


async def _closed(request: Request) -> date | Response:
    """The closed day of the address (today's: its page; one to come: 404), viewed within
    this address's limit."""
    daily = shared(request).daily
    day = _day_of(str(request.path_params["day"]))
    if day >= daily.today():
        if day == daily.today():
            return back(request, "/daily")
        raise HTTPException(404)  # a day to come has no page (and says nothing of its deals)
    await _viewed(request)
    return day


async def day_page(request: Request) -> Response:
    daily = shared(request).daily
    day = await _closed(request)
    if isinstance(day, Response):
        return day
    lang = language(request)
    me = account(request)
    page = _page(request)
    ranking, results = await daily.closed_day(day)  # (the day scored and sorted once)
    moderator = await shared(request).moderation.is_moderator(me)
    previews = {n: _paged(rows, 1, me, PREVIEW_LINES) for n, rows in results.items()}
    return render(
        request, "daily_day.html", day=day.isoformat(), deals=daily.deals,
        **_ranking(_paged(ranking, page, me), lang, me), base=f"/daily/{day.isoformat()}",
        dealers={n: seat_name((n - 1) % 4, lang) for n in range(1, daily.deals + 1)},
        results={n: result_rows(p.lines, lang, me) for n, p in previews.items()},
        counts={n: p.count for n, p in previews.items()},
        own_results={n: {**result_rows([p.mine], lang)[0], "place": p.mine_position}
                     for n, p in previews.items() if p.mine is not None and p.mine_page != 1},
        same_address=await daily.same_address(day) if moderator else None)


async def deal_page(request: Request) -> Response:
    """One deal of a closed day: its results, 100 a page, and the reader's own."""
    daily = shared(request).daily
    day = await _closed(request)
    if isinstance(day, Response):
        return day
    number = int(request.path_params["number"])
    if not 1 <= number <= daily.deals:
        raise HTTPException(404)
    lang = language(request)
    me = account(request)
    page = _page(request)
    _, results = await daily.closed_day(day)
    paged = _paged(results.get(number, []), page, me)
    return render(
        request, "daily_deal.html", day=day.isoformat(), deals=daily.deals, number=number,
        dealers={n: seat_name((n - 1) % 4, lang) for n in range(1, daily.deals + 1)},
        results=paged, rows=result_rows(paged.lines, lang, me),
        own_line=None if paged.mine is None else result_rows([paged.mine], lang)[0],
        base=f"/daily/{day.isoformat()}/deal/{number}")


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
    entrant, name, _ = found
    try:
        await shared(request).daily.enter(entrant, name)
    except DailyError as error:
        request.session[FLASH] = error.code
    return back(request, "/daily")


async def play(request: Request) -> Response:
    found = await _entrant(request)
    if isinstance(found, Response):
        return found
    entrant, _, uid = found
    try:
        table_id = await shared(request).daily.play(entrant, uid)
    except DailyError as error:
        request.session[FLASH] = error.code
        return back(request, "/daily")
    return back(request, f"/table/{table_id}")


routes = [
    Route("/daily", today_page),
    Route("/daily/enter", enter, methods=["POST"]),
    Route("/daily/play", play, methods=["POST"]),
    Route("/daily/{day}", day_page),
    Route("/daily/{day}/deal/{number:int}", deal_page),
]
