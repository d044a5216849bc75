"""The draw of the next round (its format pairs it), and the pairing pieces formats share."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from belote.tournament.formats._base import Draw, Pairs, Side, TournamentFormat
from belote.tournament.formats._registry import find_format
from belote.tournament.model import Event, TournamentError
from belote.tournament.pairing import match, pick_bye, shuffled
from belote.tournament.records import Record
from belote.tournament.view import TournamentView


def draw(t: TournamentView, rng: random.Random, by: str = "") -> Event:
    """The ``drawn`` event of the next round (not yet checked or applied)."""
    if t.current is not None and not t.current.closed:
        raise TournamentError("round_open", round=t.current.number)
    if t.complete:
        raise TournamentError("tournament_over")
    drawn = find_format(t.s.format).pair(t, rng)
    games: list[dict[str, Any]] = []
    for side_a, side_b in drawn.tables:
        games.append({"table": len(games) + 1, "sides": [list(side_a), list(side_b)],
                      "lineup": [_lineup(t, side_a), _lineup(t, side_b)]})
    for entrant in drawn.byes:
        games.append({"table": 0, "sides": [[entrant]], "lineup": []})
    return Event("drawn", {"round": len(t.rounds) + 1, "games": games}, by)


def _lineup(t: TournamentView, side: Side) -> list[str]:
    return [player for e in side for player in t.entrants[e].players][:2]


def meetings(t: TournamentView) -> Counter[frozenset[int]]:
    """How often each two entrants have been opponents."""
    out: Counter[frozenset[int]] = Counter()
    for game in t.games():
        if len(game.sides) == 2:
            for a in game.sides[0]:
                for b in game.sides[1]:
                    out[frozenset((a, b))] += 1
    return out


def partnerships(t: TournamentView) -> Counter[frozenset[int]]:
    """How often two mêlée players have been partners."""
    out: Counter[frozenset[int]] = Counter()
    for game in t.games():
        for side in game.sides:
            if len(side) == 2:
                out[frozenset(side)] += 1
    return out


def drawable(t: TournamentView) -> list[int]:
    """The entrants a draw may pair: not withdrawn, not in the reserve pool, and checked in
    where the tournament checks in (its settings, else its format)."""
    checks_in = find_format(t.s.format).checks_in(t)
    return [e.id for e in t.entrants.values()
            if not e.withdrawn and not e.reserve and (e.checked_in or not checks_in)]


def checked_in(t: TournamentView) -> list[int]:
    """The entrants drawn (:func:`drawable`); refuses a draw of nobody."""
    present = drawable(t)
    if not present:
        raise TournamentError("nobody_checked_in")
    return present


def sat_out(records: dict[int, Record], entrant: int) -> int:
    """Rounds an entrant has not played: its byes and its absences (a late entry's missed
    rounds, a withdrawal), so that a late arrival is not handed the next bye, a free win."""
    return records[entrant].byes + records[entrant].absent


def by_standings(fmt: TournamentFormat, t: TournamentView, entrants: list[int],
                 rng: random.Random) -> Draw:
    """Round 1 at random, later rounds by the format's order without rematches; an odd count
    gives a bye to the lowest of those with the fewest byes."""
    if len(entrants) < 2:
        raise TournamentError("too_few", count=2)
    if t.rounds:
        wanted = set(entrants)
        order = [e for e in fmt.order(t) if e in wanted]
    else:
        order = shuffled(sorted(entrants), rng)
    byes: list[int] = []
    if len(order) % 2:
        records = fmt.records(t)
        bye = pick_bye(order, lambda e: sat_out(records, e))
        order.remove(bye)
        byes.append(bye)
    met = meetings(t)
    pairs = match(order, lambda a, b: met[frozenset((a, b))])
    tables: Pairs = [((a,), (b,)) for a, b in pairs]
    return Draw(tables, byes)
