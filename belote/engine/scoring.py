"""Scoring a finished hand (RULES.md "Scoring a hand"), driven by the rules' flags."""

from __future__ import annotations

from dataclasses import dataclass

from belote.rules.base import Rules


@dataclass(frozen=True, slots=True)
class HandOutcome:
    outcome: str  # "made", "failed" or "litige"
    capot_team: int | None
    card_points: tuple[int, int]  # after the capot bonus
    scores: tuple[int, int]  # what each team adds to its match total now
    pot: int  # points left at stake for the next hand
    pot_winner: int | None  # the team that took an earlier pot with this hand
    pot_won: int


def score_hand(
    rules: Rules,
    taker_team: int,
    card_points: tuple[int, int],
    tricks_won: tuple[int, int],
    belote: tuple[int, int],
    pot: int,
) -> HandOutcome:
    """Score one hand.

    Seed 002: the takers need at least 82 and more than the defenders, belote counted; if not,
    the defenders score 162 and the takers 0; on a tie the defenders score theirs and the
    takers' points go to the winner of the next hand.  Belote always stays with its team and
    never goes into the pot.  Capot (every trick) is worth 252.
    """
    tt, dt = taker_team, 1 - taker_team
    points = list(card_points)
    capot_team = next((t for t in (0, 1) if tricks_won[t] == 8), None)
    if capot_team is not None:
        points[capot_team], points[1 - capot_team] = rules.capot_points, 0
    counted = belote if rules.belote_counts_for_contract else (0, 0)
    takers = points[tt] + counted[tt]
    defenders = points[dt] + counted[dt]
    scores = [belote[0], belote[1]]
    new_pot = 0
    if takers == defenders:
        outcome = "litige"
        scores[dt] += points[dt]
        new_pot = points[tt]
    elif takers >= rules.taker_min_points and (
        takers > defenders or not rules.taker_must_beat_defenders
    ):
        outcome = "made"
        scores[tt] += points[tt]
        scores[dt] += points[dt]
    else:
        outcome = "failed"
        scores[dt] += rules.capot_points if capot_team == dt else rules.failed_defenders_points
    pot_winner: int | None = None
    pot_won = 0
    if outcome == "litige":
        new_pot += pot
    elif pot:
        pot_winner = tt if outcome == "made" else dt
        pot_won = pot
        scores[pot_winner] += pot
    return HandOutcome(
        outcome=outcome,
        capot_team=capot_team,
        card_points=(points[0], points[1]),
        scores=(scores[0], scores[1]),
        pot=new_pot,
        pot_winner=pot_winner,
        pot_won=pot_won,
    )
