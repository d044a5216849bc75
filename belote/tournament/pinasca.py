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

Readings (the regulation is written for four neighbourhoods, and says nothing of ties):

* the points go by place, 5, 3, 2 to the first three places, and every place below the third
  scores :data:`OTHER_PLACE_POINTS` (1, "all'ultima"): with 2 neighbourhoods 5 and 3, with 3
  5, 3 and 2 (the last is also a podium place: it keeps the place's points, not 1), with 5 or
  more 5, 3, 2, 1, 1, ...;
* equal totals share the better place and its points (competition ranking 1, 2, 2, 4: two
  second places score 3 each, the next is 4th and scores 1); a tie for last shares the last
  place (two last of four are both 3rd: 2 points each);
* unless the organiser chose tie-breaks (:mod:`belote.tournament.tiebreaks`, none by default):
  those apply first, and only subjects equal on the total and every tie-break share;
* the order of equal subjects is by name, for a stable list.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

# A game's score is a rule (belote.rules.game_score), read by the scorekeeper too.
from belote.rules.game_score import TARGET, WIN_BONUS, game_scores
from belote.tournament.tiebreaks import TIEBREAKS

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
    tiebreaks: tuple[int | None, ...] = ()  # the chosen tie-breaks' figures, as shown

    @property
    def points(self) -> int:
        """Ranking points after the organiser's adjustments."""
        return self.base_points + sum(a.points for a in self.adjustments)


def place_points(place: int) -> int:
    """Ranking points of a place (1-based)."""
    return PLACE_POINTS[place - 1] if place <= len(PLACE_POINTS) else OTHER_PLACE_POINTS


def ranking(totals: Mapping[str, int], adjustments: Sequence[Adjustment] = (),
            figures: Mapping[str, tuple[int | None, ...]] | None = None,
            chosen: Sequence[str] = ()) -> list[Standing]:
    """The neighbourhoods from first to last with their ranking points; ``figures``: each
    one's tie-break figures (higher is better; :func:`belote.tournament.tiebreaks.
    break_ties`), which order equal totals before the name."""
    for adj in adjustments:
        if adj.team not in totals:
            raise ValueError(f"adjustment for {adj.team!r}, which is not in the ranking")
        if not adj.reason.strip():
            raise ValueError(f"the adjustment of {adj.points} for {adj.team!r} needs a reason")
    def key(team: str) -> tuple[int, ...]:
        found = figures.get(team, ()) if figures is not None else ()
        return (-totals[team], *(-(v or 0) for v in found))
    ordered = sorted(totals, key=lambda team: (key(team), team))
    standings: list[Standing] = []
    previous: tuple[int, ...] | None = None
    for index, team in enumerate(ordered):
        place = standings[-1].place if standings and key(team) == previous else index + 1
        previous = key(team)
        standings.append(Standing(team, totals[team], place, place_points(place),
                                  tuple(a for a in adjustments if a.team == team),
                                  _shown(chosen, figures.get(team, ()) if figures else ())))
    return standings


def _shown(chosen: Sequence[str], found: tuple[int | None, ...]) -> tuple[int | None, ...]:
    """The figures as the standings show them (the drawing of lots: its place, 1 first)."""
    return tuple(None if v is None else TIEBREAKS[name].shown(v)
                 for name, v in zip(chosen, found, strict=False))


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
