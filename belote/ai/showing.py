"""When a bot asks to see declarations, refutes a sequence or bluffs (seed 000).

* REFUTE only when the bot can prove the announced sequence fake from what it sees (the seed:
  "Nel caso in cui la squadra avversaria *potesse* confutare la terza dichiarata in maniera
  fasulla, può farlo ... oppure può fare finta di nulla"): no suit has enough adjacent cards
  outside its own hand and the cards other seats played or showed.  A refute that cannot fail
  costs nothing and scores the penalty.
* REQUEST_SHOW when the other side's declarations score against the bot's contract (its side
  took it): seeing their cards helps to make it, and the lower accusi the showing validates
  are worth less than the contract.  Defending, it lets them score as announced ("non è
  obbligatorio se non viene richiesto") and keeps them from validating unannounced ones.
* BLUFF: never.  The id is offered whether or not the sequence is held; a bot holding it
  declares it with DECLARE instead, so a bot never announces what it does not hold.
"""

from __future__ import annotations

from belote.cards import ALL_CARDS, CardSet
from belote.engine import actions as A
from belote.engine.observation import Observation

_SPOKEN = {"tierce": 3, "cinquante": 4, "cent": 5}


def _length(name: str) -> int:
    if name.startswith("sequence_"):
        return int(name[len("sequence_"):])
    return _SPOKEN.get(name, 0)


def _longest_run(cards: CardSet) -> int:
    """The most adjacent ranks of one suit in ``cards``."""
    best = 0
    for suit in range(4):
        byte = cards >> (8 * suit) & 0xFF
        run = 0
        while byte:
            byte &= byte << 1  # each step shortens every run by one
            run += 1
        best = max(best, run)
    return best


def _seen_elsewhere(obs: Observation, seat: int) -> CardSet:
    """Cards that ``seat`` cannot have held at the deal: the viewer's, and those other seats
    played or showed."""
    seen = obs.hand
    for leader, cards in obs.tricks:
        for i, card in enumerate(cards):
            if (leader + i) % 4 != seat:
                seen |= 1 << card
    for other, card in obs.trick:
        if other != seat:
            seen |= 1 << card
    for other, shown in enumerate(obs.shown):
        if other != seat:
            seen |= shown
    return seen


def _same_side(obs: Observation, seat: int, other: int) -> bool:
    rules = obs.ruleset
    return seat % 2 == other % 2 if rules is None else rules.side_of(seat) == rules.side_of(other)


def provably_fake(obs: Observation) -> bool:
    """Whether an opponent announced a sequence longer than any he can have held."""
    assert obs.seat is not None
    for seat, names in obs.declarations_said:
        if _same_side(obs, seat, obs.seat):
            continue
        possible = _longest_run(ALL_CARDS & ~_seen_elsewhere(obs, seat))
        if any(_length(name) > possible for name in names):
            return True
    return False


def table_talk(obs: Observation) -> int | None:
    """The request or refute the bot makes now, or None (then it plays its card)."""
    legal = obs.legal_actions
    if A.REFUTE in legal and provably_fake(obs):
        return A.REFUTE
    if (A.REQUEST_SHOW in legal and obs.taker is not None and obs.seat is not None
            and _same_side(obs, obs.taker, obs.seat)):
        return A.REQUEST_SHOW
    return None
