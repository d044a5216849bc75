"""A rule-of-thumb bot that plays like a decent club player, with the seed's conventions.

Seed 000 ("Le mosse"): the taker leading first leads the trump Jack, then the 9 ("mossa
Casaro"); the partner of the caller, leading first, leads a low trump ("Casaro indotta");
on partner's Ace one gives the 10 of that suit.  Seed 002: one does not trump a trick the
partner is already winning.  It always announces belote and rebelote with the card.
"""

from __future__ import annotations

from belote.cards import ALL_CARDS, SUIT_MASKS, Card, CardSet, Rank, cards_in
from belote.engine import actions as A
from belote.engine.events import Event
from belote.engine.observation import Observation
from belote.engine.tricks import CARD_POINTS, WIN_KEY, trick_winner
from belote.rules.tables import PLAIN_STRENGTH, TRUMP_STRENGTH

# Bidding weights: a rough count of the tricks and points a suit brings as trump.
_TRUMP_WEIGHT = {Rank.JACK: 4.0, Rank.NINE: 3.0, Rank.ACE: 2.0, Rank.TEN: 1.5}
_OTHER_TRUMP_WEIGHT = 1.0
_SIDE_ACE_WEIGHT = 1.5
_SIDE_TEN_WITH_ACE_WEIGHT = 0.8
TAKE_THRESHOLD = 9.0


def suit_value(hand: CardSet, trump: int) -> float:
    """How good ``hand`` (8 or fewer cards) would be with ``trump`` as trump."""
    value = 0.0
    trumps = hand & SUIT_MASKS[trump]
    if trumps.bit_count() < 3:
        return 0.0
    for card in cards_in(trumps):
        value += _TRUMP_WEIGHT.get(Rank(card & 7), _OTHER_TRUMP_WEIGHT)
    for suit in range(4):
        if suit == trump:
            continue
        ace = 1 << (suit * 8 + Rank.ACE)
        ten = 1 << (suit * 8 + Rank.TEN)
        if hand & ace:
            value += _SIDE_ACE_WEIGHT
            if hand & ten:
                value += _SIDE_TEN_WITH_ACE_WEIGHT
    return value


def _strength(card: Card, trump: int | None) -> int:
    if trump is not None and card >> 3 == trump:
        return TRUMP_STRENGTH[card & 7]
    return PLAIN_STRENGTH[card & 7]


class HeuristicBot:
    def __init__(self, seed: int | None = None, name: str = "heuristic") -> None:
        self.name = name

    def notify(self, event: Event) -> None:
        pass

    def choose(self, observation: Observation) -> int:
        legal = observation.legal_actions
        if legal == (A.ANNOUNCE_BELOTE,) or A.ANNOUNCE_BELOTE in legal:
            return A.ANNOUNCE_BELOTE
        if legal[0] >= A.PASS:
            return self._bid(observation)
        plays = [a for a in legal if a < A.PLAY_ANNOUNCE_BASE]
        card = plays[0] if len(plays) == 1 else self._play(observation, plays)
        return A.PLAY_ANNOUNCE_BASE + card if A.PLAY_ANNOUNCE_BASE + card in legal else card

    # ------------------------------------------------------------------ bidding
    def _bid(self, obs: Observation) -> int:
        legal = obs.legal_actions
        assert obs.turned is not None
        with_turned = obs.hand | (1 << obs.turned)
        if A.TAKE in legal:
            if len(legal) == 1 or suit_value(with_turned, obs.turned >> 3) >= TAKE_THRESHOLD:
                return A.TAKE
            return A.PASS
        best, best_value = A.PASS, TAKE_THRESHOLD
        for action in legal:
            if A.NAME_SUIT_BASE <= action < A.NAME_SUIT_BASE + 4:
                value = suit_value(with_turned, action - A.NAME_SUIT_BASE)
                if value >= best_value:
                    best, best_value = action, value
        return best

    # ------------------------------------------------------------------ card play
    def _play(self, obs: Observation, plays: list[Card]) -> Card:
        unseen = ALL_CARDS & ~obs.played & ~obs.hand
        if not obs.trick:
            return self._lead(obs, plays, unseen)
        return self._follow(obs, plays, unseen)

    def _is_master(self, card: Card, unseen: CardSet, trump: int | None) -> bool:
        strength = _strength(card, trump)
        rivals = unseen & SUIT_MASKS[card >> 3]
        return all(_strength(c, trump) < strength for c in cards_in(rivals))

    def _lead(self, obs: Observation, plays: list[Card], unseen: CardSet) -> Card:
        trump = obs.trump
        assert trump is not None and obs.taker is not None and obs.seat is not None
        our_contract = obs.taker % 2 == obs.seat % 2
        trumps = [c for c in plays if trump < 4 and c >> 3 == trump]
        enemy_trumps = trump < 4 and unseen & SUIT_MASKS[trump]
        if our_contract and trumps and enemy_trumps:
            masters = [c for c in trumps if self._is_master(c, unseen, trump)]
            if obs.taker == obs.seat and masters:  # mossa Casaro: J, then 9 when master
                return max(masters, key=lambda c: TRUMP_STRENGTH[c & 7])
            if obs.taker != obs.seat and obs.trick_no == 0:  # Casaro indotta
                return min(trumps, key=lambda c: TRUMP_STRENGTH[c & 7])
        side = [c for c in plays if trump >= 4 or c >> 3 != trump]
        masters = [c for c in side if self._is_master(c, unseen, trump)]
        if masters:
            return max(masters, key=lambda c: CARD_POINTS[trump][c])
        pool = side or plays
        return min(pool, key=lambda c: (CARD_POINTS[trump][c], _strength(c, trump)))

    def _follow(self, obs: Observation, plays: list[Card], unseen: CardSet) -> Card:
        trump = obs.trump
        assert trump is not None and obs.seat is not None
        cards = [card for _, card in obs.trick]
        keys = WIN_KEY[trump][cards[0] >> 3]
        winning_seat, best = obs.trick[trick_winner(cards, trump)]
        last = len(cards) == 3
        points = CARD_POINTS[trump]

        def cheapest(pool: list[Card]) -> Card:
            return min(pool, key=lambda c: (points[c], keys[c], _strength(c, trump)))

        non_trumps = [c for c in plays if trump >= 4 or c >> 3 != trump] or plays
        if winning_seat == (obs.seat + 2) % 4:
            safe = last or (self._is_master(best, unseen, trump) and keys[best] < 16)
            if safe:
                ten = (cards[0] & ~7) | Rank.TEN
                if best == (cards[0] & ~7) | Rank.ACE and ten in plays:
                    return ten  # the 10 on partner's Ace
                return max(non_trumps, key=lambda c: (points[c], -_strength(c, trump)))
            return cheapest(non_trumps)
        winners = [c for c in plays if keys[c] > keys[best]]
        if winners:
            if last:
                return cheapest(winners)
            masters = [c for c in winners if keys[c] < 16 and self._is_master(c, unseen, trump)]
            if masters:
                return max(masters, key=lambda c: points[c])
            return min(winners, key=lambda c: keys[c])
        return cheapest(plays)
