"""Each entrant's record, the order by record, and the standings lines built from it: the
pieces the formats' standings are made of (:mod:`belote.tournament.formats`; the public
entry points, which ask the format, are in :mod:`belote.tournament.standings`).

==========================================  ===================================================
rule                                        source
==========================================  ===================================================
by wins then points, or by points alone     the organiser's choice (``rank_by``)
tiebreak: the opponents' wins (Buchholz),   house rule (the Swiss custom), then the name so
then the name                               that the list is stable
an adjustment of an entrant                 added to the entrant's points, with a reason
==========================================  ===================================================
"""

from __future__ import annotations

from dataclasses import dataclass, field

from belote.tournament.view import TournamentView


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


def entrant_records(t: TournamentView, adjusted: bool) -> dict[int, Record]:
    """Every entrant's record over the games with a result (byes included); ``adjusted``:
    the organiser's adjustments named after an entrant are added to its points."""
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
    if adjusted:
        by_name = {e.name: e.id for e in t.entrants.values()}
        for adj in t.adjustments:
            if adj.subject in by_name:
                records[by_name[adj.subject]].points += adj.points
    return records


def buchholz(records: dict[int, Record], entrant: int) -> int:
    return sum(records[o].wins for o in records[entrant].opponents)


def sort_key(t: TournamentView, records: dict[int, Record], entrant: int) -> tuple[int, ...]:
    rec = records[entrant]
    if t.s.rank_by == "points":
        return (-rec.points, -buchholz(records, entrant))
    return (-(2 * rec.wins + rec.draws), -rec.points, -buchholz(records, entrant))


def order_entrants(t: TournamentView, records: dict[int, Record]) -> list[int]:
    """The entrants from first to last by their ``records``."""
    return sorted(t.entrants, key=lambda e: (sort_key(t, records, e), t.entrants[e].name))


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the standings: a place (shared by equals), a name, the figures."""

    place: int
    name: str
    record: Record | None
    total: int
    points: int | None = None  # ranking points (Pinasca), when the format gives them


def record_lines(t: TournamentView, records: dict[int, Record]) -> list[Line]:
    """The standings of entrants ranked by their records (equal keys share a place)."""
    lines: list[Line] = []
    previous: tuple[int, ...] | None = None
    for index, entrant in enumerate(order_entrants(t, records)):
        key = sort_key(t, records, entrant)
        place = lines[-1].place if lines and key == previous else index + 1
        previous = key
        rec = records[entrant]
        lines.append(Line(place, t.entrants[entrant].name, rec, rec.points))
    return lines
