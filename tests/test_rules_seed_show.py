"""Seed 000: declarations shown at the second trick only on request, and the "Mossa Leccese".

Seats are numbered in playing order; dealt by seat 3, seat 0 speaks and leads first.
"""

from __future__ import annotations

import dataclasses
import random
from types import SimpleNamespace

import numpy as np
import pytest
from helpers import of_kind
from test_variants_simulation import check_cards, check_observations
from variant_helpers import ITALIAN, VALDOSTANA, auction_game, bid, calls, italian_in_play, mask

from belote.ai.heuristic import HeuristicBot
from belote.ai.showing import provably_fake, table_talk
from belote.engine import actions as A
from belote.engine.dealing import seeded_deck_source
from belote.engine.events import (
    BluffRefuted,
    DeclarationAnnounced,
    DeclarationsShown,
    Event,
    HandScored,
    ShowRequested,
)
from belote.engine.state import CHANCE, Game
from belote.errors import IllegalActionError
from belote.i18n import describe_event
from belote.rl.tensors import information_state_tensor, observation_tensor
from belote.rules import Rules
from belote.rules.validation import FlagError
from belote.server.seats import Seat
from belote.server.view import Viewer, table_view

CINQUANTE = A.DECLARE_NAME_BASE + 1
# Seat 0: a cinquante (7-10 of spades) and a lower tierce (7-9 of diamonds); nobody else
# announces anything.
ACCUSI = {
    0: "7S 8S 9S 10S 7D 8D 9D AH",
    1: "JS JH JD JC 7C 9C AC QD",
    2: "7H 9H QH 10D AD 8C QC KS",
    3: "8H 10H KH KD 10C KC QS AS",
}
SEQUENCES_OF_0 = mask("7S 8S 9S 10S 7D 8D 9D")


def _card(game: Game) -> int:
    return min(a for a in game.legal_actions() if a < A.PLAY_ANNOUNCE_BASE)


def _valdostana(rules: Rules = VALDOSTANA) -> Game:
    """Seat 0 takes 82 in hearts, announces "cinquante" and the first trick is played."""
    game, _ = auction_game(ACCUSI, rules=rules)
    calls(game, bid(rules, 82, 0), A.PASS, A.PASS, A.PASS)
    game.apply(CINQUANTE)
    while game.trick_no == 0:
        game.apply(_card(game))
    return game


def _play_second_trick(game: Game, ask: bool) -> list[Event]:
    events: list[Event] = []
    while game.trick_no == 1:
        seat = game.current_player()
        if ask and A.REQUEST_SHOW in game.legal_actions():
            events += game.apply(A.REQUEST_SHOW)
        events += game.apply(_card(game), seat)
    return events


# --- showing on request (valdostana) ----------------------------------------------------------


def test_valdostana_unasked_declarations_score_as_announced_and_stay_hidden() -> None:
    # Seed 000: "Alla seconda mano può essere richiesto di mostrare queste dichiarazioni (ma non
    # è obbligatorio se non viene richiesto)"; valdostana: "conviene mostrare tutti gli accusi
    # e così validare anche quelli non annunciati": unshown, the lower tierce is not valid.
    assert VALDOSTANA.declarations is not None and VALDOSTANA.declarations.show_on_request
    game = _valdostana()
    assert game.declaration_points == (50, 0)
    events = _play_second_trick(game, ask=False)
    assert not of_kind(events, DeclarationsShown)
    assert game.shown_cards == [0, 0, 0, 0]
    assert game.declaration_points == (50, 0)
    for seat in (1, 2, 3, None):
        assert game.observation(seat).shown == (0, 0, 0, 0)


def test_valdostana_a_request_shows_every_accuso_to_everybody_and_validates_the_lower() -> None:
    # Seed 000: "Nel secondo giro, su richiesta degli avversari, si mostrano le figure, anche
    # quelle non annunciate poiché di valore inferiore".
    game = _valdostana()
    while A.REQUEST_SHOW not in game.legal_actions():
        assert game.current_player() % 2 == 0  # the declaring line is never offered it
        game.apply(_card(game))
    asker = game.current_player()
    assert asker % 2 == 1
    events = game.apply(A.REQUEST_SHOW)
    assert of_kind(events, ShowRequested) == [ShowRequested(asker)]
    shown = of_kind(events, DeclarationsShown)
    assert [(e.seat, e.cards) for e in shown] == [(0, SEQUENCES_OF_0)]
    assert game.declaration_points == (70, 0)
    for seat in (0, 1, 2, 3, None):
        assert game.observation(seat).shown[0] == SEQUENCES_OF_0
    for seat in (1, 2, 3):  # the information-state tensors carry the shown cards too
        assert information_state_tensor(game, seat).sum() > 0
    assert A.REQUEST_SHOW not in game.legal_actions()  # once
    assert game.current_player() == asker  # the asker still plays his card


def test_a_request_by_the_declaring_line_or_out_of_the_second_trick_is_refused() -> None:
    game, _ = auction_game(ACCUSI)
    calls(game, bid(VALDOSTANA, 82, 0), A.PASS, A.PASS, A.PASS)
    with pytest.raises(IllegalActionError):
        game.apply(A.REQUEST_SHOW)  # first trick: nothing to show yet
    game = _valdostana()
    while game.current_player() % 2 == 1:
        game.apply(_card(game))
    before = (len(game.log), game.declaration_points, game.shown_cards[:])
    with pytest.raises(IllegalActionError, match="declaration"):
        game.apply(A.REQUEST_SHOW)  # seat 0's own line
    assert (len(game.log), game.declaration_points, game.shown_cards) == before


def test_without_the_flag_declarations_are_shown_at_once_and_nobody_asks() -> None:
    rules = VALDOSTANA.with_flags(**{"declarations.show_on_request": False})
    game = _valdostana(rules)
    assert game.declaration_points == (70, 0)
    events: list[Event] = []
    while game.trick_no == 1:
        assert A.REQUEST_SHOW not in game.legal_actions()
        events += game.apply(_card(game))
    assert [(e.seat, e.cards) for e in of_kind(events, DeclarationsShown)] == [
        (0, SEQUENCES_OF_0)]


def test_the_heuristic_asks_against_its_contract_only() -> None:
    game = _valdostana()
    while A.REQUEST_SHOW not in game.legal_actions():
        game.apply(_card(game))
    obs = game.observation(game.current_player())
    assert table_talk(obs) is None  # defending: the takers would validate their tierce
    assert HeuristicBot(seed=1).choose(obs) != A.REQUEST_SHOW
    taking = dataclasses.replace(obs, taker=obs.seat)
    assert table_talk(taking) == A.REQUEST_SHOW


# --- bluffs, the "Mossa Leccese" (italian) ----------------------------------------------------

# Seat 0 takes the turned 10D and holds a tierce 7-9 of clubs.  REAL: seat 1 holds the tierce
# 7-9 of spades; FAKE: his 9S is seat 3's AD instead.  Seats 0 and 2 hold the same cards.
REAL = {
    0: "7C 8C 9C JH QD KS AS 10D",
    1: "7S 8S 9S AH KH QS 7D 8D",
    2: "7H 9H QH 10C QC AC JS 9D",
    3: "8H 10H JD KD AD JC KC 10S",
}
FAKE = {**REAL, 1: "7S 8S AD AH KH QS 7D 8D", 3: "8H 10H JD KD 9S JC KC 10S"}


def _italian(hands: dict[int, str], rules: Rules = ITALIAN) -> Game:
    """Seat 0 declares its tierce and plays; seat 1 is to speak."""
    game, _ = italian_in_play(hands, "10D", taker=0, call=A.TAKE, rules=rules)
    game.apply(A.DECLARE)
    game.apply(_card(game))
    return game


def _frames(game: Game, events: list[Event], seat: int | None) -> tuple[object, ...]:
    """Everything ``seat`` is sent: its view, its tensors, the sentences it hears, the room's
    frame."""
    obs = game.observation(seat)
    data = obs.to_dict()
    del data["legal_actions"]  # the mover's (seat 1's) own choices are not another seat's
    tensors: tuple[object, ...] = ()
    if seat is not None:
        tensors = (observation_tensor(game, seat).tobytes(),
                   information_state_tensor(game, seat).tobytes())
    words = tuple(describe_event(e, "en", seat) for e in events if e.visible_to(seat))
    table = SimpleNamespace(
        id=1, preset="italian", rules=game.rules, seats=[Seat("bot")] * 4, game=game,
        finished=False, version=1, score_history=[], name="t", private=False, code="c",
        waiting_next=False, ready=set(), rematch=None, fixed_deck=None,
        save_vote=None)
    room = table_view(table, Viewer(seat, "it"))
    return (data, tensors, words, tuple(events), room)


def test_an_equal_sequence_is_offered_whether_held_or_not_and_sounds_the_same() -> None:
    # Seed 000: "Mossa Leccese: se uno dei giocatori dichiara una scala, è possibile
    # dichiararne una fasulla uguale, allo scopo di sapere dall'avversario la carta più alta".
    assert ITALIAN.declarations is not None and ITALIAN.declarations.bluffs_allowed
    real, fake = _italian(REAL), _italian(FAKE)
    assert A.BLUFF in real.legal_actions() and A.BLUFF in fake.legal_actions()
    real_events, fake_events = real.apply(A.BLUFF), fake.apply(A.BLUFF)
    assert of_kind(fake_events, DeclarationAnnounced) == [DeclarationAnnounced(1, ("sequence_3",))]
    # Hidden information: seat 0, seat 2 and a spectator cannot tell a real from a fake one.
    for seat in (0, 2, None):
        assert _frames(real, real_events, seat) == _frames(fake, fake_events, seat), seat
    real.apply(_card(real))
    fake.apply(_card(fake))
    assert real.legal_actions() == fake.legal_actions()  # seat 2: the same choices
    assert A.REFUTE in real.legal_actions()
    for seat in (0, 2, None):
        assert _frames(real, [], seat) == _frames(fake, [], seat), seat


def test_a_refuted_bluff_scores_the_penalty_to_the_refuters() -> None:
    # Seed 000: "Nel caso in cui la squadra avversaria potesse confutare la terza dichiarata in
    # maniera fasulla, può farlo e guadagnarsi altri 20 punti".
    game = _italian(FAKE)
    game.apply(A.BLUFF)
    game.apply(_card(game))
    events = game.apply(A.REFUTE)  # seat 2
    assert of_kind(events, ShowRequested) == [ShowRequested(2, refute=True)]
    assert of_kind(events, BluffRefuted) == [BluffRefuted(1, 0, 20)]
    assert game.declaration_points == (20, 0) and game.penalty_points == [20, 0]
    assert A.REFUTE not in game.legal_actions()
    while game.trick_no == 0:
        game.apply(_card(game))
    assert game.declaration_points == (20 + 20, 0)  # the tierce and the penalty


def test_a_refuted_real_sequence_is_shown_and_costs_nothing() -> None:
    game = _italian(REAL)
    game.apply(A.BLUFF)  # seat 1 holds it: a real declaration
    game.apply(_card(game))
    events = game.apply(A.REFUTE)
    assert not of_kind(events, BluffRefuted)
    assert [(e.seat, e.cards) for e in of_kind(events, DeclarationsShown)] == [
        (1, mask("7S 8S 9S"))]
    assert game.observation(0).shown[1] == mask("7S 8S 9S")
    while game.trick_no == 0:
        game.apply(_card(game))
    assert game.declaration_points == (20, 0)  # clubs over spades (suit order), no penalty


def test_an_unrefuted_bluff_scores_nothing_and_is_never_shown() -> None:
    # "oppure può fare finta di nulla al fine di non rivelare le proprie carte all'avversario".
    game = _italian(FAKE)
    game.apply(A.BLUFF)
    events: list[Event] = []
    while game.trick_no < 2:
        events += game.apply(_card(game))
    assert game.declaration_points == (20, 0)
    # Italian shows only on request too ("Alla seconda mano può essere richiesto di mostrare"):
    # nobody asked, so even the real winning sequence stays unseen, and the bluff with it.
    assert of_kind(events, DeclarationsShown) == []
    assert A.REFUTE not in game.legal_actions()  # after the second trick: too late
    with pytest.raises(IllegalActionError):
        game.apply(A.REFUTE)


def test_without_the_flag_no_bluff_and_no_refute() -> None:
    rules = ITALIAN.with_flags(**{"declarations.bluffs_allowed": False})
    game = _italian(FAKE, rules)
    assert A.BLUFF not in game.legal_actions()
    log = len(game.log)
    with pytest.raises(IllegalActionError, match="declaration"):
        game.apply(A.BLUFF)
    assert len(game.log) == log and game.declarations_said == [(0, ("sequence_3",))]
    game.apply(_card(game))
    assert A.REFUTE not in game.legal_actions()


def test_the_bot_refutes_only_what_it_can_prove() -> None:
    game = _italian(FAKE)
    game.apply(A.BLUFF)
    game.apply(_card(game))
    obs = game.observation(2)
    assert not provably_fake(obs) and table_talk(obs) is None  # 7-9 of spades may be there
    # With every 9 and queen in sight no suit has three adjacent cards left.
    blocking = dataclasses.replace(obs, hand=mask("9H QH 9D QD 9C QC 9S QS"))
    assert provably_fake(blocking) and table_talk(blocking) == A.REFUTE


@pytest.mark.parametrize(("flag", "value"), [
    ("declarations.show_on_request", "yes"),
    ("declarations.bluffs_allowed", 1),
    ("declarations.bluff_penalty", -5),
])
def test_bad_flag_values_are_refused(flag: str, value: object) -> None:
    with pytest.raises(FlagError, match=flag.partition(".")[2]):
        ITALIAN.with_flags(**{flag: value})


# --- a short run with bots ---------------------------------------------------------------------


def _run(rules: Rules, hands: int, seed: int) -> dict[str, int]:
    """Heuristic bots, seats 1 and 3 also taking any request, refute or bluff half the time;
    the engine's invariants checked after every step."""
    rng = random.Random(seed)
    decks = seeded_deck_source(seed)
    bots = [HeuristicBot(seed=seat) for seat in range(4)]
    stats = {"hands": 0, "requests": 0, "refutes": 0, "bluffs": 0, "refuted": 0}
    game = Game(rules, first_dealer=0)
    while stats["hands"] < hands:
        if game.is_terminal():
            game = Game(rules, first_dealer=rng.randrange(4))
        seat = game.current_player()
        if seat == CHANCE:
            events = game.deal(decks())
        else:
            legal = game.legal_actions()
            talk = [a for a in legal if a in (A.REQUEST_SHOW, A.REFUTE, A.BLUFF)]
            if seat % 2 and talk and rng.random() < 0.5:
                action = rng.choice(talk)
            else:
                action = bots[seat].choose(game.observation(seat))
            stats["requests"] += action == A.REQUEST_SHOW
            stats["refutes"] += action == A.REFUTE
            stats["bluffs"] += action == A.BLUFF
            held = game.hands[:]
            events = game.apply(action, seat)
            for e in of_kind(events, DeclarationsShown):  # only cards held are ever shown
                assert e.cards & ~(held[e.seat] | game.played) == 0
        check_cards(game)
        if stats["hands"] % 25 == 0:
            check_observations(game)
        stats["refuted"] += len(of_kind(events, BluffRefuted))
        for scored in of_kind(events, HandScored):
            assert min(scored.declarations) >= 0 and min(scored.scores) >= 0
            stats["hands"] += 1
    return stats


def test_bots_play_valdostana_and_italian_with_requests_and_bluffs() -> None:
    stats = _run(VALDOSTANA, 300, seed=13)
    assert stats["requests"] > 0 and stats["bluffs"] == 0
    stats = _run(ITALIAN, 200, seed=13)
    assert stats["bluffs"] > 0 and stats["refutes"] > 0 and stats["refuted"] > 0


def test_shown_cards_are_the_same_in_a_clone_and_after_undo() -> None:
    game = _valdostana()
    while A.REQUEST_SHOW not in game.legal_actions():
        game.apply(_card(game))
    game.apply(A.REQUEST_SHOW)
    assert game.clone().shown_cards == game.shown_cards
    assert np.array_equal(observation_tensor(game.clone(), 1), observation_tensor(game, 1))
    game.undo()
    assert game.shown_cards == [0, 0, 0, 0] and game.declaration_points == (50, 0)


@pytest.mark.parametrize("rules", [VALDOSTANA, ITALIAN])
def test_the_batched_kernels_refuse_these_declarations_by_name(rules: Rules) -> None:
    # The compiled kernels play no declarations: the batch refuses, never plays them wrong.
    from belote.errors import BeloteError
    from belote.rl.batch import check_batch_rules

    with pytest.raises(BeloteError, match="declarations"):
        check_batch_rules(rules)


def test_worlds_sampled_for_an_opponent_hold_the_bluffed_sequence_or_not() -> None:
    # The id of an equal sequence is the same held or not, so the worlds a bot samples from
    # seat 2's view are not told either: some hold it, some do not.
    from belote.rules.declarations import find_declarations

    game = _italian(FAKE)
    game.apply(A.BLUFF)
    game.apply(_card(game))
    assert ITALIAN.declarations is not None
    kinds = set()
    for seed in range(40):  # uniform worlds (issue 23): about 1 in 8 holds it here
        world = game.resample(2, seed)
        dealt = world.hands[1] | 1 << world.trick[1]  # seat 0 led, seat 1 played second
        held = find_declarations(dealt, ITALIAN.declarations, world.trump)
        kinds.add(any(d.length == 3 for d in held))
    assert kinds == {True, False}
