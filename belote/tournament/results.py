"""What a game's match totals score: the checks every format shares, then the format's own
game scores (:meth:`~belote.tournament.formats.TournamentFormat.game_scores`).

==========================================  ===================================================
rule                                        source
==========================================  ===================================================
a game to a target is won by the side past  seed 001: "Le partite si vinceranno all'arrivo ai
the target and ahead                        1500 punti" (the scorekeeper's ``match_winner``)
Pinasca: winner's total + 2000 + what the   seed 001 (:mod:`belote.tournament.formats.
loser lacks to 1500; loser its own total    pinasca`)
other formats: each side scores its own     house rule: the organiser ranks by wins then
match total                                 points, or by points alone
over a fixed number of deals, equal totals  house rule; a format may refuse draws (double
are a draw                                  elimination: a game needs a winner)
a bye scores the stated ``bye_points`` and  house rule (the organiser states the score); a
counts as a win                             format may say a bye only passes the round
typed or reported totals are plausible      issue 24: bounded by the target and what the
                                            deals allow (:mod:`belote.tournament.plausible`)
==========================================  ===================================================
"""

from __future__ import annotations

from collections.abc import Sequence

from belote.tournament.formats import find_format
from belote.tournament.model import Result, Settings, Source, TournamentError
from belote.tournament.plausible import check_plausible

MAX_TOTAL = 1_000_000  # no match reaches it; keeps scores inside the store's integers


def judge(settings: Settings, totals: Sequence[int], source: Source, *,
          plausible: bool = False) -> Result:
    """The :class:`Result` of a game whose sides made ``totals``; refuses impossible totals
    (:class:`TournamentError`) with the reason.  ``plausible``: also the bounds of
    :mod:`belote.tournament.plausible` (every check of a new result asks for them; a stored
    event's replay does not, so that a log written before them still loads)."""
    if len(totals) != 2:
        raise TournamentError("two_totals")
    fmt = find_format(settings.format)
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
        if winner is None and not fmt.allows_draws:
            raise TournamentError("elimination_draw")
    if plausible:
        check_plausible(settings, (a, b), source)
    return Result((a, b), fmt.game_scores(settings, (a, b), winner), winner, source)


def bye_result(settings: Settings) -> Result:
    winner = 0 if find_format(settings.format).bye_is_win else None
    return Result((settings.bye_points,), (settings.bye_points,), winner, "bye")
