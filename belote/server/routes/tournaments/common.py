"""What every tournament page needs: the tournament asked for, who asks (an organiser, the
holder of a seat), the notice the previous form left, and the page rendered off the loop."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from belote.i18n import translate
from belote.server.routes.common import language, session
from belote.server.routes.pages import render as render_page
from belote.server.shared import shared
from belote.server.tournament.service import Tournaments
from belote.text import TextError, clean_text
from belote.tournament.codes import fresh_codes, seat_of, seat_of_account
from belote.tournament.events import Tournament
from belote.tournament.model import Game, TournamentError

SESSION_CODES = 8  # seat codes one browser remembers (the latest kept)
ACCOUNT_NAME = 64  # characters of an account name typed by an organiser (names have 24)
SEATS = (("seat.north", "seat.south"), ("seat.east", "seat.west"))  # side 0: N-S, 1: E-W


def service(request: Request) -> Tournaments:
    return shared(request).tournaments.service


def form_int(data: FormData, name: str) -> int:
    try:
        return int(str(data.get(name, "")).strip())
    except ValueError:
        raise TournamentError("bad_form") from None


def optional_int(data: FormData, name: str) -> int | None:
    return None if not str(data.get(name, "")).strip() else form_int(data, name)


def account_name(data: FormData, field: str) -> str:
    """An account name typed by an organiser, through the chat's text checks before it is
    looked up ("" when empty): a NUL or an override never reaches the database."""
    text = str(data.get(field, "")).strip()
    if not text:
        return ""
    try:
        return clean_text(text, ACCOUNT_NAME)
    except TextError:
        raise TournamentError("bad_text") from None


def say(request: Request, text: str, error: bool = False) -> None:
    """A notice for the next tournament page (shown once)."""
    request.session["tournament_flash"] = [text, error]


def back_to(to: str) -> Response:
    return RedirectResponse(to, status_code=303)


async def render(request: Request, template: str, status: int = 200,
                 **values: Any) -> Response:
    """The page, rendered in a worker thread: a big tournament's console (every entrant,
    game and audit line) would hold the event loop for tens of milliseconds."""
    flash = request.session.pop("tournament_flash", None)
    return await asyncio.to_thread(render_page, request, template, status=status,
                                   notice=flash, **values)


async def tournament(request: Request) -> tuple[int, Tournament]:
    """The tournament of the path (404 if there is none)."""
    tid = int(request.path_params["tid"])
    try:
        return tid, await service(request).get(tid)
    except TournamentError:
        raise HTTPException(404) from None


def game_or_404(t: Tournament, request: Request) -> Game:
    try:
        return t.game(int(request.path_params["gid"]))
    except TournamentError:
        raise HTTPException(404) from None


async def is_organiser(request: Request, tid: int) -> bool:
    row = session(request)
    if row is None or row.account is None:
        return False
    return row.name_key in await service(request).store.organisers(tid)


def not_organiser(request: Request, tid: int) -> Response:
    """An organisers' page asked by someone else: the public standings, saying why."""
    say(request, translate(language(request), "tournament.error.not_organiser"), True)
    return back_to(f"/tournaments/{tid}/standings")


def who(request: Request) -> str:
    """The name an organiser's change is logged under."""
    row = session(request)
    return row.name if row is not None else ""


def seat_held(request: Request, tid: int, t: Tournament,
              game: Game) -> tuple[int, int] | None:
    """The seat of ``game`` that this person holds: by the seat code this browser gave
    (still that seat's), or by the account an organiser bound to the seat's player."""
    codes = request.session.get("tournament_codes")
    code = codes.get(f"{tid}/{game.id}") if isinstance(codes, dict) else None
    if isinstance(code, str) and game.codes:
        found = seat_of(game, code)
        if found is not None:
            return found
    row = session(request)
    if row is None or row.account is None:
        return None
    return seat_of_account(game, t.entrants, row.name_key)


async def coded_games(request: Request, tid: int, t: Tournament) -> tuple[Tournament, list[Game]]:
    """The current round's games to print table cards for, each with its codes (a game
    drawn before games had codes gets them now, recorded), and the tournament after."""
    for game in (t.current.games if t.current else []):
        if not game.bye and not game.codes and game.playing:  # drawn before codes existed
            with contextlib.suppress(TournamentError):  # its round closed meanwhile
                await service(request).change(tid, "codes", {
                    "game": game.id, "codes": fresh_codes(game.lineup)}, who(request))
    t = await service(request).get(tid)
    return t, [g for g in (t.current.games if t.current else []) if not g.bye]
