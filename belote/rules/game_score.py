"""The Pinasca game score (seed 001): what a won game scores in a Pinasca tournament.

A rule of the game, read by every layer that scores a Pinasca game: the scorekeeper (a
finished match's sheet) and the tournament (a game's result), so neither imports the other
for it.

=====================================  ==========================================================
rule                                   regulation sentence (seed 001)
=====================================  ==========================================================
a game is won at the target (1500)     "Le partite si vinceranno all'arrivo ai 1500 punti."
the winner scores its total + 2000     "Ad ogni partita vinta si sommeranno ai 1500 della
+ what the loser lacks to the target   vittoria un bonus di 2000 punti, in aggiunta ai punti che
                                       mancano all'avversario per arrivare a 1500"
the loser scores its own total         "La Squadra B segnerà 1200 punti, la Squadra A segnerà
                                       1500+2000+300 per un totale di 3800 punti"
past the target: the winner's whole    "Nel caso che la squadra vincitrice superi la soglia dei
total, the difference still from 1500  1500 punti, verranno accreditati il totale dei punti
                                       fatti, ma la differenza con l'altra squadra verrà
                                       calcolata sempre sulla base dei 1500."
a loser past 1500 adds nothing         RULES.md *(reading)*: "1500 - loser's total, floored at 0"
(floor at 0)
=====================================  ==========================================================
"""

from __future__ import annotations

TARGET = 1500
WIN_BONUS = 2000


def game_scores(winner_total: int, loser_total: int, target: int = TARGET,
                bonus: int = WIN_BONUS, floor_at_zero: bool = True) -> tuple[int, int]:
    """(winner's game score, loser's game score) of a won game.

    >>> game_scores(1500, 1200)
    (3800, 1200)
    >>> game_scores(1620, 1200)
    (3920, 1200)
    """
    if winner_total < 0 or loser_total < 0:
        raise ValueError(f"match totals cannot be negative ({winner_total}, {loser_total})")
    if winner_total < target:
        raise ValueError(f"a won game reaches the target {target}; the winner has {winner_total}")
    if loser_total >= winner_total:
        raise ValueError(f"the winner ({winner_total}) must be ahead of the loser ({loser_total})")
    missing = target - loser_total
    if floor_at_zero:  # RULES.md reading: a loser past the target takes nothing away
        missing = max(0, missing)
    return winner_total + bonus + missing, loser_total


__all__ = ["TARGET", "WIN_BONUS", "game_scores"]
