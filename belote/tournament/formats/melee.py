"""The mêlée: single players, drawn into new pairs and tables each round.

==================================  ============================================================
rule                                source
==================================  ============================================================
players drawn into pairs and        house rule (the French "mêlée" custom): earlier partners
tables each round                   are avoided first, then earlier opponents
a count not a multiple of four:     house rule; the bye goes to those with the fewest byes
the rest sit out with a bye
standings per player                each player's own record
==================================  ============================================================
"""

from __future__ import annotations

import random

from belote.tournament.formats._base import Draw, TournamentFormat
from belote.tournament.formats._draws import checked_in, meetings, partnerships, sat_out
from belote.tournament.formats._registry import register
from belote.tournament.model import TournamentError
from belote.tournament.pairing import match, pick_bye, shuffled
from belote.tournament.view import TournamentView


class Melee(TournamentFormat):
    name = "melee"
    menu_order = 20
    players_per_entrant = 1

    def pair(self, t: TournamentView, rng: random.Random) -> Draw:
        players = checked_in(t)
        if len(players) < 4:
            raise TournamentError("too_few", count=4)
        records = self.records(t)
        order = shuffled(sorted(players), rng)
        byes: list[int] = []
        while len(order) % 4:
            bye = pick_bye(order, lambda e: sat_out(records, e) + byes.count(e))
            order.remove(bye)
            byes.append(bye)
        partners = partnerships(t)
        met = meetings(t)
        teams = match(order,
                      lambda a, b: partners[frozenset((a, b))] * 4 + met[frozenset((a, b))])

        def faced(x: tuple[int, int], y: tuple[int, int]) -> int:
            return sum(met[frozenset((a, b))] for a in x for b in y)
        tables = match(shuffled(teams, rng), faced)
        return Draw([(x, y) for x, y in tables], byes)


register(Melee())
