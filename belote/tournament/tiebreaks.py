"""Tie-breaks: what orders entrants (or Pinasca's neighbourhoods) with equal records, in the
order the organiser chose (``Settings.tiebreaks``; each format has a default).  One registry
entry per tie-break (scalachess's ``Tiebreak.scala``: one table of them, each with its
source).

====================  ==========================================================================
tie-break             rule and source
====================  ==========================================================================
``buchholz``          the sum of the opponents' wins (FIDE Handbook C.07, Tie-Break
                      Regulations: "Buchholz", counted here in wins, the concours' unit); the
                      default outside Pinasca, as before
``median_buchholz``   Buchholz without the best and the worst opponent, when there are at
                      least three (FIDE C.07: the Buchholz "cut" of both ends, "median")
``point_difference``  the scores it made minus the scores made against it, in its played
                      games (the concours' "différence de points" / goal average; byes add
                      nothing)
``head_to_head``      among those still tied, the games between them: 2 a win, 1 a draw (FIDE
                      C.07: "direct encounter"); none when it is tied with nobody
``lot``               a drawing of lots, recorded: each subject's place in the order of
                      SHA-256(seed, subject), the seed drawn once and stored
                      (``Settings.lot_seed``), so every replay and page gives the same lots
====================  ==========================================================================

They apply in turn: each splits the groups still tied (head-to-head is counted within each
group, the others over everyone); the name orders what is left, and those still equal share a
place.  The figures are shown as columns of the standings, in the same order.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from belote.tournament.model import TournamentError
from belote.tournament.records import Line, Record, buchholz, took_part
from belote.tournament.view import TournamentView

Values = dict[str, int]


@dataclass(frozen=True, slots=True)
class Context:
    """What a tie-break reads: the tournament, the records, and each subject's entrants (an
    entrant is its own subject; a Pinasca neighbourhood's subjects are its two pairs)."""

    t: TournamentView
    records: Mapping[int, Record]
    members: Mapping[str, Sequence[int]]
    # For a tie-break counted within groups: each subject's group (the subjects still tied
    # share one); None: everyone is one group.
    tied: Mapping[str, object] | None = None


@dataclass(frozen=True, slots=True)
class Tiebreak:
    name: str
    value: Callable[[Context, Sequence[str]], Values]  # higher is better
    within_group: bool = False  # computed among the subjects still tied (head-to-head)
    shown: Callable[[int], int] = lambda value: value  # the figure in the column

    @property
    def label(self) -> str:
        """The column's heading (a message key)."""
        return f"tournament.web.col.tb_{self.name}"


def _buchholz(ctx: Context, subjects: Sequence[str]) -> Values:
    records = dict(ctx.records)
    return {s: sum(buchholz(records, e) for e in ctx.members[s]) for s in subjects}


def _median(ctx: Context, subjects: Sequence[str]) -> Values:
    def one(entrant: int) -> int:
        wins = sorted(ctx.records[o].wins for o in ctx.records[entrant].opponents)
        return sum(wins[1:-1] if len(wins) >= 3 else wins)
    return {s: sum(one(e) for e in ctx.members[s]) for s in subjects}


def _owners(ctx: Context, subjects: Sequence[str]) -> dict[int, str]:
    return {e: s for s in subjects for e in ctx.members[s]}


def _difference(ctx: Context, subjects: Sequence[str]) -> Values:
    owner = _owners(ctx, subjects)
    out = dict.fromkeys(subjects, 0)
    for game in ctx.t.games():
        if game.result is None or game.bye:
            continue
        scores = game.result.scores
        for index, side in enumerate(game.sides):
            for entrant in side:
                if entrant in owner:
                    out[owner[entrant]] += scores[index] - scores[1 - index]
    return out


def _head_to_head(ctx: Context, subjects: Sequence[str]) -> Values:
    """One pass over the games for every group at once (a big mêlée has many groups)."""
    owner = _owners(ctx, subjects)
    tied = ctx.tied

    def together(a: str, b: str) -> bool:
        return a != b and (tied is None or tied[a] == tied[b])
    out = dict.fromkeys(subjects, 0)
    for game in ctx.t.games():
        if game.result is None or game.bye:
            continue
        winner = game.result.winner
        for index, side in enumerate(game.sides):
            for a in side:
                for b in game.sides[1 - index]:
                    if a in owner and b in owner and together(owner[a], owner[b]):
                        out[owner[a]] += 1 if winner is None else 2 * (winner == index)
    return out


def lot_order(seed: int, subjects: Sequence[str]) -> list[str]:
    """The subjects in the order of the drawing of lots of ``seed`` (first: the best)."""
    return sorted(subjects, key=lambda s: hashlib.sha256(f"{seed}:{s}".encode()).digest())


def _lot(ctx: Context, subjects: Sequence[str]) -> Values:
    seed = ctx.t.s.lot_seed
    if seed is None:
        raise TournamentError("lot_needs_seed")
    place = {s: n for n, s in enumerate(lot_order(seed, list(ctx.members)), start=1)}
    return {s: -place[s] for s in subjects}


TIEBREAKS: dict[str, Tiebreak] = {tb.name: tb for tb in (
    Tiebreak("buchholz", _buchholz),
    Tiebreak("median_buchholz", _median),
    Tiebreak("point_difference", _difference),
    Tiebreak("head_to_head", _head_to_head, within_group=True),
    Tiebreak("lot", _lot, shown=lambda value: -value),
)}


def check_tiebreaks(names: object) -> tuple[str, ...]:
    """The organiser's list of tie-breaks, checked: known names, each once."""
    if not isinstance(names, (list, tuple)) or len(set(map(str, names))) != len(names):
        raise TournamentError("bad_tiebreaks", known=", ".join(TIEBREAKS))
    for name in names:
        if name not in TIEBREAKS:
            raise TournamentError("bad_tiebreaks", known=", ".join(TIEBREAKS))
    return tuple(str(n) for n in names)


Key = tuple[int, ...]


def break_ties(ctx: Context, primary: Mapping[str, Key],
               chosen: Sequence[str]) -> dict[str, tuple[int | None, ...]]:
    """Each subject's tie-break figures, in the order of ``chosen``; ``primary`` is the key
    that ranks before them (smaller is better).  None: a head-to-head of a subject tied
    with nobody."""
    values: dict[str, list[int | None]] = {s: [] for s in primary}
    groups: dict[tuple[object, ...], list[str]] = {}
    for s, first in primary.items():
        groups.setdefault(tuple(first), []).append(s)
    for name in chosen:
        tb = TIEBREAKS[name]
        if tb.within_group:
            tied = {s: at for at, group in groups.items() for s in group}
            found: dict[str, int | None] = dict(tb.value(replace(ctx, tied=tied),
                                                         list(primary)))
            for group in groups.values():
                if len(group) == 1:
                    found[group[0]] = None  # tied with nobody
        else:
            found = dict(tb.value(ctx, list(primary)))
        split: dict[tuple[object, ...], list[str]] = {}
        for at, group in groups.items():
            for s in group:
                values[s].append(found[s])
                split.setdefault((*at, found[s]), []).append(s)
        groups = split
    return {s: tuple(v) for s, v in values.items()}


def ranked(ctx: Context, primary: Mapping[str, Key], chosen: Sequence[str],
           name: Callable[[str], str]) -> list[tuple[str, int, tuple[int | None, ...]]]:
    """The subjects from first to last: (subject, place, tie-break figures as shown); equal
    keys and figures share a place, the name orders them."""
    figures = break_ties(ctx, primary, chosen)

    def key(s: str) -> tuple[int, ...]:
        return (*primary[s], *(-(v or 0) for v in figures[s]))
    out: list[tuple[str, int, tuple[int | None, ...]]] = []
    previous: tuple[int, ...] | None = None
    for index, s in enumerate(sorted(primary, key=lambda s: (key(s), name(s)))):
        place = out[-1][1] if out and key(s) == previous else index + 1
        previous = key(s)
        shown = tuple(None if v is None else TIEBREAKS[n].shown(v)
                      for n, v in zip(chosen, figures[s], strict=True))
        out.append((s, place, shown))
    return out


def primary_key(t: TournamentView, rec: Record) -> Key:
    """What ranks before the tie-breaks: wins (a draw half) then points, or points alone."""
    if t.s.rank_by == "points":
        return (-rec.points,)
    return (-(2 * rec.wins + rec.draws), -rec.points)


def _entrants(t: TournamentView, records: Mapping[int, Record], chosen: Sequence[str],
              among: Collection[int] | None = None
              ) -> list[tuple[str, int, tuple[int | None, ...]]]:
    ranked_ids = t.entrants if among is None else among
    ctx = Context(t, records, {str(e): (e,) for e in ranked_ids})
    primary = {str(e): primary_key(t, records[e]) for e in ranked_ids}
    return ranked(ctx, primary, chosen, lambda s: t.entrants[int(s)].name)


def order_entrants(t: TournamentView, records: Mapping[int, Record],
                   chosen: Sequence[str]) -> list[int]:
    """The entrants from first to last by their ``records`` and the ``chosen`` tie-breaks."""
    return [int(s) for s, _, _ in _entrants(t, records, chosen)]


def record_lines(t: TournamentView, records: Mapping[int, Record],
                 chosen: Sequence[str]) -> list[Line]:
    """The standings of entrants ranked by their records (equal keys share a place)."""
    lines = []
    taking_part = [e for e in t.entrants if took_part(t, records[e])]
    for s, place, shown in _entrants(t, records, chosen, taking_part):
        entrant = t.entrants[int(s)]
        rec = records[entrant.id]
        lines.append(Line(place, entrant.name, rec, rec.points, tiebreaks=shown,
                          withdrawn=entrant.withdrawn))
    return lines
