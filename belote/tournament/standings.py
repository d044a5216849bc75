"""Standings: each entrant's record, the order of the entrants and the standings lines, as
the tournament's format makes them (:mod:`belote.tournament.formats`; the rules are in each
format's module, the records in :mod:`belote.tournament.records`).

Ties are broken by the tie-breaks the organiser chose, in order (:mod:`.tiebreaks`, one
registry entry each; by default the opponents' wins, Buchholz, and none in Pinasca), then by
name; equal keys share a place.  A withdrawn entrant stays in the standings, marked.
"""

from __future__ import annotations

from belote.tournament.formats import Column, find_format
from belote.tournament.formats.pinasca import pinasca_ranking
from belote.tournament.records import Line, Record, buchholz, took_part
from belote.tournament.records import entrant_records as _records
from belote.tournament.view import TournamentView


def entrant_records(t: TournamentView) -> dict[int, Record]:
    """Every entrant's record over the games with a result (byes included), with the
    adjustments its format applies to entrants."""
    if t.settings is None:
        return _records(t, adjusted=False)
    return find_format(t.s.format).records(t)


def taking_part(t: TournamentView) -> set[int]:
    """The entrants with a line in the standings, or in their neighbourhood's
    (:func:`belote.tournament.records.took_part`): the only ones a place, a prize or a
    season's points can go to."""
    return {e for e, rec in entrant_records(t).items() if took_part(t, rec)}


def order_entrants(t: TournamentView) -> list[int]:
    """The entrants from first to last."""
    return find_format(t.s.format).order(t)


def standings(t: TournamentView) -> list[Line]:
    """The standings of the tournament's format."""
    return find_format(t.s.format).standings(t)


def columns(t: TournamentView) -> tuple[Column, ...]:
    """The standings' columns: the format's figures, then the tie-breaks in force."""
    return find_format(t.s.format).columns(t)


__all__ = ["Column", "Line", "Record", "buchholz", "columns", "entrant_records",
           "order_entrants", "pinasca_ranking", "standings", "taking_part"]
