"""A tournament's exports: the page that offers them (organisers), the CSV files (every
result, the standings, the ranking points, the prize list; commas or semicolons, a UTF-8
byte order mark on request), the standings to print (A4, the header repeated on every
page) and the audit log in words.

Who reads what (docs/tournaments.md, "Exports: public or not"): the results with their
line-ups and the audit log are the organisers'; the standings, ranking points and prizes are
public, as the standings page is.  Every file and page is built in a worker thread.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from babel.dates import format_datetime
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from belote.server.routes.common import language
from belote.server.routes.tournaments.common import (
    is_organiser,
    not_organiser,
    render,
    tournament,
)
from belote.tournament.audit_words import Sentence, sentences
from belote.tournament.events import Tournament
from belote.tournament.export import (
    DELIMITERS,
    EXPORTS,
    csv_text,
    line_entrants,
    standin_games,
)
from belote.tournament.records import Line
from belote.tournament.standings import standings

PRIVATE = frozenset({"results"})  # the line-ups and sources: the organisers' (as before)


async def exports_page(request: Request) -> Response:
    tid, t = await tournament(request)
    if not await is_organiser(request, tid):
        return not_organiser(request, tid)
    return await render(request, "tournament_exports.html", tid=tid, tour=t, s=t.s,
                        exports=list(EXPORTS), delimiters=list(DELIMITERS))


async def export_file(request: Request) -> Response:
    """``?what=results|standings|points|prizes&sep=comma|semicolon&bom=1``."""
    tid, t = await tournament(request)
    what = request.query_params.get("what", "results")
    if what not in EXPORTS or request.query_params.get("sep", "comma") not in DELIMITERS:
        raise HTTPException(404)
    if what in PRIVATE and not await is_organiser(request, tid):
        return not_organiser(request, tid)
    return await csv_response(request, tid, t, what)


async def results_csv(request: Request) -> Response:
    """The address earlier releases linked (``results.csv``): every result, organisers."""
    tid, t = await tournament(request)
    if not await is_organiser(request, tid):
        return not_organiser(request, tid)
    return await csv_response(request, tid, t, "results")


async def csv_response(request: Request, tid: int, t: Tournament, what: str) -> Response:
    sep = DELIMITERS.get(request.query_params.get("sep", "comma"), ",")
    bom = request.query_params.get("bom") == "1"
    text = await asyncio.to_thread(csv_text, EXPORTS[what], t, language(request), sep, bom)
    name = "tournament" if what == "results" else f"tournament-{what}"
    return Response(text, media_type="text/csv; charset=utf-8", headers={
        "content-disposition": f'attachment; filename="{name}-{tid}.csv"',
        "cache-control": "private, no-store"})


def _printable(t: Tournament) -> tuple[list[Line], dict[str, str], dict[str, int]]:
    """The standings, each line's players, and the games a bot stood in for them."""
    lines = standings(t)
    bots = standin_games(t)
    players: dict[str, str] = {}
    stood: dict[str, int] = {}
    for line in lines:
        entrants = line_entrants(t, line)
        players[line.name] = "; ".join(" & ".join(e.players) for e in entrants)
        stood[line.name] = sum(bots.get(e.id, 0) for e in entrants)
    return lines, players, stood


async def print_standings(request: Request) -> Response:
    """The standings on A4 (public, as the standings page): every line with its players
    and the figures of its format, the stand-in bots said in words."""
    tid, t = await tournament(request)
    lang = language(request)
    lines, players, stood = await asyncio.to_thread(_printable, t)
    printed = format_datetime(datetime.now(UTC).astimezone(), "long", locale=lang)
    return await render(request, "tournament_print.html", tid=tid, tour=t, s=t.s,
                        lines=lines, players=players, stood=stood, printed=printed)


async def log_page(request: Request) -> Response:
    """The audit log in words (organisers: it names accounts and every correction)."""
    tid, t = await tournament(request)
    if not await is_organiser(request, tid):
        return not_organiser(request, tid)
    lang = language(request)

    def words() -> list[Sentence]:
        return list(sentences(lang, t))
    return await render(request, "tournament_log.html", tid=tid, tour=t, s=t.s,
                        lines=await asyncio.to_thread(words))
