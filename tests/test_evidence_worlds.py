"""Worlds weighed by soft evidence (belote.ai.fitting.EvidenceWorlds): a world the models
never accept is still handed out, the likeliest drawn, counted and logged (never silently);
the deadline stops the draws; accepted deals are offered again in the hand while they fit."""

from __future__ import annotations

import random

import pytest
from helpers import normal_bots_midway

from belote.ai.fitting import EvidenceWorlds, FittingWorlds
from belote.ai.worlds import fits, knowledge
from belote.cards import CardSet
from belote.engine.evidence import World
from belote.engine.observation import Observation
from belote.engine.state import Game


class Weighs:
    """Evidence that reads every position and scores each world ``score(world)``; remembers
    every world it weighed."""

    def __init__(self, score: float | None = None) -> None:
        self.score = score
        self.weighed: list[tuple[tuple[CardSet, ...], float]] = []

    def reads(self, obs: Observation) -> bool:
        return True

    def log_likelihood(self, obs: Observation, world: World) -> float:
        # a world's own odd number when no score is set: worlds differ, none is accepted
        ll = self.score if self.score is not None else -50.0 - world.hands[1] % 97
        self.weighed.append((world.hands, ll))
        return ll


class NeverFits:
    def misfits(self, obs: Observation, hands: tuple[CardSet, CardSet, CardSet, CardSet],
                ) -> int:
        return 1


def _decision(cards: int = 5, seed: int = 11) -> tuple[Game, Observation]:
    game = normal_bots_midway("coinche", seed, cards)
    return game, game.observation(game.current_player())


def test_evidence_worlds_refuse_no_draws_or_a_negative_number_kept() -> None:
    with pytest.raises(ValueError, match="at least one draw"):
        EvidenceWorlds(Weighs(), random.Random(0), draws=0)
    with pytest.raises(ValueError, match="no negative number kept"):
        EvidenceWorlds(Weighs(), random.Random(0), kept=-1)


def test_with_no_world_accepted_the_likeliest_drawn_is_handed_out_and_counted(
        caplog: pytest.LogCaptureFixture) -> None:
    _, obs = _decision()
    evidence = Weighs()
    source = EvidenceWorlds(evidence, random.Random(2), draws=40)
    assert source.applies(obs)
    info = knowledge(obs)
    with caplog.at_level("INFO", logger="belote.ai.fitting"):
        world, accepted = source.draw(info, obs, stop=float("inf"))
    assert not accepted
    assert source.draws == len(evidence.weighed) == 40 and source.misfits == 1
    likeliest = max(evidence.weighed, key=lambda weighed: weighed[1])
    assert world == likeliest[0] and fits(info, world)
    assert not source.deals  # nothing kept that the evidence did not accept
    assert "no world accepted by the seat models in 40 draws" in caplog.text
    source.draw(info, obs, stop=float("inf"))
    assert source.misfits == 2  # counted per world handed out


def test_evidence_that_rules_every_world_out_still_hands_out_a_world_of_the_facts() -> None:
    # A model that says -inf of every world must not leave the expert with no world at all.
    _, obs = _decision()
    info = knowledge(obs)
    source = EvidenceWorlds(Weighs(score=float("-inf")), random.Random(4), draws=8)
    world, accepted = source.draw(info, obs, stop=float("inf"))
    assert not accepted and source.misfits == 1
    assert len(world) == 4 and fits(info, world)


@pytest.mark.parametrize("kind", ["evidence", "bid model"])
def test_a_passed_deadline_stops_the_draws_at_the_next_check(kind: str) -> None:
    _, obs = _decision()
    info = knowledge(obs)
    source: EvidenceWorlds | FittingWorlds
    if kind == "evidence":
        source = EvidenceWorlds(Weighs(), random.Random(3), draws=600)
    else:
        source = FittingWorlds(NeverFits(), random.Random(3), draws=600)
    world, fitted = source.draw(info, obs, stop=0.0)  # long past
    assert not fitted and world and source.misfits == 1
    assert source.draws == 32  # the clock is read every 32 draws, never after each


def test_an_accepted_deal_is_offered_again_while_it_fits_what_is_seen() -> None:
    _, obs = _decision(cards=1)
    seat = obs.seat
    assert seat is not None
    evidence = Weighs(score=0.0)  # every world accepted
    source = EvidenceWorlds(evidence, random.Random(4))
    info = knowledge(obs)
    assert source.kept(obs, info) == []  # a new hand: nothing kept yet
    drawn = [source.draw(info, obs, stop=float("inf")) for _ in range(5)]
    assert all(accepted for _, accepted in drawn) and source.misfits == 0
    assert len(source.deals) == 5
    again = source.kept(obs, info)
    assert sorted(again) == sorted(world for world, _ in drawn)
    # a deal that dealt the card on the table to another seat than its player is dropped
    (player, card), = obs.trick  # one card down: another seat's
    wrong = source.deals[0][0]
    assert wrong.dealt[player] >> card & 1
    other = (player + 1) % 4 if (player + 1) % 4 != seat else (player + 2) % 4
    spare = wrong.dealt[other] & -wrong.dealt[other]
    dealt = list(wrong.dealt)
    dealt[player] = dealt[player] & ~(1 << card) | spare
    dealt[other] = dealt[other] & ~spare | 1 << card
    source.deals[0] = (World(wrong.hands, tuple(dealt), tuple(dealt)), 0.0)
    assert len(source.kept(obs, info)) == 4 and len(source.deals) == 4
    # a deal that gave another seat a card the deciding seat holds no longer fits the facts
    held = source.deals[0][0]
    mine = obs.hand & -obs.hand
    unplayed = held.dealt[other] & ~obs.played
    theirs = unplayed & -unplayed
    dealt = list(held.dealt)
    dealt[other] = dealt[other] & ~theirs | mine
    source.deals[0] = (World(held.hands, tuple(dealt), tuple(dealt)), 0.0)
    assert len(source.kept(obs, info)) == 3 and len(source.deals) == 3


def test_a_kept_deal_the_evidence_since_turns_against_is_dropped() -> None:
    _, obs = _decision(cards=1)
    evidence = Weighs(score=0.0)
    source = EvidenceWorlds(evidence, random.Random(5))
    info = knowledge(obs)
    source.kept(obs, info)
    for _ in range(4):
        source.draw(info, obs, stop=float("inf"))
    evidence.score = -200.0  # what was heard since makes them all but impossible
    assert source.kept(obs, info) == [] and source.deals == []
    evidence.score = 0.0
    source.draw(info, obs, stop=float("inf"))
    assert len(source.kept(obs, info)) == 1  # no worse than when accepted: kept
