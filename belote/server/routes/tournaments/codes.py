"""Seat codes and side codes: a player is identified by the code of their seat, or their
side by the side's short code (:mod:`belote.tournament.codes`), never by a name typed at
sign-in.  A side code (the table card's, with its QR code) opens that table's score entry
for its side; a seat code also takes that seat at the game's online table.  The table cards
(one page per table, a half per side) and the seat-code page and form are here, and the
short form (``/tournaments/N/enter``: the table's number and a code) for a phone that did
not scan the QR code.

The code page and the refusals name the code the person holds (:func:`code_kind`): the
table code at a table playing with real cards (the table card's QR code opens the page), the
seat code at an online table, or whichever a typed code's length says.

Wrong codes are counted per browser session, per game at an address and per address (the
app's :class:`~belote.server.limits.CodeGuesses`, configured in ``Settings``): a person's
own mistakes hold them back, and other people's at the same venue do not, short of a flood.
"""

from __future__ import annotations

import asyncio
from typing import Literal

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from belote.i18n import translate
from belote.server.routes.common import address, identity, language, read_form, session
from belote.server.routes.tournaments.common import (
    CODE,
    SEATS,
    SESSION_CODES,
    WHOLE,
    back_to,
    coded_games,
    form_text,
    form_value,
    game_or_404,
    is_organiser,
    not_organiser,
    render,
    say,
    seat_held,
    tournament,
)
from belote.server.shared import shared
from belote.tournament.codes import (
    LENGTH,
    SIDE_LENGTH,
    normalise,
    seat_of,
    seat_of_account,
    shown,
    side_code,
    side_of,
)
from belote.tournament.events import Tournament
from belote.tournament.model import Game, TournamentError
from belote.tournament.text import error_text

CODE_READ = 32  # characters of a typed code looked at
ENTER_TABLE = "tournament_enter_table"  # the session's key of a refused code's table
WRONG_CODE = "tournament_wrong_code"  # set when the refusal was of the code typed itself
def side_names(lang: str) -> tuple[str, str]:
    """The two sides' short names in ``lang`` (side 0 sits North and South, side 1 East and
    West): N-S and E-W, E-O in Italian, Spanish and French, as the score sheets say."""
    return translate(lang, "score.team.ns"), translate(lang, "score.team.ew")
Half = tuple[int, str, str]  # side, its code as printed, its QR code (inline SVG)
CodeKind = Literal["table", "seat"]


def code_kind(game: Game, typed: str = "", default: CodeKind | None = None) -> CodeKind:
    """The kind of code the person holds, which the page and its refusals name: a code
    typed says it by its length (a table code is shorter than a seat code); else
    ``default``, else the game's: a seat code where it plays at an online table (the code
    that takes a seat there), a table code where it plays with real cards (the table card's,
    whose QR code opens this page)."""
    length = len(normalise(typed[:CODE_READ]))
    if length in (SIDE_LENGTH, LENGTH):
        return "table" if length == SIDE_LENGTH else "seat"
    if default is not None:
        return default
    return "seat" if game.table_id is not None else "table"


# The refusals that are about the code typed (its field is then marked invalid, focused).
CODE_REFUSALS = ("bad_code", "bad_table_code", "code_of_other_side")


def wrong_code(game: Game, typed: str, default: CodeKind | None = None) -> TournamentError:
    """The refusal of a code that is none of ``game``'s, naming the kind the person holds."""
    kind = code_kind(game, typed, default)
    return TournamentError("bad_table_code" if kind == "table" else "bad_code")


def side_held(request: Request, tid: int, t: Tournament, game: Game) -> int | None:
    """The side of ``game`` this person scores for: by the side code or seat code this
    browser gave (still valid), or by the account an organiser bound to one of its players;
    None: neither (a name proves nothing)."""
    if session(request) is None:
        return None
    codes = request.session.get("tournament_codes")
    code = codes.get(f"{tid}/{game.id}") if isinstance(codes, dict) else None
    if isinstance(code, str) and game.codes:
        found = side_of(game, code)
        if found is not None:
            return found
    row = session(request)
    if row is None or row.account is None:
        return None
    seat = seat_of_account(game, t.entrants, row.name_key)
    return None if seat is None else seat[0]


async def typed_side(request: Request, tid: int, game: Game, typed: str) -> int | None:
    """The side whose code was typed (a side code or a seat code), counted against the
    wrong-code limits as the seat-code form is; raises ``code_guesses`` when the limit holds
    this person back, and None for a wrong code."""
    row = session(request)
    client, guesses = address(request), shared(request).limits.seat_codes
    narrow = (f"session:{row.id if row else client}", f"game:{tid}/{game.id}@{client}")
    if await guesses.refused(client, *narrow) is not None:
        raise TournamentError("code_guesses")
    side = side_of(game, typed[:CODE_READ]) if game.codes else None
    if side is None:
        await guesses.wrong(client, *narrow)
    return side


async def code_page(request: Request) -> Response:
    tid, t = await tournament(request)
    game = game_or_404(t, request)
    # Table cards printed before the code moved to the fragment carry ``?c=``.
    typed = str(request.query_params.get("c", ""))[:CODE_READ]
    return await render(request, "tournament_code.html", tid=tid, tour=t, game=game,
                        typed=typed, kind=code_kind(game, typed),
                        seat=seat_held(request, tid, t, game), seats=SEATS,
                        side=side_held(request, tid, t, game),
                        sides=side_names(language(request)))


def _remember(request: Request, tid: int, game: Game, code: str) -> None:
    """Keep the seat's or side's code in this browser's session (the latest few games')."""
    codes = request.session.get("tournament_codes")
    codes = dict(codes) if isinstance(codes, dict) else {}
    codes.pop(f"{tid}/{game.id}", None)
    codes[f"{tid}/{game.id}"] = code
    request.session["tournament_codes"] = dict(list(codes.items())[-SESSION_CODES:])


async def code_post(request: Request) -> Response:
    tid, t = await tournament(request)
    data = await read_form(request)
    game = game_or_404(t, request)
    here = f"/tournaments/{tid}/games/{game.id}/code"
    try:
        typed = form_text(data, "code", CODE)
    except TournamentError as error:  # not a code at all: no guess counted
        say(request, error_text(language(request), error), True)
        return back_to(here)
    return await _give_code(request, tid, t, game, typed, here)


async def _give_code(request: Request, tid: int, t: Tournament, game: Game, typed: str,
                     here: str, kind: CodeKind | None = None) -> Response:
    """A seat code or a side code given for ``game``: kept in the session, said, and on
    to the score entry (or the seat-code page, which offers the online seat).  A wrong
    code is refused naming the kind of code typed, else ``kind``, else the game's."""
    lang = language(request)
    if session(request) is None:  # the code is kept with who gave it
        say(request, translate(lang, "tournament.web.code_sign_in"), True)
        return back_to(here)
    # A person's own wrong codes, and those typed for this game at this address, hold
    # back only them; the address's ceiling (a flood) holds back everyone there.
    try:
        side = await typed_side(request, tid, game, typed)
    except TournamentError as error:
        say(request, error_text(lang, error), True)
        return back_to(here)
    if side is None:
        say(request, error_text(lang, wrong_code(game, typed, kind)), True)
        request.session[WRONG_CODE] = True  # the code's field is what the refusal is about
        return back_to(here)
    seat = seat_of(game, typed[:CODE_READ])
    if seat is not None:
        _remember(request, tid, game, game.codes[seat[0]][seat[1]])
        say(request, translate(lang, "tournament.web.code_ok", player=game.lineup[seat[0]][
            seat[1]], table=game.table, round=game.round))
        if game.table_id is not None and game.playing:
            return back_to(here)  # the page offers the seat at the online table
    else:
        _remember(request, tid, game, side_code(game, side))
        say(request, translate(lang, "tournament.web.side_code_ok", side=side_names(lang)[side],
                               players=" & ".join(game.lineup[side]), table=game.table,
                               round=game.round))
    return back_to(f"/tournaments/{tid}/games/{game.id}/entry")


async def enter_page(request: Request) -> Response:
    """The short form: a table's number and a code (a phone that did not scan); after a
    refused code, the table's number as typed (the code's field is focused)."""
    tid, t = await tournament(request)
    table = request.session.pop(ENTER_TABLE, None)
    wrong = request.session.pop(WRONG_CODE, None) is True
    return await render(request, "tournament_enter.html", tid=tid, tour=t,
                        table=table if isinstance(table, int) else None, wrong_code=wrong)


async def enter_post(request: Request) -> Response:
    tid, t = await tournament(request)
    data = await read_form(request)
    here = f"/tournaments/{tid}/enter"
    rnd = t.current
    try:
        number = form_value(data, "table").strip()
        typed = form_text(data, "code", CODE)
    except TournamentError as error:  # not a code at all: no guess counted
        say(request, error_text(language(request), error), True)
        return back_to(here)
    table = int(number) if WHOLE.fullmatch(number) else None
    game = next((g for g in (rnd.games if rnd else []) if not g.bye and g.table == table),
                None)
    if game is None:  # the number said back only when it is one (never a typed text)
        say(request, translate(language(request), "tournament.error.no_table_number",
                               table="?" if table is None else table), True)
        return back_to(here)
    # The short form asks for the code of the table card's half (its field says so).
    response = await _give_code(request, tid, t, game, typed, here, "table")
    if response.headers.get("location") == here:  # refused: the table was right
        request.session[ENTER_TABLE] = game.table
    return response


async def table_cards(request: Request) -> Response:
    """The table cards to print (organisers): one page per table of the current round, its
    players, and a half per side with the side's short code and its QR code."""
    tid, t = await tournament(request)
    if not await is_organiser(request, tid):
        return not_organiser(request, tid)
    t, games = await coded_games(request, tid, t)
    base = str(request.base_url).rstrip("/")
    halves = await asyncio.to_thread(_halves, tid, games, base)
    return await render(request, "tournament_table_cards.html", tid=tid, tour=t, games=games,
                        halves=halves, sides=side_names(language(request)),
                        enter=f"{base}/tournaments/{tid}/enter")


def _halves(tid: int, games: list[Game], base: str) -> dict[int, list[Half]]:
    """Per game, each side's (side, code as printed, QR code): the QR code opens the
    game's code page with the side code in the fragment (never sent to the server)."""
    import segno  # the server extra (README: dependencies)

    out: dict[int, list[Half]] = {}
    for game in games:
        rows = []
        for side in range(len(game.sides)):
            code = side_code(game, side)
            url = f"{base}/tournaments/{tid}/games/{game.id}/code#c={code}"
            svg = segno.make(url, error="m").svg_inline(scale=3, omitsize=False)
            rows.append((side, shown(code) if code else "", svg))
        out[game.id] = rows
    return out


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
