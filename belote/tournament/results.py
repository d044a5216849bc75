"""What a game's match totals score in each format.

==========================================  ===================================================
rule                                        source
==========================================  ===================================================
a game to a target is won by the side past  seed 001: "Le partite si vinceranno all'arrivo ai
the target and ahead                        1500 punti" (the scorekeeper's ``match_winner``)
Pinasca: winner's total + 2000 + what the   seed 001, :func:`belote.tournament.pinasca.
loser lacks to 1500; loser its own total    game_scores`
concours, mêlée, elimination: each side     house rule: the organiser ranks by wins then
scores its own match total                  points, or by points alone
over a fixed number of deals, equal totals  house rule; an elimination game needs a winner
are a draw
a bye scores the stated ``bye_points`` and  house rule (the organiser states the score); in
counts as a win                             a double elimination a bye only passes the round
==========================================  ===================================================
"""

from __future__ import annotations

from collections.abc import Sequence

from belote.tournament.model import Result, Settings, Source, TournamentError
from belote.tournament.pinasca import game_scores

MAX_TOTAL = 1_000_000  # no match reaches it; keeps scores inside the store's integers


def judge(settings: Settings, totals: Sequence[int], source: Source) -> Result:
    """The :class:`Result` of a game whose sides made ``totals``; refuses impossible totals
    (:class:`TournamentError`) with the reason."""
    if len(totals) != 2:
        raise TournamentError("two_totals")
    a, b = int(totals[0]), int(totals[1])
    if a < 0 or b < 0:
        raise TournamentError("negative_total")
    if max(a, b) > MAX_TOTAL:
        raise TournamentError("total_too_large", limit=MAX_TOTAL)
    if settings.deals is None:
        if max(a, b) < settings.target:
            raise TournamentError("below_target", target=settings.target)
        if a == b:
            raise TournamentError("tied_at_target")
        winner: int | None = 0 if a > b else 1
    else:
        winner = None if a == b else (0 if a > b else 1)
        if winner is None and settings.format == "double_elimination":
            raise TournamentError("elimination_draw")
    scores = (a, b)
    if settings.format == "pinasca":
        assert winner is not None  # a Pinasca game is always played to the target
        won, lost = game_scores(max(a, b), min(a, b), target=settings.target)
        scores = (won, lost) if winner == 0 else (lost, won)
    return Result((a, b), scores, winner, source)


def bye_result(settings: Settings) -> Result:
    winner = None if settings.format == "double_elimination" else 0
    return Result((settings.bye_points,), (settings.bye_points,), winner, "bye")
