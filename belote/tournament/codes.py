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
"""

from __future__ import annotations

import hmac
import re
import secrets
from typing import Any

from belote.tournament.model import Entrant, Game

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
LENGTH = 8
CODE = re.compile(f"[{ALPHABET}]{{{LENGTH}}}")


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def normalise(text: str) -> str:
    """A code as typed ("abcd-efgh", "ABCD EFGH") in its stored form."""
    return re.sub(r"[\s\-.]", "", str(text)).upper()[:2 * LENGTH]


def shown(code: str) -> str:
    """A code as printed: two groups of four ("ABCD-EFGH")."""
    return f"{code[:4]}-{code[4:]}"


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
