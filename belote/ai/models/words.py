"""What a conventional word or signal claims about the hand of the seat that gave it.

RULES.md: passo says no ace, aspetto at least one, ancora two cards of the partner's suit,
alzo three or more, the seed 000 raises (do, ancora, alzo 10/20) a count of the partner's
suit and one of its honours; a discard signal (rules ``discard_signals``) says which suit's
ace the signaller holds, or not.  Bots say them truthfully; a person need not.  Each word
is a :class:`Claim`: a count of some cards of the hand as dealt, within bounds, checked on a
world by :meth:`Claim.holds` (the model weighs it, :mod:`belote.ai.models.seats`) or on the
real deal once the hand is over (the model learns from it).
"""

from __future__ import annotations

from dataclasses import dataclass

from belote.cards import ACES, SUIT_MASKS, CardSet, Rank
from belote.engine import actions as A
from belote.engine.bidding import conventions as C
from belote.engine.observation import Observation
from belote.engine.signals import read_signals

# The kinds of claims, each with its own trust per seat
PASSO, ASPETTO, SUPPORT, SIGNAL = "passo", "aspetto", "support", "signal"
KINDS = (PASSO, ASPETTO, SUPPORT, SIGNAL)


@dataclass(frozen=True)
class Claim:
    """``seat`` said its hand as dealt holds between ``low`` and ``high`` of ``cards``."""

    seat: int
    kind: str
    cards: CardSet
    low: int
    high: int

    def holds(self, dealt: CardSet) -> bool:
        return self.low <= (dealt & self.cards).bit_count() <= self.high


def claims(obs: Observation) -> tuple[Claim, ...]:
    """The claims the seats other than ``obs.seat`` made so far this hand."""
    rules = obs.ruleset
    if rules is None or obs.seat is None:
        return ()
    out: list[Claim] = []
    auction = rules.auction
    if auction is not None and auction.pass_words:
        spoken: set[int] = set()
        for who, action in obs.bids:
            if who in spoken or action not in (A.PASS, A.ASPETTO):
                continue
            spoken.add(who)  # the first word of a seat is the one the convention reads
            if action == A.PASS:
                out.append(Claim(who, PASSO, ACES, 0, 0))
            else:
                out.append(Claim(who, ASPETTO, ACES, 1, 4))
    if auction is not None and (auction.support_calls or auction.conventional_bids):
        standing: dict[int, int] = {}
        for who, action in obs.bids:
            if A.CONTRACT_BASE <= action < A.CONTRACT_END:
                standing[who % 2] = A.contract_suit(action)
            elif C.is_suit_only(action):
                standing[who % 2] = action - A.NAME_SUIT_BASE
            elif action in (A.ANCORA, A.ALZO) and who % 2 in standing:
                suit = SUIT_MASKS[standing[who % 2]]
                out.append(Claim(who, SUPPORT, suit, *((2, 2) if action == A.ANCORA
                                                        else (3, 8))))
            elif C.is_raise(action) and who % 2 in standing:
                trump = standing[who % 2]
                word, points = C.RAISES[action]
                count = C.PROMISED_TRUMPS[word]
                out.append(Claim(who, SUPPORT, SUIT_MASKS[trump],
                                 *((3, 8) if count < 0 else (count, count))))
                honour = 1 << (trump * 8 + C.PROMISED_HONOUR[points])
                out.append(Claim(who, SUPPORT, honour, 1, 1))
    if rules.partners:
        for who, signal in read_signals(obs).items():
            for held, suits in ((True, signal.wanted), (False, signal.unwanted)):
                for suit in suits:
                    ace = 1 << (suit * 8 + Rank.ACE)
                    out.append(Claim(who, SIGNAL, ace, *((1, 1) if held else (0, 0))))
    return tuple(c for c in out if c.seat != obs.seat)
