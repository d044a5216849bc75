"""The exact solver for fewer seats (kernel ``solve_root_n``, wrapper
:class:`belote.engine.search_seats.SeatSolver`) against a brute-force minimax in plain Python.

Positions: 3- and 2-player valdostana deals played by random legal cards down to a few tricks
left, every hand known.  The reference below walks every legal line (no pruning, no table)
with the engine's own obligations (:func:`belote.engine.obligations.legal_plays`) and trick
rule.  Kept short so that the file also runs quickly with ``NUMBA_DISABLE_JIT=1`` (scripts/test).
"""

from __future__ import annotations

import random

import pytest

from belote.ai import make_bot
from belote.ai.expert import ExpertBot
from belote.cards import card_list
from belote.engine import actions as A
from belote.engine.dealing import seeded_deck_source
from belote.engine.obligations import legal_plays
from belote.engine.search import rule_flags
from belote.engine.search_seats import SeatSolver, SeatsPosition, lines_of
from belote.engine.state import Game, Phase
from belote.engine.tricks import CARD_POINTS, trick_winner
from belote.errors import BeloteError
from belote.rules import PRESETS, Rules
from belote.sim.match import play_step

V3, V2 = PRESETS["valdostana3"], PRESETS["valdostana2"]


def brute(rules: Rules, hands: list[int], trick: tuple[int, ...], leader: int, trump: int,
          sides: tuple[int, ...], last_bonus: int) -> int:
    """Line 0's points from here with best play by both lines: plain minimax."""
    n = rules.players
    seat = (leader + len(trick)) % n
    best: int | None = None
    for card in card_list(legal_plays(hands[seat], trick, trump, rules)):
        hands[seat] &= ~(1 << card)
        played = (*trick, card)
        if len(played) < n:
            value = brute(rules, hands, played, leader, trump, sides, last_bonus)
        else:
            winner = (leader + trick_winner(played, trump)) % n
            points = sum(CARD_POINTS[trump][c] for c in played)
            if not any(hands):
                points += last_bonus
            value = points if sides[winner] == 0 else 0
            if any(hands):
                value += brute(rules, hands, (), winner, trump, sides, last_bonus)
        hands[seat] |= 1 << card
        if best is None or (value > best if sides[seat] == 0 else value < best):
            best = value
    assert best is not None
    return best


def position(rules: Rules, seed: int, tricks_left: int, trump: int) -> tuple[Game, int]:
    """A game dealt from ``seed`` with ``trump`` taken by seat 0 (the taker) and played at
    random to ``tricks_left`` tricks left, plus a card or two of the next trick."""
    rng = random.Random(seed)
    game = Game(rules, 0)
    game.deal(seeded_deck_source(seed)())
    if game.phase == Phase.CUT:
        game.apply(A.KNOCK)
    game.apply(A.contract_bid(0, trump))
    for _ in range(rules.players - 1):
        game.apply(A.PASS)
    assert game.phase == Phase.PLAYING
    while game.hands[game.current_player()].bit_count() > tricks_left:
        game.apply(rng.choice([a for a in game.legal_actions() if A.is_play(a)
                               and not A.announces(a)]))
    for _ in range(rng.randrange(rules.players)):
        game.apply(rng.choice([a for a in game.legal_actions() if A.is_play(a)
                               and not A.announces(a)]))
    return game, rng.randrange(rules.players)


def seats_position(game: Game, taker: int) -> SeatsPosition:
    rules = game.rules
    widow = (sum(CARD_POINTS[game.trump][c] for c in card_list(game.widow))
             if rules.widow == "last_trick" else 0)
    mover = game.current_player()
    return SeatsPosition(tuple(game.hands), tuple(game.trick), game.leader, game.trump,
                         lines_of(rules.players, mover, taker), widow)


CASES = [(rules, seed, left) for rules, lefts in ((V3, (2, 3)), (V2, (3, 4)))
         for left in lefts for seed in range(3)]


@pytest.mark.parametrize(("rules", "seed", "left"), CASES,
                         ids=[f"{r.players}p-seed{s}-{t}left" for r, s, t in CASES])
def test_the_kernel_values_every_card_as_a_brute_force_minimax(rules: Rules, seed: int,
                                                               left: int) -> None:
    game, taker = position(rules, seed, left, seed % 4)
    pos = seats_position(game, taker)
    solver = SeatSolver(rules)
    values = solver.solve(pos)
    seat = pos.to_move
    legal = card_list(legal_plays(game.hands[seat], tuple(game.trick), game.trump, rules))
    assert sorted(values) == legal
    bonus = rules.last_trick_bonus + pos.widow_points
    for card in legal:
        hands = list(game.hands)
        hands[seat] &= ~(1 << card)
        played = (*game.trick, card)
        expected = brute(rules, hands, tuple(played), game.leader, game.trump, pos.sides,
                         bonus) if len(played) < rules.players else None
        if expected is None:  # the card completes a trick
            winner = (game.leader + trick_winner(played, game.trump)) % rules.players
            points = sum(CARD_POINTS[game.trump][c] for c in played)
            if not any(hands):
                points += bonus
            expected = (points if pos.sides[winner] == 0 else 0) + (
                brute(rules, hands, (), winner, game.trump, pos.sides, bonus)
                if any(hands) else 0)
        assert values[card] == expected, card
    assert not solver.aborted


def test_a_node_limit_stops_the_search_with_the_cards_solved_so_far() -> None:
    game, taker = position(V2, 7, 4, 1)
    solver = SeatSolver(V2)
    pos = seats_position(game, taker)
    full = solver.solve(pos)
    part = solver.solve(pos, node_limit=1)
    assert solver.aborted and len(part) < len(full)
    assert all(full[c] == v for c, v in part.items())


@pytest.mark.parametrize("rules", [V3, V2], ids=["three", "two"])
def test_the_table_kept_along_a_hand_gives_the_values_of_a_fresh_solver(rules: Rules) -> None:
    game, taker = position(rules, 3, 3, 2)
    kept = SeatSolver(rules)
    while game.phase == Phase.PLAYING:
        pos = seats_position(game, taker)
        values = kept.solve(pos)
        assert values == SeatSolver(rules).solve(pos)
        game.apply(max(values, key=lambda c: (values[c], c)))


def test_a_bad_position_is_refused_and_changes_nothing() -> None:
    game, taker = position(V3, 1, 2, 0)
    pos = seats_position(game, taker)
    solver = SeatSolver(V3)
    bad = [
        SeatsPosition(pos.hands[:2], pos.trick, pos.leader, pos.trump, pos.sides[:2]),
        SeatsPosition(pos.hands, pos.trick, pos.leader, pos.trump, (0, 2, 1)),
        SeatsPosition(pos.hands, pos.trick, 3, pos.trump, pos.sides),
        SeatsPosition((pos.hands[0] | pos.hands[1], *pos.hands[1:]), pos.trick, pos.leader,
                      pos.trump, pos.sides),
    ]
    for p in bad:
        with pytest.raises(BeloteError):
            solver.solve(p)
    assert solver.nodes == 0


def test_the_four_seat_kernels_still_refuse_fewer_seats_but_the_seat_solver_does_not() -> None:
    for rules in (V3, V2):
        with pytest.raises(BeloteError, match="search_seats"):
            rule_flags(rules)
        assert SeatSolver(rules).flags & 1 == 0  # no partner, no partner_master_frees


def test_lines_put_the_two_defenders_together_and_the_taker_alone() -> None:
    assert lines_of(3, 1, 0) == (1, 0, 0)
    assert lines_of(3, 0, 0) == (0, 1, 1)
    assert lines_of(2, 1, 0) == (1, 0)
    assert lines_of(3, 2, None) == (1, 1, 0)


@pytest.mark.parametrize("rules", [V3, V2], ids=["three", "two"])
def test_the_expert_plays_a_whole_hand_with_the_exact_solver_for_fewer_seats(
        rules: Rules) -> None:
    bot = ExpertBot(1, budget_ms=5, hard_ms=200, max_worlds=2, min_worlds=1)
    players = [bot] + [make_bot("normal", s) for s in range(2, rules.players + 1)]
    game = Game(rules.with_flags(target_score=100), 0)
    source = seeded_deck_source(5)
    cards = 0
    methods: set[str] = set()
    while not game.is_terminal() and game.hands_scored < 1:
        before = bot.seat_fallbacks
        if game.current_player() == 0 and game.phase == Phase.PLAYING:
            cards += 1
            play_step(game, players, source)
            assert bot.seat_fallbacks == before  # no fallback for a card
            methods.add(bot.last_method)
        else:
            play_step(game, players, source)
    assert cards > 0 and game.hands_scored == 1
    assert "exact" in methods
    assert methods <= {"exact", "heuristic", "estimated", "unsearchable", ""}
