"""The tournament as data: its settings, entrants, rounds, games, results, adjustments and
the audit log of every change.

A tournament is rebuilt from its events (:mod:`belote.tournament.events`): the store keeps the
events, never a mutable copy, so a correction never erases what was there before.  Each draw
stores the pairings it produced (not a random seed), so a replay needs no randomness.

The format is stored by its name; what a format does is its strategy in
:mod:`belote.tournament.formats`, the only place that knows the names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

RankBy = Literal["wins", "points"]
State = Literal["registration", "running", "finished"]
# Where a result came from: an online table, the score entry page, the scorekeeper's CSV,
# typed by an organiser (the console or ``belote tournament record --totals``), an
# organiser's correction ("organiser", with its reason), a bye.  Logs before "console"
# existed stored typed results as "organiser": replayed as "console" (events.py).
Source = Literal["online", "entry", "csv", "console", "organiser", "bye"]
# What the rounds a late entrant missed count (``Settings.late_rule``): "zero" (the default:
# nothing, neither a win nor points) or "bye" (each as a bye: the stated bye score, and a win
# where the format's bye is one).
LateRule = Literal["zero", "bye"]
LATE_RULES: tuple[str, ...] = ("zero", "bye")
BEST_OF: tuple[int, ...] = (1, 3)  # games a match is played over (3: the first to win 2)


@dataclass(frozen=True, slots=True)
class Event:
    """One change of a tournament, as stored (its kinds: :mod:`belote.tournament.events`)."""

    kind: str
    data: dict[str, Any]
    by: str = ""
    at: str = ""


class TournamentError(Exception):
    """A request the tournament refuses; ``code`` names the ``tournament.error.*`` message
    and ``values`` fill it.  Nothing has changed."""

    def __init__(self, code: str, **values: Any) -> None:
        super().__init__(f"{code} {values}" if values else code)
        self.code = code
        self.values = values


@dataclass(frozen=True, slots=True)
class Settings:
    """What the organiser chose when creating the tournament."""

    name: str
    format: str  # a registered format's name (belote.tournament.formats)
    preset: str = "pinasca"
    flags: tuple[tuple[str, Any], ...] = ()  # rule flags changed from the preset
    target: int = 1500
    rounds: int = 3
    deals: int | None = None  # concours: a fixed number of deals instead of a target
    rank_by: RankBy = "wins"
    bye_points: int = 0  # the stated score of a bye
    standins: bool = False  # may a bot stand in for a drawn player at an online table
    # Entrants and tie-breaks (issue 24); the defaults are what a tournament stored before
    # them did, so that an old log replays unchanged.
    check_in: bool | None = None  # only checked-in entrants are drawn; None: the format's
    late_rule: LateRule = "zero"  # what a late entrant's missed rounds count
    best_of: int = 1  # 3: a match is won by the first side to win 2 games ("la bella")
    tiebreaks: tuple[str, ...] | None = None  # in order (belote.tournament.tiebreaks)
    lot_seed: int | None = None  # the recorded seed of the drawing of lots

    def to_data(self) -> dict[str, Any]:
        return {"name": self.name, "format": self.format, "preset": self.preset,
                "flags": dict(self.flags), "target": self.target, "rounds": self.rounds,
                "deals": self.deals, "rank_by": self.rank_by, "bye_points": self.bye_points,
                "standins": self.standins, "check_in": self.check_in,
                "late_rule": self.late_rule, "best_of": self.best_of,
                "tiebreaks": None if self.tiebreaks is None else list(self.tiebreaks),
                "lot_seed": self.lot_seed}

    @staticmethod
    def from_data(data: dict[str, Any]) -> Settings:
        return Settings(
            name=str(data["name"]), format=str(data["format"]), preset=str(data["preset"]),
            flags=tuple(sorted(dict(data.get("flags") or {}).items())),
            target=int(data["target"]), rounds=int(data["rounds"]),
            deals=None if data.get("deals") is None else int(data["deals"]),
            rank_by=data.get("rank_by", "wins"), bye_points=int(data.get("bye_points", 0)),
            standins=bool(data.get("standins", False)),
            check_in=None if data.get("check_in") is None else bool(data["check_in"]),
            late_rule=data.get("late_rule") or "zero", best_of=int(data.get("best_of") or 1),
            tiebreaks=None if data.get("tiebreaks") is None else tuple(
                str(name) for name in data["tiebreaks"]),
            lot_seed=None if data.get("lot_seed") is None else int(data["lot_seed"]))


@dataclass(slots=True)
class Entrant:
    """What is paired: a pair (Pinasca, concours, double elimination) or a player (mêlée).

    ``club`` is a Pinasca pair's neighbourhood (the team of two pairs that is ranked).
    """

    id: int
    name: str
    players: tuple[str, ...]
    club: str | None = None
    checked_in: bool = False
    # Per player, the account (its name key) the organiser bound to them, "" for none: that
    # account is that player wherever the player is seated (belote.tournament.codes).
    accounts: tuple[str, ...] = ()
    # Issue 24: a withdrawn entrant is not drawn again (its games stay); a reserve is not
    # drawn until promoted; ``joined`` is the first round it could be drawn in (a late entry
    # or a promoted reserve: the rounds before it were missed, ``Settings.late_rule``).
    withdrawn: bool = False
    reserve: bool = False
    joined: int = 1

    def account(self, position: int) -> str:
        return self.accounts[position] if position < len(self.accounts) else ""


@dataclass(frozen=True, slots=True)
class Result:
    """A game's match totals as played (side 0, side 1) and what it scores.

    ``scores`` are the game scores of the format (Pinasca: seed 001's 3800/1200), and
    ``winner`` the winning side (None: a draw, possible only over a fixed number of deals).
    """

    totals: tuple[int, ...]  # one figure for a bye
    scores: tuple[int, ...]
    winner: int | None
    source: Source
    reason: str = ""  # a correction's stated reason
    replaced: Source | None = None  # a correction: where the result it replaced came from


@dataclass(slots=True)
class Game:
    """One table of one round: two sides of entrant ids (a pair each, or two players each in
    a mêlée), the players actually seated, and the result once known.  A bye has one side."""

    id: int
    round: int
    table: int
    sides: tuple[tuple[int, ...], ...]
    lineup: tuple[tuple[str, ...], ...] = ()  # the seated players of each side (seed 001)
    # Each seated player's code, as ``lineup`` (belote.tournament.codes): what identifies
    # them to score this game or take their seat; never shown on a public page.
    codes: tuple[tuple[str, ...], ...] = ()
    result: Result | None = None
    table_id: int | None = None  # the room's table playing it online
    # Left without a result when an organiser forced its round closed (the ``forced``
    # event): not played, it counts for nobody.
    unplayed: bool = False
    unplayed_reason: str = ""  # the forced close's reason (the exports show it)
    # A best-of-3 match (``Settings.best_of``): each game played so far, in order; the
    # match's ``result`` is set when a side has won two (its totals and scores: their sums).
    legs: tuple[Result, ...] = ()
    # The seats (side, position in the side) a bot played for an absent player at the
    # game's online table (the ``standins`` event): marked in the exports and standings.
    standins: tuple[tuple[int, int], ...] = ()

    @property
    def bye(self) -> bool:
        return len(self.sides) == 1

    @property
    def playing(self) -> bool:
        return self.result is None


@dataclass(slots=True)
class Round:
    number: int
    games: list[Game] = field(default_factory=list)
    closed: bool = False


@dataclass(frozen=True, slots=True)
class Adjustment:
    """An organiser's change to ranking points (Pinasca: of a neighbourhood; else of an
    entrant), with its stated reason (seed 001: "Girandola", "Framasun")."""

    subject: str
    points: int
    reason: str
    by: str


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One stored change: who did what, when; corrections keep the result they replaced."""

    number: int
    kind: str
    data: dict[str, Any]
    by: str
    at: str
