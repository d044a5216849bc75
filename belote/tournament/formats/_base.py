"""What a tournament format is: one strategy object that answers every question the
tournament, its pages and the CLI ask of a format (python-chess's ``Board`` subclasses per
variant, lichess's one file per ``Variant``).

A format says: what an entrant is (its players) and what registers together (a Pinasca
neighbourhood's two pairs, with the neighbourhood's name); whether entrants check in; how the
next round is drawn; when the tournament is complete; what a game scores; how the entrants
are ordered and what the standings show; what an organiser's adjustment applies to.  The
defaults are those of a pairs tournament ranked by its records; a format overrides what it
does differently.
"""

from __future__ import annotations

import random
import string
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from belote.tournament.model import Settings
from belote.tournament.records import Line, Record, entrant_records
from belote.tournament.tiebreaks import TIEBREAKS, order_entrants, record_lines
from belote.tournament.view import TournamentView

Side = tuple[int, ...]
Pairs = list[tuple[Side, Side]]


@dataclass(frozen=True, slots=True)
class Draw:
    """A round's pairings: the tables (two sides of entrant ids each) and who sits out."""

    tables: Pairs
    byes: list[int]


@dataclass(frozen=True, slots=True)
class Column:
    """One column of the standings table: its heading (a message key) and its figure."""

    label: str
    cell: Callable[[Line], object]


def _figure(name: str) -> Callable[[Line], object]:
    def cell(line: Line) -> object:
        return getattr(line.record, name) if line.record is not None else ""
    return cell


RECORD_COLUMNS: tuple[Column, ...] = tuple(
    Column(f"tournament.web.col.{name}", _figure(name))
    for name in ("played", "wins", "draws", "losses", "byes", "points"))


def _tiebreak(index: int) -> Callable[[Line], object]:
    def cell(line: Line) -> object:
        value = line.tiebreaks[index] if index < len(line.tiebreaks) else None
        return "" if value is None else value
    return cell


def tiebreak_columns(names: Sequence[str]) -> tuple[Column, ...]:
    """The columns of the chosen tie-breaks, in their order."""
    return tuple(Column(TIEBREAKS[name].label, _tiebreak(n)) for n, name in enumerate(names))


class TournamentFormat(ABC):
    """A format's strategy; register one instance with
    :func:`belote.tournament.formats.register` (see ``docs/tournaments.md``, "Adding a
    format").  Its ``name`` is what the settings store and what names its messages
    (``tournament.format.<name>``)."""

    name: str
    menu_order: int = 100  # its place in the organiser's list; the first is the default

    # ---------------------------------------------------------------- entrants
    players_per_entrant: int = 2  # a pair; a mêlée enters single players
    group_size: int = 1  # entrants that register together (one entry form)
    has_club: bool = False  # a group registers under a club's name (a neighbourhood)
    has_check_in: bool = True  # only checked-in entrants are drawn (the settings may say)
    allows_late_entry: bool = True  # entrants may join after round 1 (``late_entry``)

    # ---------------------------------------------------------------- scoring
    allows_draws: bool = True  # equal totals over a fixed number of deals are a draw
    bye_is_win: bool = True  # a bye counts as a won game (else it only passes the round)
    adjusts_entrants: bool = True  # an adjustment changes an entrant's points

    standings_columns: tuple[Column, ...] = RECORD_COLUMNS
    default_tiebreaks: tuple[str, ...] = ("buchholz",)  # unless the organiser chooses
    tiebreak_choices: tuple[str, ...] = tuple(TIEBREAKS)  # what the organiser may choose

    # ---------------------------------------------------------------- the draw
    @abstractmethod
    def pair(self, t: TournamentView, rng: random.Random) -> Draw:
        """The next round's pairings; raises
        :class:`~belote.tournament.model.TournamentError` when none can be drawn."""

    def is_complete(self, t: TournamentView) -> bool:
        """Whether no round is left to draw (called once the last drawn round is closed)."""
        return len(t.rounds) >= t.s.rounds

    # ---------------------------------------------------------------- checks
    def check_settings(self, data: Mapping[str, Any]) -> None:  # noqa: B027 (a hook)
        """Refuse settings this format cannot play (raises ``TournamentError``)."""

    def check_entrants(self, entrants: Sequence[object]) -> None:  # noqa: B027 (a hook)
        """Refuse a registration of these entrants together (raises ``TournamentError``)."""

    # ---------------------------------------------------------------- results
    def game_scores(self, settings: Settings, totals: tuple[int, int],
                    winner: int | None) -> tuple[int, int]:
        """What each side's match total scores for the standings (default: itself)."""
        return totals

    # ---------------------------------------------------------------- standings
    def records(self, t: TournamentView) -> dict[int, Record]:
        records = entrant_records(t, adjusted=self.adjusts_entrants)
        if t.s.late_rule == "bye":  # a late entrant's missed rounds count as byes
            for entrant in t.entrants.values():
                missed = min(entrant.joined - 1, len(t.rounds))
                if missed > 0:
                    rec = records[entrant.id]
                    rec.absent -= missed
                    rec.byes += missed
                    rec.points += missed * t.s.bye_points
                    rec.wins += missed if self.bye_is_win else 0
        return records

    def tiebreaks(self, t: TournamentView) -> tuple[str, ...]:
        """The tie-breaks in force, in order: the organiser's, else the format's."""
        return self.default_tiebreaks if t.s.tiebreaks is None else t.s.tiebreaks

    def checks_in(self, t: TournamentView) -> bool:
        """Whether only checked-in entrants are drawn: the settings', else the format's."""
        return self.has_check_in if t.s.check_in is None else t.s.check_in

    def order(self, t: TournamentView) -> list[int]:
        """The entrants from first to last (what a draw by standings follows)."""
        return order_entrants(t, self.records(t), self.tiebreaks(t))

    def standings(self, t: TournamentView) -> list[Line]:
        return record_lines(t, self.records(t), self.tiebreaks(t))

    def columns(self, t: TournamentView) -> tuple[Column, ...]:
        """The standings' columns: the format's, then the tie-breaks in force."""
        return self.standings_columns + tiebreak_columns(self.tiebreaks(t))

    def adjustment_subjects(self, t: TournamentView) -> list[str]:
        """What an organiser's adjustment may name (the console's list)."""
        return [e.name for e in t.entrants.values()]

    # ---------------------------------------------------------------- the entry form
    @property
    def entry_prefixes(self) -> tuple[str, ...]:
        """The field prefixes of the entrants of one entry form (``a_``, ``b_``, ...)."""
        return tuple(f"{letter}_" for letter in string.ascii_lowercase[:self.group_size])

    @property
    def player_numbers(self) -> range:
        """The numbers of an entrant's player fields (1, 2 for a pair)."""
        return range(1, self.players_per_entrant + 1)

    def __repr__(self) -> str:
        return f"<format {self.name}>"
