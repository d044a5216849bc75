"""The bots' conventions as soft evidence: what a passo, an aspetto, an ancora or a discard
signal says about a hand, when said truthfully as the bots say it (RULES.md), read with
finite odds so that a player who lies stays possible.

The conventions read (each a statement about the hand the speaker held when he spoke:
``World.first``, the cards dealt before the auction; a discard signal about the hand as
dealt, ``World.dealt``):

* auction words (rules ``auction.pass_words``), each seat's first: "passo" says no ace,
  "aspetto" at least one;
* support calls (``auction.support_calls``): "ancora" two cards of the partner's suit,
  "alzo" three or more;
* the conventional answers (``auction.conventional_bids``, seed 000) "do", "ancora",
  "alzo" 10/20: one, two, three or more cards of the partner's suit, one of them the 9
  (10) or the Jack (20);
* discard signals (rules ``discard_signals``, :mod:`belote.engine.signals`): each player's
  first discard says which suit's ace he holds (wanted) or does not (not wanted).

The model: a statement true of the hand is ``odds`` times as likely as a false one
(``WORD_ODDS`` for the auction's words, ``SIGNAL_ODDS`` for discard signals, a player may
have had no true signal to give).  The log-likelihood of a world is ``-log(odds)`` per false
statement, 0 per true one; its upper bound is 0 (``max_log_likelihood``), which lets the
sampler weigh worlds by exact rejection (:func:`belote.engine.knowledge.sample_world`).
"""

from __future__ import annotations

import math

from belote.cards import ACES, SUIT_MASKS, Rank
from belote.engine import actions as A
from belote.engine.bidding import conventions as C
from belote.engine.evidence import World
from belote.engine.observation import Observation
from belote.engine.signals import read_signals

# How many times more often a bot says an auction word that is true of its hand than one
# that is false: the bots never lie, a person may (finite, so the liar's world stays).
WORD_ODDS = 20.0
# How many times more often a player signals the truth about an ace than not.
SIGNAL_ODDS = 4.0

# (seat, what the statement is about: "first" or "dealt", predicate on a hand, odds)
Statement = tuple[int, str, int, int, float]  # seat, kind, mask, wanted count code, odds


class ConventionEvidence:
    """The bots' conventions, said truthfully by bots, read as evidence with finite odds."""

    max_log_likelihood = 0.0

    def __init__(self, word_odds: float = WORD_ODDS, signal_odds: float = SIGNAL_ODDS) -> None:
        if word_odds < 1.0 or signal_odds < 1.0:
            raise ValueError("odds below 1 would make a lie likelier than the truth")
        self.word_odds = word_odds
        self.signal_odds = signal_odds
        self._cache: tuple[Observation, list[Statement]] | None = None

    def statements(self, obs: Observation) -> list[Statement]:
        """What the other seats said by convention, as (seat, "first"/"dealt", card mask,
        count code, odds): count code ``k >= 0`` means exactly k of the mask, ``-k`` at
        least k."""
        cached = self._cache
        if cached is not None and cached[0] is obs:
            return cached[1]
        out: list[Statement] = []
        rules = obs.ruleset
        seat = obs.seat
        auction = rules.auction if rules is not None else None
        if auction is not None and auction.pass_words:
            spoken: set[int] = set()
            for who, action in obs.bids:
                if who in spoken or who == seat:
                    continue
                if action == A.PASS:
                    out.append((who, "first", ACES, 0, self.word_odds))  # "passo": no ace
                    spoken.add(who)
                elif action == A.ASPETTO:
                    out.append((who, "first", ACES, -1, self.word_odds))  # an ace at least
                    spoken.add(who)
        if auction is not None and (auction.support_calls or auction.conventional_bids):
            standing: dict[int, int] = {}
            for who, action in obs.bids:
                if A.CONTRACT_BASE <= action < A.CONTRACT_END:
                    standing[who % 2] = A.contract_suit(action)
                elif C.is_suit_only(action):
                    standing[who % 2] = action - A.NAME_SUIT_BASE
                elif action in (A.ANCORA, A.ALZO) and who != seat and who % 2 in standing:
                    suit = standing[who % 2]
                    count = 2 if action == A.ANCORA else -3
                    out.append((who, "first", SUIT_MASKS[suit], count, self.word_odds))
                elif C.is_raise(action) and who != seat and who % 2 in standing:
                    suit = standing[who % 2]
                    word, points = C.RAISES[action]
                    promised = C.PROMISED_TRUMPS[word]
                    count = promised if promised >= 0 else -3
                    out.append((who, "first", SUIT_MASKS[suit], count, self.word_odds))
                    honour = 1 << (suit * 8 + C.PROMISED_HONOUR[points])
                    out.append((who, "first", honour, -1, self.word_odds))
        if rules is not None and rules.partners:
            for who, signal in read_signals(obs).items():
                if who == seat:
                    continue
                for suit in signal.wanted:
                    out.append((who, "dealt", 1 << (suit * 8 + Rank.ACE), -1, self.signal_odds))
                for suit in signal.unwanted:
                    out.append((who, "dealt", 1 << (suit * 8 + Rank.ACE), 0, self.signal_odds))
        self._cache = (obs, out)
        return out

    def log_likelihood(self, obs: Observation, world: World) -> float:
        total = 0.0
        for who, kind, mask, code, odds in self.statements(obs):
            hand = world.first[who] if kind == "first" else world.dealt[who]
            held = (hand & mask).bit_count()
            true = held >= -code if code < 0 else held == code
            if not true:
                total -= math.log(odds)
        return total
