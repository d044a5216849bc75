"""The weekly league's rules (pure: no clock, no database).

===========================  ============================================================
rule                         reading
===========================  ============================================================
season                       one week in UTC, Monday 00:00 to the next Monday 00:00
who plays                    every account with a rated match in the week (a match the
                             farming rule leaves unrated for a player does not place them)
division                     1 (the top) to :data:`DIVISIONS`; a newcomer starts at the
                             bottom; a returning player in the division their last
                             closed week gave them (absent weeks change nothing)
group                        each division's players of the week, in the order of their
                             first rated match of the week, by :data:`GROUP_SIZE`
league points                :data:`WIN_POINTS` for a win at full weight, half as much at
                             half weight (the farming rule, each player's own weight);
                             nothing for a loss
place in the group           points, then wins, then fewer matches, then the earlier
                             first match of the week
promotion and relegation     in a group of n players the first k go up a division and
                             the last k down, k = min(:data:`MOVERS`, n // 3); nobody
                             above division 1 or below the bottom one
===========================  ============================================================

Points reward winning rated matches, not playing them: a loss gives nothing, and the farming
rule bounds an account's points in a week by twice the number of different accounts it
played with (a farm of eight accounts: at most 14, however it rotates them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

DIVISIONS = 5
GROUP_SIZE = 20
MOVERS = 3
WIN_POINTS = 2
WEEK = timedelta(days=7)


def week_of(moment: datetime) -> date:
    """The Monday (UTC) of the league week ``moment`` falls in."""
    day = moment.astimezone(UTC).date()
    return day - timedelta(days=day.weekday())


def week_start(week: date) -> datetime:
    return datetime.combine(week, time(), UTC)


def points(won_weight: float) -> int:
    """League points for the weights of the rated matches a player won (1 or 0.5 each)."""
    return round(WIN_POINTS * won_weight)


def next_division(division: int, move: int) -> int:
    """The division after a week ending with ``move`` (+1 up, towards 1; -1 down)."""
    return min(max(division - move, 1), DIVISIONS)


@dataclass(frozen=True, slots=True)
class Entry:
    """One player's week so far."""

    account: int
    name: str
    division: int
    joined: datetime  # their first rated match of the week
    points: int
    won: int
    matches: int
    # Suspended or banned now: keeps its place in its group's forming (a sanction given or
    # lifted mid-week does not move everyone after it to another group), never shown nor
    # given a line at the close.
    barred: bool = False


@dataclass(frozen=True, slots=True)
class Line:
    """One row of a group's standings."""

    entry: Entry
    division: int
    group: int
    place: int
    move: int  # +1 goes up, 0 stays, -1 goes down (when the week closes)


def movers(players: int) -> int:
    return min(MOVERS, players // 3)


def groups(entries: Sequence[Entry]) -> dict[tuple[int, int], list[Entry]]:
    """The week's groups, keyed by (division, group number from 1)."""
    found: dict[tuple[int, int], list[Entry]] = {}
    for division in range(1, DIVISIONS + 1):
        here = sorted((e for e in entries if e.division == division),
                      key=lambda e: (e.joined, e.account))
        for start in range(0, len(here), GROUP_SIZE):
            found[(division, start // GROUP_SIZE + 1)] = here[start:start + GROUP_SIZE]
    return found


def standings(division: int, group: int, members: Sequence[Entry]) -> list[Line]:
    """A group's players from first to last, each with the move the close will make."""
    ordered = sorted(members, key=lambda e: (-e.points, -e.won, e.matches, e.joined,
                                             e.account))
    k = movers(len(ordered))
    lines = []
    for index, entry in enumerate(ordered):
        move = 0
        if index < k and division > 1:
            move = 1
        elif index >= len(ordered) - k and division < DIVISIONS:
            move = -1
        lines.append(Line(entry, division, group, index + 1, move))
    return lines


def all_standings(entries: Sequence[Entry]) -> list[Line]:
    """Every group's standings, division by division, group by group (the barred formed
    the groups with the others, and are left out of them)."""
    return [line for (division, group), members in groups(entries).items()
            for line in standings(division, group, [e for e in members if not e.barred])]
