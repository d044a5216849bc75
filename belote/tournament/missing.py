"""The tables a round still waits for: what the console lists live, what refuses a round's
close (and so the next draw), and what an organiser's forced close leaves unplayed.

One function, :func:`missing_games`, says which games are missing and why, so that every
reader (the ``closed`` check, the ``forced`` event, the console, the projector) agrees.  A
game has its result only when ``game.result`` is set; a kind of "missing" that a later
feature adds (a result entered but not yet confirmed by the other side) is one more
``why`` here, and every reader follows.

==============  =================================================================
``why``         the game
==============  =================================================================
``playing``     has no result yet (its table plays, or its result is not entered)
``unconfirmed`` has hands or totals entered by one side that the other side has not
                confirmed yet (:mod:`.claims`)
``disputed``    the other side disputed them: the organiser's queue decides
==============  =================================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from belote.tournament.model import Game
from belote.tournament.view import TournamentView

Why = Literal["playing", "unconfirmed", "disputed"]


@dataclass(frozen=True, slots=True)
class Missing:
    """A game of the open round whose result is not in, and why."""

    game: Game
    why: Why


def missing_games(t: TournamentView) -> list[Missing]:
    """The games of the current round, if it is open, whose result is not in (byes have
    theirs from the draw), by table."""
    rnd = t.current
    if rnd is None or rnd.closed:
        return []
    out = [Missing(game, _why(t, game)) for game in rnd.games
           if not game.bye and game.result is None]
    return sorted(out, key=lambda m: m.game.table)


def _why(t: TournamentView, game: Game) -> Why:
    claim = t.claims.get(game.id)
    if claim is None:
        return "playing"
    return "disputed" if claim.disputed else "unconfirmed"


def missing_tables(missing: list[Missing]) -> str:
    """The missing games' table numbers, as a refusal lists them ("1, 4, 7")."""
    return ", ".join(str(m.game.table) for m in missing)
