"""What the card-play network reads: one seat's observation as a float32 vector.

:func:`features` is the one home of the encoding: the training script builds its data with
it and :mod:`belote.ai.network.policy` plays with it, so the two can never disagree.  It
reads only the :class:`~belote.engine.observation.Observation` of the seat to move, so it
holds nothing that seat may not see (``tests/test_quick_bot.py`` permutes the other hands and
checks the vector does not move).

Seats are *relative to the viewer*, in playing order (as :mod:`belote.rl.tensors`): 0 the
viewer, 1 the next to play (left), 2 the partner, 3 the previous player (right); side pairs
put the viewer's side first.  Suits are *canonical*: with a trump suit, the trump is suit 0
and the three others follow in their natural order (:data:`CARD_ORDER`); with no trump or
all trump the suits stay as they are.  A card of the vector (and of the network's 32
outputs) is ``canonical_suit * 8 + rank``; ``CARD_ORDER[trump][i]`` is the real card of
canonical card ``i``.  So one trump suit's experience serves the other three.

Parts (sizes in brackets; "x/k": the value divided by k, so most features lie in 0..1):

| name | size | meaning |
|---|---|---|
| ``hand`` | 32 | the viewer's cards |
| ``played_by`` | 128 | 4 relative seats x 32: cards each played in the finished tricks |
| ``trick`` | 128 | 4 relative seats x 32: the card each has put in the trick in play |
| ``shown`` | 128 | 4 relative seats x 32: cards shown with a declaration, not yet played |
| ``unseen`` | 32 | cards neither in the viewer's hand nor played: in the other hands |
| ``voids`` | 16 | 4 relative seats x 4 suits: the seat failed to follow that suit |
| ``trump`` | 6 | one-hot: trump suit (canonical: always slot 0), no trump, all trump |
| ``taker`` | 4 | one-hot: relative seat of the taker |
| ``leader`` | 4 | one-hot: relative seat that led the trick in play (its order) |
| ``contract`` | 3 | level / 162 (0 for take-or-pass), doubled, redoubled |
| ``tricks_left`` | 1 | tricks still to play / 8 |
| ``points`` | 2 | card points won so far / 162, viewer's side first |
| ``won_a_trick`` | 2 | whether each side has taken a trick (a capot is still possible) |
| ``rules`` | 4 | must_trump, must_overtrump, must_undertrump, partner_master_frees |
| ``normal`` | 32 | one-hot: the card the normal bot would play here (none if it would not play) |

The last part is advice, not sight: the normal bot (:class:`~belote.ai.heuristic.
HeuristicBot`, whose card play reads the same observation and draws no random number) is
asked for its card, so the network learns where to depart from it rather than the whole of
card play from scratch (about 20 us of the decision's time, see ``benchmarks/quick_bot.py``).

Card play only, four seats only: the caller checks both (:mod:`belote.ai.quick`).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from belote.ai.heuristic import HeuristicBot
from belote.cards import ALL_CARDS, CardSet
from belote.engine import actions as A
from belote.engine.observation import Observation
from belote.rules.vocabulary import NO_TRUMP

SEATS = 4  # the network plays four seats: two partnerships facing each other
CARDS = 32

# (name, size) in vector order: the table above.
LAYOUT: tuple[tuple[str, int], ...] = (
    ("hand", CARDS),
    ("played_by", SEATS * CARDS),
    ("trick", SEATS * CARDS),
    ("shown", SEATS * CARDS),
    ("unseen", CARDS),
    ("voids", SEATS * 4),
    ("trump", 6),
    ("taker", SEATS),
    ("leader", SEATS),
    ("contract", 3),
    ("tricks_left", 1),
    ("points", 2),
    ("won_a_trick", 2),
    ("rules", 4),
    ("normal", CARDS),
)
SIZE = sum(size for _, size in LAYOUT)
OFFSETS: dict[str, int] = {}
_at = 0
for _name, _size in LAYOUT:
    OFFSETS[_name] = _at
    _at += _size
del _at, _name, _size

# The 14 card masks (hand, 4 played_by, 4 trick, 4 shown, unseen) come first and are
# unpacked to bits in one call; the rest of the vector follows them.
_MASKS = 1 + 3 * SEATS + 1
_BITS = _MASKS * CARDS
assert OFFSETS["voids"] == _BITS


# The normal bot asked for its card (its seed only draws cuts: never used here).
_NORMAL = HeuristicBot(0, name="normal")


def _suit_order(trump: int) -> tuple[int, int, int, int]:
    """The real suit of each canonical suit: the trump first, the others in order."""
    if trump >= NO_TRUMP:
        return (0, 1, 2, 3)
    others = [s for s in range(4) if s != trump]
    return (trump, others[0], others[1], others[2])


SUIT_ORDER: tuple[tuple[int, int, int, int], ...] = tuple(_suit_order(t) for t in range(6))
# CARD_ORDER[trump][i]: the real card of canonical card i.
CARD_ORDER: tuple[tuple[int, ...], ...] = tuple(
    tuple(order[c >> 3] * 8 + (c & 7) for c in range(CARDS)) for order in SUIT_ORDER)
# CANONICAL[trump][card]: the canonical card of a real card.
CANONICAL: tuple[tuple[int, ...], ...] = tuple(
    tuple(order.index(c >> 3) * 8 + (c & 7) for c in range(CARDS)) for order in SUIT_ORDER)


def canonical_mask(mask: CardSet, trump: int) -> CardSet:
    """``mask`` with its suit bytes in canonical order (see :data:`SUIT_ORDER`)."""
    if trump >= NO_TRUMP:
        return mask
    a, b, c, d = SUIT_ORDER[trump]
    return ((mask >> 8 * a & 255) | (mask >> 8 * b & 255) << 8 | (mask >> 8 * c & 255) << 16
            | (mask >> 8 * d & 255) << 24)


# _SUIT_BYTES[trump]: the bytes of the 14 card masks (one byte a suit, little-endian) in
# canonical suit order: one gather puts every mask in canonical order at once.
_SUIT_BYTES: tuple[npt.NDArray[np.intp], ...] = tuple(
    np.array([4 * m + suit for m in range(_MASKS) for suit in SUIT_ORDER[trump]], dtype=np.intp)
    for trump in range(6))


def features(obs: Observation) -> npt.NDArray[np.float32]:
    """The feature vector (:data:`SIZE` float32, :data:`LAYOUT`) of ``obs``: a seat of four
    in the card play (trump known)."""
    viewer, trump, taker = obs.seat, obs.trump, obs.taker
    if viewer is None or trump is None or taker is None:
        raise ValueError("features read a seat's observation in the card play")
    played_by = [0, 0, 0, 0]
    voids = [0, 0, 0, 0]  # a 4-bit set of real suits per relative seat
    for leader, cards in obs.tricks:
        led = cards[0] >> 3
        for i, card in enumerate(cards):
            rel = (leader + i - viewer) % SEATS
            played_by[rel] |= 1 << card
            if card >> 3 != led:
                voids[rel] |= 1 << led
    in_trick = [0, 0, 0, 0]
    if obs.trick:
        led = obs.trick[0][1] >> 3
        for seat, card in obs.trick:
            rel = (seat - viewer) % SEATS
            in_trick[rel] = 1 << card
            if card >> 3 != led:
                voids[rel] |= 1 << led
    shown, played = obs.shown, obs.played
    shown_by = [shown[(viewer + rel) % SEATS] & ~played for rel in range(SEATS)]
    # The masks in real card order, put in canonical order by one gather of their suit bytes.
    masks = np.array([obs.hand, *played_by, *in_trick, *shown_by,
                      ALL_CARDS & ~played & ~obs.hand], dtype="<u4")
    out = np.zeros(SIZE, dtype=np.float32)
    out[:_BITS] = np.unpackbits(masks.view(np.uint8)[_SUIT_BYTES[trump]],
                                 bitorder="little")
    at = _BITS
    order = SUIT_ORDER[trump]
    for rel in range(SEATS):
        bits = voids[rel]
        if bits:
            for k in range(4):
                if bits >> order[k] & 1:
                    out[at + 4 * rel + k] = 1.0
    at += 4 * SEATS
    out[at + (0 if trump < NO_TRUMP else 4 if trump == NO_TRUMP else 5)] = 1.0
    at += 6
    out[at + (taker - viewer) % SEATS] = 1.0
    at += SEATS
    trick_leader = obs.trick[0][0] if obs.trick else obs.leader
    out[at + (trick_leader - viewer) % SEATS] = 1.0
    at += SEATS
    out[at] = obs.contract_level / 162.0
    out[at + 1] = obs.contract_multiplier >= 2
    out[at + 2] = obs.contract_multiplier >= 4
    at += 3
    out[at] = (CARDS - obs.played.bit_count() + len(obs.trick)) / CARDS
    side = viewer & 1
    points, won = obs.card_points, obs.tricks_won
    out[at + 1] = points[side] / 162.0
    out[at + 2] = points[1 - side] / 162.0
    out[at + 3] = won[side] > 0
    out[at + 4] = won[1 - side] > 0
    at += 5
    rules = obs.ruleset
    if rules is not None:
        out[at] = rules.must_trump
        out[at + 1] = rules.must_overtrump
        out[at + 2] = rules.must_undertrump
        out[at + 3] = rules.partner_master_frees
    at += 4
    advice = _NORMAL.choose(obs)
    if A.is_play(advice):
        out[at + CANONICAL[trump][advice & 31]] = 1.0
    return out

