"""Seat codes: what identifies a tournament player at a game, since a name does not.

Each drawn player of a game gets a code of their own (``Game.codes``, beside ``Game.lineup``),
printed on the table card (with a QR code) and given at the table, or sent by the organiser
to a player of an online table.  The code, never a name typed at sign-in, lets a person score
that game with real cards or take that seat at its online table.  A substituted player gets
a new code (:func:`issue_codes`); the one they replace stops working.

An organiser may instead bind a player to an account (the ``bound`` event): signed in with
that account, the player is known at every game they are seated at (:func:`seat_of_account`),
with no code to type; a name typed at sign-in still proves nothing.

Codes are drawn with :mod:`secrets` from 31 characters that cannot be misread (no 0/O,
1/I/L): 8 of them, about 40 bits, compared in constant time (:func:`seat_of`); the room
limits the wrong ones per session, per game from an address and per address.  A code names a
place (side, seat in the side), never a name: names repeat (two pairs may each have a Marco).

**Side codes** (the table card's short code, issue 24): each side of a game also has a code
of 6 characters (about 30 bits, same alphabet), printed once per side on the table card
with its QR code, for a table that plays with real cards: it opens that table's score entry
for that side, and the *other* side's code (or seat code, or bound account) is what confirms
what one side entered.  It is not stored: it is a digest of the side's seat codes
(:func:`side_code`), so every game that has seat codes has side codes, old logs included, and
a substitution that gives a player a new seat code gives the side a new side code too (the
replaced player's stops working).  It cannot be turned back into a seat code, so it takes
no seat at an online table: a seat code still does (a seat code also opens its side's score
entry).  Shorter than a seat code, since it only scores a game, and guesses are limited per
game (20 in 10 minutes at an address: a day of guessing finds one in about 10**-5).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from typing import Any

from belote.tournament.model import Entrant, Game

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
LENGTH = 8
CODE = re.compile(f"[{ALPHABET}]{{{LENGTH}}}")
SIDE_LENGTH = 6


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def normalise(text: str) -> str:
    """A code as typed ("abcd-efgh", "ABCD EFGH") in its stored form."""
    return re.sub(r"[\s\-.]", "", str(text)).upper()[:2 * LENGTH]


def shown(code: str) -> str:
    """A code as printed: two groups ("ABCD-EFGH"; a side code "ABC-DEF")."""
    half = len(code) // 2
    return f"{code[:half]}-{code[half:]}"


def side_code(game: Game, side: int) -> str:
    """The short code of ``side`` of ``game`` ("" before the game has seat codes): a digest
    of the side's seat codes, in the codes' alphabet."""
    if side >= len(game.codes) or not game.codes[side]:
        return ""
    digest = hashlib.sha256(("side:" + ":".join(game.codes[side])).encode()).digest()
    number = int.from_bytes(digest[:16], "big")
    out = []
    for _ in range(SIDE_LENGTH):
        number, index = divmod(number, len(ALPHABET))
        out.append(ALPHABET[index])
    return "".join(out)


def side_of(game: Game, typed: str) -> int | None:
    """The side whose side code or seat code is ``typed``, or None; every code of the game
    is compared in constant time."""
    seat = seat_of(game, typed)
    wanted = normalise(typed).encode()
    found = None
    for side in range(len(game.codes)):
        code = side_code(game, side)
        if code and hmac.compare_digest(code.encode(), wanted):
            found = side
    return seat[0] if seat is not None else found


def fresh_codes(lineup: Any, before: tuple[tuple[str, ...], ...] = (),
                codes: tuple[tuple[str, ...], ...] = ()) -> list[list[str]]:
    """A code for each player of ``lineup``; a player still in the seat they held in
    ``before`` keeps their code in ``codes``."""
    out: list[list[str]] = []
    for side_no, side in enumerate(lineup):
        row = []
        for seat_no, player in enumerate(side):
            try:
                kept = codes[side_no][seat_no] if before[side_no][seat_no] == player else None
            except IndexError:
                kept = None
            row.append(kept or new_code())
        out.append(row)
    return out


def issue_codes(game_of: Any, kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """``data`` of a ``drawn`` or ``lineup`` event with the seat codes added (the service
    calls it before storing: the core itself draws nothing at random).  ``game_of`` finds a
    game by id (for a line-up, whose unchanged players keep their codes)."""
    data = dict(data)
    if kind == "drawn":
        games = []
        for item in data.get("games") or []:
            item = dict(item)
            if len(item.get("sides") or ()) == 2 and "codes" not in item:
                item["codes"] = fresh_codes(item.get("lineup") or ())
            games.append(item)
        data["games"] = games
    elif kind == "lineup" and "codes" not in data and isinstance(data.get("lineup"), list):
        try:
            game: Game | None = game_of(data.get("game"))
        except Exception:
            game = None  # the check refuses it, with its reason
        lineup = [[" ".join(str(p).split()) for p in side] for side in data["lineup"]
                  if isinstance(side, list)]
        if game is not None:
            data["codes"] = fresh_codes(lineup, game.lineup, game.codes)
    return data


def valid_codes(codes: Any, lineup: Any) -> bool:
    """Codes shaped as the line-up, each a well-formed code."""
    return (isinstance(codes, list) and len(codes) == len(lineup)
            and all(isinstance(side, list) and len(side) == len(players)
                    and all(isinstance(c, str) and CODE.fullmatch(c) for c in side)
                    for side, players in zip(codes, lineup, strict=False)))


def seat_of(game: Game, typed: str) -> tuple[int, int] | None:
    """The (side, seat in the side) whose code is ``typed``, or None.  Every code of the game
    is compared, each in constant time, so that the answer's time tells nothing."""
    wanted = normalise(typed).encode()
    found = None
    for side_no, side in enumerate(game.codes):
        for seat_no, code in enumerate(side):
            if hmac.compare_digest(code.encode(), wanted):
                found = (side_no, seat_no)
    return found


def seat_of_account(game: Game, entrants: dict[int, Entrant],
                    account: str) -> tuple[int, int] | None:
    """The (side, seat in the side) of ``game`` whose player an organiser bound to
    ``account`` (a name key), or None.

    By position, never by a name alone (names are not unique: two pairs may each have a
    Marco): the draw seats a side's entrants' players in order (``formats._lineup``), so
    seat ``k`` of a side is the ``k``-th of them, bound if that very player still sits
    there.  A line-up that moved the bound player to another seat of the side is followed
    only where their name is there exactly once; anything ambiguous is None (the player
    gives their seat code)."""
    if not account:
        return None
    found: set[tuple[int, int]] = set()
    for side_no, side in enumerate(game.lineup):
        ids = game.sides[side_no] if side_no < len(game.sides) else ()
        places = [(entrants[e], position) for e in ids if e in entrants
                  for position in range(len(entrants[e].players))]
        for k, (entrant, position) in enumerate(places):
            if entrant.account(position) != account:
                continue
            name = entrant.players[position]
            if k < len(side) and side[k] == name:
                found.add((side_no, k))
                continue
            seats = [n for n, player in enumerate(side) if player == name]
            if len(seats) == 1:
                found.add((side_no, seats[0]))
    return found.pop() if len(found) == 1 else None
