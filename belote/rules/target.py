"""When a match is won: the target score (RULES.md "Match"), one definition for every layer."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from belote.rules.base import Rules


def match_winner(rules: Rules, totals: tuple[int, ...] | list[int],
                 hands: int = 0) -> int | None:
    """The team that has won after ``hands`` hands: past the target (reached, or exceeded with
    ``target_strict``) and ahead; both past: the higher; equal totals: the match goes on.

    With ``match_hands`` set, the target plays no part: after that many hands the team ahead
    has won, and a tie plays one more hand."""
    # With three sides "ahead" is the single highest total (a tie for first goes on).
    top = max(totals)
    alone = list(totals).count(top) == 1
    if rules.match_hands:
        if hands < rules.match_hands or not alone:
            return None
        return list(totals).index(top)
    target = rules.target_score
    reached = [t > target if rules.target_strict else t >= target for t in totals]
    if not any(reached) or not alone:
        return None
    return list(totals).index(top)


__all__ = ["match_winner"]
