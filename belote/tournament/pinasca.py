"""The Pinasca tournament (seed 001): the neighbourhood ranking (game scores: a rule).

=====================================  ==========================================================
rule                                   regulation sentence (seed 001)
=====================================  ==========================================================
a game's score                         belote.rules.game_score (a rule: its own table there)
the neighbourhood's total: every       "Per la classifica finale saranno sommati i punti di tutte
game of both its pairs                 le partite di entrambe le squadre di quartiere."
ranking points 5, 3, 2, last 1         "alla 1a squadra classificata verranno assegnati 5 punti
                                       ... alla 2a ... 3 punti ... alla 3a ... 2 punti ...
                                       all'ultima squadra classificata verrà assegnato 1 punto"
organiser adjustments, with a reason   "i punteggi sopra indicati possono essere modificati con
                                       il "Potere della Girandola" o la "Maledizione del
                                       Framasun""
=====================================  ==========================================================

Readings (the regulation is written for four neighbourhoods): places below the 3rd score
:data:`OTHER_PLACE_POINTS` (1, as the last); equal totals share the better place and its points
(competition ranking 1, 2, 2, 4); the order of equal totals is by name, for a stable list.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

# A game's score is a rule (belote.rules.game_score), read by the scorekeeper too.
from belote.rules.game_score import TARGET, WIN_BONUS, game_scores

# Ranking points of the 1st, 2nd and 3rd place; every place below scores OTHER_PLACE_POINTS.
PLACE_POINTS: tuple[int, ...] = (5, 3, 2)
OTHER_PLACE_POINTS = 1


@dataclass(frozen=True, slots=True)
class Adjustment:
    """An organiser's change to a neighbourhood's ranking points, with its stated reason
    (the seed's "Potere della Girandola", "Maledizione del Framasun")."""

    team: str
    points: int
    reason: str


@dataclass(frozen=True, slots=True)
class Standing:
    team: str
    total: int  # the sum of every game of both its pairs
    place: int  # 1 = first; equal totals share a place
    base_points: int  # ranking points of the place
    adjustments: tuple[Adjustment, ...]

    @property
    def points(self) -> int:
        """Ranking points after the organiser's adjustments."""
        return self.base_points + sum(a.points for a in self.adjustments)


def place_points(place: int) -> int:
    """Ranking points of a place (1-based)."""
    return PLACE_POINTS[place - 1] if place <= len(PLACE_POINTS) else OTHER_PLACE_POINTS


def ranking(totals: Mapping[str, int], adjustments: Sequence[Adjustment] = ()) -> list[Standing]:
    """The neighbourhoods from first to last with their ranking points."""
    for adj in adjustments:
        if adj.team not in totals:
            raise ValueError(f"adjustment for {adj.team!r}, which is not in the ranking")
        if not adj.reason.strip():
            raise ValueError(f"the adjustment of {adj.points} for {adj.team!r} needs a reason")
    ordered = sorted(totals.items(), key=lambda item: (-item[1], item[0]))
    standings: list[Standing] = []
    for index, (team, total) in enumerate(ordered):
        place = standings[-1].place if standings and standings[-1].total == total else index + 1
        standings.append(Standing(team, total, place, place_points(place),
                                  tuple(a for a in adjustments if a.team == team)))
    return standings


__all__ = [
    "OTHER_PLACE_POINTS",
    "PLACE_POINTS",
    "TARGET",
    "WIN_BONUS",
    "Adjustment",
    "Standing",
    "game_scores",
    "place_points",
    "ranking",
]
