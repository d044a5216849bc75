"""Best-of-3 matches ("2 partite ai 1500 con eventuale bella"): a table's match is won by the
first side to win two games; the third game (la bella) is played only if each side has won
one.

==========================================  ===================================================
rule                                        source
==========================================  ===================================================
the first side to win 2 games wins the      the Valdostan custom ("2 partite ai 1500 con
match; a third game only if needed          eventuale bella"), ``Settings.best_of`` = 3
each game is judged as a single game is     :func:`belote.tournament.results.judge` (to the
(its totals, its game scores)               target: a game needs a winner)
the match's totals and scores: the sums     house rule: the standings' points count every
over its games; its winner: the match's     game played; wins and losses count matches
a corrected game makes the match's result   house rule (as a single game's correction): the
a correction (source ``organiser``, the     exports show the reasons and the origin replaced
games' reasons, the origin it replaced)
==========================================  ===================================================
"""

from __future__ import annotations

from collections.abc import Sequence

from belote.tournament.model import Result


def wins_needed(best_of: int) -> int:
    return best_of // 2 + 1


def match_result(legs: Sequence[Result], best_of: int) -> Result | None:
    """The match's result once a side has won enough games; None while it goes on."""
    wins = [0, 0]
    for leg in legs:
        if leg.winner is not None:
            wins[leg.winner] += 1
    needed = wins_needed(best_of)
    if max(wins) < needed:
        return None
    totals = tuple(sum(leg.totals[side] for leg in legs) for side in (0, 1))
    scores = tuple(sum(leg.scores[side] for leg in legs) for side in (0, 1))
    winner = 0 if wins[0] >= needed else 1
    fixed = [leg for leg in legs if leg.source == "organiser"]
    if fixed:
        # A corrected game makes the match a corrected result: its reasons, and the origin
        # the (last) correction replaced, as a single game's correction shows them.
        return Result(totals, scores, winner, "organiser",
                      reason="; ".join(leg.reason for leg in fixed if leg.reason),
                      replaced=fixed[-1].replaced)
    return Result(totals, scores, winner, legs[-1].source)


def decided_before_last(legs: Sequence[Result], best_of: int) -> bool:
    """Whether the match was won before its last game (that game should not exist)."""
    return len(legs) > 1 and match_result(legs[:-1], best_of) is not None
