"""Prizes: the organiser's prize list, by place and by category, and who wins each.

A prize list is one ``prizes`` event (:mod:`belote.tournament.events`): setting it again
replaces it, and the audit log keeps every version.

=====================================  ========================================================
rule                                   reading (house rule: a concours' usual practice)
=====================================  ========================================================
a place's prize goes to the line of    the standings' place (Pinasca: a neighbourhood, else an
that place                             entrant); equal places share the prizes of the places
                                       they cover (two tied first share the 1st and 2nd prizes)
a category's prize goes to the best    :data:`CATEGORIES`; "best" is the standings' order (a
of the category                        pair inside a Pinasca neighbourhood: the order a draw by
                                       standings follows)
one prize each, unless cumulative      not cumulative (the default): place prizes first, then
                                       the categories in the list's order, each to the best not
                                       yet holding a prize (a Pinasca pair holds its
                                       neighbourhood's place prize)
a withdrawn entrant takes no prize     house rule (the default): the prizes go down the
unless the organiser says so           standings to those still playing (a place prize to the
                                       n-th line of those, ties shared as above; a Pinasca
                                       neighbourhood is withdrawn when both its pairs are);
                                       ``withdrawn``: the organiser lets them take prizes
=====================================  ========================================================

Which entrants a marked category covers (a mixed pair, the ladies, the young) is the
organiser's word, typed with the list: the tournament knows no one's sex or age.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from belote.text import TextError, clean_text
from belote.tournament.model import TournamentError
from belote.tournament.records import Line
from belote.tournament.standings import (
    entrant_records,
    order_entrants,
    standings,
    taking_part,
)
from belote.tournament.view import TournamentView

MAX_PRIZES = 100
MAX_PRIZE_TEXT = 200
Rule = Literal["pair", "neighbourhood", "marked"]


@dataclass(frozen=True, slots=True)
class Category:
    """A kind of category prize: its name (``tournament.prize.category.<name>`` in the
    catalogs) and how its winner is found."""

    name: str
    rule: Rule  # pair: the best entrant; neighbourhood: the best club; marked: the best
    #             of the entrants the organiser marked


CATEGORIES: dict[str, Category] = {c.name: c for c in (
    Category("best_pair", "pair"),
    Category("best_neighbourhood", "neighbourhood"),
    Category("mixed", "marked"),
    Category("ladies", "marked"),
    Category("youth", "marked"),
    Category("newcomers", "marked"),
    Category("local", "marked"),
)}


@dataclass(frozen=True, slots=True)
class Prize:
    """One prize of the list: for a ``place`` or a ``category`` (one of the two)."""

    prize: str
    place: int | None = None
    category: str | None = None
    eligible: tuple[int, ...] = ()  # a marked category: the entrants it covers

    def to_data(self) -> dict[str, Any]:
        if self.place is not None:
            return {"place": self.place, "prize": self.prize}
        return {"category": self.category, "prize": self.prize,
                "eligible": list(self.eligible)}


@dataclass(frozen=True, slots=True)
class PrizeList:
    prizes: tuple[Prize, ...] = ()
    cumulative: bool = False  # may one winner take more than one prize
    withdrawn: bool = False  # may a withdrawn entrant take a prize (default: skipped)

    def to_data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"prizes": [p.to_data() for p in self.prizes],
                               "cumulative": self.cumulative}
        if self.withdrawn:  # stored only when chosen: a list stored before it reads the same
            out["withdrawn"] = True
        return out

    @staticmethod
    def from_data(data: Mapping[str, Any]) -> PrizeList:
        """A stored list (already checked: :func:`check_prizes`)."""
        return PrizeList(tuple(
            Prize(str(p["prize"]), p.get("place"), p.get("category"),
                  tuple(p.get("eligible") or ())) for p in data.get("prizes") or ()),
            bool(data.get("cumulative", False)), bool(data.get("withdrawn", False)))


@dataclass(frozen=True, slots=True)
class Award:
    """A prize and who takes it (none yet, or shared by equal places)."""

    prize: Prize
    winners: tuple[str, ...]


def _text(value: Any) -> str:
    try:
        return clean_text(str(value or ""), MAX_PRIZE_TEXT)
    except TextError as error:
        if error.code == "empty":
            raise TournamentError("prize_empty") from None
        if error.code == "too_long":
            raise TournamentError("prize_too_long", limit=MAX_PRIZE_TEXT) from None
        raise TournamentError("bad_text") from None


def check_prizes(t: TournamentView, data: Mapping[str, Any]) -> dict[str, Any]:
    """A ``prizes`` event's data as it will be stored; raises ``TournamentError`` (nothing
    changes) for a place out of range, an unknown category or entrant, empty text."""
    items = data.get("prizes")
    if not isinstance(items, list) or len(items) > MAX_PRIZES:
        raise TournamentError("bad_prizes", limit=MAX_PRIZES)
    out: list[Prize] = []
    places: set[int] = set()
    for item in items:
        if not isinstance(item, Mapping):
            raise TournamentError("bad_prizes", limit=MAX_PRIZES)
        text = _text(item.get("prize"))
        place, category = item.get("place"), item.get("category")
        if place is not None:
            if not isinstance(place, int) or not 1 <= place <= MAX_PRIZES or place in places:
                raise TournamentError("bad_prize_place", limit=MAX_PRIZES)
            places.add(place)
            out.append(Prize(text, place=place))
            continue
        found = CATEGORIES.get(str(category))
        if found is None:
            raise TournamentError("no_category", category=str(category),
                                  known=", ".join(CATEGORIES))
        eligible = item.get("eligible") or []
        if not isinstance(eligible, list) or any(
                not isinstance(e, int) or e not in t.entrants for e in eligible):
            raise TournamentError("bad_eligible")
        if found.rule != "marked":
            eligible = []
        out.append(Prize(text, category=found.name, eligible=tuple(sorted(set(eligible)))))
    return PrizeList(tuple(out), bool(data.get("cumulative", False)),
                     bool(data.get("withdrawn", False))).to_data()


def _shared(lines: Sequence[Line], place: int) -> list[Line]:
    """The lines a place's prize goes to: that place, or the tie that covers it."""
    exact = [line for line in lines if line.place == place]
    if exact:
        return exact
    covering = [line for line in lines if line.place < place]
    if not covering:
        return []
    top = covering[-1].place
    tie = [line for line in lines if line.place == top]
    return tie if top + len(tie) > place else []


def _placed(lines: Sequence[Line]) -> list[Line]:
    """The lines placed again among themselves (equal places stay equal): the places a
    prize list reads once withdrawn entrants are left out."""
    out: list[Line] = []
    for index, line in enumerate(lines):
        tied = bool(out) and lines[index - 1].place == line.place
        out.append(replace(line, place=out[-1].place if tied else index + 1))
    return out


def awards(t: TournamentView, prize_list: PrizeList) -> list[Award]:
    """Who takes each prize of the list, as the standings stand now (in the list's order)."""
    lines = standings(t)
    clubs = t.clubs()
    by_clubs = any(line.record is None and line.name in clubs for line in lines)
    # Only those with a line take a prize: an entrant never drawn is no one's candidate.
    present = taking_part(t)
    order = [e for e in order_entrants(t) if e in present]
    clubs = {club: pairs for club, pairs in clubs.items() if any(p.id in present for p in pairs)}
    if not prize_list.withdrawn:
        lines = _placed([line for line in lines if not line.withdrawn])
        order = [e for e in order if not t.entrants[e].withdrawn]
        clubs = {club: pairs for club, pairs in clubs.items()
                 if not all(p.withdrawn for p in pairs)}
    records = entrant_records(t)

    def holder(entrant_id: int) -> str:
        """The name a prize of this entrant is held under (its line's name)."""
        entrant = t.entrants[entrant_id]
        return entrant.club if by_clubs and entrant.club is not None else entrant.name

    held: set[str] = set()
    found: dict[int, tuple[str, ...]] = {}
    for index, prize in enumerate(prize_list.prizes):  # places first
        if prize.place is not None:
            winners = tuple(line.name for line in _shared(lines, prize.place))
            found[index] = winners
            held.update(winners)
    for index, prize in enumerate(prize_list.prizes):
        if prize.category is None:
            continue
        rule = CATEGORIES[prize.category].rule
        candidates: list[tuple[str, str]]  # (winner's name, holder's name)
        if rule == "neighbourhood":
            totals = {club: sum(records[e.id].points for e in pairs)
                      for club, pairs in clubs.items()}
            candidates = [(club, club) for club in sorted(totals, key=lambda c: (-totals[c], c))]
        else:
            ids = [e for e in order if rule == "pair" or e in prize.eligible]
            candidates = [(t.entrants[e].name, holder(e)) for e in ids]
        winner = next(((name, key) for name, key in candidates
                       if prize_list.cumulative or key not in held), None)
        found[index] = () if winner is None else (winner[0],)
        if winner is not None:
            held.add(winner[1])
    return [Award(prize, found.get(index, ())) for index, prize in
            enumerate(prize_list.prizes)]


def parse_form(t: TournamentView, places: str,
               categories: Mapping[str, tuple[str, str]]) -> dict[str, Any]:
    """The prizes of the organiser's form: ``places`` one prize a line (the 1st place's
    first; an empty line skips a place), ``categories`` a category's (prize, the names of
    the entrants it covers, one a line).  Raises ``TournamentError`` naming the unknown
    entrant."""
    prizes: list[dict[str, Any]] = []
    for number, line in enumerate(places.splitlines(), start=1):
        if line.strip():
            prizes.append({"place": number, "prize": line.strip()})
    by_name = {e.name: e.id for e in t.entrants.values()}
    for name, (prize, eligible) in categories.items():
        if not prize.strip():
            continue
        ids = []
        for entrant in (n.strip() for n in eligible.splitlines()):
            if not entrant:
                continue
            if entrant not in by_name:
                raise TournamentError("no_entrant", entrant=entrant)
            ids.append(by_name[entrant])
        prizes.append({"category": name, "prize": prize.strip(), "eligible": ids})
    return {"prizes": prizes}
