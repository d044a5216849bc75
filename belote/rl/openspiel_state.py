"""An OpenSpiel-style state over the engine (``spiel.h``'s ``State``), with no OpenSpiel needed.

``current_player()`` (``CHANCE`` = -1 while cards are dealt, ``TERMINAL`` = -4 at the end),
``legal_actions()`` (sorted ids), ``apply_action``, ``chance_outcomes()``, ``rewards()``,
``returns()``, ``history()``, ``information_state_string(player)``,
``observation_string(player)``, ``information_state_tensor(player)``,
``observation_tensor(player)``, ``clone()``, ``resample_from_infostate(player, rng)``.

Dealing is a chance node one card at a time, as in OpenSpiel's euchre: 32 chance actions
(the card ids 0..31, each remaining card equally likely) fill the deck, which is then dealt by
the engine's own rules.  An episode ends with the match, or after ``max_deals`` deals (redeals
after four passes included) when given.  Returns: ``"hand"`` sums each hand's score
difference (a seat's team minus the other, zero-sum); ``"match"`` is +1/-1 at the match's end
and 0 when cut by ``max_deals``.

Rewards follow OpenSpiel's REWARDS model: ``rewards()`` is what the last decision earned,
with the chance actions that followed it (a hand is scored by its last card, and the next
deal's chance actions do not take the reward away before the next decision reads it); the
rewards read at each decision node and at the end sum to ``returns()``.

Four seats only: the returns are one partnership's score minus the other's, and the tensors
encode four seats (:func:`belote.rl.tensors.check_four_seats`).  Turn-based, as every
OpenSpiel game: only the player to move acts, so the engine's out-of-turn words (a belote
said after one's card while the next player has not played, a valdostana accuso said after
one's first card until it is covered) are not offered; the belote is said with its card.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import fields
from typing import cast

import numpy as np

from belote.engine import CHANCE, TERMINAL, Game
from belote.engine.events import Event, HandScored
from belote.notation import to_card, to_cards
from belote.rl.actions import action_name
from belote.rl.tensors import Tensor, information_state_tensor, observation_tensor
from belote.rules.base import Rules

SEATS = 4
DECK_SIZE = 32
# OpenSpiel's samplers give floats in [0, 1): one draw scaled by 2**53 keeps all its bits.
_SEED_SCALE = 2**53

Step = tuple[int, int, tuple[Event, ...]]  # (seat or CHANCE, action or -1 for a deal, events)
RandomSource = random.Random | int | Callable[[], float] | None


def check_four_seats(rules: Rules) -> None:
    """Refuse a preset with fewer than four seats (ValueError naming it and why)."""
    if rules.players != SEATS:
        raise ValueError(
            f"preset {rules.name!r} seats {rules.players} players: the OpenSpiel game is "
            f"for four seats in two partnerships (its returns are one partnership's score "
            f"minus the other's, its tensors encode four seats); play {rules.name!r} "
            f"through belote.engine.Game")


def max_decisions_per_deal(rules: Rules) -> int:
    """An upper bound on the decisions (not the chance actions) of one deal under ``rules``.

    Take-or-pass: two rounds of one call per seat, and the partner's senza over a named
    suit.  Auction: every contract, raise or suit-only opening is higher than the last (one
    per level at most), one contro and one surcontro; at most ``seats - 1`` passes come
    before, between and after them (``seats`` passes with no contract are a redeal, which
    ends the deal).  Then the cut, one card per seat and trick, and the table talk: per seat
    one declaration (or bluff), one refute and one request to show (each examines a seat
    once); the ottava; a belote and a rebelote per suit.
    """
    seats = rules.players
    if rules.bidding == "take_or_pass":
        bids = 2 * seats + 1
    elif rules.bidding == "auction" and rules.auction is not None:
        calls = len(rules.auction.levels) + 2
        bids = calls + (calls + 1) * (seats - 1)
    else:
        raise ValueError(f"no bound on the calls of bidding system {rules.bidding!r}")
    cut = 1 if rules.cut_deck else 0
    table_talk = 3 * seats + 1 + 2 * 4
    return cut + bids + rules.hand_size * seats + table_talk


def _rng(source: RandomSource) -> random.Random:
    """A ``random.Random`` from a seed, a Random, or an OpenSpiel probability sampler (a
    callable giving floats in [0, 1), as ``pyspiel.UniformProbabilitySampler``)."""
    if isinstance(source, random.Random):
        return source
    if source is None or isinstance(source, int):
        return random.Random(source)
    if callable(source):
        return random.Random(int(source() * _SEED_SCALE))
    raise TypeError(f"not a random source: {source!r}")


def _value_text(name: str, value: object) -> str:
    if name in ("card", "turned") and isinstance(value, int) and 0 <= value < DECK_SIZE:
        return to_card(value)
    if name == "cards" and isinstance(value, int | tuple):
        return to_cards(value)
    return str(value)


def event_text(event: Event) -> str:
    """One event as a line, every field named: ``card_played seat=1 card=JH trick_no=0 ...``."""
    values = " ".join(f"{f.name}={_value_text(f.name, getattr(event, f.name))}"
                      for f in fields(event))
    return f"{event.kind} {values}" if values else event.kind


class BeloteState:
    """One OpenSpiel-style state: a :class:`Game` plus the deck being dealt."""

    def __init__(self, rules: Rules, first_dealer: int = 0, max_deals: int | None = None,
                 reward: str = "hand") -> None:
        if reward not in ("hand", "match"):
            raise ValueError(f"reward must be 'hand' or 'match', not {reward!r}")
        if max_deals is not None and max_deals < 1:
            raise ValueError("max_deals must be at least 1")
        check_four_seats(rules)
        self.game = Game(rules, first_dealer)
        self.max_deals = max_deals
        self.reward = reward
        self._deck: list[int] = []
        self._hand_returns = [0.0] * SEATS
        self._rewards = [0.0] * SEATS
        # Every deal and decision with its events; each seat's lines of it, rendered lazily.
        self._steps: list[Step] = []
        self._lines: list[list[str]] = [[] for _ in range(SEATS)]

    # -------------------------------------------------------------- queries
    def is_terminal(self) -> bool:
        if self.game.is_terminal():
            return True
        return (self.max_deals is not None and self.game.deal_no >= self.max_deals
                and self.game.current_player() == CHANCE and not self._deck)

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.game.current_player()

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Sorted legal ids: undealt cards on a chance node, else the player's actions; none
        for a seat that is not to move (turn-based: the out-of-turn words are not offered)."""
        if self.is_terminal():
            return []
        mover = self.current_player()
        if mover == CHANCE:
            return [c for c, _ in self.chance_outcomes()] if player in (None, CHANCE) else []
        if player is not None and player != mover:
            return []
        return sorted(self.game.legal_actions(mover))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            raise ValueError("not a chance node")
        left = [c for c in range(DECK_SIZE) if c not in self._deck]
        return [(c, 1.0 / len(left)) for c in left]

    def returns(self) -> list[float]:
        if self.reward == "hand":
            return list(self._hand_returns)
        return list(self.game.returns())

    def rewards(self) -> list[float]:
        """What the last decision earned, with the chance actions after it (zero-sum)."""
        return list(self._rewards)

    def history(self) -> list[int]:
        """OpenSpiel's history: every chance card and decision, in order."""
        return _history(self.game, self._deck)

    def information_state_tensor(self, player: int) -> Tensor:
        return information_state_tensor(self.game, player)

    def observation_tensor(self, player: int) -> Tensor:
        return observation_tensor(self.game, player)

    def information_state_string(self, player: int) -> str:
        """Everything ``player`` knows, in order: the seat, then one line per deal and
        decision (who acted; the action itself only for ``player``'s own; every event
        ``player`` may see, own cards included), then the cards dealt so far of a deal in
        progress.  Two states give the same string iff ``player`` cannot tell them apart."""
        _check_seat(player)
        lines = self._lines[player]
        for actor, action, events in self._steps[len(lines):]:
            if actor == CHANCE:
                head = "deal"
            elif actor == player:
                head = f"seat {actor} {action_name(action)}"
            else:
                head = f"seat {actor}"
            seen = " | ".join(event_text(e) for e in events if e.visible_to(player))
            lines.append(f"{head}: {seen}")
        dealing = [f"dealing {len(self._deck)}/{DECK_SIZE}"] if self._deck else []
        return "\n".join([f"seat {player}", *lines, *dealing])

    def observation_string(self, player: int) -> str:
        """What ``player`` sees now (:meth:`Game.observation`), one field per line."""
        _check_seat(player)
        lines = [f"seat {player}"]
        for name, value in self.game.observation(player).to_dict().items():
            if name in ("hand", "played"):
                value = to_cards(value)
            lines.append(f"{name}: {value}")
        return "\n".join(lines)

    def action_to_string(self, player: int, action: int) -> str:
        return f"deal_{action}" if player == CHANCE else action_name(action)

    # -------------------------------------------------------------- changes
    def apply_action(self, action: int) -> None:
        """Apply ``action`` for the player to move (a card to deal on a chance node);
        IllegalActionError or ValueError on a bad one, the state unchanged."""
        if self.is_terminal():
            raise ValueError("the game is over")
        action = int(action)
        if self.is_chance_node():
            if not 0 <= action < DECK_SIZE or action in self._deck:
                raise ValueError(f"card {action} cannot be dealt now")
            self._deck.append(action)
            if len(self._deck) == DECK_SIZE:
                events = self.game.deal(self._deck)
                self._deck = []
                self._note(CHANCE, -1, events)
            return
        seat = self.game.current_player()
        events = self.game.apply(action, seat)
        self._rewards = [0.0] * SEATS  # a decision opens a new reward
        self._note(seat, action, events)

    def _note(self, actor: int, action: int, events: list[Event]) -> None:
        before = self.returns()
        for event in events:
            if isinstance(event, HandScored):
                diff = float(event.scores[0] - event.scores[1])
                for seat in range(SEATS):
                    self._hand_returns[seat] += diff if seat % 2 == 0 else -diff
        for seat, (now, then) in enumerate(zip(self.returns(), before, strict=True)):
            self._rewards[seat] += now - then
        self._steps.append((actor, action, tuple(events)))

    def clone(self) -> BeloteState:
        other = BeloteState.__new__(BeloteState)
        other.game = self.game.clone()
        other.max_deals = self.max_deals
        other.reward = self.reward
        other._deck = self._deck[:]
        other._hand_returns = self._hand_returns[:]
        other._rewards = self._rewards[:]
        other._steps = self._steps[:]
        other._lines = [lines[:] for lines in self._lines]
        return other

    def __deepcopy__(self, memo: dict[int, object]) -> BeloteState:
        # pyspiel clones a Python state with copy.deepcopy: the engine's clone is 25x faster.
        return self.clone()

    def resample_history(self, player: int, rng: RandomSource = None) -> list[int]:
        """The history (chance cards and decisions) of a state ``player`` cannot tell from
        this one: the deals drawn by :meth:`Game.resample` (the rules' facts only), the
        same decisions; the cards of a deal in progress, which nobody has seen, drawn anew."""
        _check_seat(player)
        rng = _rng(rng)
        world = self.game.resample(player, rng)
        return _history(world, rng.sample(range(DECK_SIZE), len(self._deck)))

    def resample_from_infostate(self, player: int, rng: RandomSource = None) -> BeloteState:
        """A state ``player`` cannot tell from this one (:meth:`resample_history`, replayed
        action by action: its rewards, history and strings are its own)."""
        other = BeloteState(self.game.rules, self.game.first_dealer, self.max_deals,
                            self.reward)
        for action in self.resample_history(player, rng):
            other.apply_action(action)
        return other

    def __str__(self) -> str:
        return str(self.game.log)


def _check_seat(player: int) -> None:
    if not 0 <= player < SEATS:
        raise ValueError(f"no seat {player}: seats are 0..{SEATS - 1}")


def _history(game: Game, dealing: list[int]) -> list[int]:
    actions: list[int] = []
    for who, what in game.log:
        if who == CHANCE:
            actions.extend(cast("tuple[int, ...]", what))  # the deck dealt
        else:
            actions.append(cast(int, what))
    return actions + list(dealing)


def returns_array(state: BeloteState) -> np.ndarray:
    """``returns()`` as a float32 array (for batching)."""
    return np.array(state.returns(), dtype=np.float32)
