"""What a finished match means for ratings and profiles (pure: no database, no room).

Ratings are openskill's Plackett-Luce model (a Bayesian team rating in the TrueSkill family):
each player has a mean skill ``mu`` and an uncertainty ``sigma``; a partnership is rated as
the sum of its two players, and after a match the winners' ``mu`` rises and the losers'
falls by how surprising the result was, while every ``sigma`` shrinks.  What pages show is
``mu`` itself (:func:`shown`), marked provisional for the first :data:`PROVISIONAL` rated
matches: the conservative ``mu - 3 sigma`` shown before issue 28 rose with every match
played, won or lost, as ``sigma`` shrank, so that volume alone climbed the leaderboard.  The
expected change of ``mu`` is zero for a player who plays at their level, whatever the number
of matches.  A match may count at a reduced weight for some of its players (:mod:`.farming`).

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
# levels' order and spacing (docs/ratings.md), with a small sigma (they are known, not
# guessed); pages show their mu (18, 25, 26, 32).  Plug-in levels have no reference.
REFERENCE: dict[str, tuple[float, float]] = {
    "easy": (18.0, 1.0),
    "normal": (25.0, 1.0),
    "quick": (26.0, 1.0),
    "expert": (32.0, 1.0),
}


PROVISIONAL = 10  # rated matches before a rating is established (and ranked)


def ordinal(mu: float, sigma: float) -> float:
    """openskill's conservative estimate: the skill the player very likely exceeds (not
    shown: it rises as ``sigma`` shrinks, with volume alone)."""
    return mu - 3.0 * sigma


def shown(mu: float, sigma: float) -> float:
    """The rating a page shows: the estimated skill ``mu``, which moves with results only
    (``sigma`` says how sure the room is, shown as "provisional" while it is early)."""
    del sigma  # kept in the signature: the caller holds both, and may one day show it
    return mu


def provisional(matches: int) -> bool:
    return matches < PROVISIONAL


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One account holder's part in a finished match."""

    seat: int
    account: int
    won: bool
    taken: int  # contracts this player took
    made: int
    failed: int
    points: int = 0  # the points this player's partnership scored over the match


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    preset: str
    winner: int | None  # team 0 (North-South, seats 0 and 2) or 1 (East-West)
    players: tuple[PlayerResult, ...]  # account holders only, by seat
    rated: bool  # four distinct accounts and a winner: the ratings may move (.farming)
    bots: bool = False  # a bot held a seat at the end (the statistics' "with bots")
    hands: int = 0  # hands scored


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
    totals = summary.totals if len(summary.totals) == 2 else None
    players: list[PlayerResult] = []
    for seat_no, account in enumerate(accounts):
        if account is None or account in twice:
            continue
        mine = [h for h in summary.hands if h.taker == seat_no]
        players.append(PlayerResult(
            seat=seat_no, account=account, won=winner is not None and seat_no % 2 == winner,
            taken=len(mine), made=sum(h.outcome == "made" for h in mine),
            failed=sum(h.outcome == "failed" for h in mine),
            points=0 if totals is None else int(totals[seat_no % 2])))
    rated = winner is not None and len(players) == 4 and len(seats) == 4
    bots = any(s.kind == "bot" for s in seats)
    return MatchOutcome(preset, winner, tuple(players), rated, bots, len(summary.hands))


def rate(before: Sequence[tuple[float, float]], winner: int,
         weight: float | Sequence[float] = 1.0) -> list[tuple[float, float]]:
    """The four seats' (mu, sigma) after a match ``winner``'s team won (by seat number).

    A seat of ``weight`` w (:mod:`.farming`: one for all four, or one per seat) moves its
    ``mu`` and its ``sigma`` by w times what a full match would move them; a seat of weight 0
    keeps its rating (the others' update is the full match's, scaled by their own weight)."""
    if len(before) != 4 or winner not in (0, 1):
        raise ValueError("four seats' ratings and a winning team (0 or 1) are needed")
    if isinstance(weight, (int, float)):
        if not 0.0 < weight <= 1.0:
            raise ValueError("a rated match weighs more than 0 and at most 1")
        weights = [float(weight)] * 4
    else:
        weights = [float(w) for w in weight]
        if len(weights) != 4 or not all(0.0 <= w <= 1.0 for w in weights) \
                or not any(weights):
            raise ValueError("each seat weighs 0 to 1, and one seat more than 0")
    r = [MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in before]
    teams = [[r[0], r[2]], [r[1], r[3]]]
    ranks = [0.0, 1.0] if winner == 0 else [1.0, 0.0]
    (n, s), (e, w) = MODEL.rate(teams, ranks=ranks)
    return [(p.mu, p.sigma) if x == 1.0 else (mu + x * (p.mu - mu), sigma + x * (p.sigma - sigma))
            for (mu, sigma), p, x in zip(before, (n, e, s, w), weights, strict=True)]
