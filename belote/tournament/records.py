"""Each entrant's record, the order by record, and the standings lines built from it: the
pieces the formats' standings are made of (:mod:`belote.tournament.formats`; the public
entry points, which ask the format, are in :mod:`belote.tournament.standings`).

==========================================  ===================================================
rule                                        source
==========================================  ===================================================
by wins then points, or by points alone     the organiser's choice (``rank_by``)
ties: the tie-breaks the organiser chose,    :mod:`belote.tournament.tiebreaks` (by default
in order, then the name                     the opponents' wins, Buchholz), then the name so
                                            that the list is stable
an adjustment of an entrant                 added to the entrant's points, with a reason
a round with no game of the entrant         counted as ``absent`` (a late entry's missed
                                            round, a withdrawal, a reserve): no points
an entrant never drawn (not checked in, a   no line in the standings once a round is drawn,
reserve never promoted)                     so no place, prize or season points (house rule)
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
    absent: int = 0  # drawn rounds without a game of its own (no bye either)


def entrant_records(t: TournamentView, adjusted: bool) -> dict[int, Record]:
    """Every entrant's record over the games with a result (byes included); ``adjusted``:
    the organiser's adjustments named after an entrant are added to its points."""
    records = {e: Record(e) for e in t.entrants}
    seen: dict[int, set[int]] = {e: set() for e in t.entrants}
    for game in t.games():
        for side in game.sides:
            for entrant in side:
                if entrant in seen:
                    seen[entrant].add(game.round)
    for entrant, rounds in seen.items():
        records[entrant].absent = len(t.rounds) - len(rounds)
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


def took_part(t: TournamentView, rec: Record) -> bool:
    """Whether an entrant has a line in the standings: before the first draw every entrant
    has; after it, those drawn at least once (a game or a bye; a late entry's missed rounds
    counted as byes).  One that never came (not checked in, a reserve never promoted,
    withdrawn before its first game) would otherwise take the last place, and a season's
    points for it, without playing."""
    return not t.rounds or rec.absent < len(t.rounds)


def buchholz(records: dict[int, Record], entrant: int) -> int:
    return sum(records[o].wins for o in records[entrant].opponents)


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the standings: a place (shared by equals), a name, the figures."""

    place: int
    name: str
    record: Record | None
    total: int
    points: int | None = None  # ranking points (Pinasca), when the format gives them
    # The chosen tie-breaks' figures, in the organiser's order (None: not computed for it,
    # e.g. head-to-head for an entrant tied with nobody), and whether it has withdrawn.
    tiebreaks: tuple[int | None, ...] = ()
    withdrawn: bool = False
