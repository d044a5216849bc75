"""The running score sheet of one match: hands scored by the engine, the litige / prigione
pot, the match totals, the match winner and the Pinasca tournament game score.

Every hand is scored with :func:`belote.engine.scoring.score_hand` (never with a scoring of
its own).  A refused hand changes nothing; :meth:`ScoreSheet.undo` takes the last hand back.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from belote.engine.scoring import HandFacts, HandOutcome, Pot, score_hand
from belote.rules.base import Rules
from belote.rules.game_score import game_scores
from belote.rules.target import match_winner as match_winner
from belote.scorekeeper.hand import HandEntry
from belote.scorekeeper.validation import Reason, ScoreError, check_hand


@dataclass(frozen=True, slots=True)
class HandResult:
    """A scored hand: what it added, the match totals after it, the pot it left."""

    number: int
    entry: HandEntry
    facts: HandFacts
    outcome: HandOutcome
    totals: tuple[int, int]
    winner: int | None  # the match winner after this hand, if the match is over

    @property
    def scores(self) -> tuple[int, int]:
        # The scorekeeper sheet is for four players: two teams.
        return (self.outcome.scores[0], self.outcome.scores[1])

    @property
    def pot(self) -> Pot:
        return self.outcome.pot


@dataclass
class ScoreSheet:
    """The hands of one match for a preset, with the pot and the match totals."""

    rules: Rules
    _hands: list[HandResult] = field(default_factory=list)

    @property
    def hands(self) -> tuple[HandResult, ...]:
        return tuple(self._hands)

    @property
    def totals(self) -> tuple[int, int]:
        return self._hands[-1].totals if self._hands else (0, 0)

    @property
    def pot(self) -> Pot:
        """Points at stake after a tie (litige / prigione), and whose they are."""
        return self._hands[-1].pot if self._hands else Pot()

    @property
    def winner(self) -> int | None:
        return self._hands[-1].winner if self._hands else None

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def next_number(self) -> int:
        return len(self._hands) + 1

    def check(self, entry: HandEntry) -> HandFacts:
        """Validate ``entry`` as the next hand (nothing changes)."""
        if self.winner is not None:
            raise ScoreError(Reason.MATCH_OVER, "hand", winner=self.winner)
        if entry.number is not None and entry.number != self.next_number:
            raise ScoreError(Reason.HAND_NUMBER, "hand", value=entry.number,
                             expected=self.next_number)
        return check_hand(self.rules, entry)

    def add(self, entry: HandEntry) -> HandResult:
        """Check, score and record the next hand; a :class:`ScoreError` changes nothing."""
        facts = self.check(entry)
        outcome = score_hand(self.rules, facts, self.pot)
        before = self.totals
        totals = (before[0] + outcome.scores[0], before[1] + outcome.scores[1])
        result = HandResult(self.next_number, entry, facts, outcome, totals,
                            match_winner(self.rules, totals, self.next_number))
        self._hands.append(result)
        return result

    def undo(self) -> HandResult:
        """Take the last hand back (its pot and totals with it)."""
        if not self._hands:
            raise ScoreError(Reason.NOTHING_TO_UNDO, "hand")
        return self._hands.pop()


def tournament_scores(sheet: ScoreSheet) -> tuple[int, int] | None:
    """The Pinasca game scores (N-S, E-W) of a finished match, None while it goes on
    (seed 001: the winner's total + the bonus + what the loser lacks to the target)."""
    if sheet.winner is None:
        return None
    w = sheet.winner
    won, lost = game_scores(sheet.totals[w], sheet.totals[1 - w],
                            target=sheet.rules.target_score)
    return (won, lost) if w == 0 else (lost, won)
