"""Heuristic bidding for every system: take-or-pass (with senza/tutte) and the auction.

Hand evaluation is a weighted count of the tricks and points a trump suit (or no trump, or
all trump) would bring.  In the auction the bot says passo/aspetto truthfully (RULES.md:
"Bots say them truthfully"), supports its partner with ancora/alzo, raises, doubles a contract
it can break and redoubles when doubled with a strong hand.  With the seed 000 conventions
(``auction.conventional_bids``) it opens a hand that can hold the contract with the suit alone,
or 92 when it holds the Jack and the 9 ("la 34"), and answers its partner's suit with do,
ancora or alzo 10/20 when it holds the 9 or the Jack there.
"""

from __future__ import annotations

from belote.cards import ACES, SUIT_MASKS, CardSet, Rank, cards_in
from belote.engine import actions as A
from belote.engine.bidding import conventions as C
from belote.engine.observation import Observation

_TRUMP_WEIGHT = {Rank.JACK: 4.0, Rank.NINE: 3.0, Rank.ACE: 2.0, Rank.TEN: 1.5}
_OTHER_TRUMP_WEIGHT = 1.0
_SIDE_ACE_WEIGHT = 1.5
_SIDE_TEN_WITH_ACE_WEIGHT = 0.8
TAKE_THRESHOLD = 9.0
SENZA_THRESHOLD = 9.5
TUTTE_THRESHOLD = 11.0
# Auction: a hand value converts to the points it expects to make.
POINTS_PER_VALUE = 9.5
# Fewer players (seed 000 "a tre o addirittura a due"): a hand of 10 or 16 cards counts more
# honours, and no partner adds to it: the value is scaled by this factor per seat count.
# Set by scripts/simulate_fewer_seats.py (300 hands of normal bots): 3 players at 1.0 made
# 49% of contracts, at 0.75 80% (0.6: 90%, but 21 redeals a hand); 2 players at 1.0 56%,
# at 0.75 65%, at 0.5 83% with 6 redeals a hand.
SEAT_VALUE_SCALE = {4: 1.0, 3: 0.75, 2: 0.75}


def suit_value(hand: CardSet, trump: int) -> float:
    """How good ``hand`` would be with ``trump`` as trump (0 with fewer than 3 trumps)."""
    trumps = hand & SUIT_MASKS[trump]
    if trumps.bit_count() < 3:
        return 0.0
    value = sum(_TRUMP_WEIGHT.get(Rank(c & 7), _OTHER_TRUMP_WEIGHT) for c in cards_in(trumps))
    for suit in range(4):
        if suit != trump:
            value += _side_value(hand, suit)
    return value


def _side_value(hand: CardSet, suit: int) -> float:
    ace = 1 << (suit * 8 + Rank.ACE)
    ten = 1 << (suit * 8 + Rank.TEN)
    if not hand & ace:
        return 0.0
    return _SIDE_ACE_WEIGHT + (_SIDE_TEN_WITH_ACE_WEIGHT if hand & ten else 0.0)


def senza_value(hand: CardSet) -> float:
    """No trump: aces and guarded tens win tricks; long suits headed by them run."""
    value = 0.0
    for suit in range(4):
        cards = hand & SUIT_MASKS[suit]
        if cards >> (suit * 8 + Rank.ACE) & 1:
            value += 2.5
            if cards >> (suit * 8 + Rank.TEN) & 1:
                value += 1.5
                value += 0.5 * max(0, cards.bit_count() - 3)
    return value


def tutte_value(hand: CardSet) -> float:
    """All trump: jacks and nines are masters of their suits."""
    value = 0.0
    for suit in range(4):
        cards = hand & SUIT_MASKS[suit]
        if cards >> (suit * 8 + Rank.JACK) & 1:
            value += 3.0
            if cards >> (suit * 8 + Rank.NINE) & 1:
                value += 1.5
        elif cards >> (suit * 8 + Rank.NINE) & 1 and cards.bit_count() >= 2:
            value += 1.0
    return value


def has_ace(hand: CardSet) -> bool:
    return bool(hand & ACES)


def pass_word(obs: Observation) -> int | None:
    """How the seat passes: "aspetto" where the rules have it and the hand holds an ace (bots
    say it truthfully), else a plain pass; None where passing is not allowed."""
    legal = obs.legal_actions
    if A.ASPETTO in legal and has_ace(obs.hand):
        return A.ASPETTO
    return A.PASS if A.PASS in legal else None


def choose_bid(obs: Observation, boldness: float = 0.0) -> int:
    """A bid for ``obs``; ``boldness`` lowers every threshold by that much hand value."""
    if obs.ruleset is not None and obs.ruleset.bidding == "auction":
        return _auction(obs, boldness)
    return _take_or_pass(obs, boldness)


def _take_or_pass(obs: Observation, boldness: float) -> int:
    legal = obs.legal_actions
    take = TAKE_THRESHOLD - boldness
    hand = obs.hand | (1 << obs.turned if obs.turned is not None else 0)
    if legal == (A.PASS, A.SENZA):  # partner called a suit: replace it with senza?
        return A.SENZA if senza_value(obs.hand) >= SENZA_THRESHOLD + 1.5 - boldness else A.PASS
    if A.TAKE in legal:
        assert obs.turned is not None
        if len(legal) == 1 or suit_value(hand, obs.turned >> 3) >= take:
            return A.TAKE
        return A.PASS
    options: list[tuple[float, int]] = [(take, A.PASS)]
    for action in legal:
        if A.NAME_SUIT_BASE <= action < A.NAME_SUIT_BASE + 4:
            options.append((suit_value(hand, action - A.NAME_SUIT_BASE), action))
        elif action == A.SENZA:
            options.append((senza_value(hand) - SENZA_THRESHOLD + take, action))
        elif action == A.TUTTE:
            options.append((tutte_value(hand) - TUTTE_THRESHOLD + take, action))
    return max(options)[1]


def _auction(obs: Observation, boldness: float) -> int:
    legal = obs.legal_actions
    assert obs.seat is not None
    rules = obs.ruleset
    levels = rules.auction.levels if rules is not None and rules.auction is not None else ()
    hand = obs.hand
    passing = pass_word(obs) or A.PASS
    bidder, index, suit, _ = obs.standing_contract() or (-1, -1, -1, 0)
    four = rules is None or rules.partners
    partner = (obs.seat + 2) % 4 if four else -2  # fewer than four players: no partner
    conventions = rules is not None and rules.auction is not None and \
        rules.auction.conventional_bids
    if A.SURCONTRO in legal:
        return A.SURCONTRO if suit_value(hand, suit) >= TAKE_THRESHOLD + 3 else passing
    if bidder >= 0 and bidder != obs.seat and bidder != partner and A.CONTRO in legal:
        trumps = hand & SUIT_MASKS[suit]
        jack_nine = trumps >> (suit * 8 + Rank.JACK) & 1 and trumps >> (suit * 8 + Rank.NINE) & 1
        aces = sum(_side_value(hand, s) > 0 for s in range(4) if s != suit)
        if jack_nine and trumps.bit_count() >= 3 and aces >= 1 and levels[index] >= 100:
            return A.CONTRO
    best_value, best_suit = max((suit_value(hand, s), s) for s in range(4))
    best_value *= SEAT_VALUE_SCALE[rules.players if rules is not None else 4]
    support = 0.0
    if bidder == partner:
        # partner's contract stands: count what we add to it
        support = suit_value(hand | SUIT_MASKS[suit], suit) - suit_value(SUIT_MASKS[suit], suit)
        trumps = (hand & SUIT_MASKS[suit]).bit_count()
        target = levels[index] + 10 * int(support // 2)
        raise_bid = _bid_at(levels, index, target, suit, legal)
        answered = any(who == obs.seat and C.is_raise(a) for who, a in obs.bids)
        answer = _convention_answer(hand, suit, legal) if conventions and not answered else None
        if answer is not None and target <= levels[index] + C.RAISES[answer][1]:
            return answer  # says the same raise, and what we hold
        if support >= 4 and raise_bid is not None:
            return raise_bid
        if answer is not None:
            return answer
        if A.ALZO in legal and trumps >= 3:
            return A.ALZO
        if A.ANCORA in legal and trumps == 2:
            return A.ANCORA
        return passing
    if best_value >= TAKE_THRESHOLD - boldness:
        expected = POINTS_PER_VALUE * (best_value + boldness)
        bid = _bid_at(levels, index, expected, best_suit, legal)
        if conventions and bidder < 0:
            bid = _conventional_opening(hand, best_suit, bid, legal)
        if bid is not None:
            return bid
    return passing


def _convention_answer(hand: CardSet, suit: int, legal: tuple[int, ...]) -> int | None:
    """Seed 000's answer in the partner's ``suit`` that describes ``hand``, if legal."""
    trumps = hand & SUIT_MASKS[suit]
    honour = next((r for r in (Rank.JACK, Rank.NINE) if trumps >> (suit * 8 + r) & 1), None)
    answer = C.response_for(trumps.bit_count(), honour)
    return answer if answer in legal else None


def _conventional_opening(hand: CardSet, suit: int, bid: int | None,
                          legal: tuple[int, ...]) -> int | None:
    """An opening in ``suit`` by seed 000's conventions: 82 would say "strength but not the
    right cards" and 92 promises the Jack and the 9, so a hand that can hold a low contract
    says 92 with both and the suit alone otherwise."""
    if bid is not None and A.contract_level_index(bid) > 1:
        return bid  # a higher contract says its own level
    jack_nine = hand >> (suit * 8 + Rank.JACK) & 1 and hand >> (suit * 8 + Rank.NINE) & 1
    if jack_nine and A.contract_bid(1, suit) in legal:
        return A.contract_bid(1, suit)
    return A.name_suit(suit) if A.name_suit(suit) in legal else bid


def _bid_at(levels: tuple[int, ...], index: int, points: float, suit: int,
            legal: tuple[int, ...]) -> int | None:
    """The highest legal contract in ``suit`` not above ``points``, if any is above index."""
    for i in range(len(levels) - 1, index, -1):
        if levels[i] <= points:
            action = A.contract_bid(i, suit)
            return action if action in legal else None
    return None
