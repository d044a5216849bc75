"""colver's agents at our table (belote.oracles.colver.agents): the auction's id mapping, the
errors a user meets (colver missing, a wrong table, an agent out of step), and registration.

The tests that seat an agent need colver (the test extra) and skip without it; the others
block colver's import to show what a user without it gets."""

from __future__ import annotations

import dataclasses
import random
import sys
from collections.abc import Callable

import pytest
from helpers import normal_bots_midway

from belote.ai.base import DECLINE, Player
from belote.engine import actions as A
from belote.engine.events import CardPlayed
from belote.oracles.colver.agents import (
    COLVER_AGENTS,
    COLVER_RULES,
    REGISTERED,
    ColverAgentPlayer,
    ColverHeuristic,
    ColverUnavailableError,
    colver_spec,
    from_colver_bid,
    make_colver_bot,
    register_colver_bots,
    to_colver_bid,
)
from belote.rules import find_preset
from belote.sim.arena import play_hand

COINCHE_BIDS = (A.PASS, A.CONTRO, A.SURCONTRO,
                *(A.contract_bid(level, suit) for level in range(10) for suit in range(4)))


@pytest.fixture
def no_colver(monkeypatch: pytest.MonkeyPatch) -> None:
    """colver not installed: its import fails."""
    monkeypatch.setitem(sys.modules, "colver", None)


def _deck(seed: int) -> list[int]:
    deck = list(range(32))
    random.Random(seed).shuffle(deck)
    return deck


def test_every_coinche_bid_maps_to_one_colver_bid_and_back() -> None:
    colver_ids = [to_colver_bid(action) for action in COINCHE_BIDS]
    assert sorted(colver_ids) == list(range(43))  # colver's 43 auction actions, each once
    assert [from_colver_bid(i) for i in colver_ids] == list(COINCHE_BIDS)


@pytest.mark.parametrize("action", [A.ASPETTO, A.contract_bid(10, 0), A.play(0)])
def test_a_bid_colver_has_no_id_for_is_refused(action: int) -> None:
    with pytest.raises(ValueError, match="no colver equivalent"):
        to_colver_bid(action)


@pytest.mark.parametrize("colver_id", [-1, 43, 100])
def test_an_unknown_colver_bid_id_is_refused(colver_id: int) -> None:
    with pytest.raises(ValueError, match="is unknown"):
        from_colver_bid(colver_id)


def test_an_unknown_colver_agent_names_those_available() -> None:
    assert colver_spec("colver-isdd") == COLVER_AGENTS["colver-isdd"]
    with pytest.raises(ValueError, match="available: colver-bid, colver-heuristic, colver-isdd"):
        colver_spec("colver-mcts")


@pytest.mark.usefixtures("no_colver")
def test_without_colver_an_agent_says_how_to_install_it() -> None:
    with pytest.raises(ColverUnavailableError, match=r"pip install colver==0\.11\.1"):
        ColverHeuristic(1)
    with pytest.raises(ImportError):  # what a caller catching ImportError expects
        ColverAgentPlayer(COLVER_AGENTS["colver-bid"], 1)


@pytest.mark.usefixtures("no_colver")
def test_registering_colvers_bots_needs_no_colver_and_keeps_ones_own_names() -> None:
    def mine(seed: int | None) -> Player:
        raise AssertionError("never made here")

    registry: dict[str, Callable[[int | None], Player]] = {"colver-bid": mine}
    register_colver_bots(registry)
    assert set(registry) == set(REGISTERED) == {
        "colver-heuristic", "colver-isdd", "colver-bid", "expert-w20-cbid",
        "expert-w20-learned"}
    assert registry["colver-bid"] is mine  # one's own entry is not replaced
    assert registry["colver-isdd"] is REGISTERED["colver-isdd"]


def test_make_colver_bot_makes_the_named_agent_with_each_seed() -> None:
    pytest.importorskip("colver")
    make = make_colver_bot("colver-heuristic")
    bot = make(5)
    assert isinstance(bot, ColverAgentPlayer)
    assert bot.name == "colver-heuristic" and bot.seed == 5
    assert bot.spec == COLVER_AGENTS["colver-heuristic"]
    with pytest.raises(ValueError, match="unknown colver agent"):
        make_colver_bot("nobody")


def test_an_agent_announces_belote_and_declines_out_of_turn() -> None:
    pytest.importorskip("colver")
    agent = ColverHeuristic(1)
    game = normal_bots_midway("coinche", 3, 1)
    seat = game.current_player()
    waiting = game.observation((seat + 1) % 4)
    assert agent.choose(waiting) == DECLINE  # not its turn: nothing to say
    obs = game.observation(seat)
    window = dataclasses.replace(obs, legal_actions=(A.ANNOUNCE_BELOTE,))  # a belote window
    # colver counts belote unannounced; our engine only when said: always say it
    assert agent.choose(window) == A.ANNOUNCE_BELOTE


def test_an_agent_refuses_a_table_that_is_not_colvers_auction() -> None:
    pytest.importorskip("colver")
    agent = ColverHeuristic(1)
    game = normal_bots_midway("classic", 3, 1)  # a turned card, take-or-pass
    with pytest.raises(ValueError, match="colver's agents play coinche"):
        agent.choose(game.observation(game.current_player()))


def test_an_agent_never_told_the_deal_refuses_to_guess() -> None:
    pytest.importorskip("colver")
    agent = ColverHeuristic(1)
    game = normal_bots_midway("coinche", 3, 1)
    with pytest.raises(RuntimeError, match="not in step"):
        agent.choose(game.observation(game.current_player()))


def test_an_agent_whose_hand_is_over_refuses_a_card_played_after_it() -> None:
    pytest.importorskip("colver")
    agents = [ColverHeuristic(s) for s in range(4)]
    play_hand(COLVER_RULES, agents, _deck(1), 0)  # a whole hand, in step with colver's env
    with pytest.raises(RuntimeError, match="out of sync"):
        agents[0].notify(CardPlayed(seat=0, card=0, trick_no=9))


def test_an_agent_at_a_table_with_other_card_rules_says_so() -> None:
    pytest.importorskip("colver")
    # colver lets a seat discard when its partner is master; this table obliges it to trump
    strict = find_preset("coinche").with_flags(name="strict", partner_master_frees=False)
    agents = [ColverHeuristic(s) for s in range(4)]
    with pytest.raises(RuntimeError, match="use COLVER_RULES"):
        for seed in range(30):
            play_hand(strict, agents, _deck(seed), seed % 4)
