"""The capot with three players and ``capot_all_points`` (issue 21, item 10).

Finding: "``valdostana3`` with ``capot_all_points=true`` breaks 95 of 200 matches
(StopIteration in scoring)".  docs/rules-2-3-players.md: with three players a capot is one
**player's** (252), never the two defenders' together; ``capot_all_points`` (RULES.md, the
italian "cappotto", seed 000) makes it every card point instead of every trick (the others
may win pointless tricks), and impossible when another side scored a belote.
"""

from __future__ import annotations

from belote.ai import make_bot
from belote.cards import Suit
from belote.engine.dealing import seeded_deck_source
from belote.engine.scoring import HandFacts, capot_side, score_hand
from belote.rules import find_preset
from belote.sim.match import play_match

HEARTS = int(Suit.HEARTS)
V3_CAPPOTTO = find_preset("valdostana3").with_flags(capot_all_points=True)


def _facts(points: tuple[int, int, int], tricks: tuple[int, int, int],
           belote: tuple[int, int, int] = (0, 0, 0)) -> HandFacts:
    return HandFacts(taker_team=0, trump=HEARTS, card_points=points, tricks_won=tricks,
                     belote=belote, declarations=(0, 0, 0), level=82, tricks=10)


def test_valdostana3_with_capot_all_points_breaks_matches_with_stop_iteration() -> None:
    # The two defenders took every point between them, the taker a pointless trick: the
    # defence line "took every point", but no player did: no capot (it raised StopIteration).
    facts = _facts((0, 100, 62), (1, 5, 4))
    assert capot_side(V3_CAPPOTTO, facts) is None
    result = score_hand(V3_CAPPOTTO, facts)
    assert result.outcome == "failed" and result.capot_team is None
    assert result.scores == (0, 100, 62)  # 162 to the defence, each his own


def test_bots_play_whole_valdostana3_matches_with_capot_all_points() -> None:
    rules = V3_CAPPOTTO.with_flags(target_score=300)
    for seed in range(200):  # the finding: 95 of 200 broke
        game = play_match(rules, [make_bot("random", seed * 3 + s) for s in range(3)],
                          seeded_deck_source(seed), first_dealer=seed % 3)
        assert game.is_terminal()


def test_a_cappotto_of_three_is_one_players_every_point_while_others_take_pointless_tricks(
) -> None:
    # One defender took every point, the taker and the other defender pointless tricks: his
    # capot (252 card points), on a failed contract whose score is valdostana's fixed 162
    # (as with four players): he keeps it all, the other defender has nothing to keep.
    defender = score_hand(V3_CAPPOTTO, _facts((0, 162, 0), (1, 8, 1)))
    assert defender.capot_team == 1 and defender.outcome == "failed"
    assert defender.card_points == (0, 252, 0) and defender.scores == (0, 162, 0)
    # The taker took every point: made, 252.
    taker = score_hand(V3_CAPPOTTO, _facts((162, 0, 0), (9, 1, 0)))
    assert taker.capot_team == 0 and taker.outcome == "made"
    assert taker.scores == (252, 0, 0)


def test_no_cappotto_of_three_against_another_players_belote() -> None:
    result = score_hand(V3_CAPPOTTO, _facts((162, 0, 0), (9, 1, 0), belote=(0, 20, 0)))
    assert result.capot_team is None and result.outcome == "made"
    assert result.scores == (162, 20, 0)


def test_without_capot_all_points_a_capot_of_three_is_every_trick() -> None:
    rules = find_preset("valdostana3")
    assert capot_side(rules, _facts((0, 162, 0), (1, 8, 1))) is None
    assert capot_side(rules, _facts((0, 162, 0), (0, 10, 0))) == 1
    assert score_hand(rules, _facts((0, 162, 0), (0, 10, 0))).scores == (0, 162, 0)
    # where the failed score is every card point, the capot's bonus is the defender's too
    every_point = rules.with_flags(failed_defenders_points=None)
    assert score_hand(every_point, _facts((0, 162, 0), (0, 10, 0))).scores == (0, 252, 0)
