"""colver's agents at our table: Player adapters for the rival engine's bots (arena only).

``colver`` (an optional Rust engine, see ``docs/dev/colver.md``) ships seated agents,
``colver.Agent(spec, seat, seed)``, built from a TOML *bot spec* (the format of colver's own
arena).  :class:`ColverAgentPlayer` puts one of them at one of our seats:

* it keeps a colver ``Env`` in step with our :class:`~belote.engine.state.Game` from the
  events it is notified: the deal (``HandStarted`` + the side channel below), every
  ``BidMade`` and every ``CardPlayed`` are replayed on the env, after
  ``agent.observe(env, action)`` -- colver's rule: every agent observes every action, with
  the env still *before* the move;
* when it must act, it asks ``agent.action(env)`` and maps colver's action id back to ours
  (bids: :func:`to_colver_bid` / :func:`from_colver_bid`; cards: the bridge's card tables).
  Belote and rebelote are always announced with the card (colver counts them without an
  announcement, our engine only when announced).

**The side channel.**  colver's ``Env`` is a whole deal: it cannot be built from one seat's
hand.  The arena, which holds the deck, hands the four hands to every player that has a
``see_deal(dealer, hands)`` method before the deal's events go out.  This is for the arena
only (never for a live table): the colver *agent* receives the env, as colver's own arena
gives it, and colver's ``Agent`` API is trusted by colver not to look at the other hands
(its IS-DD samples worlds consistent with what the seat has seen).  We do not, and cannot,
check that from here.

The table must play colver's rules: :data:`COLVER_RULES` (coinche, undertrumping optional,
and the scoring flags that match colver's scorer, see ``docs/arena.md``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from belote.ai.base import DECLINE, Player
from belote.ai.expert import ExpertBot
from belote.cards import CardSet
from belote.engine import actions as A
from belote.engine.events import BidMade, CardPlayed, CardsDealt, Event, HandStarted
from belote.engine.observation import Observation
from belote.oracles.colver.bridge import (
    from_colver_card,
    to_colver_card,
    to_colver_cards,
    to_colver_suit,
)
from belote.oracles.colver.learned import ExpertWithLearnedColverBids
from belote.rules import find_preset
from belote.rules.base import Rules

__all__ = [
    "COLVER_AGENTS",
    "COLVER_RULES",
    "REGISTERED",
    "ColverAgentPlayer",
    "ColverBid",
    "ColverHeuristic",
    "ColverIsdd",
    "ColverUnavailableError",
    "ExpertWithColverBids",
    "colver_spec",
    "from_colver_bid",
    "make_colver_bot",
    "register_colver_bots",
    "to_colver_bid",
]

# ----------------------------------------------------------------------------- the rules

#: Our table for a comparison with colver (0.11.1).  Card play: coinche with undertrumping
#: optional (colver's legal set, docs/dev/colver.md).  Scoring: the flags that exist for
#: colver's scorer, measured on 15,175 random colver deals (docs/arena.md): a failed
#: contract gives the defenders 162 (not 160) + contract x multiplier + *both* teams' belote;
#: a surcoinche multiplies by 3 (colver), not 4.  Two differences have no flag and remain:
#: a made coinched contract (colver: the takers 162 + contract x mult + all belote, the
#: defenders 0; ours: each side its own points, the takers + contract x mult) and a tie at or
#: above the contract (colver: made; ours: litige).
COLVER_RULES: Rules = find_preset("coinche").with_flags(
    name="colver",
    must_undertrump=False,
    failed_defenders_points=162,
    failed_defenders_take_all_declarations=True,
    **{"auction.surcontro_multiplier": 3},
)

# colver's auction: 0 pass, 1 + 4k + s a bid of 80 + 10k in colver suit s (k 0..8),
# 37 + s capot in suit s, 41 coinche, 42 surcoinche.
_COLVER_PASS = 0
_COLVER_CAPOT = 37
_COLVER_COINCHE = 41
_COLVER_SURCOINCHE = 42
_LEVELS = (*range(80, 161, 10), 250)  # our coinche table: index 9 is the capot


def to_colver_bid(action: int) -> int:
    """Our auction action (coinche table) -> colver's auction action id."""
    if action == A.PASS:
        return _COLVER_PASS
    if action == A.CONTRO:
        return _COLVER_COINCHE
    if action == A.SURCONTRO:
        return _COLVER_SURCOINCHE
    if A.CONTRACT_BASE <= action < A.CONTRACT_END:
        index, suit = A.contract_level_index(action), to_colver_suit(A.contract_suit(action))
        if index < 9:
            return 1 + 4 * index + suit
        if index == 9:
            return _COLVER_CAPOT + suit
    raise ValueError(f"action {action} has no colver equivalent")


def from_colver_bid(action: int) -> int:
    """colver's auction action id -> ours (coinche table)."""
    if action == _COLVER_PASS:
        return A.PASS
    if action == _COLVER_COINCHE:
        return A.CONTRO
    if action == _COLVER_SURCOINCHE:
        return A.SURCONTRO
    if 1 <= action < _COLVER_CAPOT:
        index, suit = divmod(action - 1, 4)
        return A.contract_bid(index, (suit + 3) % 4)
    if _COLVER_CAPOT <= action < _COLVER_COINCHE:
        return A.contract_bid(9, (action - _COLVER_CAPOT + 3) % 4)
    raise ValueError(f"colver auction action {action} is unknown")


# ----------------------------------------------------------------------------- the specs

_BID = '[bid]\nstrategy = "improved_v2"\n'  # = Env.bid_improved(), colver's default bidder

#: colver bot specs (colver's arena TOML, as ``colver.Agent`` takes them), by our name.
COLVER_AGENTS: dict[str, str] = {
    # improved_v2 bidding + colver's rule-based card play (Env.action_heuristic_play).
    "colver-heuristic": _BID + '\n[play]\nmethod = "heuristic"\n',
    # improved_v2 bidding + information-set double-dummy: 20 worlds per move, drawn
    # uniformly among those consistent with what the seat saw (no model, no sidecar).
    "colver-isdd": _BID
    + '\n[play]\nmethod = "isdd"\ntime_ms = 0\ndeterminizations = 20\n'
    + '\n[worlds]\nsource = "uniform"\n',
    # A bidder: colver's improved_v2 at every seat (its card play is colver-heuristic's).
    "colver-bid": _BID + '\n[play]\nmethod = "heuristic"\n',
}


def colver_spec(name: str) -> str:
    try:
        return COLVER_AGENTS[name]
    except KeyError:
        raise ValueError(f"unknown colver agent {name!r}; "
                         f"available: {', '.join(sorted(COLVER_AGENTS))}") from None


class ColverUnavailableError(ImportError):
    """colver is not installed (it is optional: ``pip install colver==0.11.1``)."""


def _colver() -> Any:
    try:
        import colver
    except ImportError as exc:
        raise ColverUnavailableError(
            "the colver agents need the optional package colver: "
            "pip install colver==0.11.1 (or the 'test' extra)"
        ) from exc
    return colver


# ----------------------------------------------------------------------------- the player


class ColverAgentPlayer:
    """One of colver's agents at one of our seats (see the module docstring)."""

    def __init__(self, spec: str, seed: int | None = None, name: str = "colver") -> None:
        self.name = name
        self.spec = spec
        self.seed = 0 if seed is None else seed % (1 << 63)
        self._colver = _colver()
        self._agents: dict[int, Any] = {}  # one colver Agent per seat we have sat at
        self._env: Any = None
        self._agent: Any = None
        self._dealer = -1
        self._hands: tuple[CardSet, ...] | None = None
        self._checked_rules: Rules | None = None

    # The arena's side channel: the four hands of the coming deal, by seat.
    def see_deal(self, dealer: int, hands: Sequence[CardSet]) -> None:
        if len(hands) != 4 or any(h.bit_count() != 8 for h in hands):
            raise ValueError("colver agents need four 8-card hands (an auction deal)")
        self._dealer = dealer
        self._hands = tuple(hands)

    def notify(self, event: Event) -> None:
        if isinstance(event, HandStarted):
            self._env = self._agent = None
            if event.dealer != self._dealer:
                self._hands = None  # a stale side channel: refuse rather than guess
        elif isinstance(event, CardsDealt) and self._env is None:
            self._start(event.seat)
        elif isinstance(event, BidMade) and self._env is not None:
            self._step(to_colver_bid(event.action))
        elif isinstance(event, CardPlayed) and self._env is not None:
            self._step(to_colver_card(event.card))

    def _start(self, seat: int) -> None:
        if self._hands is None:
            raise RuntimeError(
                "a colver agent needs the whole deal: seat it through belote.sim.arena, which "
                "passes the hands with see_deal(dealer, hands) before each deal")
        colver = self._colver
        self._env = colver.Env.deal_with_hands(
            self._dealer, [to_colver_cards(h) for h in self._hands])
        agent = self._agents.get(seat)
        if agent is None:
            agent = self._agents[seat] = colver.Agent(self.spec, seat=seat,
                                                      seed=self.seed + seat)
        agent.init_deal(self._env)
        self._agent = agent
        self._hands = None  # used once

    def _step(self, action: int) -> None:
        env = self._env
        if env.is_terminal():
            raise RuntimeError("colver's env is over but our game goes on: out of sync")
        self._agent.observe(env, action)
        env.step(action)

    def choose(self, observation: Observation) -> int:
        legal = observation.legal_actions
        if A.ANNOUNCE_BELOTE in legal:
            return A.ANNOUNCE_BELOTE  # colver counts belote unannounced: always say it
        if not legal or observation.current_player != observation.seat:
            return DECLINE
        self._check_rules(observation.ruleset)
        env = self._env
        if env is None or env.current_player() != observation.seat:
            raise RuntimeError("colver's env is not in step with the game")
        colver_action = self._agent.action(env)
        if env.phase() == 0:
            action = from_colver_bid(colver_action)
        else:
            card = from_colver_card(colver_action)
            action = A.PLAY_ANNOUNCE_BASE + card
            if action not in legal:
                action = card
        if action not in legal:
            raise RuntimeError(
                f"colver's agent chose {colver_action}, which is {action} for us and not "
                f"legal here {legal}: the rules differ from colver's (use COLVER_RULES)")
        return action

    def _check_rules(self, rules: Rules | None) -> None:
        if rules is None or rules is self._checked_rules:
            return
        auction = rules.auction
        if rules.turned_card or auction is None or auction.levels != _LEVELS:
            raise ValueError(f"colver's agents play coinche (8 cards, contracts 80..160 and "
                             f"capot); the table plays {rules.name!r}")
        self._checked_rules = rules


def make_colver_bot(name: str) -> Callable[[int | None], Player]:
    spec = colver_spec(name)
    return lambda seed: ColverAgentPlayer(spec, seed, name)


# ----------------------------------------------------------------------------- registered
# The bots below are ``belote.bots`` entry points (pyproject.toml), so ``make_bot``, the arena
# and the commands know them by name while ``belote.ai`` imports nothing from here.  Each is a
# class made with the seed alone whose ``name`` says its name without making one (colver is
# needed only to make one: ColverUnavailableError otherwise).  The room does not offer them:
# they need the arena's side channel (belote.bot_group.room_plugin_names).


class _RegisteredColverAgent(ColverAgentPlayer):
    name = ""  # the COLVER_AGENTS entry, set by each subclass

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(colver_spec(type(self).name), seed, type(self).name)


class ColverHeuristic(_RegisteredColverAgent):
    """``colver-heuristic``: improved_v2 bidding + colver's rule-based card play."""

    name = "colver-heuristic"


class ColverIsdd(_RegisteredColverAgent):
    """``colver-isdd``: improved_v2 bidding + information-set double-dummy (20 worlds)."""

    name = "colver-isdd"


class ColverBid(_RegisteredColverAgent):
    """``colver-bid``: colver's improved_v2 bidder (the arena's ``--bidder colver-bid``)."""

    name = "colver-bid"


class ExpertWithColverBids(ExpertBot):
    """``expert-w20-cbid``: ``expert-w20`` drawing its worlds among those colver's bidder fits
    (the bids heard at a table where colver's ``improved_v2`` bids at every seat:
    ``--bidder colver-bid``)."""

    name = "expert-w20-cbid"

    def __init__(self, seed: int | None = None) -> None:
        from belote.oracles.colver.bid_model import ColverBidModel

        super().__init__(seed, name=type(self).name, max_worlds=20, min_worlds=20,
                         budget_ms=600_000, hard_ms=600_000, bid_model=ColverBidModel())


#: The classes of the ``belote.bots`` entry points this module declares, by bot name.
REGISTERED: dict[str, type[Player]] = {
    cls.name: cls for cls in (ColverHeuristic, ColverIsdd, ColverBid, ExpertWithColverBids,
                              ExpertWithLearnedColverBids)
}


def register_colver_bots(registry: dict[str, Callable[[int | None], Player]]) -> None:
    """Add ``colver-heuristic``, ``colver-isdd``, ``colver-bid``, ``expert-w20-cbid`` and
    ``expert-w20-learned`` to a bot registry of one's own (the entry points already name them
    to ``make_bot``).

    Registration needs no colver; making one of these bots without colver raises
    :class:`ColverUnavailableError` with the install command.
    """
    for name, cls in REGISTERED.items():
        registry.setdefault(name, cls)
