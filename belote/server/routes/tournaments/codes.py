"""Seat codes: a player is identified by the code of their seat (:mod:`belote.tournament.
codes`), never by a name typed at sign-in.  The code, given at the table (a QR code on the
table card), lets that person score the game with real cards or take that seat at its
online table.

Wrong codes are counted per browser session, per game at an address and per address (the
app's :class:`~belote.server.limits.CodeGuesses`, configured in ``Settings``): a person's
own mistakes hold them back, and other people's at the same venue do not, short of a flood.
"""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from belote.i18n import translate
from belote.server.routes.common import address, identity, language, read_form, session
from belote.server.routes.tournaments.common import (
    SEATS,
    SESSION_CODES,
    back_to,
    game_or_404,
    render,
    say,
    seat_held,
    tournament,
)
from belote.server.shared import shared
from belote.tournament.codes import seat_of
from belote.tournament.model import Game, TournamentError
from belote.tournament.text import error_text

CODE_READ = 32  # characters of a typed code looked at


async def code_page(request: Request) -> Response:
    tid, t = await tournament(request)
    game = game_or_404(t, request)
    # Table cards printed before the code moved to the fragment carry ``?c=``.
    typed = str(request.query_params.get("c", ""))[:CODE_READ]
    return await render(request, "tournament_code.html", tid=tid, tour=t, game=game,
                        typed=typed, seat=seat_held(request, tid, t, game), seats=SEATS)


def _remember(request: Request, tid: int, game: Game, seat: tuple[int, int]) -> None:
    """Keep the seat's code in this browser's session (the latest few games')."""
    codes = request.session.get("tournament_codes")
    codes = dict(codes) if isinstance(codes, dict) else {}
    codes.pop(f"{tid}/{game.id}", None)
    codes[f"{tid}/{game.id}"] = game.codes[seat[0]][seat[1]]
    request.session["tournament_codes"] = dict(list(codes.items())[-SESSION_CODES:])


async def code_post(request: Request) -> Response:
    tid, t = await tournament(request)
    data = await read_form(request)
    game = game_or_404(t, request)
    lang = language(request)
    here = f"/tournaments/{tid}/games/{game.id}/code"
    row = session(request)
    if row is None:  # the code is kept with who gave it
        say(request, translate(lang, "tournament.web.code_sign_in"), True)
        return back_to(here)
    # A person's own wrong codes, and those typed for this game at this address, hold
    # back only them; the address's ceiling (a flood) holds back everyone there.
    client, guesses = address(request), shared(request).limits.seat_codes
    narrow = (f"session:{row.id}", f"game:{tid}/{game.id}@{client}")
    if guesses.refused(client, *narrow) is not None:
        say(request, translate(lang, "tournament.error.code_guesses"), True)
        return back_to(here)
    seat = seat_of(game, str(data.get("code", ""))[:CODE_READ]) if game.codes else None
    if seat is None:
        guesses.wrong(client, *narrow)
        say(request, translate(lang, "tournament.error.bad_code"), True)
        return back_to(here)
    _remember(request, tid, game, seat)
    say(request, translate(lang, "tournament.web.code_ok", player=game.lineup[seat[0]][
        seat[1]], table=game.table, round=game.round))
    if game.table_id is not None and game.playing:
        return back_to(here)  # the page offers the seat at the online table
    return back_to(f"/tournaments/{tid}/games/{game.id}/entry")


async def claim(request: Request) -> Response:
    """The holder of a seat code takes that seat at the game's online table."""
    tid, t = await tournament(request)
    await read_form(request)
    who = identity(request)
    if who is None:
        raise HTTPException(401)
    game = game_or_404(t, request)
    seat = seat_held(request, tid, t, game)
    if seat is None:
        say(request, translate(language(request), "tournament.error.code_needed"), True)
        return back_to(f"/tournaments/{tid}/games/{game.id}/code")
    try:
        row = session(request)
        table_id = await shared(request).tournaments.claim(
            tid, game.id, seat, who[0], row.account if row else None)
    except TournamentError as error:
        say(request, error_text(language(request), error), True)
        return back_to(f"/tournaments/{tid}/standings")
    return back_to(f"/table/{table_id}")
