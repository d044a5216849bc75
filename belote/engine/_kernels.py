"""Every numba-compiled function of the project: the hot loops, on ints and arrays only.

Numba's cache tracks one file, so all compiled code, its helpers and its constants live
here (STYLE.md "Numba is isolated").  Nothing in ``belote.cards``, ``belote.rules`` or
``belote.engine.state`` imports this module: the wrappers in :mod:`belote.engine.search`
import it on first use, so importing the engine compiles nothing; ``cache=True`` keeps the
machine code on disk, so a second start does not recompile.

The pure-Python twin of each kernel is the engine itself (:mod:`belote.engine.tricks`);
``tests/test_kernels_twin.py`` compares them on random positions.

Conventions: a card is ``suit * 8 + rank`` (ranks 7 8 9 10 J Q K A), a hand a 32-bit mask in
an int64; a trump code is a suit 0..3, 4 (no trump) or 5 (all trump); seats are numbered in
playing order and team ``seat & 1``; values are the points of team 0 (N-S).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from belote.engine.tricks import CARD_POINTS, TRUMP_ABOVE, WIN_KEY

# Rule flags, packed into one int (see belote.engine.search.rule_flags).
PARTNER_FREES = 1
MUST_OVERTRUMP = 2
MUST_UNDERTRUMP = 4
MUST_TRUMP = 8

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
EXACT, LOWER, UPPER = 0, 1, 2
INF = 10_000


@njit(cache=True, error_model="numpy")
def popcount(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True, error_model="numpy")
def lowest_card(mask: int) -> int:
    n = 0
    while not (mask >> n) & 1:
        n += 1
    return n


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
    """Twin of ``belote.engine.tricks.legal_plays`` (follow-suit always on)."""
    if n == 0:
        return hand
    return legal_mask_w(hand, trick, n, trump, flags, trick_winner(trick, n, trump))


@njit(cache=True, error_model="numpy")
def legal_mask_w(hand: int, trick: np.ndarray, n: int, trump: int, flags: int,
                 w: int) -> int:
    """:func:`legal_mask` with the index ``w`` of the card winning the trick so far."""
    if n == 0:
        return hand
    led = trick[0] >> 3
    follow = hand & K_SUIT[led]
    if trump < 4:
        trump_suit = trump
    elif trump == 5:
        trump_suit = led
    else:
        return follow if follow else hand
    if follow:
        if led == trump_suit and flags & MUST_OVERTRUMP:
            best = trick[w]
            higher = follow & K_ABOVE[best]
            if higher:
                return higher
        return follow
    if led == trump_suit or trump == 5:
        return hand
    trumps = hand & K_SUIT[trump_suit]
    if trumps == 0 or not flags & MUST_TRUMP:
        return hand
    if flags & PARTNER_FREES and w == n - 2:
        return hand
    best = trick[w]
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
def _candidates(legal: int, others: int, trump: int, out: np.ndarray,
                rep: np.ndarray) -> int:
    """Legal cards minus equivalent ones: two cards of one suit in the same hand, with no
    card of another hand or on the table between them in the suit's order and the same
    points, play alike; keep one.  Writes the kept cards to ``out`` (returns how many) and,
    for every legal card, ``rep[card]``: the kept card whose value it shares."""
    count = 0
    for suit in range(4):
        cards = legal & K_SUIT[suit]
        if cards == 0:
            continue
        prev = -1
        prev_points = -1
        for pos in range(8):
            card = K_ORDER[trump, suit, pos]
            bit = 1 << card
            if cards & bit:
                cards ^= bit
                pts = K_POINTS[trump, card]
                if prev < 0 or pts != prev_points:
                    out[count] = card
                    count += 1
                    prev = card
                    prev_points = pts
                rep[card] = prev  # itself, or the equivalent card just kept
                if cards == 0:
                    break
            elif others & bit:
                prev = -1  # a card elsewhere in play separates the run
            # cards of finished tricks do not separate
    return count


@njit(cache=True, error_model="numpy")
def _order(cards: np.ndarray, count: int, trick: np.ndarray, n: int, trump: int,
           seat: int, leader: int, first: int, scores: np.ndarray,
           history: np.ndarray, w: int) -> None:
    """Sort candidate moves best-first for the side to move (in place; ``scores`` is
    scratch space, so that no node allocates)."""
    if n > 0:
        led = trick[0] >> 3
        best_key = K_WIN[trump, led, trick[w]]
        partner_wins = (leader + w) & 3 == (seat + 2) & 3
    for i in range(count):
        c = cards[i]
        pts = K_POINTS[trump, c]
        if c == first:
            s = 1_000_000
        elif n == 0:
            s = history[seat, c]  # what refuted other leads
            s = s * 64 + K_WIN[trump, c >> 3, c] * 16 - pts  # then strong cards first
        else:
            k = K_WIN[trump, led, c]
            if partner_wins:
                s = pts * 16 - k if k <= best_key else -k  # feed points, do not overtake
            elif k > best_key:
                s = 10_000 - k * 16 + pts  # win as cheaply as possible
            else:
                s = -pts * 16 - k  # lose the least

        scores[i] = s
    for i in range(1, count):  # insertion sort: at most 8 moves
        c = cards[i]
        s = scores[i]
        j = i - 1
        while j >= 0 and scores[j] < s:
            cards[j + 1] = cards[j]
            scores[j + 1] = scores[j]
            j -= 1
        cards[j + 1] = c
        scores[j + 1] = s


MAX_PLY = 33


@njit(cache=True, error_model="numpy")
def _trick_value(trick: np.ndarray, trump: int) -> int:
    return (K_POINTS[trump, trick[0]] + K_POINTS[trump, trick[1]] + K_POINTS[trump, trick[2]]
            + K_POINTS[trump, trick[3]])


@njit(cache=True, error_model="numpy")
def _search(hands: np.ndarray, trick: np.ndarray, n0: int, leader0: int, trump: int,
            flags: int, last_bonus: int, capot_bonus: int, won0: int, left0: int,
            alpha0: int, beta0: int, tt_key: np.ndarray, tt_lo: np.ndarray,
            tt_hi: np.ndarray, tt_move: np.ndarray, stats: np.ndarray, gen: int) -> int:
    """Fail-soft alpha-beta, iterative (an explicit stack: numba's cache does not reload
    recursive functions reliably).  Value: team 0's points from the cards on the table and
    in hand.  A transposition table at trick starts keys on (cards left, leader, which
    teams have taken a trick) and ``gen``, a number the caller changes with each deal
    (so the table need not be cleared between deals)."""
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
    f_moves = np.empty((MAX_PLY, 8), dtype=np.int64)
    f_saved = np.empty((MAX_PLY, 4), dtype=np.int64)
    scratch = np.empty(8, dtype=np.int64)
    rep_scratch = np.empty(32, dtype=np.int64)
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
            n = f_n[p]
            leader = f_leader[p]
            first = -1
            hit = False
            if n == 0 and f_left[p] == 1:
                # The last trick plays itself: one card each.
                for i in range(4):
                    trick[i] = lowest_card(hands[(leader + i) & 3])
                w = (leader + trick_winner(trick, 4, trump)) & 3
                new_won = f_won[p] | (1 << (w & 1))
                ret = 0
                if w & 1 == 0:
                    ret = _trick_value(trick, trump) + last_bonus
                    if new_won == 1:
                        ret += capot_bonus
                hit = True
            if n == 0 and not hit:
                # Static bound: team 0 cannot get more than every point still in play.
                rem = hands[0] | hands[1] | hands[2] | hands[3]
                ub = last_bonus + (capot_bonus if f_won[p] <= 1 else 0)
                for su in range(4):
                    ub += K_BYTE_POINTS[trump, su, (rem >> (8 * su)) & 255]
                if ub <= f_a[p]:
                    ret = ub
                    hit = True
            if n == 0 and not hit:
                # At a trick's start a node is the cards left in hand (each card's owner is
                # fixed in a deal), the leader and which teams have taken a trick.
                remaining = hands[0] | hands[1] | hands[2] | hands[3]
                key = remaining | (leader << 32) | (f_won[p] << 34) | (1 << 40) | (gen << 41)
                slot = _tt_index(key)
                f_key[p] = key
                f_slot[p] = slot
                if tt_key[slot] == key:
                    lo = tt_lo[slot]
                    hi = tt_hi[slot]
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
                        first = tt_move[slot]
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
                w = trick_winner(trick, n, trump) if n > 0 else 0
                legal = legal_mask_w(hand, trick, n, trump, flags, w)
                if legal & (legal - 1) == 0:
                    f_moves[p, 0] = lowest_card(legal)  # a forced card
                    count = 1
                else:
                    # a card on the table separates two cards of this hand as much as a
                    # card in another hand does (the 8 led between our 9 and 7)
                    others = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hand
                    for i in range(n):
                        others |= 1 << trick[i]
                    count = _candidates(legal, others, trump, f_moves[p], rep_scratch)
                    if count > 1:
                        _order(f_moves[p], count, trick, n, trump, seat, leader, first,
                               scratch, history, w)
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
            card = f_moves[p, f_idx[p] - 1]
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
            card = f_moves[p, f_idx[p]]
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
            w = (f_leader[p] + trick_winner(trick, 4, trump)) & 3
            value = _trick_value(trick, trump)
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
            slot = f_slot[p]
            if tt_key[slot] != f_key[p]:
                tt_key[slot] = f_key[p]
                tt_lo[slot] = 0
                tt_hi[slot] = INF
            if ret <= f_a0[p]:
                tt_hi[slot] = ret
            elif ret >= f_b0[p]:
                tt_lo[slot] = ret
            else:
                tt_lo[slot] = ret
                tt_hi[slot] = ret
            tt_move[slot] = f_bestmove[p]
        if p == 0:
            return ret
        p -= 1
        returning = True


@njit(cache=True, error_model="numpy")
def _value_after(card: int, hands: np.ndarray, trick: np.ndarray, n: int, leader: int,
                 trump: int, flags: int, last_bonus: int, capot_bonus: int, won: int,
                 tricks_left: int, alpha: int, beta: int, tt_key: np.ndarray,
                 tt_lo: np.ndarray, tt_hi: np.ndarray, tt_move: np.ndarray,
                 stats: np.ndarray, gen: int) -> int:
    """Fail-soft value of the position after the player to move plays ``card``."""
    seat = (leader + n) & 3
    hand = hands[seat]
    saved = trick.copy()
    hands[seat] = hand & ~(1 << card)
    trick[n] = card
    if n < 3:
        value = _search(hands, trick, n + 1, leader, trump, flags, last_bonus, capot_bonus,
                        won, tricks_left, alpha, beta, tt_key, tt_lo, tt_hi, tt_move, stats, gen)
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
                                   new_won, left, alpha - mine, beta - mine, tt_key,
                                   tt_lo, tt_hi, tt_move, stats, gen)
    for i in range(4):
        trick[i] = saved[i]
    hands[seat] = hand
    return value


@njit(cache=True, error_model="numpy")
def solve_root(hands: np.ndarray, trick: np.ndarray, n: int, leader: int, trump: int,
               flags: int, last_bonus: int, capot_bonus: int, won: int, tricks_left: int,
               tt_key: np.ndarray, tt_lo: np.ndarray, tt_hi: np.ndarray,
               tt_move: np.ndarray, out_cards: np.ndarray, out_values: np.ndarray,
               stats: np.ndarray, gen: int) -> int:
    """Exact value of every legal card of the player to move (team 0's points from the
    cards on the table and in hand, with perfect play).  Returns the number of cards.

    Each card's value is found by MTD(f): null-window searches converging on it, starting
    from the previous card's value; the transposition table carries the bounds across."""
    seat = (leader + n) & 3
    legal = legal_mask(hands[seat], trick, n, trump, flags)
    rep = np.full(32, -1, dtype=np.int64)
    others = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hands[seat]
    for i in range(n):
        others |= 1 << trick[i]
    _candidates(legal, others, trump, np.empty(8, dtype=np.int64), rep)
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
        g = guess
        while lo < hi:
            beta = g + 1 if g == lo else g
            g = _value_after(card, hands, trick, n, leader, trump, flags, last_bonus,
                             capot_bonus, won, tricks_left, beta - 1, beta, tt_key,
                             tt_lo, tt_hi, tt_move, stats, gen)
            stats[1] += 1
            if g < beta:
                hi = g
            else:
                lo = g
        out_values[count] = g
        out_cards[count] = card
        solved[rep[card]] = g
        guess = g
        count += 1
    return count


@njit(cache=True, error_model="numpy")
def solve_value(hands: np.ndarray, leader: int, trump: int, flags: int, last_bonus: int,
                capot_bonus: int, won: int, tricks_left: int, guess: int,
                tt_key: np.ndarray, tt_lo: np.ndarray, tt_hi: np.ndarray,
                tt_move: np.ndarray, stats: np.ndarray, gen: int) -> int:
    """Exact value of a position at a trick's start (team 0's points from the cards in
    hand), by MTD(f) from ``guess``: cheaper than scoring every card."""
    trick = np.zeros(4, dtype=np.int64)
    lo = 0
    hi = INF
    g = guess
    while lo < hi:
        beta = g + 1 if g == lo else g
        g = _search(hands, trick, 0, leader, trump, flags, last_bonus, capot_bonus, won,
                    tricks_left, beta - 1, beta, tt_key, tt_lo, tt_hi, tt_move, stats, gen)
        if g < beta:
            hi = g
        else:
            lo = g
    return g
