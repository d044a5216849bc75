"""The list of tournaments, a new one, and the organisers' console: its changes and the table
cards to print (with the seat codes); the exports are in :mod:`.exports`.

Roles: only the tournament's organisers (signed-in accounts: the creator and the
co-organisers it adds) change a tournament, print the table cards and download the results
CSV; anyone may read the standings (:mod:`.public`).
"""

from __future__ import annotations

import asyncio

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from belote.i18n import translate
from belote.rules import PRESETS
from belote.server.routes.common import language, read_form, session
from belote.server.routes.tournaments.actions import ACTIONS
from belote.server.routes.tournaments.common import (
    CHOICE,
    SEATS,
    back_to,
    coded_games,
    form_int,
    form_text,
    form_value,
    is_organiser,
    not_organiser,
    optional_int,
    render,
    say,
    service,
    tournament,
)
from belote.server.routes.tournaments.round_end import ROUND_ACTIONS, clock_view
from belote.tournament.audit_words import sentences
from belote.tournament.codes import shown
from belote.tournament.events import Tournament
from belote.tournament.formats import format_names
from belote.tournament.model import Game, TournamentError
from belote.tournament.standings import Line, standings
from belote.tournament.text import error_text, game_line

Slip = tuple[int, int, str, str, str]  # side, seat, player, code as printed, QR code (SVG)

# The console's parts in the order of the day (issue 24 item 11: an organiser may be blind
# and work by keyboard and screen reader, where the page's order is the only order).  Before
# the first draw the organiser registers the entrants and checks them in, then draws; from
# the draw on, the round comes first (its actions, the tables it waits for), then the
# entries awaiting confirmation and the clock, and the long entrants' forms after them.
# The template renders each part and its go-to link in this order.
BEFORE_THE_DRAW = ("register", "entrants", "manage", "round", "queue", "adjust",
                   "standings", "organisers", "audit")
ROUND_FIRST = ("round", "queue", "clock", "entrants", "manage", "correct", "adjust",
               "standings", "organisers", "audit")
# The parts whose forms come back to their own heading (``?at=<part>#<heading>``: the
# queue's decisions, routes/tournaments/scores.py; the entrants' forms, .entrants): the
# notice the form left is rendered just after that heading, where the browser (and a screen
# reader's reading position) lands, rather than at the top of the page.
NOTICE_AT = ("queue", "manage")
# Results that say the round's tables play with real cards (the score entry, a
# scorekeeper's CSV): no online table is offered for them.
REAL_CARDS = ("entry", "csv")


async def index(request: Request) -> Response:
    row = session(request)
    return await render(request, "tournament_list.html", rows=await service(request).store.list(),
                        formats=format_names(), presets=list(PRESETS),
                        may_create=row is not None and row.account is not None)


async def create(request: Request) -> Response:
    data = await read_form(request)
    row = session(request)
    lang = language(request)
    if row is None or row.account is None:
        say(request, translate(lang, "tournament.error.account_needed"), True)
        return back_to("/tournaments")
    try:
        settings = {
            "name": form_text(data, "name"), "format": form_text(data, "format", CHOICE),
            "preset": form_text(data, "preset", CHOICE), "target": form_int(data, "target"),
            "rounds": form_int(data, "rounds"), "deals": optional_int(data, "deals"),
            "rank_by": form_text(data, "rank_by", CHOICE) if "rank_by" in data else "wins",
            "bye_points": optional_int(data, "bye_points") or 0,
            "standins": form_value(data, "standins") == "on"}
        tid = await service(request).create(settings, row.name_key)
    except TournamentError as error:
        say(request, error_text(lang, error), True)
        return back_to("/tournaments")
    return back_to(f"/tournaments/{tid}")


async def console(request: Request) -> Response:
    tid, t = await tournament(request)
    if not await is_organiser(request, tid):
        return back_to(f"/tournaments/{tid}/standings")
    lang = language(request)
    at = request.query_params.get("at", "")
    playing = [g for g in t.current.games if g.playing] if t.current else []
    # The audit log in words, latest first (never a code word, never a seat code).
    audit = await asyncio.to_thread(lambda: list(reversed(list(sentences(lang, t)))))
    lines, last = await asyncio.to_thread(_standings_and_last, t)
    return await render(request, "tournament_console.html", tid=tid, tour=t, s=t.s,
                        playing=playing, audit=audit, lines=lines, clubs=sorted(t.clubs()),
                        line=lambda g: game_line(lang, t, g),
                        missing=t.missing_games(), clock=clock_view(t), last_round=last,
                        parts=console_parts(t), notice_at=at if at in NOTICE_AT else None,
                        tables_to_open=tables_to_open(t))


def console_parts(t: Tournament) -> tuple[str, ...]:
    """The console's parts in the order of the day (see :data:`ROUND_FIRST`); a part with
    nothing to show (the clock with no round open) is left out by the template."""
    return BEFORE_THE_DRAW if t.state == "registration" else ROUND_FIRST


def tables_to_open(t: Tournament) -> list[Game]:
    """The games that *Open the online tables* would open a table for (the room's
    ``open_tables``: each game of the open round with no table and no result), or none where
    the round is played with real cards: a best-of-3 match is typed, never played online (the
    tournament refuses its tables), and a round whose tables enter their hands or send their
    sheets is at real tables.  The console offers the button only for these games."""
    rnd = t.current
    if rnd is None or rnd.closed or t.s.best_of > 1:
        return []
    real_cards = any(
        g.id in t.hands or g.id in t.claims
        or (g.result is not None and g.result.source in REAL_CARDS) for g in rnd.games)
    if real_cards:
        return []
    return [g for g in rnd.games if not g.bye and g.table_id is None and g.result is None]


async def change(request: Request) -> Response:
    """One of the console's changes (:mod:`.actions`), said done or refused on the console."""
    tid, t = await tournament(request)
    data = await read_form(request)
    lang = language(request)
    fn = ACTIONS.get(request.path_params["action"]) or ROUND_ACTIONS.get(
        request.path_params["action"])
    if fn is None:
        raise HTTPException(404)
    if not await is_organiser(request, tid):
        return not_organiser(request, tid)
    try:
        done = await fn(request, tid, t, data)
    except TournamentError as error:
        say(request, error_text(lang, error), True)
    else:
        say(request, translate(lang, done))
    return back_to(f"/tournaments/{tid}")


async def cards(request: Request) -> Response:
    """The table cards to print: each seat's player, code and QR code (organisers)."""
    tid, t = await tournament(request)
    if not await is_organiser(request, tid):
        return not_organiser(request, tid)
    t, games = await coded_games(request, tid, t)
    base = str(request.base_url).rstrip("/")
    slips = await asyncio.to_thread(_slips, tid, games, base)
    return await render(request, "tournament_cards.html", tid=tid, tour=t, games=games,
                        slips=slips, seats=SEATS)


def _standings_and_last(t: Tournament) -> tuple[list[Line], bool]:
    """The standings, and whether closing the open round ends the tournament (then the
    console offers no next draw)."""
    rnd = t.current
    last = False
    if rnd is not None and not rnd.closed:
        after = t.copy()
        after.rounds[-1].closed = True
        last = after.complete
    return standings(t), last


def _slips(tid: int, games: list[Game], base: str) -> dict[int, list[Slip]]:
    """Per game, each seat's (side, seat, player, code as printed, QR code as inline SVG):
    the QR code opens the seat-code page with the code filled in (from the URL's fragment,
    by the page's script; without scripts the code is typed)."""
    import segno  # the server extra (README: dependencies)

    out: dict[int, list[Slip]] = {}
    for game in games:
        rows = []
        for side_no, side in enumerate(game.lineup):
            for seat_no, player in enumerate(side):
                code = game.codes[side_no][seat_no] if game.codes else ""
                # In the fragment: never sent to the server (its access log) nor in a
                # Referer; the code page's script fills the field from it.
                url = f"{base}/tournaments/{tid}/games/{game.id}/code#c={code}"
                svg = segno.make(url, error="m").svg_inline(scale=3, omitsize=False)
                rows.append((side_no, seat_no, player, shown(code) if code else "", svg))
        out[game.id] = rows
    return out
