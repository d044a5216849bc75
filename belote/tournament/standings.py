"""Standings: each entrant's record, the order of the entrants, and the Pinasca ranking.

==========================================  ===================================================
rule                                        source
==========================================  ===================================================
Pinasca: a neighbourhood's total sums       seed 001: "saranno sommati i punti di tutte le
every game of both its pairs                partite di entrambe le squadre di quartiere"
Pinasca: 5/3/2 points to the first three,   seed 001, :func:`belote.tournament.pinasca.ranking`
1 to the last; organiser adjustments        ("Girandola", "Framasun"), each with a reason
concours, mêlée: by wins then points, or    the organiser's choice (``rank_by``)
by points alone
tiebreak: the opponents' wins (Buchholz),   house rule (the Swiss custom), then the name so
then the name                               that the list is stable
adjustments outside Pinasca                 added to the entrant's points, with a reason
==========================================  ===================================================
"""

from __future__ import annotations

from dataclasses import dataclass, field

from belote.tournament.events import Tournament
from belote.tournament.pinasca import Adjustment as PinascaAdjustment
from belote.tournament.pinasca import Standing as PinascaStanding
from belote.tournament.pinasca import ranking


@dataclass
class Record:
    entrant: int
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    points: int = 0
    opponents: list[int] = field(default_factory=list)


def entrant_records(t: Tournament) -> dict[int, Record]:
    """Every entrant's record over the games with a result (byes included)."""
    records = {e: Record(e) for e in t.entrants}
    for game in t.games():
        result = game.result
        if result is None:
            continue
        for index, side in enumerate(game.sides):
            for entrant in side:
                rec = records[entrant]
                rec.points += result.scores[index]
                if game.bye:
                    rec.byes += 1
                else:
                    rec.played += 1
                    rec.opponents.extend(game.sides[1 - index])
                if result.winner is None:
                    rec.draws += 0 if game.bye else 1
                elif result.winner == index:
                    rec.wins += 1
                else:
                    rec.losses += 1
    if t.settings is not None and t.s.format != "pinasca":
        by_name = {e.name: e.id for e in t.entrants.values()}
        for adj in t.adjustments:
            if adj.subject in by_name:
                records[by_name[adj.subject]].points += adj.points
    return records


def buchholz(records: dict[int, Record], entrant: int) -> int:
    return sum(records[o].wins for o in records[entrant].opponents)


def sort_key(t: Tournament, records: dict[int, Record], entrant: int) -> tuple[int, ...]:
    rec = records[entrant]
    if t.s.rank_by == "points":
        return (-rec.points, -buchholz(records, entrant))
    return (-(2 * rec.wins + rec.draws), -rec.points, -buchholz(records, entrant))


def order_entrants(t: Tournament) -> list[int]:
    """The entrants from first to last."""
    records = entrant_records(t)
    return sorted(t.entrants, key=lambda e: (sort_key(t, records, e), t.entrants[e].name))


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the standings: a place (shared by equals), a name, the figures."""

    place: int
    name: str
    record: Record | None
    total: int
    points: int | None = None  # Pinasca ranking points


def standings(t: Tournament) -> list[Line]:
    """The standings of the tournament's format."""
    if t.s.format == "pinasca":
        return [Line(s.place, s.team, None, s.total, s.points) for s in pinasca_ranking(t)]
    records = entrant_records(t)
    lines: list[Line] = []
    previous: tuple[int, ...] | None = None
    for index, entrant in enumerate(order_entrants(t)):
        key = sort_key(t, records, entrant)
        place = lines[-1].place if lines and key == previous else index + 1
        previous = key
        rec = records[entrant]
        lines.append(Line(place, t.entrants[entrant].name, rec, rec.points))
    return lines


def pinasca_ranking(t: Tournament) -> list[PinascaStanding]:
    """Seed 001's ranking of the neighbourhoods, with the organiser's adjustments."""
    records = entrant_records(t)
    totals = {club: sum(records[p.id].points for p in pairs) for club, pairs in t.clubs().items()}
    adjustments = [PinascaAdjustment(a.subject, a.points, a.reason) for a in t.adjustments]
    return ranking(totals, adjustments)
