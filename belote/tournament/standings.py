"""Standings: each entrant's record, the order of the entrants and the standings lines, as
the tournament's format makes them (:mod:`belote.tournament.formats`; the rules are in each
format's module, the records in :mod:`belote.tournament.records`).

Ties in a ranking by records are broken by the opponents' wins (Buchholz), then by name;
equal keys share a place.
"""

from __future__ import annotations

from belote.tournament.formats import find_format
from belote.tournament.formats.pinasca import pinasca_ranking
from belote.tournament.records import Line, Record, buchholz, sort_key
from belote.tournament.records import entrant_records as _records
from belote.tournament.view import TournamentView


def entrant_records(t: TournamentView) -> dict[int, Record]:
    """Every entrant's record over the games with a result (byes included), with the
    adjustments its format applies to entrants."""
    if t.settings is None:
        return _records(t, adjusted=False)
    return find_format(t.s.format).records(t)


def order_entrants(t: TournamentView) -> list[int]:
    """The entrants from first to last."""
    return find_format(t.s.format).order(t)


def standings(t: TournamentView) -> list[Line]:
    """The standings of the tournament's format."""
    return find_format(t.s.format).standings(t)


__all__ = ["Line", "Record", "buchholz", "entrant_records", "order_entrants",
           "pinasca_ranking", "sort_key", "standings"]
