"""What one seat knows about the other hands, and worlds drawn within it: the one home of
hidden-card sampling.  :func:`belote.engine.resample.resample` (``Game.resample``) and the
expert's world sampling (:mod:`belote.ai.worlds`, which re-exports these names) both draw
from here.

From one seat's :class:`Observation` we infer, from public facts only:

* cards whose place is known: the turned card with the taker, the partner card of an
  announced belote (the queen after "belote" with the king), declarations shown;
* what each card played proves under the obligations of the rules in force
  (:func:`belote.engine.obligations.proven_absent`): a player who did not follow the led
  suit, where following is owed, has none of it; one who had to trump or to overtrump and
  did not holds no trump (or no trump above the one on the table then);
* auction words: "passo" says no ace, "aspetto" at least one (said truthfully by bots,
  RULES.md), "ancora" two cards of the partner's suit, "alzo" three or more; the conventional
  answers (seed 000) "do", "ancora", "alzo" 10/20 one, two, three or more cards of it, one of
  them the 9 (10) or the Jack (20);
* discard signals (rules ``discard_signals``, :mod:`belote.engine.signals`): each player's first
  discard says which suit's ace they hold (wanted) or do not (not wanted).

Then the unseen cards are dealt at random to the other seats within those constraints (most
constrained cards first, retrying on a dead end).  Hard constraints are always respected;
the ace and support-call counts are checked by rejection, and dropped only if a world cannot
be found in a reasonable number of tries.

Signals are soft evidence, weighed rather than obeyed (a player may have had no true signal
to give).  The model: a player sends a signal that is true of his hand ``SIGNAL_ODDS`` times
as often as one that is false, so a world is accepted with likelihood 1 when each signal is
true of it (the wanted suit's ace in the signaller's hand, an unwanted suit's ace not) and
``1 / SIGNAL_ODDS`` per false one: rejection sampling from the prior of the hard constraints
times that likelihood.  A signal about an ace already played or in the sampling seat's hand
tells nothing about the hidden cards and is skipped.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from belote.cards import ACES, SUIT_MASKS, CardSet, Rank
from belote.engine import actions as A
from belote.engine.bidding import conventions as C
from belote.engine.obligations import could_have_played, proven_absent
from belote.engine.observation import Observation
from belote.engine.signals import read_signals
from belote.rules.base import Rules


@dataclass(frozen=True)
class Knowledge:
    """What ``seat`` knows about the other hands right now."""

    seat: int
    own: CardSet  # the seat's own hand
    unseen: CardSet  # cards in other hands whose place is unknown
    # Per seat (as many as the rules' players):
    known: tuple[CardSet, ...]  # cards known to be in each hand
    forbidden: tuple[CardSet, ...]  # cards a seat cannot hold
    sizes: tuple[int, ...]  # how many unknown cards each seat holds
    min_aces: tuple[int, ...]  # a seat must hold at least this many aces
    suit_counts: tuple[tuple[int, int, int], ...]  # (seat, suit, count) with count -1: >= 3
    # The hand's cards so far, (leader, cards) by trick, oldest first, under ``trump`` and
    # ``rules``: a world must be able to have played them (either-or facts, see
    # belote.engine.obligations.could_have_played).  No rules: nothing to check.
    tricks: tuple[tuple[int, tuple[int, ...]], ...] = ()
    trump: int = -1
    rules: Rules | None = None
    # Soft facts: (seat, card) a conventional answer says the seat holds; discard signals as
    # (seat, ace, True: held / False: not held), weighed by SIGNAL_ODDS.
    honours: tuple[tuple[int, int], ...] = ()
    signals: tuple[tuple[int, int, bool], ...] = ()


# How many times more often a player signals the truth about an ace than not (see above).
SIGNAL_ODDS = 4.0


def _infer_play(rules: Rules, trump: int, leader: int, cards: tuple[int, ...],
                forbidden: list[CardSet]) -> None:
    """Add what the cards of one trick (in play order) prove about the players' hands."""
    for i in range(1, len(cards)):
        forbidden[(leader + i) % rules.players] |= proven_absent(cards[:i], cards[i], trump,
                                                                 rules)


def knowledge(obs: Observation) -> Knowledge:
    """What ``obs.seat`` can deduce about the other hands."""
    seat = obs.seat
    if seat is None:
        raise ValueError("a spectator has no hand to reason from")
    rules = obs.ruleset
    if rules is None:
        raise ValueError("the observation carries no rules")
    in_trick = sum(1 << c for _, c in obs.trick)
    out = obs.played | obs.hand
    n = rules.players
    known = [0] * n
    if obs.turned is not None and obs.taker is not None and obs.phase == 2:
        known[obs.taker] |= 1 << obs.turned
    for s in range(n):
        known[s] |= obs.shown[s]
    if obs.trump is not None and obs.trump < 4:
        said: dict[int, int] = {}
        for who, _word in obs.belote_said:
            said[who] = said.get(who, 0) + 1
        for who, count in said.items():
            if count == 1:  # "belote" said: the other of K and Q is still in that hand
                pair = (1 << (obs.trump * 8 + Rank.KING)) | (1 << (obs.trump * 8 + Rank.QUEEN))
                known[who] |= pair
    for s in range(n):
        known[s] &= ~out
    known[seat] = 0
    forbidden = [0] * n
    tricks = tuple(obs.tricks)
    if obs.trick:
        tricks += ((obs.trick[0][0], tuple(c for _, c in obs.trick)),)
    if obs.trump is not None:
        for leader, cards in tricks:
            _infer_play(rules, obs.trump, leader, cards, forbidden)
    min_aces = [0] * n
    suit_counts: list[tuple[int, int, int]] = []
    auction = rules.auction
    if auction is not None and auction.pass_words:
        spoken = set()
        for who, action in obs.bids:
            if who in spoken or who == seat:
                continue
            if action == A.PASS:
                forbidden[who] |= ACES  # "passo": no ace
                spoken.add(who)
            elif action == A.ASPETTO:
                min_aces[who] = 1  # "aspetto": at least one ace
                spoken.add(who)
    honours: list[tuple[int, int]] = []
    if auction is not None and (auction.support_calls or auction.conventional_bids):
        standing: dict[int, int] = {}
        for who, action in obs.bids:
            if A.CONTRACT_BASE <= action < A.CONTRACT_END:
                standing[who % 2] = A.contract_suit(action)
            elif C.is_suit_only(action):
                standing[who % 2] = action - A.NAME_SUIT_BASE
            elif action in (A.ANCORA, A.ALZO) and who != seat and who % 2 in standing:
                suit = standing[who % 2]
                suit_counts.append((who, suit, 2 if action == A.ANCORA else -1))
            elif C.is_raise(action) and who != seat and who % 2 in standing:
                suit = standing[who % 2]
                word, points = C.RAISES[action]
                suit_counts.append((who, suit, C.PROMISED_TRUMPS[word]))
                honours.append((who, suit * 8 + C.PROMISED_HONOUR[points]))
    signals = [(who, suit * 8 + Rank.ACE, held)
               for who, signal in (read_signals(obs) if rules.partners else {}).items()
               if who != seat
               for held, suits in ((True, signal.wanted), (False, signal.unwanted))
               for suit in suits]
    sizes = [0] * n
    for s in range(n):
        if s != seat:
            sizes[s] = obs.hand_sizes[s] - known[s].bit_count()
        forbidden[s] &= ~known[s]
    unseen = ~out & ~in_trick & 0xFFFFFFFF
    for s in range(n):
        unseen &= ~known[s]
    return Knowledge(
        seat=seat,
        own=obs.hand,
        unseen=unseen,
        known=tuple(known),
        forbidden=tuple(forbidden),
        sizes=tuple(sizes),
        min_aces=tuple(min_aces),
        suit_counts=tuple(suit_counts),
        tricks=tricks if obs.trump is not None else (),
        trump=obs.trump if obs.trump is not None else -1,
        rules=rules,
        honours=tuple((s, c) for s, c in honours if not (out | in_trick) >> c & 1),
        signals=tuple((s, c, held) for s, c, held in signals if not (out | in_trick) >> c & 1),
    )


def _allowed(info: Knowledge) -> dict[int, list[int]]:
    """For each unseen card, the seats that may hold it (the same for every attempt)."""
    return {c: [s for s in range(len(info.sizes)) if s != info.seat and info.sizes[s] > 0
                and not info.forbidden[s] >> c & 1]
            for c in range(32) if info.unseen >> c & 1}


def _deal_once(info: Knowledge, rng: random.Random, hard_only: bool,
               allowed: dict[int, list[int]]) -> tuple[CardSet, ...] | None:
    n = len(info.sizes)
    # The monte (fewer than four players) holds the unseen cards no hand does: a last,
    # hidden "seat" n that may hold any card.
    room = [*info.sizes, max(0, len(allowed) - sum(info.sizes))]
    hands = [*info.known, 0]
    cards = list(allowed)
    rng.shuffle(cards)
    cards.sort(key=lambda c: len(allowed[c]))
    for card in cards:
        seats = [s for s in (*allowed[card], n) if room[s] > 0]
        if not seats:
            return None
        total = sum(room[s] for s in seats)
        pick = rng.randrange(total)
        for s in seats:
            pick -= room[s]
            if pick < 0:
                break
        hands[s] |= 1 << card
        room[s] -= 1
    if any(room) or not _respects(info, hands[:n], hard_only, rng):
        return None
    return tuple(hands[:n])


def _respects(info: Knowledge, hands: list[CardSet], hard_only: bool,
              rng: random.Random) -> bool:
    """Whether the other seats' ``hands`` (the sampling seat's entry ignored) could have
    played the tricks seen and, unless ``hard_only``, meet the soft constraints."""
    n = len(info.sizes)
    if info.rules is not None and info.tricks:
        full = list(hands)
        full[info.seat] = info.own
        if not could_have_played(full, info.tricks, info.trump, info.rules):
            return False
    if hard_only:
        return True
    for s in range(n):
        if info.min_aces[s] and (hands[s] & ACES).bit_count() < info.min_aces[s]:
            return False
    for s, suit, count in info.suit_counts:
        held = (hands[s] & SUIT_MASKS[suit]).bit_count()
        if (count >= 0 and held != count) or (count < 0 and held < 3):
            return False
    for s, card in info.honours:
        if not hands[s] >> card & 1:
            return False
    for s, card, held in info.signals:
        if bool(hands[s] >> card & 1) != held and rng.random() * SIGNAL_ODDS >= 1.0:
            return False  # a false signal: accepted with likelihood 1 / SIGNAL_ODDS
    return True


def fits(info: Knowledge, hands: tuple[CardSet, ...], rng: random.Random) -> bool:
    """Whether a world drawn earlier (each seat's cards in hand now; the sampling seat's
    entry ignored) is still one :func:`sample_world` could draw: the cards known and
    forbidden, the counts, the tricks seen and the soft constraints."""
    held = 0
    for s in range(len(info.sizes)):
        if s == info.seat:
            continue
        free = hands[s] & ~info.known[s]
        if (hands[s] & info.known[s] != info.known[s] or free & info.forbidden[s]
                or free & ~info.unseen or free & held or free.bit_count() != info.sizes[s]):
            return False
        held |= free
    return _respects(info, list(hands), False, rng)


def sample_world(info: Knowledge, rng: random.Random, tries: int = 200,
                 deadline: float | None = None) -> tuple[CardSet, ...]:
    """The other seats' hands in one random world (the sampling seat's own hand is 0).

    Past ``deadline`` (``time.monotonic()``), or after ``tries`` attempts, the soft
    constraints (ace and support-call counts) are dropped: a decision short of time takes
    a world that only respects the hard ones rather than rejecting on."""
    allowed = _allowed(info)
    for attempt in range(2 * tries):
        hard_only = attempt >= tries or (
            deadline is not None and attempt % 8 == 7 and time.monotonic() > deadline)
        if hard_only and attempt < tries:
            tries = attempt  # from now on
        world = _deal_once(info, rng, hard_only, allowed)
        if world is not None:
            return world
    raise RuntimeError("no world is consistent with what was seen")


def sample_whole_world(info: Knowledge, rng: random.Random,
                       deadline: float | None = None) -> tuple[CardSet, ...]:
    """:func:`sample_world` with the sampling seat's own hand in its place: every hand of
    one world, as a search takes it."""
    world = list(sample_world(info, rng, deadline=deadline))
    world[info.seat] = info.own
    return tuple(world)
