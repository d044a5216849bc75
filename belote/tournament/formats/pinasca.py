"""The Pinasca tournament (seed 001): neighbourhoods of two pairs, ranked together.

==================================  ============================================================
rule                                regulation (seed 001)
==================================  ============================================================
a neighbourhood enters two pairs    "Ogni squadra di quartiere (2 squadre)"; every pair plays,
(no check-in)                       so nobody checks in, unless the organiser turns check-in
                                    on (``Settings.check_in``): then only checked-in pairs
                                    are drawn
a withdrawn pair is not drawn       house rule (issue 24); an odd count then gives a bye to
again; an odd count: a bye          the pair with the fewest rounds sat out
no late entry                       a neighbourhood is its two pairs, registered before the
                                    first draw
ties: shared, or the organiser's    :mod:`belote.tournament.tiebreaks` (none by default:
tie-breaks                          equal totals share a place, as before)
every pair plays once a round,      "giocherà un totale di tre partite"; never against the other
three rounds                        pair of its own neighbourhood; no rematch when avoidable;
                                    otherwise at random
a game is played to the target      "Le partite si vinceranno all'arrivo ai 1500 punti" (never
                                    over a fixed number of deals)
game scores: 3800/1200              :func:`belote.rules.game_score.game_scores`
the neighbourhoods' ranking,        :func:`belote.tournament.pinasca.ranking`; an adjustment
5/3/2/1, with adjustments           ("Girandola", "Framasun") names a neighbourhood
==================================  ============================================================
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from belote.rules.game_score import game_scores
from belote.tournament.formats._base import Column, Draw, TournamentFormat
from belote.tournament.formats._draws import checked_in, meetings, sat_out
from belote.tournament.formats._registry import find_format, register
from belote.tournament.model import Settings, TournamentError
from belote.tournament.pairing import match, pick_bye, shuffled
from belote.tournament.pinasca import Adjustment as PinascaAdjustment
from belote.tournament.pinasca import Standing as PinascaStanding
from belote.tournament.pinasca import ranking
from belote.tournament.records import Line, entrant_records, took_part
from belote.tournament.tiebreaks import Context, break_ties
from belote.tournament.view import TournamentView


def pinasca_ranking(t: TournamentView) -> list[PinascaStanding]:
    """Seed 001's ranking of the neighbourhoods, with the organiser's adjustments: a
    neighbourhood's total sums every game of both its pairs ("saranno sommati i punti di
    tutte le partite di entrambe le squadre di quartiere")."""
    records = entrant_records(t, adjusted=False)
    # A neighbourhood none of whose pairs was ever drawn has no place (records.took_part).
    clubs = {club: pairs for club, pairs in t.clubs().items()
             if any(took_part(t, records[p.id]) for p in pairs)}
    totals = {club: sum(records[p.id].points for p in pairs) for club, pairs in clubs.items()}
    # An adjustment of a removed neighbourhood (cancelled by its opposite: a removal is
    # refused otherwise) has no line to go to.
    adjustments = [PinascaAdjustment(a.subject, a.points, a.reason) for a in t.adjustments
                   if a.subject in totals]
    chosen = find_format(t.s.format).tiebreaks(t)
    figures = break_ties(Context(t, records, {c: [p.id for p in pairs]
                                              for c, pairs in clubs.items()}),
                         {club: (-total,) for club, total in totals.items()}, chosen)
    return ranking(totals, adjustments, figures, chosen)


class Pinasca(TournamentFormat):
    name = "pinasca"
    menu_order = 0  # the default: the tournament this platform was made for
    group_size = 2
    has_club = True
    has_check_in = False
    allows_late_entry = False
    default_tiebreaks = ()  # equal totals share a place (seed 001 says nothing of ties)
    adjusts_entrants = False  # an adjustment changes a neighbourhood's ranking points
    standings_columns = (Column("tournament.web.col.total", lambda line: line.total),
                         Column("tournament.web.col.ranking_points", lambda line: line.points))

    def pair(self, t: TournamentView, rng: random.Random) -> Draw:
        clubs = t.clubs()
        if len(clubs) < 2:
            raise TournamentError("two_neighbourhoods")
        if any(len(pairs) != 2 for pairs in clubs.values()):
            raise TournamentError("two_pairs")
        met = meetings(t)
        order = shuffled(sorted(checked_in(t)), rng)
        byes: list[int] = []
        if len(order) % 2:  # a pair withdrawn or absent
            records = self.records(t)
            byes.append(pick_bye(order, lambda e: sat_out(records, e)))
            order.remove(byes[0])
        pairs = match(order, lambda a, b: met[frozenset((a, b))],
                      lambda a, b: t.entrants[a].club != t.entrants[b].club)
        return Draw([((a,), (b,)) for a, b in pairs], byes)

    def check_settings(self, data: Mapping[str, Any]) -> None:
        if data.get("deals") is not None:
            raise TournamentError("pinasca_to_target")

    def check_entrants(self, entrants: Sequence[object]) -> None:
        if len(entrants) != 2:
            raise TournamentError("two_pairs")

    def game_scores(self, settings: Settings, totals: tuple[int, int],
                    winner: int | None) -> tuple[int, int]:
        assert winner is not None  # a Pinasca game is always played to the target
        a, b = totals
        won, lost = game_scores(max(a, b), min(a, b), target=settings.target)
        return (won, lost) if winner == 0 else (lost, won)

    def standings(self, t: TournamentView) -> list[Line]:
        withdrawn = {club: all(p.withdrawn for p in pairs) for club, pairs in t.clubs().items()}
        return [Line(s.place, s.team, None, s.total, s.points, s.tiebreaks,
                     withdrawn[s.team]) for s in pinasca_ranking(t)]

    def adjustment_subjects(self, t: TournamentView) -> list[str]:
        return sorted(t.clubs())


register(Pinasca())
