"""Every numba-compiled function of the project: the hot loops, on ints and arrays only.

Numba's cache tracks one file, so all compiled code, its helpers and its constants live
here (STYLE.md "Numba is isolated").  Nothing in ``belote.cards``, ``belote.rules`` or
``belote.engine.state`` imports this module: the wrappers in :mod:`belote.engine.search`
import it on first use, so importing the engine compiles nothing; ``cache=True`` keeps the
machine code on disk, so a second start does not recompile.

The pure-Python twin of each kernel is the engine itself (:mod:`belote.engine.tricks`,
:mod:`belote.engine.obligations`);
``tests/test_kernels_twin.py`` compares them on random positions.

Conventions: a card is ``suit * 8 + rank`` (ranks 7 8 9 10 J Q K A), a hand a 32-bit mask in
an int64; a trump code is a suit 0..3, 4 (no trump) or 5 (all trump); seats are numbered in
playing order and team ``seat & 1``; values are the points of team 0 (N-S).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from belote.engine.tricks import CARD_POINTS, TRUMP_ABOVE, WIN_KEY

# Rule flags, packed into one int by belote.engine.search.rule_flags: bit i is field i of
# belote.engine.obligations.OBLIGATION_FIELDS.  Literals, not computed from that tuple: numba's
# cache freezes globals and only notices a change to this file.  FLAG_BITS is every flag the
# kernels implement; rule_flags refuses rules with an obligation field missing here, and a
# test checks the bits against OBLIGATION_FIELDS.
PARTNER_FREES = 1
MUST_OVERTRUMP = 2
MUST_UNDERTRUMP = 4
MUST_TRUMP = 8
MUST_FOLLOW = 16
FLAG_BITS = {
    "partner_master_frees": PARTNER_FREES,
    "must_overtrump": MUST_OVERTRUMP,
    "must_undertrump": MUST_UNDERTRUMP,
    "must_trump": MUST_TRUMP,
    "must_follow_suit": MUST_FOLLOW,
}

K_WIN = np.array(WIN_KEY, dtype=np.int64)  # [trump][led][card]
K_POINTS = np.array(CARD_POINTS, dtype=np.int64)  # [trump][card]
K_ABOVE = np.array(TRUMP_ABOVE, dtype=np.int64)  # [card]
K_SUIT = np.array([0xFF << (8 * s) for s in range(4)], dtype=np.int64)

# K_ORDER[trump][suit]: the suit's cards from strongest to weakest when that suit is led.
K_ORDER = np.array(
    [[sorted(range(s * 8, s * 8 + 8), key=lambda c, t=t, s=s: -WIN_KEY[t][s][c]) for s in range(4)]
     for t in range(6)],
    dtype=np.int64,
)

# K_BYTE_POINTS[trump][suit][byte]: points of the cards of ``suit`` whose ranks are in byte.
K_BYTE_POINTS = np.array(
    [[[sum(CARD_POINTS[t][s * 8 + r] for r in range(8) if b >> r & 1) for b in range(256)]
      for s in range(4)] for t in range(6)],
    dtype=np.int64,
)

TT_BITS = 20
TT_SIZE = 1 << TT_BITS
# A table slot is two int64: the key, then the bounds and the best move packed (one cache
# line per probe): lower bound (20 bits), upper bound (20 bits), best move + 1 (8 bits).
TT_FIELD = (1 << 20) - 1
INF = 10_000


@njit(cache=True, error_model="numpy")
def popcount(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


# De Bruijn sequence: the lowest set bit of a 32-bit mask in a multiply and a lookup (a
# loop over the bits was about 10% of the solver's time).
_DEBRUIJN = 0x077CB531
K_DEBRUIJN = np.zeros(32, dtype=np.int64)
for _i in range(32):
    K_DEBRUIJN[((_DEBRUIJN << _i) & 0xFFFFFFFF) >> 27] = _i


@njit(cache=True, error_model="numpy")
def lowest_card(mask: int) -> int:
    """The lowest card of a non-empty 32-bit mask."""
    return K_DEBRUIJN[(((mask & -mask) * _DEBRUIJN) & 0xFFFFFFFF) >> 27]


@njit(cache=True, error_model="numpy")
def trick_winner(trick: np.ndarray, n: int, trump: int) -> int:
    """Index in ``trick[:n]`` (0 = leader) of the card winning so far."""
    led = trick[0] >> 3
    best = 0
    best_key = K_WIN[trump, led, trick[0]]
    for i in range(1, n):
        k = K_WIN[trump, led, trick[i]]
        if k > best_key:
            best = i
            best_key = k
    return best


@njit(cache=True, error_model="numpy")
def legal_mask(hand: int, trick: np.ndarray, n: int, trump: int, flags: int) -> int:
    """Twin of ``belote.engine.obligations.legal_plays``."""
    if n == 0:
        return hand
    return legal_mask_w(hand, trick, n, trump, flags, trick_winner(trick, n, trump))


@njit(cache=True, error_model="numpy")
def legal_mask_w(hand: int, trick: np.ndarray, n: int, trump: int, flags: int,
                 w: int) -> int:
    """:func:`legal_mask` with the index ``w`` of the card winning the trick so far."""
    if n == 0:
        return hand
    return _legal(hand, trick[0], trick[w], n, w, trump, flags)


@njit(cache=True, error_model="numpy")
def _legal(hand: int, first: int, best: int, n: int, w: int, trump: int, flags: int) -> int:
    """:func:`legal_mask_w` on ints only (``n > 0``; ``first`` is the card led, ``best``
    the card winning so far, at index ``w``).  The solver calls this one: numba counts
    references to every array passed to a helper (an atomic increment and decrement per
    call), which cost the search about a third of its time."""
    led = first >> 3
    follow = hand & K_SUIT[led]
    if follow and not flags & MUST_FOLLOW:
        return hand  # holding the led suit: not void, so no trump obligation either
    if trump < 4:
        trump_suit = trump
    elif trump == 5:
        trump_suit = led
    else:
        return follow if follow else hand
    if follow:
        if led == trump_suit and flags & MUST_OVERTRUMP:
            higher = follow & K_ABOVE[best]
            if higher:
                return higher
        return follow
    if led == trump_suit:
        return hand
    trumps = hand & K_SUIT[trump_suit]
    if trumps == 0 or not flags & MUST_TRUMP:
        return hand
    if flags & PARTNER_FREES and w == n - 2:
        return hand
    if best >> 3 == trump_suit:
        if flags & MUST_OVERTRUMP:
            higher = trumps & K_ABOVE[best]
            if higher:
                return higher
        return trumps if flags & MUST_UNDERTRUMP else hand
    return trumps


# ----------------------------------------------------------------------------- playouts
_LCG_MASK = (1 << 48) - 1


@njit(cache=True, error_model="numpy")
def _next_random(state: np.ndarray) -> int:
    """A 32-bit pseudo-random int (48-bit LCG; int() keeps pure-Python mode exact)."""
    x = (int(state[0]) * 25214903917 + 11) & _LCG_MASK
    state[0] = x
    return x >> 16


@njit(cache=True, error_model="numpy")
def _random_card(mask: int, state: np.ndarray) -> int:
    k = _next_random(state) % popcount(mask)
    for _ in range(k):
        mask &= mask - 1
    return lowest_card(mask)


@njit(cache=True, error_model="numpy")
def playout(hands: np.ndarray, trick: np.ndarray, n: int, leader: int, trump: int,
            flags: int, last_bonus: int, capot_bonus: int, won: int, tricks_left: int,
            state: np.ndarray) -> int:
    """Play uniformly random legal cards to the end; team 0's points from here on.

    ``hands`` and ``trick`` are copied, not changed.  ``won``: bit t set if team t has
    already taken a trick this hand (for the capot bonus).
    """
    h = hands.copy()
    t = trick.copy()
    points = 0
    while tricks_left > 0:
        while n < 4:
            seat = (leader + n) & 3
            card = _random_card(legal_mask(h[seat], t, n, trump, flags), state)
            h[seat] &= ~(1 << card)
            t[n] = card
            n += 1
        w = (leader + trick_winner(t, 4, trump)) & 3
        value = K_POINTS[trump, t[0]] + K_POINTS[trump, t[1]] + K_POINTS[trump, t[2]]
        value += K_POINTS[trump, t[3]]
        tricks_left -= 1
        if tricks_left == 0:
            value += last_bonus
        won |= 1 << (w & 1)
        if w & 1 == 0:
            points += value
        leader = w
        n = 0
    if won == 1:
        points += capot_bonus
    return points


@njit(cache=True, error_model="numpy")
def random_hands(n_hands: int, seed: int, flags: int, last_bonus: int,
                 capot_bonus: int) -> int:
    """Deal, pick a random trump and play ``n_hands`` random hands; a checksum of points
    (so the work cannot be optimised away).  The rollout benchmark's kernel."""
    state = np.empty(1, dtype=np.int64)
    state[0] = (seed * 2654435761 + 88172645) & _LCG_MASK
    deck = np.arange(32)
    hands = np.zeros(4, dtype=np.int64)
    trick = np.zeros(4, dtype=np.int64)
    total = 0
    for _ in range(n_hands):
        for i in range(31, 0, -1):
            j = _next_random(state) % (i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        for s in range(4):
            mask = 0
            for k in range(8):
                mask |= 1 << deck[s * 8 + k]
            hands[s] = mask
        trump = _next_random(state) & 3
        total += playout(hands, trick, 0, 0, trump, flags, last_bonus, capot_bonus, 0, 8,
                         state)
    return total


# ----------------------------------------------------------------------------- exact solver
@njit(cache=True, error_model="numpy")
def _tt_index(key: int) -> int:
    h = key ^ (key >> 17) ^ (key >> 31) ^ (key >> 43)
    return (h ^ (h >> TT_BITS)) & (TT_SIZE - 1)


@njit(cache=True, error_model="numpy")
def _kept(legal: int, others: int, trump: int) -> int:
    """Legal cards minus equivalent ones, as a mask: two cards of one suit in the same hand,
    with no card of another hand or on the table between them in the suit's order and the
    same points, play alike; keep the stronger.  Ints only: the search calls it at every
    node, and arrays passed to a helper cost numba reference counting."""
    kept = 0
    for suit in range(4):
        cards = legal & K_SUIT[suit]
        if cards & (cards - 1) == 0:  # none or one: nothing to merge
            kept |= cards
            continue
        run = False
        prev_points = -1
        for pos in range(8):
            card = K_ORDER[trump, suit, pos]
            bit = 1 << card
            if cards & bit:
                cards ^= bit
                pts = K_POINTS[trump, card]
                if not run or pts != prev_points:
                    kept |= bit
                    run = True
                    prev_points = pts
                if cards == 0:
                    break
            elif others & bit:
                run = False
    return kept


@njit(cache=True, error_model="numpy")
def _representatives(legal: int, others: int, trump: int, rep: np.ndarray) -> None:
    """For every legal card, ``rep[card]``: the card :func:`_kept` keeps in its place (itself,
    or the stronger equivalent card whose value it shares).  The root's use of the rule."""
    kept = _kept(legal, others, trump)
    for suit in range(4):
        prev = -1
        for pos in range(8):
            card = K_ORDER[trump, suit, pos]
            if kept >> card & 1:
                prev = card
            if legal >> card & 1:
                rep[card] = prev


@njit(cache=True, error_model="numpy")
def _score(c: int, n: int, trump: int, led: int, best_key: int, partner_wins: bool,
           first: int, history: int) -> int:
    """Move-ordering score of card ``c`` (higher first).  At a lead: the history
    heuristic, then strong cards first, cheap ones first among equals.  Following: feed
    points to a winning partner without overtaking; against a winning opponent, win as
    cheaply as possible or lose the least."""
    if c == first:
        return 1_000_000
    pts = K_POINTS[trump, c]
    if n == 0:
        return history * 64 + K_WIN[trump, c >> 3, c] * 16 - pts
    k = K_WIN[trump, led, c]
    if partner_wins:
        return pts * 16 - k if k <= best_key else -k
    if k > best_key:
        return 10_000 - k * 16 + pts
    return -pts * 16 - k


MAX_PLY = 33


@njit(cache=True, error_model="numpy")
def _trick_value(trick: np.ndarray, trump: int) -> int:
    return (K_POINTS[trump, trick[0]] + K_POINTS[trump, trick[1]] + K_POINTS[trump, trick[2]]
            + K_POINTS[trump, trick[3]])


@njit(cache=True, error_model="numpy")
def _winner4(c0: int, c1: int, c2: int, c3: int, trump: int) -> int:
    """Index (0 = leader) of the card winning the full trick ``c0 c1 c2 c3``."""
    led = c0 >> 3
    w = 0
    key = K_WIN[trump, led, c0]
    k = K_WIN[trump, led, c1]
    if k > key:
        w = 1
        key = k
    k = K_WIN[trump, led, c2]
    if k > key:
        w = 2
        key = k
    if K_WIN[trump, led, c3] > key:
        w = 3
    return w


@njit(cache=True, error_model="numpy")
def _points4(c0: int, c1: int, c2: int, c3: int, trump: int) -> int:
    return (K_POINTS[trump, c0] + K_POINTS[trump, c1] + K_POINTS[trump, c2]
            + K_POINTS[trump, c3])


@njit(cache=True, error_model="numpy")
def _two_tricks_leaf(c0: int, c1: int, c2: int, c3: int, w: int, q0: int, q1: int, q2: int,
                     q3: int, leader: int, trump: int, last_bonus: int, capot_bonus: int,
                     won: int) -> int:
    """Team 0's points from the full trick ``c0..c3`` (won by position ``w``) and the last
    trick, which the cards left in ``q0..q3`` (the hands in playing order, the trick's
    cards still in them) play out."""
    value = 0
    team = (leader + w) & 1
    if team == 0:
        value = _points4(c0, c1, c2, c3, trump)
    won |= 1 << team
    r0 = lowest_card(q0 & ~(1 << c0))
    r1 = lowest_card(q1 & ~(1 << c1))
    r2 = lowest_card(q2 & ~(1 << c2))
    r3 = lowest_card(q3 & ~(1 << c3))
    # the last trick is led by position w: rotate to its playing order
    if w == 0:
        w2 = _winner4(r0, r1, r2, r3, trump)
    elif w == 1:
        w2 = _winner4(r1, r2, r3, r0, trump) + 1
    elif w == 2:
        w2 = _winner4(r2, r3, r0, r1, trump) + 2
    else:
        w2 = _winner4(r3, r0, r1, r2, trump) + 3
    team = (leader + w2) & 1
    if team == 0:
        value += _points4(r0, r1, r2, r3, trump) + last_bonus
        if won == 1:
            value += capot_bonus
    return value


@njit(cache=True, error_model="numpy")
def _two_tricks(q0: int, q1: int, q2: int, q3: int, leader: int, trump: int, flags: int,
                last_bonus: int, capot_bonus: int, won: int) -> int:
    """Exact value (team 0's points) of a trick start with two tricks left, the hands
    ``q0..q3`` in playing order from ``leader``: plain minimax over at most 16 plays of the
    next trick, cheaper than the generic search's frames (ints only, see :func:`_legal`)."""
    max0 = leader & 1 == 0  # positions 0 and 2 are one team, 1 and 3 the other
    best0 = -INF if max0 else INF
    m0 = q0
    while m0:
        c0 = lowest_card(m0)
        m0 &= m0 - 1
        led = c0 >> 3
        best1 = INF if max0 else -INF
        m1 = _legal(q1, c0, c0, 1, 0, trump, flags)
        while m1:
            c1 = lowest_card(m1)
            m1 &= m1 - 1
            if K_WIN[trump, led, c1] > K_WIN[trump, led, c0]:
                w1 = 1
                b1 = c1
            else:
                w1 = 0
                b1 = c0
            best2 = -INF if max0 else INF
            m2 = _legal(q2, c0, b1, 2, w1, trump, flags)
            while m2:
                c2 = lowest_card(m2)
                m2 &= m2 - 1
                if K_WIN[trump, led, c2] > K_WIN[trump, led, b1]:
                    w2 = 2
                    b2 = c2
                else:
                    w2 = w1
                    b2 = b1
                best3 = INF if max0 else -INF
                m3 = _legal(q3, c0, b2, 3, w2, trump, flags)
                while m3:
                    c3 = lowest_card(m3)
                    m3 &= m3 - 1
                    w3 = 3 if K_WIN[trump, led, c3] > K_WIN[trump, led, b2] else w2
                    v = _two_tricks_leaf(c0, c1, c2, c3, w3, q0, q1, q2, q3, leader, trump,
                                         last_bonus, capot_bonus, won)
                    best3 = min(best3, v) if max0 else max(best3, v)
                best2 = max(best2, best3) if max0 else min(best2, best3)
            best1 = min(best1, best2) if max0 else max(best1, best2)
        best0 = max(best0, best1) if max0 else min(best0, best1)
    return best0


@njit(cache=True, error_model="numpy")
def _tt_store(tt: np.ndarray, slot: int, key: int, value: int, alpha: int, beta: int,
              best_move: int) -> None:
    """Record a node's value as a bound (fail-low: upper, fail-high: lower, else exact),
    narrowing what the slot already knew of the same key, with the best move found."""
    if tt[slot, 0] == key:
        data = tt[slot, 1]
        lo = data & TT_FIELD
        hi = (data >> 20) & TT_FIELD
    else:
        lo = 0
        hi = TT_FIELD
    if value <= alpha:
        hi = value
    elif value >= beta:
        lo = value
    else:
        lo = value
        hi = value
    tt[slot, 0] = key
    tt[slot, 1] = lo | (hi << 20) | ((best_move + 1) << 40)


@njit(cache=True, error_model="numpy")
def _search(hands: np.ndarray, trick: np.ndarray, n0: int, leader0: int, trump: int,
            flags: int, last_bonus: int, capot_bonus: int, won0: int, left0: int,
            alpha0: int, beta0: int, tt: np.ndarray, stats: np.ndarray, gen: int) -> int:
    """Fail-soft alpha-beta, iterative (an explicit stack: numba's cache does not reload
    recursive functions reliably).  Value: team 0's points from the cards on the table and
    in hand.  A transposition table at trick starts keys on (cards left, leader, which
    teams have taken a trick) and ``gen``, a number the caller changes with each deal
    (so the table need not be cleared between deals).  A trick start with two tricks left
    that the table does not settle is solved by :func:`_two_tricks` and stored exact.

    Speed: no helper called per node takes an array (numba reference-counts every array
    passed to a call with atomic operations: they were a third of the time)."""
    f_n = np.empty(MAX_PLY, dtype=np.int64)
    f_leader = np.empty(MAX_PLY, dtype=np.int64)
    f_won = np.empty(MAX_PLY, dtype=np.int64)
    f_left = np.empty(MAX_PLY, dtype=np.int64)
    f_a = np.empty(MAX_PLY, dtype=np.int64)
    f_b = np.empty(MAX_PLY, dtype=np.int64)
    f_a0 = np.empty(MAX_PLY, dtype=np.int64)
    f_b0 = np.empty(MAX_PLY, dtype=np.int64)
    f_best = np.empty(MAX_PLY, dtype=np.int64)
    f_bestmove = np.empty(MAX_PLY, dtype=np.int64)
    f_seat = np.empty(MAX_PLY, dtype=np.int64)
    f_hand = np.empty(MAX_PLY, dtype=np.int64)
    f_key = np.empty(MAX_PLY, dtype=np.int64)
    f_slot = np.empty(MAX_PLY, dtype=np.int64)
    f_mine = np.empty(MAX_PLY, dtype=np.int64)
    f_done = np.empty(MAX_PLY, dtype=np.int64)  # 1 if the move completed a trick
    f_count = np.empty(MAX_PLY, dtype=np.int64)
    f_idx = np.empty(MAX_PLY, dtype=np.int64)
    # flat, indexed ply * 8 + i: a row view (f_moves[p]) would be a new array, reference
    # counted (atomically) at every node
    f_moves = np.empty(MAX_PLY * 8, dtype=np.int64)
    f_saved = np.empty((MAX_PLY, 4), dtype=np.int64)
    scratch = np.empty(8, dtype=np.int64)
    history = np.zeros((4, 32), dtype=np.int64)

    p = 0
    f_n[0] = n0
    f_leader[0] = leader0
    f_won[0] = won0
    f_left[0] = left0
    f_a[0] = alpha0
    f_b[0] = beta0
    entering = True
    returning = False
    ret = 0
    while True:
        if entering:
            entering = False
            stats[0] += 1
            if stats[0] >= stats[2] > 0:
                # Over the caller's node limit: give up at once.  Only finished nodes were
                # stored in the table, so it stays exact; ``hands`` and ``trick`` are left
                # mid-search and the value is meaningless (the callers return at once).
                stats[3] = 1
                return 0
            n = f_n[p]
            leader = f_leader[p]
            first = -1
            hit = False
            if n == 0 and f_left[p] == 1:
                # The last trick plays itself: one card each.
                c0 = lowest_card(hands[leader])
                c1 = lowest_card(hands[(leader + 1) & 3])
                c2 = lowest_card(hands[(leader + 2) & 3])
                c3 = lowest_card(hands[(leader + 3) & 3])
                w = (leader + _winner4(c0, c1, c2, c3, trump)) & 3
                new_won = f_won[p] | (1 << (w & 1))
                ret = 0
                if w & 1 == 0:
                    ret = _points4(c0, c1, c2, c3, trump) + last_bonus
                    if new_won == 1:
                        ret += capot_bonus
                hit = True
            if n == 0 and not hit:
                # Static bounds.  Team 0 cannot get more than every point still in play.
                # The top trumps still out, while one team holds them all, go to that team
                # (each wins the trick it falls in, or its partner's higher one does), and
                # a team holding the top trump takes a trick: no capot for the other.
                rem = hands[0] | hands[1] | hands[2] | hands[3]
                capot_open = f_won[p] <= 1
                lb = 0
                lost = 0
                if trump < 4:
                    team0 = hands[0] | hands[2]
                    owner = -1
                    for pos in range(8):
                        c = K_ORDER[trump, trump, pos]
                        bit = 1 << c
                        if rem & bit:
                            o = 0 if team0 & bit else 1
                            if owner < 0:
                                owner = o
                            elif o != owner:
                                break
                            if o == 0:
                                lb += K_POINTS[trump, c]
                            else:
                                lost += K_POINTS[trump, c]
                    if owner == 1:
                        capot_open = False
                ub = last_bonus + (capot_bonus if capot_open else 0) - lost
                for su in range(4):
                    ub += K_BYTE_POINTS[trump, su, (rem >> (8 * su)) & 255]
                if ub <= f_a[p]:
                    ret = ub
                    hit = True
                elif lb >= f_b[p]:
                    ret = lb
                    hit = True
            if n == 0 and not hit:
                # At a trick's start a node is the cards left in hand (each card's owner is
                # fixed in a deal), the leader and which teams have taken a trick.
                remaining = hands[0] | hands[1] | hands[2] | hands[3]
                key = remaining | (leader << 32) | (f_won[p] << 34) | (1 << 40) | (gen << 41)
                slot = _tt_index(key)
                f_key[p] = key
                f_slot[p] = slot
                if tt[slot, 0] == key:
                    data = tt[slot, 1]
                    lo = data & TT_FIELD
                    hi = (data >> 20) & TT_FIELD
                    if lo >= f_b[p] or lo == hi:
                        ret = lo
                        hit = True
                    elif hi <= f_a[p]:
                        ret = hi
                        hit = True
                    else:
                        if lo > f_a[p]:
                            f_a[p] = lo
                        if hi < f_b[p]:
                            f_b[p] = hi
                        first = (data >> 40) - 1
                if not hit and f_left[p] == 2:
                    ret = _two_tricks(hands[leader], hands[(leader + 1) & 3],
                                      hands[(leader + 2) & 3], hands[(leader + 3) & 3],
                                      leader, trump, flags, last_bonus, capot_bonus, f_won[p])
                    tt[slot, 0] = key
                    tt[slot, 1] = ret | (ret << 20)
                    hit = True
            if hit:  # the value is known without expanding this node
                if p == 0:
                    return ret
                p -= 1
                returning = True
            else:
                f_a0[p] = f_a[p]
                f_b0[p] = f_b[p]
                seat = (leader + n) & 3
                hand = hands[seat]
                f_seat[p] = seat
                f_hand[p] = hand
                # everything below reads the arrays here and passes helpers ints only:
                # an array passed to a helper costs atomic reference counting per call
                led = 0
                best_key = 0
                partner_wins = False
                if n > 0:
                    lead_card = trick[0]
                    led = lead_card >> 3
                    w = 0
                    best_key = K_WIN[trump, led, lead_card]
                    for i in range(1, n):
                        k = K_WIN[trump, led, trick[i]]
                        if k > best_key:
                            w = i
                            best_key = k
                    legal = _legal(hand, lead_card, trick[w], n, w, trump, flags)
                    partner_wins = w == n - 2
                else:
                    legal = hand
                base = p * 8
                if legal & (legal - 1) == 0:
                    f_moves[base] = lowest_card(legal)  # a forced card
                    count = 1
                else:
                    # a card on the table separates two cards of this hand as much as a
                    # card in another hand does (the 8 led between our 9 and 7)
                    others = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hand
                    for i in range(n):
                        others |= 1 << trick[i]
                    kept = _kept(legal, others, trump)
                    count = 0
                    while kept:  # insertion sort by score, best first: at most 8 moves
                        c = lowest_card(kept)
                        kept &= kept - 1
                        sc = _score(c, n, trump, led, best_key, partner_wins, first,
                                    history[seat, c] if n == 0 else 0)
                        j = count - 1
                        while j >= 0 and scratch[j] < sc:
                            f_moves[base + j + 1] = f_moves[base + j]
                            scratch[j + 1] = scratch[j]
                            j -= 1
                        f_moves[base + j + 1] = c
                        scratch[j + 1] = sc
                        count += 1
                f_count[p] = count
                f_idx[p] = 0
                f_best[p] = -INF if seat & 1 == 0 else INF
                f_bestmove[p] = -1
        if returning:
            returning = False
            value = f_mine[p] + ret
            seat = f_seat[p]
            hands[seat] = f_hand[p]
            if f_done[p]:
                for i in range(4):
                    trick[i] = f_saved[p, i]
            card = f_moves[p * 8 + f_idx[p] - 1]
            if seat & 1 == 0:
                if value > f_best[p]:
                    f_best[p] = value
                    f_bestmove[p] = card
                if f_best[p] > f_a[p]:
                    f_a[p] = f_best[p]
            else:
                if value < f_best[p]:
                    f_best[p] = value
                    f_bestmove[p] = card
                if f_best[p] < f_b[p]:
                    f_b[p] = f_best[p]
            if f_a[p] >= f_b[p]:
                f_idx[p] = f_count[p]
                if f_n[p] == 0:
                    history[seat, card] += f_left[p] * f_left[p]
        if f_idx[p] < f_count[p]:
            card = f_moves[p * 8 + f_idx[p]]
            f_idx[p] += 1
            n = f_n[p]
            seat = f_seat[p]
            hands[seat] = f_hand[p] & ~(1 << card)
            trick[n] = card
            f_done[p] = 0
            if n < 3:
                f_mine[p] = 0
                f_n[p + 1] = n + 1
                f_leader[p + 1] = f_leader[p]
                f_won[p + 1] = f_won[p]
                f_left[p + 1] = f_left[p]
                f_a[p + 1] = f_a[p]
                f_b[p + 1] = f_b[p]
                p += 1
                entering = True
                continue
            c0 = trick[0]
            c1 = trick[1]
            c2 = trick[2]
            w = (f_leader[p] + _winner4(c0, c1, c2, card, trump)) & 3
            value = _points4(c0, c1, c2, card, trump)
            left = f_left[p] - 1
            if left == 0:
                value += last_bonus
            new_won = f_won[p] | (1 << (w & 1))
            mine = value if w & 1 == 0 else 0
            if left == 0:
                if new_won == 1:
                    mine += capot_bonus
                f_mine[p] = 0
                ret = mine
                returning = True
                continue
            for i in range(4):
                f_saved[p, i] = trick[i]
            f_done[p] = 1
            f_mine[p] = mine
            f_n[p + 1] = 0
            f_leader[p + 1] = w
            f_won[p + 1] = new_won
            f_left[p + 1] = left
            f_a[p + 1] = f_a[p] - mine
            f_b[p + 1] = f_b[p] - mine
            p += 1
            entering = True
            continue
        # every move tried: store and return this node's value
        ret = f_best[p]
        if f_n[p] == 0:
            _tt_store(tt, f_slot[p], f_key[p], ret, f_a0[p], f_b0[p], f_bestmove[p])
        if p == 0:
            return ret
        p -= 1
        returning = True


@njit(cache=True, error_model="numpy")
def _value_after(card: int, hands: np.ndarray, trick: np.ndarray, n: int, leader: int,
                 trump: int, flags: int, last_bonus: int, capot_bonus: int, won: int,
                 tricks_left: int, alpha: int, beta: int, tt: np.ndarray,
                 stats: np.ndarray, gen: int) -> int:
    """Fail-soft value of the position after the player to move plays ``card``."""
    seat = (leader + n) & 3
    hand = hands[seat]
    saved = trick.copy()
    hands[seat] = hand & ~(1 << card)
    trick[n] = card
    if n < 3:
        value = _search(hands, trick, n + 1, leader, trump, flags, last_bonus, capot_bonus,
                        won, tricks_left, alpha, beta, tt, stats, gen)
    else:
        w = (leader + trick_winner(trick, 4, trump)) & 3
        value = _trick_value(trick, trump)
        left = tricks_left - 1
        if left == 0:
            value += last_bonus
        new_won = won | (1 << (w & 1))
        mine = value if w & 1 == 0 else 0
        if left == 0:
            value = mine + (capot_bonus if new_won == 1 else 0)
        else:
            value = mine + _search(hands, trick, 0, w, trump, flags, last_bonus, capot_bonus,
                                   new_won, left, alpha - mine, beta - mine, tt, stats, gen)
    for i in range(4):
        trick[i] = saved[i]
    hands[seat] = hand
    return value


@njit(cache=True, error_model="numpy")
def _mtd_streak(streak: int, up: bool) -> int:
    """MTD(f) passes that moved the same way in a row: > 0 up (fail high), < 0 down."""
    if up:
        return streak + 1 if streak > 0 else 1
    return streak - 1 if streak < 0 else -1


@njit(cache=True, error_model="numpy")
def _mtd_step(streak: int) -> int:
    """How far past the bound just found the next null window goes.  Fail-soft bounds here
    move by a point or two per pass (points are fine-grained), so plain MTD(f) creeps:
    after two passes the same way, step 2, 4, 8... (about 15% fewer nodes than steps of 1;
    overshooting only costs a pass back)."""
    k = streak if streak > 0 else -streak
    return 1 if k <= 1 else 1 << (k - 1)


@njit(cache=True, error_model="numpy")
def solve_root(hands: np.ndarray, trick: np.ndarray, n: int, leader: int, trump: int,
               flags: int, last_bonus: int, capot_bonus: int, won: int, tricks_left: int,
               tt: np.ndarray, out_cards: np.ndarray, out_values: np.ndarray,
               stats: np.ndarray, gen: int) -> int:
    """Exact value of every legal card of the player to move (team 0's points from the
    cards on the table and in hand, with perfect play).  Returns the number of cards.

    Each card's value is found by MTD(f): null-window searches converging on it, starting
    from the previous card's value; the transposition table carries the bounds across.

    ``stats``: nodes, root passes, node limit (0: none), aborted.  Once the node count
    reaches the limit the search stops, sets ``stats[3]`` and returns the number of cards
    solved before it (their values are exact; ``hands`` and ``trick`` are then scratch)."""
    seat = (leader + n) & 3
    legal = legal_mask(hands[seat], trick, n, trump, flags)
    rep = np.full(32, -1, dtype=np.int64)
    others = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hands[seat]
    for i in range(n):
        others |= 1 << trick[i]
    _representatives(legal, others, trump, rep)
    solved = np.full(32, -1, dtype=np.int64)
    count = 0
    guess = 81
    max_value = capot_bonus + last_bonus
    for s in range(4):
        h = hands[s]
        while h:
            c = lowest_card(h)
            max_value += K_POINTS[trump, c]
            h &= h - 1
    for i in range(n):
        max_value += K_POINTS[trump, trick[i]]
    for card in range(32):
        if not (legal >> card) & 1:
            continue
        if solved[rep[card]] >= 0:  # an equivalent card was solved already
            out_values[count] = solved[rep[card]]
            out_cards[count] = card
            count += 1
            continue
        lo = 0
        hi = max_value
        beta = guess
        streak = 0
        while lo < hi:
            beta = min(max(beta, lo + 1), hi)
            g = _value_after(card, hands, trick, n, leader, trump, flags, last_bonus,
                             capot_bonus, won, tricks_left, beta - 1, beta, tt, stats, gen)
            if stats[3]:
                return count  # node limit reached: the cards solved so far
            stats[1] += 1
            streak = _mtd_streak(streak, g >= beta)
            if g >= beta:
                lo = g
                beta = lo + _mtd_step(streak)
            else:
                hi = g
                beta = hi + 1 - _mtd_step(streak)
        g = lo
        out_values[count] = g
        out_cards[count] = card
        solved[rep[card]] = g
        guess = g
        count += 1
    return count


@njit(cache=True, error_model="numpy")
def solve_value(hands: np.ndarray, leader: int, trump: int, flags: int, last_bonus: int,
                capot_bonus: int, won: int, tricks_left: int, guess: int,
                tt: np.ndarray, stats: np.ndarray, gen: int, tolerance: int = 0) -> int:
    """Exact value of a position at a trick's start (team 0's points from the cards in
    hand), by MTD(f) from ``guess``: cheaper than scoring every card.  -1 (and
    ``stats[3]`` set) if the node limit in ``stats[2]`` was reached first.  With
    ``tolerance`` > 0 the passes stop once the value is known within that many points and
    the middle of the bounds is returned (bidding needs no exact points)."""
    trick = np.zeros(4, dtype=np.int64)
    lo = 0
    hi = INF
    beta = guess
    streak = 0
    while hi - lo > tolerance:
        beta = min(max(beta, lo + 1), hi)
        g = _search(hands, trick, 0, leader, trump, flags, last_bonus, capot_bonus, won,
                    tricks_left, beta - 1, beta, tt, stats, gen)
        if stats[3]:
            return -1  # node limit reached: no value
        streak = _mtd_streak(streak, g >= beta)
        if g >= beta:
            lo = g
            beta = lo + _mtd_step(streak)
        else:
            hi = g
            beta = hi + 1 - _mtd_step(streak)
    return lo if hi >= INF else (lo + hi) // 2


# ----------------------------------------------------------------------------- batched games
# Many whole matches stepped together for self-play (belote.rl.batch wraps these; the pure-
# Python twin is belote.engine.state.Game, compared in tests/test_rl_batch.py).  Scope: the
# auction without pass words or support calls (coinche, colver's rules), all cards dealt
# before the bidding, belote, no declarations; belote.rl.batch refuses other rules.
#
# Speed: every _bg_* helper that takes an array is inlined (inline="always") and the loops
# over the games (batch_step, batch_check, batch_masks, batch_random_actions and
# batch_rollouts below) are compiled without numba's runtime (_nrt=False): numba otherwise
# counts the references of each array passed to a helper, an atomic increment and decrement
# per call, which was more than half of a step's time (perf, issue 23).  So no _bg_* helper
# may allocate (an _nrt=False kernel cannot; numba refuses to compile it).
#
# One int64 row per game, fields named below.  Action ids are the engine's
# (belote.engine.actions): cards 0..31, card + belote 32..63, pass 64, announce 72,
# contro 76, surcontro 77, contracts 100 + 4 * level index + suit.
BG_PHASE = 0  # 1 bidding, 2 playing (a finished hand is dealt anew within the step)
BG_DEALER = 1
BG_TO_ACT = 2
BG_DEAL_NO = 3
BG_HANDS = 4  # 4 fields: cards held, by seat
BG_PLAYED = 8  # 4 fields: cards each seat has played this hand
BG_LAST_BID = 12  # 4 fields: each seat's last bid this hand, -1 none
BG_LEVEL = 16  # standing contract: level index (-1 none), suit, bidder
BG_SUIT = 17
BG_BIDDER = 18
BG_DOUBLED = 19  # 0, 1 contro, 2 surcontro
BG_PASSES = 20
BG_LAST_CALLER = 21
BG_TAKER = 22  # the contract once the auction is closed
BG_TRUMP = 23
BG_MULT = 24
BG_CAPOT = 25
BG_TRICK = 26  # 4 fields: the cards of the trick in play, leader first
BG_TRICK_N = 30
BG_LEADER = 31
BG_TRICK_NO = 32
BG_POINTS = 33  # 2 fields: card points by team (last trick bonus included)
BG_TRICKS = 35  # 2 fields: tricks won by team
BG_CLAIM_SEAT = 37  # the belote holder (-1 none) and the claim's stage (as Game's)
BG_CLAIM_STAGE = 38
BG_SAID = 39  # 4 fields: bit 0 belote said, bit 1 rebelote said, by seat
BG_BELOTE = 43  # 2 fields: belote points by team
BG_TOTALS = 45  # 2 fields: match totals by team
BG_POT = 47  # points at stake after a tie, and whose
BG_POT_TEAM = 48
BG_RNG = 49  # the game's 48-bit generator (decks)
BG_FIELDS = 50

# Rule parameters, one int64 vector (belote.rl.batch.rule_params builds it).
BR_FLAGS = 0  # card-play obligations (FLAG_BITS)
BR_LEVELS = 1  # number of contract levels
BR_CAPOT_LEVEL = 2
BR_CONTRO = 3
BR_SURCONTRO = 4
BR_BELOTE = 5  # belote enabled
BR_BELOTE_POINTS = 6
BR_KING_FIRST = 7
BR_WINDOW_TRICK = 8  # 1: windows close at the trick's end; 0: at the next card
BR_BELOTE_COUNTS = 9
BR_LAST_BONUS = 10
BR_CAPOT_BONUS = 11
BR_MUST_BEAT = 12
BR_MADE_ADDS = 13
BR_FAILED_POINTS = 14  # -1: every card point of the hand
BR_FAILED_ADDS = 15
BR_FAILED_TAKE_ALL = 16
BR_FAILED_KEEP_BELOTE = 17
BR_TARGET = 18
BR_TARGET_STRICT = 19
BR_PACKETS = 20  # 3 fields: packet sizes, 0 past the last
BR_LEVEL0 = 23  # the levels' points follow
BR_SIZE = 23 + 80

_CLAIM_UNPLAYED, _CLAIM_FIRST_OPEN, _CLAIM_SAID, _CLAIM_SECOND_OPEN = 0, 1, 2, 3
_CLAIM_COMPLETE, _CLAIM_VOID = 4, 5


@njit(cache=True, error_model="numpy", inline="always")
def _bg_random(st: np.ndarray, g: int) -> int:
    x = (int(st[g, BG_RNG]) * 25214903917 + 11) & _LCG_MASK
    st[g, BG_RNG] = x
    return x >> 16


@njit(cache=True, error_model="numpy", inline="always")
def _bg_deal(st: np.ndarray, decks: np.ndarray, g: int, rp: np.ndarray) -> None:
    """Shuffle a deck, deal it as Game._deal does (packets from the dealer's left) and open
    the auction."""
    for i in range(32):
        decks[g, i] = i
    for i in range(31, 0, -1):
        j = _bg_random(st, g) % (i + 1)
        decks[g, i], decks[g, j] = decks[g, j], decks[g, i]
    for f in range(BG_HANDS, BG_TOTALS):  # the hand's fields; totals, pot, generator stay
        st[g, f] = 0
    for s in range(4):
        st[g, BG_LAST_BID + s] = -1
    st[g, BG_LEVEL] = -1
    st[g, BG_SUIT] = -1
    st[g, BG_BIDDER] = -1
    st[g, BG_LAST_CALLER] = -1
    st[g, BG_TAKER] = -1
    st[g, BG_TRUMP] = -1
    st[g, BG_CLAIM_SEAT] = -1
    dealer = st[g, BG_DEALER]
    pos = 0
    for k in range(3):
        packet = rp[BR_PACKETS + k]
        for i in range(4):
            seat = (dealer + 1 + i) & 3
            for _ in range(packet):
                st[g, BG_HANDS + seat] |= 1 << decks[g, pos]
                pos += 1
    st[g, BG_PHASE] = 1
    st[g, BG_TO_ACT] = (dealer + 1) & 3


@njit(cache=True, error_model="numpy", inline="always")
def _bg_new_match(st: np.ndarray, g: int) -> None:
    st[g, BG_DEALER] = 0
    st[g, BG_DEAL_NO] = 0
    st[g, BG_TOTALS] = 0
    st[g, BG_TOTALS + 1] = 0
    st[g, BG_POT] = 0
    st[g, BG_POT_TEAM] = -1


@njit(cache=True, error_model="numpy", inline="always")
def _bg_bid_count(st: np.ndarray, g: int, rp: np.ndarray) -> int:
    """How many bids the player to move may make (the auction's legality, one home: the
    order of :func:`_bg_kth_bid`)."""
    seat = st[g, BG_TO_ACT]
    bidder = st[g, BG_BIDDER]
    ours = bidder >= 0 and (bidder & 1) == (seat & 1)
    doubled = st[g, BG_DOUBLED]
    if doubled == 0:
        contro = 1 if bidder >= 0 and not ours else 0
        return 1 + contro + 4 * (rp[BR_LEVELS] - st[g, BG_LEVEL] - 1)
    if doubled == 1 and ours:
        return 2
    return 1


@njit(cache=True, error_model="numpy", inline="always")
def _bg_kth_bid(st: np.ndarray, g: int, k: int) -> int:
    """The ``k``-th legal bid (``k < _bg_bid_count``), in sorted order: pass, contro,
    surcontro, then the contracts above the standing one, level by level, suit by suit."""
    if k == 0:
        return 64
    if st[g, BG_DOUBLED] == 1:
        return 77
    bidder = st[g, BG_BIDDER]
    if bidder >= 0 and (bidder & 1) != (st[g, BG_TO_ACT] & 1):
        if k == 1:
            return 76
        k -= 1
    return 100 + 4 * (st[g, BG_LEVEL] + 1) + k - 1


@njit(cache=True, error_model="numpy", inline="always")
def _bg_card_mask(st: np.ndarray, g: int, rp: np.ndarray) -> int:
    """The cards the player to move may play (Game's legal_plays), as a mask."""
    seat = st[g, BG_TO_ACT]
    n = st[g, BG_TRICK_N]
    hand = st[g, BG_HANDS + seat]
    if n == 0:
        return hand
    trump = st[g, BG_TRUMP]
    w = 0
    led = st[g, BG_TRICK] >> 3
    for i in range(1, n):
        if K_WIN[trump, led, st[g, BG_TRICK + i]] > K_WIN[trump, led, st[g, BG_TRICK + w]]:
            w = i
    return _legal(hand, st[g, BG_TRICK], st[g, BG_TRICK + w], n, w, trump, rp[BR_FLAGS])


@njit(cache=True, error_model="numpy", inline="always")
def _bg_may_say(stage: int, card: int, trump: int, king_first: int) -> bool:
    """Whether the belote holder may announce with ``card`` at claim stage ``stage``."""
    rank = card & 7
    if card >> 3 != trump or (rank != 5 and rank != 6):
        return False
    return stage == _CLAIM_SAID or (stage == _CLAIM_UNPLAYED and not (king_first and rank == 5))


@njit(cache=True, error_model="numpy", inline="always")
def _bg_legal(st: np.ndarray, g: int, rp: np.ndarray, legal: np.ndarray,
              n_legal: np.ndarray) -> None:
    """The sorted legal actions of the player to move (Game.legal_actions())."""
    if st[g, BG_PHASE] == 1:
        count = _bg_bid_count(st, g, rp)
        for k in range(count):
            legal[g, k] = _bg_kth_bid(st, g, k)
        n_legal[g] = count
        return
    seat = st[g, BG_TO_ACT]
    trump = st[g, BG_TRUMP]
    mask = _bg_card_mask(st, g, rp)
    k = 0
    m = mask
    while m:
        legal[g, k] = lowest_card(m)
        m &= m - 1
        k += 1
    holder = st[g, BG_CLAIM_SEAT]
    if holder == seat:
        stage = st[g, BG_CLAIM_STAGE]
        m = mask
        while m:
            c = lowest_card(m)
            m &= m - 1
            if _bg_may_say(stage, c, trump, rp[BR_KING_FIRST]):
                legal[g, k] = 32 + c
                k += 1
        if stage in (_CLAIM_FIRST_OPEN, _CLAIM_SECOND_OPEN):
            legal[g, k] = 72
            k += 1
    n_legal[g] = k


@njit(cache=True, error_model="numpy", inline="always")
def _bg_close_windows(st: np.ndarray, g: int) -> None:
    stage = st[g, BG_CLAIM_STAGE]
    if st[g, BG_CLAIM_SEAT] >= 0 and stage in (_CLAIM_FIRST_OPEN, _CLAIM_SECOND_OPEN):
        st[g, BG_CLAIM_STAGE] = _CLAIM_VOID


@njit(cache=True, error_model="numpy", inline="always")
def _bg_say(st: np.ndarray, g: int, rp: np.ndarray) -> None:
    seat = st[g, BG_CLAIM_SEAT]
    if st[g, BG_CLAIM_STAGE] == _CLAIM_FIRST_OPEN:
        st[g, BG_CLAIM_STAGE] = _CLAIM_SAID
        st[g, BG_SAID + seat] |= 1
    else:
        st[g, BG_CLAIM_STAGE] = _CLAIM_COMPLETE
        st[g, BG_SAID + seat] |= 2
        st[g, BG_BELOTE + (seat & 1)] += rp[BR_BELOTE_POINTS]


@njit(cache=True, error_model="numpy", inline="always")
def _bg_bid(st: np.ndarray, g: int, seat: int, action: int, rp: np.ndarray) -> int:
    """Game._bid with the auction: 0 goes on, 1 all passed, 2 the contract is set."""
    st[g, BG_LAST_BID + seat] = action
    st[g, BG_TO_ACT] = (seat + 1) & 3
    if action == 64:
        st[g, BG_PASSES] += 1
        if st[g, BG_BIDDER] < 0:
            return 1 if st[g, BG_PASSES] >= 4 else 0
        if st[g, BG_PASSES] < 3:
            return 0
    else:
        st[g, BG_PASSES] = 0
        st[g, BG_LAST_CALLER] = seat
        if action == 76:
            st[g, BG_DOUBLED] = 1
            return 0
        if action == 77:
            st[g, BG_DOUBLED] = 2
        else:
            st[g, BG_LEVEL] = (action - 100) >> 2
            st[g, BG_SUIT] = (action - 100) & 3
            st[g, BG_BIDDER] = seat
            return 0
    # the auction closes: the contract, the belote claim, the first lead
    taker = st[g, BG_BIDDER]
    trump = st[g, BG_SUIT]
    doubled = st[g, BG_DOUBLED]
    st[g, BG_TAKER] = taker
    st[g, BG_TRUMP] = trump
    st[g, BG_MULT] = 1 if doubled == 0 else (rp[BR_CONTRO] if doubled == 1
                                             else rp[BR_SURCONTRO])
    level = rp[BR_LEVEL0 + st[g, BG_LEVEL]]
    st[g, BG_CAPOT] = 1 if rp[BR_CAPOT_LEVEL] != 0 and level == rp[BR_CAPOT_LEVEL] else 0
    if rp[BR_BELOTE]:
        pair = (1 << (trump * 8 + 6)) | (1 << (trump * 8 + 5))
        for s in range(4):
            if st[g, BG_HANDS + s] & pair == pair:
                st[g, BG_CLAIM_SEAT] = s
                st[g, BG_CLAIM_STAGE] = _CLAIM_UNPLAYED
    st[g, BG_PHASE] = 2
    lead = (st[g, BG_DEALER] + 1) & 3
    st[g, BG_LEADER] = lead
    st[g, BG_TO_ACT] = lead
    return 2


@njit(cache=True, error_model="numpy", inline="always")
def _bg_score(st: np.ndarray, g: int, rp: np.ndarray, out: np.ndarray) -> int:
    """engine.scoring.score_hand for the supported flags; adds to the totals, writes the
    hand's scores to ``out[g]``; the winning team of the match, or -1."""
    tt = st[g, BG_TAKER] & 1
    dt = 1 - tt
    level = rp[BR_LEVEL0 + st[g, BG_LEVEL]]
    mult = st[g, BG_MULT]
    p0 = st[g, BG_POINTS]
    p1 = st[g, BG_POINTS + 1]
    if st[g, BG_TRICKS] == 8:
        p0 += rp[BR_CAPOT_BONUS]
    elif st[g, BG_TRICKS + 1] == 8:
        p1 += rp[BR_CAPOT_BONUS]
    b0 = st[g, BG_BELOTE]
    b1 = st[g, BG_BELOTE + 1]
    c0 = p0 + (b0 if rp[BR_BELOTE_COUNTS] else 0)
    c1 = p1 + (b1 if rp[BR_BELOTE_COUNTS] else 0)
    takers = c0 if tt == 0 else c1
    defenders = c1 if tt == 0 else c0
    # 0 made, 1 failed, 2 litige
    if st[g, BG_CAPOT]:
        outcome = 0 if st[g, BG_TRICKS + tt] == 8 else 1
    elif takers == defenders and takers >= level:
        outcome = 2
    elif takers >= level and (takers > defenders or not rp[BR_MUST_BEAT]):
        outcome = 0
    else:
        outcome = 1
    own0 = p0 + b0
    own1 = p1 + b1
    s = out[g]  # the hand's scores by team, written in place (no allocation: see rollouts)
    s[0] = 0
    s[1] = 0
    belote_tt = b0 if tt == 0 else b1
    belote_dt = b1 if tt == 0 else b0
    new_pot = 0
    if outcome == 0:
        s[0] = own0
        s[1] = own1
        if rp[BR_MADE_ADDS]:
            s[tt] += level * mult
    elif outcome == 1:
        base = rp[BR_FAILED_POINTS]
        if base < 0:  # every card point of the hand, the capot bonus included
            base = p0 + p1
        s[dt] = base + belote_dt
        if rp[BR_FAILED_TAKE_ALL]:
            s[dt] += belote_tt
        elif rp[BR_FAILED_KEEP_BELOTE]:
            s[tt] = belote_tt
        if rp[BR_FAILED_ADDS]:
            s[dt] += level * mult
    else:
        s[dt] = own1 if dt == 1 else own0
        s[tt] = belote_tt
        new_pot = p0 if tt == 0 else p1
    pot = st[g, BG_POT]
    if pot:
        if outcome != 2:
            s[tt if outcome == 0 else dt] += pot
        else:
            new_pot += pot
    st[g, BG_POT] = new_pot
    st[g, BG_POT_TEAM] = tt if outcome == 2 else -1
    t0 = st[g, BG_TOTALS] + s[0]
    t1 = st[g, BG_TOTALS + 1] + s[1]
    st[g, BG_TOTALS] = t0
    st[g, BG_TOTALS + 1] = t1
    st[g, BG_DEAL_NO] += 1
    st[g, BG_DEALER] = (st[g, BG_DEALER] + 1) & 3
    target = rp[BR_TARGET]
    strict = rp[BR_TARGET_STRICT]
    reached = (t0 > target or t1 > target) if strict else (t0 >= target or t1 >= target)
    if not reached or t0 == t1:
        return -1
    return 0 if t0 > t1 else 1


@njit(cache=True, error_model="numpy", inline="always")
def _bg_play(st: np.ndarray, g: int, seat: int, action: int, rp: np.ndarray,
             out: np.ndarray) -> int:
    """Game._play (and the trick's end): -2 goes on, -1 hand over, 0/1 the match's
    winner."""
    if action == 72:
        _bg_say(st, g, rp)
        return -2
    card = action & 31
    holder = st[g, BG_CLAIM_SEAT]
    if holder >= 0 and not rp[BR_WINDOW_TRICK]:
        _bg_close_windows(st, g)
    st[g, BG_HANDS + seat] &= ~(1 << card)
    st[g, BG_PLAYED + seat] |= 1 << card
    n = st[g, BG_TRICK_N]
    st[g, BG_TRICK + n] = card
    n += 1
    st[g, BG_TRICK_N] = n
    rank = card & 7
    if holder == seat and card >> 3 == st[g, BG_TRUMP] and (rank == 5 or rank == 6):
        stage = st[g, BG_CLAIM_STAGE]
        if stage == _CLAIM_UNPLAYED:
            if rp[BR_KING_FIRST] and rank == 5:
                st[g, BG_CLAIM_STAGE] = _CLAIM_VOID
            else:
                st[g, BG_CLAIM_STAGE] = _CLAIM_FIRST_OPEN
        elif stage == _CLAIM_SAID:
            st[g, BG_CLAIM_STAGE] = _CLAIM_SECOND_OPEN
        if action >= 32:
            _bg_say(st, g, rp)
    if n < 4:
        st[g, BG_TO_ACT] = (seat + 1) & 3
        return -2
    trump = st[g, BG_TRUMP]
    c0 = st[g, BG_TRICK]
    c1 = st[g, BG_TRICK + 1]
    c2 = st[g, BG_TRICK + 2]
    c3 = st[g, BG_TRICK + 3]
    winner = (st[g, BG_LEADER] + _winner4(c0, c1, c2, c3, trump)) & 3
    value = _points4(c0, c1, c2, c3, trump)
    trick_no = st[g, BG_TRICK_NO]
    if trick_no == 7:
        value += rp[BR_LAST_BONUS]
    st[g, BG_POINTS + (winner & 1)] += value
    st[g, BG_TRICKS + (winner & 1)] += 1
    if holder >= 0 and (rp[BR_WINDOW_TRICK] or trick_no == 7):
        _bg_close_windows(st, g)
    st[g, BG_TRICK_N] = 0
    st[g, BG_TRICK_NO] = trick_no + 1
    st[g, BG_LEADER] = winner
    st[g, BG_TO_ACT] = winner
    if trick_no < 7:
        return -2
    return _bg_score(st, g, rp, out)


@njit(cache=True, error_model="numpy", _nrt=False)
def batch_check(actions: np.ndarray, legal: np.ndarray, n_legal: np.ndarray) -> int:
    """The first game whose action is not among its legal ones, or -1."""
    for g in range(actions.shape[0]):
        a = actions[g]
        ok = False
        for k in range(n_legal[g]):
            if legal[g, k] == a:
                ok = True
                break
        if not ok:
            return g
    return -1


@njit(cache=True, error_model="numpy")
def batch_reset(st: np.ndarray, decks: np.ndarray, rp: np.ndarray, seed: int,
                legal: np.ndarray, n_legal: np.ndarray) -> None:
    """A new match in every game, the first hand dealt."""
    for g in range(st.shape[0]):
        st[g, BG_RNG] = ((seed * 2654435761 + g * 40503 + 88172645) ^ (g << 20)) & _LCG_MASK
        _bg_new_match(st, g)
        _bg_deal(st, decks, g, rp)
        _bg_legal(st, g, rp, legal, n_legal)


@njit(cache=True, error_model="numpy", _nrt=False)
def batch_step(st: np.ndarray, decks: np.ndarray, actions: np.ndarray, rp: np.ndarray,
               legal: np.ndarray, n_legal: np.ndarray, scores: np.ndarray,
               ended: np.ndarray) -> int:
    """Apply one (checked) action per game.  ``ended[g]``: 0 going on, 1 all passed (dealt
    anew), 2 hand played and scored (``scores[g]``), 3 and 4 the match won by team 0 or 1
    (a new match is dealt).  Returns the number of hands played to the end."""
    done = 0
    for g in range(st.shape[0]):
        seat = st[g, BG_TO_ACT]
        a = actions[g]
        ended[g] = 0
        if st[g, BG_PHASE] == 1:
            r = _bg_bid(st, g, seat, a, rp)
            if r == 1:
                ended[g] = 1
                st[g, BG_DEALER] = (st[g, BG_DEALER] + 1) & 3
                st[g, BG_DEAL_NO] += 1
                _bg_deal(st, decks, g, rp)
        else:
            r = _bg_play(st, g, seat, a, rp, scores)
            if r != -2:
                done += 1
                ended[g] = 2 if r == -1 else 3 + r
                if r >= 0:
                    _bg_new_match(st, g)
                _bg_deal(st, decks, g, rp)
        _bg_legal(st, g, rp, legal, n_legal)
    return done


@njit(cache=True, error_model="numpy", _nrt=False)
def batch_masks(legal: np.ndarray, n_legal: np.ndarray, mask: np.ndarray) -> None:
    """``mask[g, a]`` = 1 for each legal action of game ``g``, else 0."""
    for g in range(mask.shape[0]):
        mask[g, :] = 0
        for k in range(n_legal[g]):
            mask[g, legal[g, k]] = 1


@njit(cache=True, error_model="numpy", _nrt=False)
def batch_random_actions(legal: np.ndarray, n_legal: np.ndarray, rng: np.ndarray,
                         out: np.ndarray) -> None:
    """A uniformly drawn legal action per game (the 48-bit generator in ``rng[0]``)."""
    for g in range(out.shape[0]):
        out[g] = legal[g, _next_random(rng) % n_legal[g]]


@njit(cache=True, error_model="numpy")
def _bg_bid_features(action: int, levels: int, base: int, row: np.ndarray) -> None:
    if action == 64:
        row[base] = 1.0
    elif action == 76:
        row[base + 11] = 1.0
    elif action == 77:
        row[base + 12] = 1.0
    elif action >= 100:
        row[base + 13 + ((action - 100) & 3)] = 1.0
        row[base + 17] = (((action - 100) >> 2) + 1) / levels


@njit(cache=True, error_model="numpy")
def batch_observations(st: np.ndarray, rp: np.ndarray, off: np.ndarray,
                       out: np.ndarray) -> None:
    """Each game's observation tensor for the player to move, as
    belote.rl.tensors.observation_tensor lays it out (offsets of its parts in ``off``:
    phase, dealer, to_act, hand, trump, taker, contract, hand_sizes, current_trick,
    played_by, belote_said, last_bid, scores)."""
    levels = rp[BR_LEVELS]
    target = max(rp[BR_TARGET], 1)
    for g in range(st.shape[0]):
        row = out[g]
        row[:] = 0.0
        v = st[g, BG_TO_ACT]
        row[off[0] + st[g, BG_PHASE]] = 1.0
        row[off[1] + ((st[g, BG_DEALER] - v) & 3)] = 1.0
        row[off[2]] = 1.0
        m = st[g, BG_HANDS + v]
        while m:
            row[off[3] + lowest_card(m)] = 1.0
            m &= m - 1
        if st[g, BG_PHASE] == 2:
            row[off[4] + st[g, BG_TRUMP]] = 1.0
            row[off[5] + ((st[g, BG_TAKER] - v) & 3)] = 1.0
            row[off[6]] = (st[g, BG_LEVEL] + 1) / levels
            mult = st[g, BG_MULT]
            slot = 0
            if mult != 1 and mult == rp[BR_CONTRO]:
                slot = 1
            elif mult != 1 and mult == rp[BR_SURCONTRO]:
                slot = 2
            row[off[6] + 1 + slot] = 1.0
            if st[g, BG_CAPOT]:
                row[off[6] + 4] = 1.0
        leader = st[g, BG_LEADER]
        for i in range(st[g, BG_TRICK_N]):
            row[off[8] + ((leader + i - v) & 3) * 32 + st[g, BG_TRICK + i]] = 1.0
        for rel in range(4):
            s = (v + rel) & 3
            row[off[7] + rel] = popcount(st[g, BG_HANDS + s]) / 8
            m = st[g, BG_PLAYED + s]
            while m:
                row[off[9] + rel * 32 + lowest_card(m)] = 1.0
                m &= m - 1
            said = st[g, BG_SAID + s]
            if said & 1:
                row[off[10] + rel * 2] = 1.0
            if said & 2:
                row[off[10] + rel * 2 + 1] = 1.0
            if st[g, BG_LAST_BID + s] >= 0:
                _bg_bid_features(st[g, BG_LAST_BID + s], levels, off[11] + rel * 18, row)
        mine = v & 1
        theirs = 1 - mine
        sc = off[12]
        row[sc] = st[g, BG_POINTS + mine] / 162
        row[sc + 1] = st[g, BG_POINTS + theirs] / 162
        row[sc + 2] = st[g, BG_TRICKS + mine] / 8
        row[sc + 3] = st[g, BG_TRICKS + theirs] / 8
        row[sc + 6] = st[g, BG_TOTALS + mine] / target
        row[sc + 7] = st[g, BG_TOTALS + theirs] / target
        row[sc + 8] = st[g, BG_POT] / target


# ------------------------------------------------------------- one game, one call per step
# belote.rl.compiled.CompiledGame: the batched game above with one match, its arrays packed
# so that a step crosses from Python into compiled code once, with four arguments (numba's
# dispatch costs per argument, and at a few microseconds a step that is most of the step).
# Each part is a C-contiguous slice of the same types as the batch's, so the batch's compiled
# helpers serve as they are.  S (5, 1, width) int64: S[0] the BG_* fields, S[1] the deck,
# S[2] the sorted legal actions, S[3, 0] the SG_* counters, S[4] the last scored hand's
# points by team.  P (2, BR_SIZE) int64: P[0] the rules (BR_*), P[1] the offsets of the
# observation's parts (as batch_observations reads them).
SG_N_LEGAL = 0  # S[3, 0, SG_N_LEGAL]: how many legal actions
SG_ENDED = 1  # what the last step ended (the codes of batch_step's ``ended``)
SG_HANDS = 2  # hands played to the end since the reset
SG_ILLEGAL = -1  # single_step's answer to an action that is not legal (nothing moved)


@njit(cache=True, error_model="numpy")
def single_reset(S: np.ndarray, P: np.ndarray, seed: int, obs: np.ndarray) -> int:
    """A new match (dealer seat 0), its first hand dealt by the game's generator, seeded
    anew from ``seed`` (``seed < 0``: the generator goes on); fills ``obs`` with the first
    mover's observation; returns ``8 * number of legal actions``."""
    st = S[0]
    rng = st[0, BG_RNG]
    S[:] = 0
    st[0, BG_RNG] = rng if seed < 0 else (seed * 2654435761 + 88172645) & _LCG_MASK
    _bg_new_match(st, 0)
    _bg_deal(st, S[1], 0, P[0])
    _bg_legal(st, 0, P[0], S[2], S[3, 0])
    batch_observations(st, P[0], P[1], obs.reshape((1, obs.shape[0])))
    return 8 * S[3, 0, SG_N_LEGAL]


@njit(cache=True, error_model="numpy")
def single_step(S: np.ndarray, P: np.ndarray, obs: np.ndarray, action: int) -> int:
    """``batch_check`` then ``batch_step`` for one match, then ``batch_observations``:
    :data:`SG_ILLEGAL` (nothing moved) if ``action`` is not legal, else the action applied
    (a hand that ends is scored and the next one dealt), ``obs`` filled with the next
    mover's observation; returns ``ended + 8 * number of legal actions``."""
    st = S[0]
    counters = S[3, 0]
    rp = P[0]
    ok = False
    for k in range(counters[SG_N_LEGAL]):
        if S[2, 0, k] == action:
            ok = True
            break
    if not ok:
        return SG_ILLEGAL
    seat = st[0, BG_TO_ACT]
    ended = 0
    if st[0, BG_PHASE] == 1:
        if _bg_bid(st, 0, seat, action, rp) == 1:  # all passed: the next dealer deals anew
            ended = 1
            st[0, BG_DEALER] = (st[0, BG_DEALER] + 1) & 3
            st[0, BG_DEAL_NO] += 1
            _bg_deal(st, S[1], 0, rp)
    else:
        r = _bg_play(st, 0, seat, action, rp, S[4])
        if r != -2:
            counters[SG_HANDS] += 1
            ended = 2 if r == -1 else 3 + r
            if r >= 0:
                _bg_new_match(st, 0)
            _bg_deal(st, S[1], 0, rp)
    counters[SG_ENDED] = ended
    _bg_legal(st, 0, rp, S[2], counters)
    batch_observations(st, rp, P[1], obs.reshape((1, obs.shape[0])))
    return ended + 8 * counters[SG_N_LEGAL]


@njit(cache=True, error_model="numpy")
def single_observation(S: np.ndarray, P: np.ndarray, obs: np.ndarray) -> None:
    """Fill ``obs`` with the observation of the player to move."""
    batch_observations(S[0], P[0], P[1], obs.reshape((1, obs.shape[0])))


# ----------------------------------------------------------------------------- rollouts
# Uniformly random continuations of a batched game's hand, played inside one compiled loop:
# the twin of colver's ``Env.rollout`` (benchmarks/engine.py) and a value estimate for
# search.  The rules are the batch's own kernels (_bg_bid_count/_bg_kth_bid for the
# auction, _bg_card_mask for the card play, _bg_bid, _bg_play and _bg_score to apply and
# score): no rule is written twice.  What this path leaves out, and the step loop pays for:
# no sorted list of legal actions, no observation, no check of a caller's action, no
# Python between actions, no new deal (each rollout starts again from the same state),
# and no reference counting: batch_rollouts is compiled without numba's runtime (_nrt=False)
# and every helper it calls with an array is inlined (inline="always"), so passing ``st``
# or ``rp`` to a helper costs no atomic increment and decrement (they were more than half
# of a rollout's time, measured with perf); hence it allocates nothing (the caller passes
# its buffers) and the helpers must not allocate either.
#
# The policy: a bid drawn uniformly among the legal bids; a card drawn uniformly among the
# legal cards, the belote holder announcing with every card that may carry it (so each card
# counts once, as in colver's rollout, whose belote needs no word).


@njit(cache=True, error_model="numpy", inline="always")
def _draw(rng: np.ndarray, count: int) -> int:
    """A pseudo-random int in ``0 .. count - 1`` (``0 < count < 2**31``): the 48-bit LCG
    of _next_random, scaled by a multiply instead of a division."""
    x = (int(rng[0]) * 25214903917 + 11) & _LCG_MASK
    rng[0] = x
    return ((x >> 16) * count) >> 32


@njit(cache=True, error_model="numpy", inline="always")
def _draw_card(mask: int, rng: np.ndarray) -> int:
    """A card drawn uniformly from a non-empty mask."""
    for _ in range(_draw(rng, popcount(mask))):
        mask &= mask - 1
    return lowest_card(mask)


@njit(cache=True, error_model="numpy", inline="always")
def _rollout_hand(work: np.ndarray, rp: np.ndarray, rng: np.ndarray, scores: np.ndarray,
                  trace: np.ndarray, at: int) -> int:
    """Play ``work``'s hand (one BG_* row) to its end with the random policy above; the
    hand's scores in ``scores[0]`` (zeros if all passed).  Each action is written to
    ``trace[at]``, ``at + 1``, ... while there is room; returns the next free index, or
    ``-at - 1`` when the hand ended with all four passing."""
    king_first = rp[BR_KING_FIRST]
    cap = trace.shape[0]
    while True:
        seat = work[0, BG_TO_ACT]
        if work[0, BG_PHASE] == 1:
            action = _bg_kth_bid(work, 0, _draw(rng, _bg_bid_count(work, 0, rp)))
            if at < cap:
                trace[at] = action
            at += 1
            if _bg_bid(work, 0, seat, action, rp) == 1:
                scores[0, 0] = 0
                scores[0, 1] = 0
                return -at - 1
        else:
            card = _draw_card(_bg_card_mask(work, 0, rp), rng)
            action = card
            if work[0, BG_CLAIM_SEAT] == seat and _bg_may_say(
                    work[0, BG_CLAIM_STAGE], card, work[0, BG_TRUMP], king_first):
                action = 32 + card
            if at < cap:
                trace[at] = action
            at += 1
            if _bg_play(work, 0, seat, action, rp, scores) != -2:
                return at


@njit(cache=True, error_model="numpy", _nrt=False)
def batch_rollouts(st: np.ndarray, rp: np.ndarray, n: int, rng: np.ndarray, out: np.ndarray,
                   trace: np.ndarray, work: np.ndarray, scores: np.ndarray) -> int:
    """For each game ``g``: ``n`` random continuations of its hand from its state (``st`` is
    not changed), the hands' scores summed by team in ``out[g]`` (an all-pass hand scores 0
    and counts as a rollout, as in colver's ``Env.rollout``).  ``trace`` (may be empty):
    the actions of every rollout in order, each rollout followed by -1 (all passed: -2), as
    far as there is room.  ``work`` (1, st.shape[1]) and ``scores`` (1, 2): scratch (this
    kernel allocates nothing, see above).  Returns the number of rollouts whose hand was
    played to the end."""
    cap = trace.shape[0]
    fields = st.shape[1]
    at = 0
    played = 0
    for g in range(st.shape[0]):
        s0 = 0
        s1 = 0
        for _ in range(n):
            for f in range(fields):
                work[0, f] = st[g, f]
            at = _rollout_hand(work, rp, rng, scores, trace, at)
            end = -1
            if at < 0:
                at = -at - 1
                end = -2
            else:
                played += 1
                s0 += scores[0, 0]
                s1 += scores[0, 1]
            if at < cap:
                trace[at] = end
            at += 1
        out[g, 0] = s0
        out[g, 1] = s1
    return played


# ----------------------------------------------------------------------------- any seat count
# The exact solver for 2, 3 or 4 seats (valdostana3, valdostana2): the 4-seat code above is
# unrolled for tricks of four and team = seat & 1; this one reads the trick's length from
# ``n_players`` and each seat's line from ``sides`` (0: the line whose points are counted and
# maximised, 1: the others, one line against it: with three players the two defenders).
# Values: line 0's card points from the cards on the table and in hand, with ``last_bonus``
# (the caller adds the monte's points to it) for the last trick; no capot bonus.
MAX_PLY_N = 34  # 32 cards played one per ply, and the root
MAX_HAND_N = 16  # two players hold 16 cards


@njit(cache=True, error_model="numpy")
def _search_n(hands: np.ndarray, trick: np.ndarray, n0: int, leader0: int, n_players: int,
              trump: int, flags: int, sides: np.ndarray, last_bonus: int, left0: int,
              alpha0: int, beta0: int, tt: np.ndarray, stats: np.ndarray, gen: int) -> int:
    """Fail-soft alpha-beta for ``n_players`` seats, iterative like :func:`_search` (numba's
    cache does not reload recursive functions reliably), with the same transposition table
    layout, equivalent-card pruning (:func:`_kept`), move ordering (:func:`_score`) and node
    limit (``stats``).  Table keys: cards left, leader, ``gen`` (a new one per call)."""
    f_n = np.empty(MAX_PLY_N, dtype=np.int64)
    f_leader = np.empty(MAX_PLY_N, dtype=np.int64)
    f_left = np.empty(MAX_PLY_N, dtype=np.int64)
    f_a = np.empty(MAX_PLY_N, dtype=np.int64)
    f_b = np.empty(MAX_PLY_N, dtype=np.int64)
    f_a0 = np.empty(MAX_PLY_N, dtype=np.int64)
    f_b0 = np.empty(MAX_PLY_N, dtype=np.int64)
    f_best = np.empty(MAX_PLY_N, dtype=np.int64)
    f_bestmove = np.empty(MAX_PLY_N, dtype=np.int64)
    f_seat = np.empty(MAX_PLY_N, dtype=np.int64)
    f_hand = np.empty(MAX_PLY_N, dtype=np.int64)
    f_key = np.empty(MAX_PLY_N, dtype=np.int64)
    f_slot = np.empty(MAX_PLY_N, dtype=np.int64)
    f_mine = np.empty(MAX_PLY_N, dtype=np.int64)
    f_done = np.empty(MAX_PLY_N, dtype=np.int64)
    f_count = np.empty(MAX_PLY_N, dtype=np.int64)
    f_idx = np.empty(MAX_PLY_N, dtype=np.int64)
    f_moves = np.empty(MAX_PLY_N * MAX_HAND_N, dtype=np.int64)
    f_saved = np.empty((MAX_PLY_N, 4), dtype=np.int64)
    scratch = np.empty(MAX_HAND_N, dtype=np.int64)
    history = np.zeros((4, 32), dtype=np.int64)
    if n_players != 4:
        flags &= ~PARTNER_FREES  # nobody has a partner (obligations.legal_plays)

    p = 0
    f_n[0] = n0
    f_leader[0] = leader0
    f_left[0] = left0
    f_a[0] = alpha0
    f_b[0] = beta0
    entering = True
    returning = False
    ret = 0
    while True:
        if entering:
            entering = False
            stats[0] += 1
            if stats[0] >= stats[2] > 0:
                stats[3] = 1  # over the node limit: the callers return at once
                return 0
            n = f_n[p]
            leader = f_leader[p]
            first = -1
            hit = False
            rem = 0
            for s in range(n_players):
                rem |= hands[s]
            if n == 0 and f_left[p] == 1:
                # The last trick plays itself: one card each.
                c = lowest_card(hands[leader])
                led = c >> 3
                w = leader
                best_key = K_WIN[trump, led, c]
                total = K_POINTS[trump, c] + last_bonus
                for i in range(1, n_players):
                    s = (leader + i) % n_players
                    c = lowest_card(hands[s])
                    total += K_POINTS[trump, c]
                    k = K_WIN[trump, led, c]
                    if k > best_key:
                        best_key = k
                        w = s
                ret = total if sides[w] == 0 else 0
                hit = True
            if n == 0 and not hit:
                # Line 0 cannot take more than every point still in play.  The top trumps
                # still out, while one line holds them all, go to that line (each wins the
                # trick it falls in, or a higher one of the same line does).
                lb = 0
                lost = 0
                if trump < 4:
                    line0 = 0
                    for s in range(n_players):
                        if sides[s] == 0:
                            line0 |= hands[s]
                    owner = -1
                    for pos in range(8):
                        c = K_ORDER[trump, trump, pos]
                        bit = 1 << c
                        if rem & bit:
                            o = 0 if line0 & bit else 1
                            if owner < 0:
                                owner = o
                            elif o != owner:
                                break
                            if o == 0:
                                lb += K_POINTS[trump, c]
                            else:
                                lost += K_POINTS[trump, c]
                ub = last_bonus - lost
                for su in range(4):
                    ub += K_BYTE_POINTS[trump, su, (rem >> (8 * su)) & 255]
                if ub <= f_a[p]:
                    ret = ub
                    hit = True
                elif lb >= f_b[p]:
                    ret = lb
                    hit = True
            if n == 0 and not hit:
                key = rem | (leader << 32) | (1 << 40) | (gen << 41)
                slot = _tt_index(key)
                f_key[p] = key
                f_slot[p] = slot
                if tt[slot, 0] == key:
                    data = tt[slot, 1]
                    lo = data & TT_FIELD
                    hi = (data >> 20) & TT_FIELD
                    if lo >= f_b[p] or lo == hi:
                        ret = lo
                        hit = True
                    elif hi <= f_a[p]:
                        ret = hi
                        hit = True
                    else:
                        if lo > f_a[p]:
                            f_a[p] = lo
                        if hi < f_b[p]:
                            f_b[p] = hi
                        first = (data >> 40) - 1
            if hit:
                if p == 0:
                    return ret
                p -= 1
                returning = True
            else:
                f_a0[p] = f_a[p]
                f_b0[p] = f_b[p]
                seat = (leader + n) % n_players
                hand = hands[seat]
                f_seat[p] = seat
                f_hand[p] = hand
                led = 0
                best_key = 0
                partner_wins = False
                if n > 0:
                    lead_card = trick[0]
                    led = lead_card >> 3
                    w = 0
                    best_key = K_WIN[trump, led, lead_card]
                    for i in range(1, n):
                        k = K_WIN[trump, led, trick[i]]
                        if k > best_key:
                            w = i
                            best_key = k
                    legal = _legal(hand, lead_card, trick[w], n, w, trump, flags)
                    partner_wins = sides[(leader + w) % n_players] == sides[seat]
                else:
                    legal = hand
                base = p * MAX_HAND_N
                if legal & (legal - 1) == 0:
                    f_moves[base] = lowest_card(legal)
                    count = 1
                else:
                    others = rem & ~hand
                    for i in range(n):
                        others |= 1 << trick[i]
                    kept = _kept(legal, others, trump)
                    count = 0
                    while kept:  # insertion sort by score, best first
                        c = lowest_card(kept)
                        kept &= kept - 1
                        sc = _score(c, n, trump, led, best_key, partner_wins, first,
                                    history[seat, c] if n == 0 else 0)
                        j = count - 1
                        while j >= 0 and scratch[j] < sc:
                            f_moves[base + j + 1] = f_moves[base + j]
                            scratch[j + 1] = scratch[j]
                            j -= 1
                        f_moves[base + j + 1] = c
                        scratch[j + 1] = sc
                        count += 1
                f_count[p] = count
                f_idx[p] = 0
                f_best[p] = -INF if sides[seat] == 0 else INF
                f_bestmove[p] = -1
        if returning:
            returning = False
            value = f_mine[p] + ret
            seat = f_seat[p]
            hands[seat] = f_hand[p]
            if f_done[p]:
                for i in range(n_players):
                    trick[i] = f_saved[p, i]
            card = f_moves[p * MAX_HAND_N + f_idx[p] - 1]
            if sides[seat] == 0:
                if value > f_best[p]:
                    f_best[p] = value
                    f_bestmove[p] = card
                if f_best[p] > f_a[p]:
                    f_a[p] = f_best[p]
            else:
                if value < f_best[p]:
                    f_best[p] = value
                    f_bestmove[p] = card
                if f_best[p] < f_b[p]:
                    f_b[p] = f_best[p]
            if f_a[p] >= f_b[p]:
                f_idx[p] = f_count[p]
                if f_n[p] == 0:
                    history[seat, card] += f_left[p] * f_left[p]
        if f_idx[p] < f_count[p]:
            card = f_moves[p * MAX_HAND_N + f_idx[p]]
            f_idx[p] += 1
            n = f_n[p]
            seat = f_seat[p]
            hands[seat] = f_hand[p] & ~(1 << card)
            trick[n] = card
            f_done[p] = 0
            if n < n_players - 1:
                f_mine[p] = 0
                f_n[p + 1] = n + 1
                f_leader[p + 1] = f_leader[p]
                f_left[p + 1] = f_left[p]
                f_a[p + 1] = f_a[p]
                f_b[p + 1] = f_b[p]
                p += 1
                entering = True
                continue
            led = trick[0] >> 3
            w = 0
            best_key = K_WIN[trump, led, trick[0]]
            value = K_POINTS[trump, trick[0]]
            for i in range(1, n_players):
                value += K_POINTS[trump, trick[i]]
                k = K_WIN[trump, led, trick[i]]
                if k > best_key:
                    w = i
                    best_key = k
            w = (f_leader[p] + w) % n_players
            left = f_left[p] - 1
            if left == 0:
                value += last_bonus
            mine = value if sides[w] == 0 else 0
            if left == 0:
                f_mine[p] = 0
                ret = mine
                returning = True
                continue
            for i in range(n_players):
                f_saved[p, i] = trick[i]
            f_done[p] = 1
            f_mine[p] = mine
            f_n[p + 1] = 0
            f_leader[p + 1] = w
            f_left[p + 1] = left
            f_a[p + 1] = f_a[p] - mine
            f_b[p + 1] = f_b[p] - mine
            p += 1
            entering = True
            continue
        # every move tried: store and return this node's value
        ret = f_best[p]
        if f_n[p] == 0:
            _tt_store(tt, f_slot[p], f_key[p], ret, f_a0[p], f_b0[p], f_bestmove[p])
        if p == 0:
            return ret
        p -= 1
        returning = True


@njit(cache=True, error_model="numpy")
def _value_after_n(card: int, hands: np.ndarray, trick: np.ndarray, n: int, leader: int,
                   n_players: int, trump: int, flags: int, sides: np.ndarray,
                   last_bonus: int, tricks_left: int, alpha: int, beta: int, tt: np.ndarray,
                   stats: np.ndarray, gen: int) -> int:
    """Fail-soft value (line 0's points) after the player to move plays ``card``."""
    seat = (leader + n) % n_players
    hand = hands[seat]
    saved = trick.copy()
    hands[seat] = hand & ~(1 << card)
    trick[n] = card
    if n < n_players - 1:
        value = _search_n(hands, trick, n + 1, leader, n_players, trump, flags, sides,
                          last_bonus, tricks_left, alpha, beta, tt, stats, gen)
    else:
        w = (leader + trick_winner(trick, n_players, trump)) % n_players
        value = 0
        for i in range(n_players):
            value += K_POINTS[trump, trick[i]]
        left = tricks_left - 1
        if left == 0:
            value += last_bonus
        mine = value if sides[w] == 0 else 0
        if left == 0:
            value = mine
        else:
            value = mine + _search_n(hands, trick, 0, w, n_players, trump, flags, sides,
                                     last_bonus, left, alpha - mine, beta - mine, tt, stats,
                                     gen)
    for i in range(trick.shape[0]):
        trick[i] = saved[i]
    hands[seat] = hand
    return value


@njit(cache=True, error_model="numpy")
def solve_root_n(hands: np.ndarray, trick: np.ndarray, n: int, leader: int, n_players: int,
                 trump: int, flags: int, sides: np.ndarray, last_bonus: int,
                 tricks_left: int, tt: np.ndarray, out_cards: np.ndarray,
                 out_values: np.ndarray, stats: np.ndarray, gen: int) -> int:
    """:func:`solve_root` for ``n_players`` seats (2, 3 or 4) in two lines (``sides``: seat ->
    0 or 1): the exact value of every legal card of the player to move, as line 0's points
    from the cards on the table and in hand (``last_bonus`` to the last trick's winner, no
    capot bonus).  Returns the number of cards; MTD(f) per card from the previous card's
    value; the node limit in ``stats`` as :func:`solve_root` (the cards solved before it)."""
    seat = (leader + n) % n_players
    if n_players != 4:
        flags &= ~PARTNER_FREES
    legal = legal_mask(hands[seat], trick, n, trump, flags)
    rep = np.full(32, -1, dtype=np.int64)
    everything = 0
    for s in range(n_players):
        everything |= hands[s]
    others = everything & ~hands[seat]
    for i in range(n):
        others |= 1 << trick[i]
    _representatives(legal, others, trump, rep)
    solved = np.full(32, -1, dtype=np.int64)
    count = 0
    max_value = last_bonus
    h = everything
    while h:
        c = lowest_card(h)
        max_value += K_POINTS[trump, c]
        h &= h - 1
    for i in range(n):
        max_value += K_POINTS[trump, trick[i]]
    guess = max_value // 2
    for card in range(32):
        if not (legal >> card) & 1:
            continue
        if solved[rep[card]] >= 0:  # an equivalent card was solved already
            out_values[count] = solved[rep[card]]
            out_cards[count] = card
            count += 1
            continue
        lo = 0
        hi = max_value
        beta = guess
        streak = 0
        while lo < hi:
            beta = min(max(beta, lo + 1), hi)
            g = _value_after_n(card, hands, trick, n, leader, n_players, trump, flags, sides,
                               last_bonus, tricks_left, beta - 1, beta, tt, stats, gen)
            if stats[3]:
                return count
            stats[1] += 1
            streak = _mtd_streak(streak, g >= beta)
            if g >= beta:
                lo = g
                beta = lo + _mtd_step(streak)
            else:
                hi = g
                beta = hi + 1 - _mtd_step(streak)
        out_values[count] = lo
        out_cards[count] = card
        solved[rep[card]] = lo
        guess = lo
        count += 1
    return count
