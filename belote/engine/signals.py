"""Discard signals, seed 000 "Gradimento" and "Preferenza del colore" (flag ``discard_signals``).

"Quando un giocatore non ha da rispondere nel seme della carta sul tavolo può scartare una carta
di un altro seme (ovviamente non di atout, altrimenti sarebbe un taglio)": a *discard* is a card
of neither the led suit nor a trump suit.  Only a player's first discard of a hand is read as a
signal (the later ones are free), by the partner and by the rest of the table alike ("pure al
resto del tavolo"):

* ``gradimento``: the discarded suit is wanted ("avere interesse nel colore"): the player holds
  its ace;
* ``no_gradimento``: the discarded suit is not wanted, and the other suit of the same colour
  is ("Nero x Nero ... Fiori chiama Picche e viceversa; Rosso x Rosso ... Quadri chiama Cuori e
  viceversa": "il colore dell'Asso posseduto").  No preference is read when that suit is trump
  or the led suit (the player holds none of the led suit).

A convention, not a rule: bots give signals truthfully when their hand allows it and read
them as likely, never as certain.  The seed's signal speaks to the partner ("trasferire
convenzionalmente al compagno"): with fewer than four players nobody has a partner, so no
discard is read as a signal there (``Rules.partners``); seats go round the rules' number of
players.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from belote.cards import SUIT_MASKS, Card, CardSet, Rank
from belote.engine.observation import Observation

OFF = "off"


@dataclass(frozen=True, slots=True)
class Signal:
    """What one player's first discard said: suits wanted (an ace held) and not wanted."""

    seat: int
    card: Card
    wanted: frozenset[int]
    unwanted: frozenset[int]


def _is_trump(card: Card, trump: int | None) -> bool:
    return trump is not None and trump < 4 and card >> 3 == trump


def _ace(suit: int) -> Card:
    return suit * 8 + Rank.ACE


def first_discards(tricks: Iterable[tuple[int, Sequence[Card]]],
                   trump: int | None, players: int = 4) -> dict[int, tuple[Card, int]]:
    """Each seat's first discard of the hand as seat -> (card, led suit), from ``tricks``
    given as (leader, cards in play order), oldest first, at a table of ``players``."""
    found: dict[int, tuple[Card, int]] = {}
    for leader, cards in tricks:
        if not cards:
            continue
        led = cards[0] >> 3
        for i, card in enumerate(cards[1:], start=1):
            seat = (leader + i) % players
            if seat not in found and card >> 3 != led and not _is_trump(card, trump):
                found[seat] = (card, led)
    return found


def meaning(convention: str, seat: int, card: Card, led: int, trump: int | None) -> Signal:
    """What discarding ``card`` on the ``led`` suit says under ``convention``."""
    suit = card >> 3
    if convention == "gradimento":
        return Signal(seat, card, frozenset({suit}), frozenset())
    if convention == "no_gradimento":
        called = suit ^ 1  # hearts<->diamonds, clubs<->spades: same colour
        wanted = frozenset() if called == led or _is_trump(called * 8, trump) else {called}
        return Signal(seat, card, frozenset(wanted), frozenset({suit}))
    return Signal(seat, card, frozenset(), frozenset())


def _tricks(obs: Observation) -> list[tuple[int, tuple[Card, ...]]]:
    tricks = list(obs.tricks)
    if obs.trick:
        tricks.append((obs.trick[0][0], tuple(c for _, c in obs.trick)))
    return tricks


def _players(obs: Observation) -> int:
    """Seats at the table: the rules say, four without them (the observation's default)."""
    return obs.ruleset.players if obs.ruleset is not None else 4


def read_signals(obs: Observation) -> dict[int, Signal]:
    """The signals given so far this hand, by seat, under the table's convention; none
    without partnerships (a signal speaks to a partner)."""
    rules = obs.ruleset
    convention = rules.discard_signals if rules is not None else OFF
    if convention == OFF or obs.trump is None or (rules is not None and not rules.partners):
        return {}
    return {seat: meaning(convention, seat, card, led, obs.trump)
            for seat, (card, led)
            in first_discards(_tricks(obs), obs.trump, _players(obs)).items()}


def has_signalled(obs: Observation, seat: int) -> bool:
    return seat in first_discards(_tricks(obs), obs.trump, _players(obs))


def signal_cards(hand: CardSet, discards: Sequence[Card], led: int, trump: int | None,
                 convention: str) -> list[Card]:
    """The discards among ``discards`` that say something true about ``hand`` (the cards of
    the best suit to signal with), or [] when no discard can.  Never the ace itself that a
    signal points to."""
    by_suit: dict[int, list[Card]] = {}
    for card in discards:
        by_suit.setdefault(card >> 3, []).append(card)
    best: tuple[tuple[int, int], int] | None = None
    for suit, cards in by_suit.items():
        holds_ace = bool(hand >> _ace(suit) & 1)
        spare = [c for c in cards if c != _ace(suit)]
        if not spare:
            continue
        if convention == "gradimento":
            if not holds_ace:
                continue
            rank = (1, (hand & SUIT_MASKS[suit]).bit_count())  # the longest wanted suit
        elif convention == "no_gradimento":
            if holds_ace:
                continue  # discarding it would say "not wanted"
            said = meaning(convention, -1, spare[0], led, trump).wanted
            if said:
                # it calls the same-colour suit: true only when we hold that ace
                rank = (2 if all(hand >> _ace(s) & 1 for s in said) else 0, len(spare))
            else:
                rank = (1, len(spare))  # says only "not wanted": true
            if rank[0] == 0:
                continue
        else:
            return []
        if best is None or rank > best[0]:
            best = (rank, suit)
    if best is None:
        return []
    suit = best[1]
    return [c for c in by_suit[suit] if c != _ace(suit)]
