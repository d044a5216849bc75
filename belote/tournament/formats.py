"""The draw of the next round, one pairing rule per format.

=====================  =========================================================================
format                 pairing rule
=====================  =========================================================================
``pinasca``            every pair plays once a round (three rounds: "Ogni squadra di quartiere
                       (2 squadre) giocherà un totale di tre partite", seed 001); never against
                       the other pair of its own neighbourhood; no rematch when avoidable;
                       otherwise at random
``concours``           round 1 drawn at random; later rounds paired by standings without
                       rematches; an odd count: the lowest without a bye sits out
``melee``              players drawn into pairs and tables each round, avoiding earlier
                       partners, then earlier opponents; the rest (count not a multiple of 4)
                       sit out with a bye
``double_elimination`` winners' bracket (no loss) and losers' bracket (one loss) each paired
                       within itself; out at the second loss; the last of each bracket meet in
                       the final (and again if the winners' champion loses it)
=====================  =========================================================================
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from belote.tournament.events import Event, Tournament
from belote.tournament.model import TournamentError
from belote.tournament.pairing import match, pick_bye, shuffled
from belote.tournament.standings import entrant_records, order_entrants


def meetings(t: Tournament) -> Counter[frozenset[int]]:
    """How often each two entrants have been opponents."""
    out: Counter[frozenset[int]] = Counter()
    for game in t.games():
        if len(game.sides) == 2:
            for a in game.sides[0]:
                for b in game.sides[1]:
                    out[frozenset((a, b))] += 1
    return out


def partnerships(t: Tournament) -> Counter[frozenset[int]]:
    """How often two mêlée players have been partners."""
    out: Counter[frozenset[int]] = Counter()
    for game in t.games():
        for side in game.sides:
            if len(side) == 2:
                out[frozenset(side)] += 1
    return out


def still_in(t: Tournament) -> list[int]:
    """Double elimination: the entrants with fewer than two losses."""
    records = entrant_records(t)
    return [e for e in t.entrants if t.entrants[e].checked_in and records[e].losses < 2]


def _players(t: Tournament) -> list[int]:
    players = [e.id for e in t.entrants.values() if e.checked_in]
    if not players:
        raise TournamentError("nobody_checked_in")
    return players


def draw(t: Tournament, rng: random.Random, by: str = "") -> Event:
    """The ``drawn`` event of the next round (not yet checked or applied)."""
    fmt = t.s.format
    if t.current is not None and not t.current.closed:
        raise TournamentError("round_open", round=t.current.number)
    if t.complete:
        raise TournamentError("tournament_over")
    if fmt == "pinasca":
        sides, byes = _pinasca(t, rng), list[int]()
    elif fmt == "concours":
        sides, byes = _by_standings(t, _players(t), rng)
    elif fmt == "melee":
        sides, byes = _melee(t, rng)
    else:
        sides, byes = _elimination(t, rng)
    games: list[dict[str, Any]] = []
    for side_a, side_b in sides:
        games.append({"table": len(games) + 1, "sides": [list(side_a), list(side_b)],
                      "lineup": [_lineup(t, side_a), _lineup(t, side_b)]})
    for entrant in byes:
        games.append({"table": 0, "sides": [[entrant]], "lineup": []})
    return Event("drawn", {"round": len(t.rounds) + 1, "games": games}, by)


def _lineup(t: Tournament, side: tuple[int, ...]) -> list[str]:
    return [player for e in side for player in t.entrants[e].players][:2]


Pairs = list[tuple[tuple[int, ...], tuple[int, ...]]]


def _pinasca(t: Tournament, rng: random.Random) -> Pairs:
    clubs = t.clubs()
    if len(clubs) < 2:
        raise TournamentError("two_neighbourhoods")
    lonely = [club for club, pairs in clubs.items() if len(pairs) != 2]
    if lonely:
        raise TournamentError("two_pairs")
    met = meetings(t)
    order = shuffled(sorted(t.entrants), rng)
    pairs = match(order, lambda a, b: met[frozenset((a, b))],
                  lambda a, b: t.entrants[a].club != t.entrants[b].club)
    return [((a,), (b,)) for a, b in pairs]


def _by_standings(t: Tournament, entrants: list[int],
                  rng: random.Random) -> tuple[Pairs, list[int]]:
    """Round 1 at random, later rounds by standings; an odd count gives a bye."""
    if len(entrants) < 2:
        raise TournamentError("too_few", count=2)
    if t.rounds:
        order = [e for e in order_entrants(t) if e in set(entrants)]
    else:
        order = shuffled(sorted(entrants), rng)
    byes: list[int] = []
    if len(order) % 2:
        records = entrant_records(t)
        bye = pick_bye(order, lambda e: records[e].byes)
        order.remove(bye)
        byes.append(bye)
    met = meetings(t)
    pairs = match(order, lambda a, b: met[frozenset((a, b))])
    return [((a,), (b,)) for a, b in pairs], byes


def _melee(t: Tournament, rng: random.Random) -> tuple[Pairs, list[int]]:
    players = _players(t)
    if len(players) < 4:
        raise TournamentError("too_few", count=4)
    records = entrant_records(t)
    order = shuffled(sorted(players), rng)
    byes: list[int] = []
    while len(order) % 4:
        bye = pick_bye(order, lambda e: records[e].byes + byes.count(e))
        order.remove(bye)
        byes.append(bye)
    partners = partnerships(t)
    met = meetings(t)
    teams = match(order, lambda a, b: partners[frozenset((a, b))] * 4 + met[frozenset((a, b))])

    def faced(x: tuple[int, int], y: tuple[int, int]) -> int:
        return sum(met[frozenset((a, b))] for a in x for b in y)
    tables = match(shuffled(teams, rng), faced)
    return [(x, y) for x, y in tables], byes


def _elimination(t: Tournament, rng: random.Random) -> tuple[Pairs, list[int]]:
    alive = still_in(t)
    if not t.rounds and len(alive) < 2:
        raise TournamentError("too_few", count=2)
    records = entrant_records(t)
    winners = [e for e in alive if records[e].losses == 0]
    losers = [e for e in alive if records[e].losses == 1]
    if len(winners) + len(losers) <= 1:
        raise TournamentError("tournament_over")
    if len(winners) <= 1 and len(losers) <= 1:
        # The final: the winners' champion against the losers' champion (and again if the
        # champion lost the first: both then have one loss).
        group = winners + losers
        return [((group[0],), (group[1],))], []
    pairs: Pairs = []
    byes: list[int] = []
    for bracket in (winners, losers):
        if len(bracket) == 1:
            byes.extend(bracket)  # waits for the other bracket
        elif bracket:
            more, sat_out = _by_standings(t, bracket, rng)
            pairs.extend(more)
            byes.extend(sat_out)
    return pairs, byes
