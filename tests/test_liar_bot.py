"""The liar bot (belote.ai.liar): the conventions' words said at random, always legally.

RULES.md: passo and aspetto are passes that bots say truthfully; nothing obliges a person to.
The liar is such a person (issue 23): its words and its first discard are random, the rest of
its play is the normal bot's, and the sampler must never fail on the positions it makes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from belote.ai.decision import DecisionMethod
from belote.ai.heuristic import HeuristicBot
from belote.ai.liar import PASS_WORDS, SUPPORT_CALLS, LiarBot
from belote.ai.registry import make_bot
from belote.cards import ACES
from belote.engine import actions as A
from belote.engine.bidding import conventions as C
from belote.engine.events import ALL_TRUMP, NO_TRUMP, AllPassed, Event, HandScored
from belote.engine.observation import Observation
from belote.engine.signals import has_signalled
from belote.engine.state import CHANCE, Game
from belote.rules import find_preset
from belote.sim.match import play_step

SEEDS = range(30)


def _decisions(preset: str, deals: int = 12) -> Iterator[Observation]:
    """Every decision of normal bots over the first hands of ``deals`` matches."""
    rules = find_preset(preset)
    for seed in range(deals):
        game = Game(rules, seed % rules.players)
        rng = random.Random(seed)
        players = [HeuristicBot(seed * 4 + s) for s in range(rules.players)]

        def deck(rng: random.Random = rng) -> list[int]:
            cards = list(range(32))
            rng.shuffle(cards)
            return cards

        for _ in range(80):
            if game.is_terminal():
                break
            if game.current_player() != CHANCE:
                yield game.observation(game.current_player())
            play_step(game, players, deck)


def _first(preset: str, wanted: Callable[[Observation], bool]) -> Observation:
    found = next((obs for obs in _decisions(preset) if wanted(obs)), None)
    assert found is not None, "no such decision in the normal bots' hands"
    return found


def _normal_says(obs: Observation, words: tuple[int, ...]) -> bool:
    return HeuristicBot(0).choose(obs) in words


def _liars_choices(obs: Observation) -> list[tuple[int, DecisionMethod]]:
    choices = []
    for seed in SEEDS:
        decision = LiarBot(seed).decide(obs, None)
        assert LiarBot(seed).choose(obs) == decision.action  # one answer per seed
        choices.append((decision.action, decision.method))
    return choices


def _discarding(obs: Observation) -> bool:
    """A seat that cannot follow nor trump, at its first discard of the hand."""
    if obs.trump is None or not obs.trick or obs.seat is None or has_signalled(obs, obs.seat):
        return False
    led = obs.trick[0][1] >> 3
    trump = obs.trump if obs.trump not in (NO_TRUMP, ALL_TRUMP) else -1
    plays = [a for a in obs.legal_actions if A.is_play(a) and a < A.PLAY_ANNOUNCE_BASE]
    return len(plays) > 1 and all(c >> 3 not in (led, trump) for c in plays)


def test_the_liar_says_passo_or_aspetto_at_random_whatever_its_aces() -> None:
    obs = _first("valdostana", lambda o: all(w in o.legal_actions for w in PASS_WORDS)
                 and _normal_says(o, PASS_WORDS))
    choices = _liars_choices(obs)
    said = {action for action, _ in choices}
    assert said == set(PASS_WORDS)  # both words, whichever is true of its hand
    assert all(method == DecisionMethod.RANDOM for _, method in choices)
    truthful = A.ASPETTO if obs.hand & ACES else A.PASS
    assert any(action != truthful for action, _ in choices)  # a lie a bot would never say


def test_the_liar_raises_its_partner_with_a_random_legal_support_word() -> None:
    words = (*SUPPORT_CALLS, *C.RAISES)
    obs = _first("valdostana", lambda o: _normal_says(o, words)
                 and sum(w in o.legal_actions for w in words) > 1)
    normal = HeuristicBot(0).choose(obs)
    group = SUPPORT_CALLS if normal in SUPPORT_CALLS else tuple(C.RAISES)
    said = {action for action, _ in _liars_choices(obs)}
    assert said <= set(obs.legal_actions) & set(group)
    assert len(said) > 1  # not the truthful count alone


def test_the_liars_first_discard_is_a_random_legal_discard() -> None:
    obs = _first("valdostana", _discarding)
    said = {action for action, _ in _liars_choices(obs)}
    assert said <= set(obs.legal_actions)
    assert len(said) > 1  # a signal said at random, not the normal bot's


def test_the_liar_plays_as_the_normal_bot_where_no_convention_is_read() -> None:
    # coinche reads no discard signals: even a discard is the normal bot's
    for preset, wanted in (("coinche", _discarding),
                           ("valdostana", lambda o: bool(o.trick) and not _discarding(o)
                            and len(o.legal_actions) > 1)):
        obs = _first(preset, wanted)
        for seed in range(5):
            decision = LiarBot(seed).decide(obs, None)
            assert decision.action == HeuristicBot(seed).choose(obs)
            assert decision.method == DecisionMethod.RULE


def test_four_liars_play_whole_hands_legally_and_their_worlds_can_be_drawn() -> None:
    rules = find_preset("valdostana")
    game = Game(rules, 0)
    players = [make_bot("liar", s) for s in range(4)]
    assert all(isinstance(p, LiarBot) and p.name == "liar" for p in players)
    rng = random.Random(8)
    ended: list[Event] = []

    def deck() -> list[int]:
        cards = list(range(32))
        rng.shuffle(cards)
        return cards

    def listen(_game: Game, events: list[Event]) -> None:
        ended.extend(e for e in events if isinstance(e, (HandScored, AllPassed)))

    played = 0
    while len(ended) < 3 and not game.is_terminal():
        mover = game.current_player()
        if mover != CHANCE and game.observation(mover).trick:
            game.resample(mover, random.Random(played))  # a ResampleError fails the test
            played += 1
        play_step(game, players, deck, listen)  # the engine refuses an illegal action
    assert len(ended) == 3 and played > 20
