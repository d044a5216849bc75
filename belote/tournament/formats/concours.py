"""The concours: pairs, a set number of rounds paired by standings (a Swiss system).

==================================  ============================================================
rule                                source
==================================  ============================================================
only checked-in pairs are drawn     house rule: those present play
round 1 drawn at random; later      house rule (a Swiss system):
rounds by standings, no rematch     :mod:`belote.tournament.pairing`
an odd count: the lowest without    house rule
a bye sits out
to a target or over a fixed number  the organiser's choice; over fixed deals equal totals are a
of deals                            draw
==================================  ============================================================
"""

from __future__ import annotations

import random

from belote.tournament.formats._base import Draw, TournamentFormat
from belote.tournament.formats._draws import by_standings, checked_in
from belote.tournament.formats._registry import register
from belote.tournament.view import TournamentView


class Concours(TournamentFormat):
    name = "concours"
    menu_order = 10

    def pair(self, t: TournamentView, rng: random.Random) -> Draw:
        return by_standings(self, t, checked_in(t), rng)


register(Concours())
