"""A rule-of-thumb bot that plays like a decent club player, with the seed's conventions.

Seed 000 ("Le mosse"): the taker leading first leads the trump Jack, then the 9 ("mossa
Casaro"); the partner of the caller, leading first, leads a low trump ("Casaro indotta");
on partner's Ace one gives the 10 of that suit.  Seed 002: one does not trump a trick the
partner is already winning.  It always announces belote and rebelote with the card, and
where the king must come first (seed 002) it plays the king before the queen
(:mod:`belote.ai.belote_order`).  Where
the rules' ``discard_signals`` say so (seed 000 "Gradimento"), its first discard of a hand
signals truthfully and it leads the suit its partner's discard asked for
(:mod:`belote.engine.signals`).
"""

from __future__ import annotations

import random
import time

from belote.ai.belote_order import king_before_queen
from belote.ai.bidding import choose_bid
from belote.ai.decision import Decision, DecisionMethod, elapsed_ms, only_move
from belote.ai.showing import table_talk
from belote.cards import ALL_CARDS, SUIT_MASKS, Card, CardSet, Rank, cards_in
from belote.engine import actions as A
from belote.engine.events import ALL_TRUMP, Event
from belote.engine.observation import Observation
from belote.engine.signals import has_signalled, read_signals, signal_cards
from belote.engine.tricks import CARD_POINTS, WIN_KEY, trick_winner
from belote.rules.tables import PLAIN_STRENGTH, TRUMP_STRENGTH

# How much lower than the plain thresholds of belote.ai.bidding this bot bids, per bidding
# system.  Tuned by simulation (300 matches each side, same decks): in classic, boldness 2
# won 80% [76%, 85%] of matches against 0 (1: 72%, 3: 78%); in valdostana 1 won 61%
# [56%, 67%] against 0 (2: 51%, -1: 25%).
BOLDNESS = {"take_or_pass": 2.0, "auction": 1.0}


def _strength(card: Card, trump: int | None) -> int:
    if trump is not None and (trump == ALL_TRUMP or card >> 3 == trump):
        return TRUMP_STRENGTH[card & 7]
    return PLAIN_STRENGTH[card & 7]


def _not_beaten_by(trump: int | None) -> tuple[CardSet, ...]:
    """Per card: the cards of its suit at least as strong (itself included), with ``trump``
    (0..3, NO_TRUMP, ALL_TRUMP; None while it is unknown)."""
    return tuple(sum(1 << c for c in cards_in(SUIT_MASKS[card >> 3])
                     if _strength(c, trump) >= _strength(card, trump))
                 for card in range(32))


# _AT_LEAST[trump][card], the last row for a trump not known: a card is master when none of
# these is unseen (asked for every candidate card of every decision: one mask, not a loop).
_AT_LEAST: tuple[tuple[CardSet, ...], ...] = tuple(
    _not_beaten_by(trump) for trump in (*range(ALL_TRUMP + 1), None))


class HeuristicBot:
    def __init__(self, seed: int | None = None, name: str = "heuristic",
                 boldness: float | None = None) -> None:
        self.name = name
        self._rng = random.Random(seed)  # the cut: bots cut at random (or knock)
        self.boldness = boldness

    def notify(self, event: Event) -> None:
        pass

    def choose(self, observation: Observation) -> int:
        return self._pick(observation)[0]

    def decide(self, observation: Observation, deadline: float | None) -> Decision:
        """:meth:`choose`, with how (no search: ``deadline`` is never near)."""
        started = time.perf_counter()
        action, method = self._pick(observation)
        return Decision(action, only_move(observation, method), None, elapsed_ms(started))

    def _pick(self, observation: Observation) -> tuple[int, DecisionMethod]:
        legal = observation.legal_actions
        if A.ANNOUNCE_BELOTE in legal:
            return A.ANNOUNCE_BELOTE, DecisionMethod.RULE
        if A.KNOCK in legal:
            # a cut carries no information: any depth
            return self._rng.choice(legal), DecisionMethod.RANDOM
        if A.OTTAVA in legal:
            return A.OTTAVA, DecisionMethod.RULE  # seed 000: showing the ottava wins the match
        declarations = [a for a in legal if A.is_declaration(a)]
        if declarations:
            # declare all, or the best name (carré > cent > ...)
            return max(declarations), DecisionMethod.RULE
        talk = table_talk(observation)  # show?, refute (belote.ai.showing)
        if talk is not None:
            return talk, DecisionMethod.RULE
        if legal[0] >= A.PASS:
            boldness = self.boldness
            if boldness is None:
                system = observation.ruleset.bidding if observation.ruleset else "take_or_pass"
                boldness = BOLDNESS[system]
            return choose_bid(observation, boldness), DecisionMethod.HEURISTIC
        plays = [a for a in legal if a < A.PLAY_ANNOUNCE_BASE]
        if len(plays) == 1:
            card, method = plays[0], DecisionMethod.ONLY_MOVE
        else:
            card, method = self._play(observation, plays), DecisionMethod.HEURISTIC
            card = king_before_queen(observation, card, plays)  # keep a king-first belote
        announce = A.PLAY_ANNOUNCE_BASE + card
        return (announce if announce in legal else card), method

    # ------------------------------------------------------------------ card play
    def _play(self, obs: Observation, plays: list[Card]) -> Card:
        unseen = ALL_CARDS & ~obs.played & ~obs.hand
        if not obs.trick:
            return self._lead(obs, plays, unseen)
        return self._follow(obs, plays, unseen)

    def _is_master(self, card: Card, unseen: CardSet, trump: int | None) -> bool:
        """No unseen card of its suit is as strong."""
        return not unseen & _AT_LEAST[-1 if trump is None else trump][card]

    def _lead(self, obs: Observation, plays: list[Card], unseen: CardSet) -> Card:
        trump = obs.trump
        assert trump is not None and obs.taker is not None and obs.seat is not None
        # Without the rules object, four seats (the observation's default).
        players = obs.ruleset.players if obs.ruleset is not None else 4
        our_contract = (obs.taker % 2 == obs.seat % 2 if players == 4
                        else obs.taker == obs.seat)
        trumps = [c for c in plays if trump < 4 and c >> 3 == trump]
        enemy_trumps = trump < 4 and unseen & SUIT_MASKS[trump]
        if our_contract and trumps and enemy_trumps:
            masters = [c for c in trumps if self._is_master(c, unseen, trump)]
            if obs.taker == obs.seat and masters:  # mossa Casaro: J, then 9 when master
                return max(masters, key=lambda c: TRUMP_STRENGTH[c & 7])
            if obs.taker != obs.seat and obs.trick_no == 0:  # Casaro indotta
                return min(trumps, key=lambda c: TRUMP_STRENGTH[c & 7])
        side = [c for c in plays if trump >= 4 or c >> 3 != trump]
        partner = obs.ruleset.partner_of(obs.seat) if obs.ruleset is not None else (
            (obs.seat + 2) % 4)  # without the rules object, four seats
        signal = None if partner is None else read_signals(obs).get(partner)
        if signal is not None:
            # the partner's discard asked for a suit: lead it (its master, else low to the ace)
            asked = [c for c in side if c >> 3 in signal.wanted]
            if asked:
                masters = [c for c in asked if self._is_master(c, unseen, trump)]
                if masters:
                    return max(masters, key=lambda c: CARD_POINTS[trump][c])
                return min(asked, key=lambda c: _strength(c, trump))
            side = [c for c in side if c >> 3 not in signal.unwanted] or side
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
        players = obs.ruleset.players if obs.ruleset is not None else 4
        last = len(cards) == players - 1
        points = CARD_POINTS[trump]

        def cheapest(pool: list[Card]) -> Card:
            return min(pool, key=lambda c: (points[c], keys[c], _strength(c, trump)))

        non_trumps = [c for c in plays if trump >= 4 or c >> 3 != trump] or plays
        signal = self._signal(obs, plays, cards[0] >> 3)
        if signal:
            non_trumps = signal  # a discard that tells the partner the truth
        if players == 4 and winning_seat == (obs.seat + 2) % 4:
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
        return cheapest(signal or plays)

    @staticmethod
    def _signal(obs: Observation, plays: list[Card], led: int) -> list[Card]:
        """The discards that signal truthfully, when this is the seat's first discard of the
        hand under a signalling convention; else []."""
        rules = obs.ruleset
        # A signal speaks to a partner: none without partnerships (fewer than four players).
        if (rules is None or rules.discard_signals == "off" or not rules.partners
                or obs.seat is None):
            return []
        if any(c >> 3 == led for c in plays) or has_signalled(obs, obs.seat):
            return []
        trump = obs.trump
        discards = [c for c in plays if trump is None or trump >= 4 or c >> 3 != trump]
        return signal_cards(obs.hand, discards, led, trump, rules.discard_signals)
