"""Seasons: the public ranking of a season (players across tournaments, points per place)
and its owner's forms: the points table, the tournaments it counts, the merges of players
(a name is not an identity: two spellings of one person are merged by the owner, in words
on the page).  Any signed-in account may create a season; only its owner changes it.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from belote.i18n import translate
from belote.server.routes.common import language, read_form, session
from belote.server.routes.tournaments.common import (
    IDENTITY,
    NAME,
    back_to,
    form_int,
    form_text,
    form_value,
    optional_int,
    render,
    say,
    service,
)
from belote.server.tournament.seasons import SeasonStore, season_ranking
from belote.tournament.events import MAX_ENTRANTS
from belote.tournament.model import TournamentError
from belote.tournament.season import GRAND_PRIX, MAX_POINTS, Season, parse_points
from belote.tournament.text import error_text

# A points table as typed: ASCII digits between commas, semicolons and spaces (what
# ``parse_points`` reads), as long as the longest table the core takes.
POINTS_TEXT = re.compile(r"[0-9,; \t]*")
POINTS_LENGTH = MAX_ENTRANTS * (len(str(MAX_POINTS)) + 2)
# A season's merges: spellings of one person, a few hundred in the longest season.  Every
# change of the season checks them all for a circle on the event loop, following each
# merge's chain (quadratic in the longest chain: 500 merges in one chain, 7 ms).
MAX_MERGES = 500


def seasons_store(request: Request) -> SeasonStore:
    return SeasonStore(service(request).store.engine)


def _owner(request: Request) -> str | None:
    row = session(request)
    return row.name_key if row is not None and row.account is not None else None


async def index(request: Request) -> Response:
    rows = await seasons_store(request).all()
    return await render(request, "season_list.html", rows=rows,
                        may_create=_owner(request) is not None,
                        suggested=", ".join(map(str, GRAND_PRIX)))


async def create(request: Request) -> Response:
    data = await read_form(request)
    lang = language(request)
    owner = _owner(request)
    if owner is None:
        say(request, translate(lang, "tournament.error.account_needed"), True)
        return back_to("/seasons")
    try:
        sid = await seasons_store(request).create({
            "name": form_text(data, "name", NAME), "points": points(data),
            "others": optional_int(data, "others") or 0}, owner)
    except TournamentError as error:
        say(request, error_text(lang, error), True)
        return back_to("/seasons")
    return back_to(f"/seasons/{sid}")


async def page(request: Request) -> Response:
    sid = int(request.path_params["sid"])
    store = seasons_store(request)
    try:
        row = await store.get(sid)
        season, lines, events = await season_ranking(store, service(request), sid)
    except TournamentError:
        raise HTTPException(404) from None
    found = {tid for tid, _ in events}
    rows = await service(request).store.list()
    return await render(request, "season.html", sid=sid, season=season, lines=lines,
                        events=events, missing=[t for t in season.tournaments
                                                if t not in found],
                        owner=_owner(request) == row.owner,
                        choices=[r for r in rows if r.id not in season.tournaments],
                        points=", ".join(map(str, season.points)))


async def change(request: Request) -> Response:
    """One of the owner's changes (``do``: points, add, remove, merge, unmerge)."""
    sid = int(request.path_params["sid"])
    data = await read_form(request)
    lang = language(request)
    store = seasons_store(request)
    try:
        row = await store.get(sid)
    except TournamentError:
        raise HTTPException(404) from None
    if _owner(request) != row.owner:
        say(request, translate(lang, "tournament.error.not_organiser"), True)
        return back_to(f"/seasons/{sid}")
    season = row.season
    actions: dict[str, Callable[[], Awaitable[Season]]] = {
        "points": lambda: store.set_points(sid, points(data),
                                           optional_int(data, "others") or 0),
        "add": lambda: _add(request, store, sid, form_int(data, "tournament")),
        "remove": lambda: store.remove(sid, _counted(season, form_int(data, "tournament"))),
        "merge": lambda: store.merge(sid, *_merge(season, data)),
        "unmerge": lambda: store.unmerge(sid, _merged(season,
                                                      form_text(data, "player", IDENTITY))),
    }
    try:
        action = actions.get(form_value(data, "do"))
        if action is None:
            raise HTTPException(404)
        await action()
    except TournamentError as error:
        say(request, error_text(lang, error), True)
    else:
        say(request, translate(lang, "tournament.web.changed"))
    return back_to(f"/seasons/{sid}")


def points(data: FormData) -> list[int]:
    """The points table of the form: numbers as ``parse_points`` reads them, ASCII digits
    only (no other script's digits, no underscores)."""
    text = form_value(data, "points")
    if len(text) > POINTS_LENGTH or not POINTS_TEXT.fullmatch(text):
        raise TournamentError("bad_season_points", limit=MAX_POINTS)
    return parse_points(text)


def _counted(season: Season, tid: int) -> int:
    """A tournament the season counts (removing another would change nothing)."""
    if tid not in season.tournaments:
        raise TournamentError("not_in_season")
    return tid


def _merge(season: Season, data: FormData) -> tuple[str, str]:
    """The player to merge and the player they are merged into: a season holds at most
    ``MAX_MERGES`` merges (merging a player merged already replaces their merge)."""
    player = form_text(data, "player", IDENTITY)
    if player not in dict(season.merges) and len(season.merges) >= MAX_MERGES:
        raise TournamentError("too_many_merges", limit=MAX_MERGES)
    return player, form_text(data, "into", IDENTITY)


def _merged(season: Season, player: str) -> str:
    """A player the season merged into another."""
    if player not in dict(season.merges):
        raise TournamentError("not_merged")
    return player


async def _add(request: Request, store: SeasonStore, sid: int, tid: int) -> Season:
    await service(request).get(tid)  # it exists (no_tournament otherwise)
    return await store.add(sid, tid)
