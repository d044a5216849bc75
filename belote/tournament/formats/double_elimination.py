"""Double elimination: pairs, out at the second loss.

==================================  ============================================================
rule                                source
==================================  ============================================================
winners' bracket (no loss) and      house rule: each bracket paired within
losers' bracket (one loss)          itself, by standings (:mod:`belote.tournament.pairing`)
out at the second loss              what "double elimination" means
the last of each bracket meet in    house rule: the winners' champion, beaten once, plays
the final                           again (then both have one loss)
complete: one pair left standing    the number of rounds is not fixed
a game needs a winner               house rule: no draw, even over a fixed number of deals
a bye only passes the round         house rule: it is not a win
no late entry                       a late pair would join a bracket it never played in
a withdrawal is out at once         house rule: like a second loss, from the next draw
==================================  ============================================================
"""

from __future__ import annotations

import random

from belote.tournament.formats._base import Draw, Pairs, TournamentFormat
from belote.tournament.formats._draws import by_standings, drawable
from belote.tournament.formats._registry import register
from belote.tournament.model import TournamentError
from belote.tournament.records import entrant_records
from belote.tournament.view import TournamentView


def still_in(t: TournamentView) -> list[int]:
    """The drawable entrants (checked in, not withdrawn) with fewer than two losses."""
    records = entrant_records(t, adjusted=False)
    return [e for e in drawable(t) if records[e].losses < 2]


class DoubleElimination(TournamentFormat):
    name = "double_elimination"
    menu_order = 30
    allows_draws = False
    bye_is_win = False
    allows_late_entry = False

    def is_complete(self, t: TournamentView) -> bool:
        return len(still_in(t)) <= 1

    def pair(self, t: TournamentView, rng: random.Random) -> Draw:
        alive = still_in(t)
        if not t.rounds and len(alive) < 2:
            raise TournamentError("too_few", count=2)
        records = self.records(t)
        winners = [e for e in alive if records[e].losses == 0]
        losers = [e for e in alive if records[e].losses == 1]
        if len(winners) + len(losers) <= 1:
            raise TournamentError("tournament_over")
        if len(winners) <= 1 and len(losers) <= 1:
            # The final: the winners' champion against the losers' champion (and again if
            # the champion lost the first: both then have one loss).
            group = winners + losers
            return Draw([((group[0],), (group[1],))], [])
        tables: Pairs = []
        byes: list[int] = []
        for bracket in (winners, losers):
            if len(bracket) == 1:
                byes.extend(bracket)  # waits for the other bracket
            elif bracket:
                drawn = by_standings(self, t, bracket, rng)
                tables.extend(drawn.tables)
                byes.extend(drawn.byes)
        return Draw(tables, byes)


register(DoubleElimination())
