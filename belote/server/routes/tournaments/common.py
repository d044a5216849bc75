"""What every tournament page needs: the tournament asked for, who asks (an organiser, the
holder of a seat), its form's fields read and bounded, the notice the previous form left,
and the page rendered off the loop.

Every field of a tournament form is read here (:func:`form_text`, :func:`form_lines`,
:func:`form_int`, :func:`form_choice`), so that bad input gets one treatment whatever the
form: a field sent twice, a number that is not a few ASCII digits, a text over its bound or
holding a control character or a direction override, a choice the form does not offer, are
refused with a ``TournamentError`` that says why (said on the page; nothing is changed).
The bounds are the core's (:mod:`belote.tournament.events`): the same texts are checked
there again before they are stored, and the templates' ``maxlength`` agree with them.  A
refusal never repeats a bad text whole (the notice travels in the session cookie).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Collection
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
from belote.tournament.events import MAX_ENTRANTS, MAX_NAME, MAX_REASON, Tournament
from belote.tournament.model import Game, TournamentError
from belote.tournament.prizes import MAX_PRIZE_TEXT, MAX_PRIZES

SESSION_CODES = 8  # seat codes one browser remembers (the latest kept)
ACCOUNT_NAME = 64  # characters of an account name typed by an organiser (names have 24)
SEATS = (("seat.north", "seat.south"), ("seat.east", "seat.west"))  # side 0: N-S, 1: E-W

# The bounds of a form's texts, in characters (as the core counts them: NFC, spaces
# collapsed).  The templates' maxlength attributes are these.
NAME = MAX_NAME  # a tournament's, an entrant's, a player's, a club's, a season's name
REASON = MAX_REASON  # a reason: a correction's, a withdrawal's, a dispute's, a decision's
PRIZE = MAX_PRIZE_TEXT  # one prize of the list
CODE = 32  # a seat code or a side code as typed (6 to 8 letters, with dashes and spaces)
# One answer of the score entry (a team, a suit, points, declarations in words: "terza +
# poker di fanti + belote").  Declarations are read trying every run of words (cubic in
# their number): 64 characters, 32 words at most, stay within a few milliseconds.
ANSWER = 64
CHOICE = 32  # one of a form's choices (a format, a setting, an action)
IDENTITY = 2 * MAX_NAME + 8  # a season's player: "name:" or "account:" and a name
NAME_LINES = MAX_ENTRANTS  # the entrants a prize's category covers, one a line
PRIZE_LINES = MAX_PRIZES  # the places' prizes, one a line
# A text is first measured as sent, before any work on it: longer than this many times its
# bound it cannot be within it, whatever its spaces and combining accents.
SLACK = 4
WHOLE = re.compile(r"[+-]?[0-9]{1,9}")  # ASCII digits, nine at most: any integer column


def service(request: Request) -> Tournaments:
    return shared(request).tournaments.service


def form_value(data: FormData, name: str) -> str:
    """The field ``name`` as sent ("" when the form has none).  A field sent twice is
    refused: no form of ours sends one twice, and which of the two counts would be a
    guess."""
    values = data.getlist(name)
    if len(values) > 1:
        raise TournamentError("repeated_field")
    value = values[0] if values else ""
    if not isinstance(value, str):  # a file where a field was expected
        raise TournamentError("bad_form")
    return value


def form_text(data: FormData, name: str, limit: int = NAME) -> str:
    """A one-line text field through the chat's text checks (:func:`belote.text.clean_text`:
    NFC, spaces collapsed, no control character, no direction override, at most ``limit``
    characters); "" when empty."""
    return _checked(form_value(data, name), limit)


def form_lines(data: FormData, name: str, limit: int, lines: int) -> list[str]:
    """A field of one item a line (a prize, a name): each line checked as
    :func:`form_text` checks a field (empty lines kept as ""), at most ``lines`` lines."""
    rows = form_value(data, name).splitlines()
    while rows and not rows[-1].strip():
        rows.pop()
    if len(rows) > lines:
        raise TournamentError("too_many_lines", limit=lines)
    return [_checked(row, limit) for row in rows]


def _checked(text: str, limit: int) -> str:
    """``text`` cleaned ("" when empty), or refused in the tournament's words.  A huge text
    is refused before it is looked at."""
    if len(text) > SLACK * limit:
        raise TournamentError("text_too_long", limit=limit)
    try:
        return clean_text(text, limit)
    except TextError as error:
        if error.code == "empty":
            return ""
        if error.code == "too_long":
            raise TournamentError("text_too_long", limit=limit) from None
        raise TournamentError("bad_text") from None


def form_choice(data: FormData, name: str, choices: Collection[str],
                default: str | None = None) -> str:
    """One of ``choices`` (``default`` when the field is missing or empty, if given)."""
    value = form_value(data, name)
    if not value and default is not None:
        return default
    if value not in choices:
        raise TournamentError("bad_choice")
    return value


def form_int(data: FormData, name: str) -> int:
    """A whole number: an optional sign and at most nine ASCII digits (no exponent, no
    underscore, no other script's digits), so that it fits any integer column."""
    text = form_value(data, name).strip()
    if not WHOLE.fullmatch(text):
        raise TournamentError("bad_form")
    return int(text)


def optional_int(data: FormData, name: str) -> int | None:
    return None if not form_value(data, name).strip() else form_int(data, name)


def account_name(data: FormData, field: str) -> str:
    """An account name typed by an organiser, through the chat's text checks before it is
    looked up ("" when empty): a NUL or an override never reaches the database."""
    return form_text(data, field, ACCOUNT_NAME)



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
