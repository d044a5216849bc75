"""Bridge to ``colver``, an independent Rust coinche/belote engine with Python bindings.

``colver`` (PyPI wheel, checked against 0.11.1) is an *optional* dependency, used
only by the differential tests and the benchmarks: it is our oracle for the card-play
rules and the rival we time ourselves against.  Nothing in :mod:`belote` imports it
at module level; every function below imports it lazily, so importing this module
works without it and only the calls need it.  Install it with the ``colver`` test
extra (see ``docs/dev/colver.md``).

Encodings
---------
* **Cards.**  Ours: ``suit * 8 + rank``, suits hearts, diamonds, clubs, spades
  (0..3), ranks in natural order 7 8 9 10 J Q K A (0..7).  colver: ``suit * 8 + idx``,
  suits spades, hearts, diamonds, clubs (0..3), ``idx`` in the *plain-suit strength*
  order 7 8 9 J Q K 10 A (``Env.card_name(i)`` for ``i`` in 0..31 prints 7♠ 8♠ 9♠
  J♠ Q♠ K♠ 10♠ A♠ 7♥ ...).  Hence ``to_colver_suit(s) == (s + 1) % 4``.
* **Seats and teams** are the same in both engines: seats 0..3 in playing order,
  team ``seat % 2`` (colver's team 0 is seats 0 and 2).  Seat ``(dealer + 1) % 4``
  speaks first in the auction and leads the first trick, as in our engine.
* **Actions.**  Auction (``phase() == 0``): 0 = pass, ``1 + 4 * k + s`` = bid of
  ``80 + 10 * k`` (``k`` 0..8, so 160 at most) in colver suit ``s``, ``37 + s`` =
  capot in suit ``s``, 41 = coinche, 42 = surcoinche.  Card play (``phase() == 1``):
  the action id *is* the colver card index 0..31.  ``phase() == 2`` is terminal.
* ``get_current_trick()`` is indexed by seat (``-1`` where that seat has not
  played); ``get_play_order()`` lists every card played, in order;
  ``get_trick_lead()`` is the seat leading the current trick.

Pitfalls
--------
* ``Env.step`` does **not** validate card plays: an illegal card, even one the
  player does not hold, is accepted silently.  ``deal_with_hands`` does not check
  the deal either (duplicate cards are accepted).  :func:`colver_env_at` validates
  both.
* Stepping a terminal env raises ``pyo3_runtime.PanicException``, which derives
  from ``BaseException``, not ``Exception``.
* If all four players pass, colver does not redeal: the env is terminal at once
  (``phase() == 2``, no card played).
* The auction ends at once after a surcoinche.

colver's card-play rules (found by experiment)
----------------------------------------------
Checked against ``Env.legal_actions()`` on 96,000 positions (3,000 random deals,
random dealer, trump and taker, every card drawn uniformly among colver's legal
ones): the algorithm below reproduced colver's legal set exactly at every one of
them, while each variant (no partner-master exemption, compulsory undertrumping,
partner-master exemption also on a trump lead) failed hundreds to thousands of
times.  "Master" is the player currently winning the trick.

1. Leading: any card.
2. Trump led:

   a. holding trumps: a trump higher than the highest trump in the trick if one is
      held (compulsory overtrumping, **even when partner is master**), otherwise any
      trump (a player holding trumps must play one, undertrumping if need be);
   b. no trump: any card.

3. Plain suit led:

   a. holding the led suit: any card of that suit (no obligation to beat);
   b. void, partner master: **any card** (free discard, or any trump);
   c. void, opponent master, no trump held: any card;
   d. void, opponent master, nobody has trumped: any trump (must trump, any height);
   e. void, opponent master by a trump, holding a higher trump: one of the higher
      trumps (compulsory overtrumping);
   f. void, opponent master by a trump higher than all of ours: **any card** --
      neither undertrumping nor trumping is compulsory, and undertrumping is allowed.

So partner master frees the player only when a plain suit is led; on a trump lead
one must always overtrump when one can.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING

from belote.cards import ALL_CARDS, NUM_CARDS, Card, CardSet

if TYPE_CHECKING:  # pragma: no cover - typing only
    from collections.abc import Sequence

    from colver import Env

__all__ = [
    "colver_current_trick",
    "colver_env_at",
    "colver_hands",
    "colver_legal_cards",
    "colver_play",
    "colver_plays",
    "colver_random_hand_loop",
    "from_colver_card",
    "from_colver_cards",
    "from_colver_mask",
    "from_colver_suit",
    "to_colver_card",
    "to_colver_cards",
    "to_colver_mask",
    "to_colver_suit",
]

# Our natural rank (7 8 9 10 J Q K A) -> colver's in-suit index (7 8 9 J Q K 10 A).
_RANK_TO_COLVER: tuple[int, ...] = (0, 1, 2, 6, 3, 4, 5, 7)
_RANK_FROM_COLVER: tuple[int, ...] = tuple(_RANK_TO_COLVER.index(i) for i in range(8))

_CARD_TO_COLVER: tuple[int, ...] = tuple(
    ((c >> 3) + 1) % 4 * 8 + _RANK_TO_COLVER[c & 7] for c in range(NUM_CARDS)
)
_CARD_FROM_COLVER: tuple[int, ...] = tuple(
    _CARD_TO_COLVER.index(i) for i in range(NUM_CARDS)
)

#: colver's action id for a card play is its card index; auction ids 0..42.
PASS_ACTION = 0
PLAYING_PHASE = 1
TERMINAL_PHASE = 2


# --------------------------------------------------------------------------- encodings


def to_colver_suit(suit: int) -> int:
    """Our suit (H D C S = 0..3) -> colver's suit (S H D C = 0..3)."""
    return (suit + 1) % 4


def from_colver_suit(suit: int) -> int:
    return (suit + 3) % 4


def to_colver_card(card: Card) -> int:
    return _CARD_TO_COLVER[card]


def from_colver_card(idx: int) -> Card:
    return _CARD_FROM_COLVER[idx]


def to_colver_cards(mask: CardSet) -> list[int]:
    """Our mask -> sorted list of colver card indices (the form colver's API takes)."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(_CARD_TO_COLVER[low.bit_length() - 1])
        mask ^= low
    out.sort()
    return out


def from_colver_cards(cards: Sequence[int]) -> CardSet:
    """Iterable of colver card indices -> our mask (``-1`` entries are skipped)."""
    mask = 0
    for idx in cards:
        if idx >= 0:
            mask |= 1 << _CARD_FROM_COLVER[idx]
    return mask


def to_colver_mask(mask: CardSet) -> int:
    """Our mask -> colver-indexed 32-bit mask."""
    out = 0
    while mask:
        low = mask & -mask
        out |= 1 << _CARD_TO_COLVER[low.bit_length() - 1]
        mask ^= low
    return out


def from_colver_mask(mask: int) -> CardSet:
    """colver-indexed 32-bit mask -> our mask."""
    out = 0
    while mask:
        low = mask & -mask
        out |= 1 << _CARD_FROM_COLVER[low.bit_length() - 1]
        mask ^= low
    return out


# --------------------------------------------------------------------------- positions


def _env_class() -> type[Env]:
    from colver import Env as _Env  # lazy: colver is optional

    return _Env


def colver_env_at(
    dealer: int,
    hands: Sequence[CardSet],
    trump: int,
    taker_team: int,
    plays: Sequence[Card],
    value: int = 80,
    coinche: int = 0,
) -> Env:
    """A colver Env in the card-play phase, after ``plays`` (our cards, in order).

    ``hands`` are the four *initial* 8-card hands (our masks, indexed by our seat,
    which is also colver's seat); ``trump`` is our suit; ``taker_team`` is 0 or 1
    (``seat % 2``); ``value`` and ``coinche`` (0, 1 coinched, 2 surcoinched) set the
    contract.  The auction is skipped (``set_contract`` + ``set_phase_playing``); seat
    ``(dealer + 1) % 4`` leads.  Raises ``ValueError`` on a bad deal or on a play
    colver does not allow (colver itself would accept it silently).
    """
    if len(hands) != 4:
        raise ValueError("need four hands")
    seen = 0
    for seat, hand in enumerate(hands):
        if hand & ~ALL_CARDS or hand.bit_count() != 8:
            raise ValueError(f"hand of seat {seat} is not 8 cards: {hand:#x}")
        if hand & seen:
            raise ValueError(f"hand of seat {seat} overlaps another hand")
        seen |= hand
    if not 0 <= dealer < 4 or not 0 <= trump < 4 or taker_team not in (0, 1):
        raise ValueError("dealer, trump or taker_team out of range")
    if len(plays) > NUM_CARDS:
        raise ValueError("more than 32 plays")

    env = _env_class().deal_with_hands(dealer, [to_colver_cards(h) for h in hands])
    env.set_contract(to_colver_suit(trump), value, taker_team, coinche)
    env.set_phase_playing()
    for n, card in enumerate(plays):
        colver_play(env, card, where=f"play #{n}")
    return env


def colver_play(env: Env, card: Card, where: str = "play") -> None:
    """Play our ``card`` on ``env``, checking first that colver allows it."""
    idx = _CARD_TO_COLVER[card]
    if env.is_terminal() or idx not in env.legal_actions():
        raise ValueError(
            f"{where}: card {card} ({_env_class().card_name(idx)}) is not legal for "
            f"seat {env.current_player()} in colver"
        )
    env.step(idx)


def colver_legal_cards(env: Env) -> CardSet:
    """colver's legal cards for the player to move, as our mask (0 when terminal)."""
    if env.phase() != PLAYING_PHASE:
        return 0
    return from_colver_cards(env.legal_actions())


def colver_hands(env: Env) -> list[CardSet]:
    """The cards still held by each seat, as our masks."""
    return [from_colver_cards(h) for h in env.get_hands()]


def colver_plays(env: Env) -> list[Card]:
    """Every card played so far, in order, as our cards."""
    return [_CARD_FROM_COLVER[i] for i in env.get_play_order()]


def colver_current_trick(env: Env) -> tuple[int, list[Card]]:
    """``(leader, cards)`` of the trick in progress, cards in playing order (ours).

    Between tricks ``cards`` is empty and ``leader`` is the winner of the last trick.
    """
    leader: int = env.get_trick_lead()
    trick = env.get_current_trick()
    cards = [
        _CARD_FROM_COLVER[trick[(leader + k) % 4]]
        for k in range(4)
        if trick[(leader + k) % 4] >= 0
    ]
    return leader, cards


# --------------------------------------------------------------------------- benchmark


def colver_random_hand_loop(n_hands: int, seed: int) -> float:
    """Reference step loop: ``n_hands`` complete random hands; returns hands per second.

    One env is made with ``Env.deal(seed=seed)`` (seeding colver's RNG, so the deals and
    dealers are reproducible), then for each hand ``env.reset()`` deals anew (random
    dealer) and a Python loop calls ``env.step(action)`` with an action drawn uniformly
    (``random.Random(seed).choice``) from the legal list that ``reset``/``step`` return,
    from the first bid to the end of the hand -- auction (bids, coinche, surcoinche)
    included.  A hand is *counted* when it ended (``done``) with cards played
    (``env.get_play_order()`` non-empty; it then holds all 32 cards); a hand that
    ended in four passes -- colver makes it terminal at once, no redeal, and under
    uniform random bidding it is very rare -- is timed but not counted.  The clock
    covers the whole loop, ``Env.deal`` excepted.
    """
    if n_hands <= 0:
        raise ValueError("n_hands must be positive")
    rng = random.Random(seed)
    choice = rng.choice
    env = _env_class().deal(seed=seed)
    reset = env.reset
    step = env.step
    play_order = env.get_play_order
    done_hands = 0
    start = time.perf_counter()
    while done_hands < n_hands:
        legal = reset()[1]
        done = False
        while not done:
            _, _, done, legal = step(choice(legal))
        if play_order():
            done_hands += 1
    elapsed = time.perf_counter() - start
    return done_hands / elapsed
