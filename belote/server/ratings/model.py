"""What a finished match means for ratings and profiles (pure: no database, no room).

Ratings are openskill's Plackett-Luce model (a Bayesian team rating in the TrueSkill family):
each player has a mean skill ``mu`` and an uncertainty ``sigma``; a partnership is rated as
the sum of its two players, and after a match the winners' ``mu`` rises and the losers'
falls by how surprising the result was, while every ``sigma`` shrinks.  What pages show is the
conservative estimate ``mu - 3 sigma`` (openskill's ordinal): a newcomer starts at 0 and
climbs as the matches make the room surer of them.

Only matches of four registered accounts are rated.  Bots never are: their ratings below are
fixed reference points, shown on every leaderboard so that a player can read a number
against a known opponent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from belote.records import replay
from belote.server.seats import Seat

MODEL = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3, beta 25/6
START = (MODEL.mu, MODEL.sigma)

# Fixed (mu, sigma) per built-in bot level, never updated: reference points chosen by the
# levels' order and spacing (docs/ratings.md), with a small sigma so that the ordinal shown
# (mu - 3 sigma: 15, 22, 23, 29) is close to the mean.  Plug-in levels have no reference.
REFERENCE: dict[str, tuple[float, float]] = {
    "easy": (18.0, 1.0),
    "normal": (25.0, 1.0),
    "quick": (26.0, 1.0),
    "expert": (32.0, 1.0),
}


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating a page shows: the skill the player very likely exceeds."""
    return mu - 3.0 * sigma


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One account holder's part in a finished match."""

    seat: int
    account: int
    won: bool
    taken: int  # contracts this player took
    made: int
    failed: int


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    preset: str
    winner: int | None  # team 0 (North-South, seats 0 and 2) or 1 (East-West)
    players: tuple[PlayerResult, ...]  # account holders only, by seat
    rated: bool  # four distinct accounts and a winner: the ratings move


def outcome(preset: str, seats: Sequence[Seat], record: dict[str, Any]) -> MatchOutcome:
    """The outcome of a finished match from its record and its final seating.

    A seat counts for its account when a registered person sits there (a bot may have stood
    in for them meanwhile: their seat, their result).  One account in two seats (two
    browsers) counts for neither seat and the match is not rated.
    """
    summary = replay(record)
    winner = summary.winner
    accounts = [s.account if s.kind == "human" else None for s in seats]
    twice = {a for a in accounts if a is not None and accounts.count(a) > 1}
    players: list[PlayerResult] = []
    for seat_no, account in enumerate(accounts):
        if account is None or account in twice:
            continue
        mine = [h for h in summary.hands if h.taker == seat_no]
        players.append(PlayerResult(
            seat=seat_no, account=account, won=winner is not None and seat_no % 2 == winner,
            taken=len(mine), made=sum(h.outcome == "made" for h in mine),
            failed=sum(h.outcome == "failed" for h in mine)))
    rated = winner is not None and len(players) == 4 and len(seats) == 4
    return MatchOutcome(preset, winner, tuple(players), rated)


def rate(before: Sequence[tuple[float, float]], winner: int) -> list[tuple[float, float]]:
    """The four seats' (mu, sigma) after a match ``winner``'s team won (by seat number)."""
    if len(before) != 4 or winner not in (0, 1):
        raise ValueError("four seats' ratings and a winning team (0 or 1) are needed")
    r = [MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in before]
    teams = [[r[0], r[2]], [r[1], r[3]]]
    ranks = [0.0, 1.0] if winner == 0 else [1.0, 0.0]
    (n, s), (e, w) = MODEL.rate(teams, ranks=ranks)
    return [(p.mu, p.sigma) for p in (n, e, s, w)]
