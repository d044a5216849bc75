"""A season: players ranked across tournaments by points per place (the Grand Prix style:
the Valdostan Grand Prix ranks its players over about 50 events).

=====================================  ========================================================
rule                                   reading (the organiser sets the table)
=====================================  ========================================================
points per place                       ``points``: the 1st place's, the 2nd's ... (e.g. 25, 20,
                                       16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1); every place
                                       below the table scores ``others`` (0 by default)
a pair's (a neighbourhood's) place     each of its registered players scores the place's
                                       points: the season ranks players, whose partners change
equal places in a tournament           share the better place and its points (1, 2, 2, 4)
which tournaments count                the ones the organiser adds, once finished; one still
                                       running is listed, not counted
equal season points                    countback: more first places, then more second places
                                       ...; equal countback shares the place, listed by name
=====================================  ========================================================

Who is who.  A name is not an identity.  A player an organiser bound to an account (the
console's binding) is that account in every tournament: ``account:<name key>``.  An unbound
player is read as their name, folded (Unicode NFC, case, spaces): ``name:mario rossi``, the
same person in every tournament of the season where that name is written.  Two namesakes of
different tournaments are therefore one player until an account is bound to one of them; two
players of the same name in ONE tournament are never one (a person plays once a tournament):
each is kept apart, as that name in that tournament's entrant (``name:marco [5.3.1]``:
tournament 5, entrant 3, its first player), marked on the season's page and by the CLI so
that the organiser merges each with the right player of the other tournaments (their
points count apart until then).  One person written two ways
("Rossi M.", "Mario Rossi") is two players until the organiser merges them (``merges``:
one identity into another, an explicit step kept with the season).
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from belote.text import TextError, clean_text
from belote.tournament.events import MAX_ENTRANTS, MAX_NAME, Tournament
from belote.tournament.export import line_entrants
from belote.tournament.model import TournamentError
from belote.tournament.standings import standings

MAX_TOURNAMENTS = 200
MAX_POINTS = 10_000
GRAND_PRIX = (25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)  # a suggestion, the form's


@dataclass(frozen=True, slots=True)
class Season:
    name: str
    points: tuple[int, ...] = GRAND_PRIX
    others: int = 0
    tournaments: tuple[int, ...] = ()
    merges: tuple[tuple[str, str], ...] = ()  # (identity, the identity it is merged into)

    def to_data(self) -> dict[str, Any]:
        return {"name": self.name, "points": list(self.points), "others": self.others,
                "tournaments": list(self.tournaments), "merges": dict(self.merges)}

    @staticmethod
    def from_data(data: Mapping[str, Any]) -> Season:
        return Season(str(data["name"]), tuple(data.get("points") or GRAND_PRIX),
                      int(data.get("others", 0)), tuple(data.get("tournaments") or ()),
                      tuple(sorted(dict(data.get("merges") or {}).items())))

    def place_points(self, place: int) -> int:
        return self.points[place - 1] if place <= len(self.points) else self.others


@dataclass(frozen=True, slots=True)
class Result:
    tournament: int
    name: str  # the tournament's
    place: int
    points: int


@dataclass(slots=True)
class SeasonLine:
    place: int
    identity: str
    name: str  # as last written
    points: int = 0
    results: list[Result] = field(default_factory=list)
    # A player kept apart from a namesake of the same tournament: (that tournament's name,
    # their entrant's name), shown so that the organiser merges them explicitly.
    namesake: tuple[str, str] | None = None

    @property
    def countback(self) -> tuple[int, ...]:
        worst = max((r.place for r in self.results), default=0)
        return tuple(-sum(1 for r in self.results if r.place == p) for p in range(1, worst + 1))


def fold(name: str) -> str:
    """A name as the season matches it: NFC, case-folded, spaces collapsed."""
    return " ".join(unicodedata.normalize("NFC", name).casefold().split())


def identity(name: str, account: str) -> str:
    return f"account:{account}" if account else f"name:{fold(name)}"


def check_season(data: Mapping[str, Any]) -> dict[str, Any]:
    """A season's data as it will be stored; raises ``TournamentError`` (nothing changes)."""
    try:
        name = clean_text(str(data.get("name") or ""), MAX_NAME)
    except TextError:
        raise TournamentError("bad_name", limit=MAX_NAME) from None
    points = data.get("points")
    if (not isinstance(points, list) or not 1 <= len(points) <= MAX_ENTRANTS
            or any(not isinstance(p, int) or not 0 <= p <= MAX_POINTS for p in points)):
        raise TournamentError("bad_season_points", limit=MAX_POINTS)
    others = data.get("others", 0)
    if not isinstance(others, int) or not 0 <= others <= MAX_POINTS:
        raise TournamentError("bad_season_points", limit=MAX_POINTS)
    tournaments = data.get("tournaments") or []
    if (not isinstance(tournaments, list) or len(tournaments) > MAX_TOURNAMENTS
            or any(not isinstance(t, int) or t < 1 for t in tournaments)):
        raise TournamentError("bad_season_tournaments", limit=MAX_TOURNAMENTS)
    merges = data.get("merges") or {}
    if not isinstance(merges, dict) or any(
            not _is_identity(k) or not _is_identity(v) or k == v for k, v in merges.items()):
        raise TournamentError("bad_merge")
    season = Season(name, tuple(points), others, tuple(dict.fromkeys(tournaments)),
                    tuple(sorted(merges.items())))
    _resolve(dict(season.merges), "")  # a cycle is refused
    return season.to_data()


def _is_identity(value: object) -> bool:
    return (isinstance(value, str) and value.startswith(("account:", "name:"))
            and 0 < len(value) <= 2 * MAX_NAME)


def _resolve(merges: dict[str, str], start: str) -> str:
    """Where ``start`` ends after every merge (a cycle is refused)."""
    for origin in merges:
        seen = {origin}
        current = merges[origin]
        while current in merges:
            if current in seen:
                raise TournamentError("bad_merge")
            seen.add(current)
            current = merges[current]
    current = start
    while current in merges:
        current = merges[current]
    return current


def ranking(season: Season, events: Sequence[tuple[int, Tournament]]) -> list[SeasonLine]:
    """The season's players from first to last, over the finished ``events`` (id and
    tournament, in the season's order; a tournament not finished is skipped)."""
    merges = dict(season.merges)
    lines: dict[str, SeasonLine] = {}
    for tid, t in events:
        if t.state != "finished":
            continue
        seats = [(line, entrant, position, player,
                  identity(player, entrant.account(position)))
                 for line in standings(t) for entrant in line_entrants(t, line)
                 for position, player in enumerate(entrant.players)]
        written = Counter(who for *_, who in seats if who.startswith("name:"))
        for line, entrant, position, player, who in seats:
            apart = ""
            if written[who] > 1:  # a namesake in this tournament: never the same person
                apart = who = f"{who} [{tid}.{entrant.id}.{position + 1}]"
            who = _resolve(merges, who)
            points = season.place_points(line.place)
            found = lines.setdefault(who, SeasonLine(0, who, player))
            if who.startswith("name:") or not found.results:
                found.name = player
            if apart and who == apart:  # not merged yet
                found.namesake = (t.s.name, entrant.name)
            found.points += points
            found.results.append(Result(tid, t.s.name, line.place, points))
    ordered = sorted(lines.values(), key=lambda ln: (-ln.points, ln.countback, fold(ln.name)))
    previous: tuple[object, ...] | None = None
    for index, found in enumerate(ordered):
        key = (found.points, found.countback)
        found.place = ordered[index - 1].place if key == previous else index + 1
        previous = key
    return ordered


def parse_points(text: str) -> list[int]:
    """A points table as typed: numbers separated by commas, semicolons or spaces."""
    try:
        return [int(p) for p in text.replace(",", " ").replace(";", " ").split()]
    except ValueError:
        raise TournamentError("bad_season_points", limit=MAX_POINTS) from None
