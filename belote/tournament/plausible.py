"""Plausible match totals: the one check every typed or reported final total passes (the
console's form, ``belote tournament record --totals``, the score entry's typed totals, an
online table's report), called from :func:`belote.tournament.results.judge`.

A total is refused, with the bound it passes named in the refusal, when no game under the
tournament's rules could have made it:

==========================================  ===================================================
bound                                       why
==========================================  ===================================================
over N deals, both totals together at most  every point a game scores comes from one of its
N x the hand maximum                        deals (a tie's pot is paid later, but was made by
                                            a deal); an online table whose N deals left the
                                            sides level plays one more (``match_hands``), so
                                            its report is bounded by N + 1
to a target, each total at most target - 1  the game ends with the hand that takes a side to
+ twice the hand maximum                    the target (``match_winner``): before it both were
                                            below (or level), and that hand adds at most its
                                            own points and a pot from the hand before
the hand maximum                            every card point of the richest trump mode (senza
                                            multiplied), the capot bonus, the belote (each
                                            suit's in a tutte that scores them all), every
                                            carré of the declaration table and each player's
                                            best sequences of 8 cards, the contract level at
                                            the highest multiplier where it is scored; with a
                                            multiplier on the lines (valdostana), all of it
                                            multiplied
==========================================  ===================================================

The hand maximum is an upper bound, not the best hand anyone has seen: a true result is never
refused (four carrés, a capot and a surcontro at once still pass), a typing slip of a digit
(15000 for 1500, 99999) is.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from belote.cards import Rank
from belote.engine.events import ALL_TRUMP, NO_TRUMP
from belote.engine.scoring import hand_total
from belote.rules import Rules
from belote.rules.declarations import carre_value, sequence_value
from belote.tournament.model import Settings, Source, TournamentError
from belote.tournament.sheets import tournament_rules

CARDS_IN_HAND = 8
SUITS = 4


def _best_sequences(rules: Rules) -> int:
    """The most one player's 8 cards declare in sequences (runs of 3 or more)."""
    decl = rules.declarations
    if decl is None:
        return 0
    best = [0] * (CARDS_IN_HAND + 1)
    for n in range(3, CARDS_IN_HAND + 1):
        best[n] = max(best[n - 1], *(best[n - k] + max(0, sequence_value(k, decl))
                                     for k in range(3, n + 1)))
    return best[CARDS_IN_HAND]


def _declarations(rules: Rules) -> int:
    """Every carré of the table (each rank once in the deck) and every player's best
    sequences: more than any hand's declarations, both teams together."""
    decl = rules.declarations
    if decl is None:
        return 0
    carres = sum(max(0, carre_value(rank, decl)) for rank in Rank)
    return carres + rules.players * _best_sequences(rules)


@cache
def hand_maximum(rules: Rules) -> int:
    """The most one hand can add to the match totals of both sides together (see the
    module's table)."""
    modes = [(hand_total(rules, 0), 1)]
    if rules.allow_senza:
        modes.append((hand_total(rules, NO_TRUMP), rules.senza_multiplier))
    if rules.allow_tutte:
        modes.append((hand_total(rules, ALL_TRUMP), 1))
    cards = max(points * factor + rules.capot_bonus
                * (factor if rules.senza_capot_multiplied else 1) for points, factor in modes)
    cards = max(cards, rules.failed_defenders_points or 0)
    belotes = SUITS if rules.allow_tutte and not rules.tutte_only_highest_belote else 1
    lines = cards + rules.belote_points * belotes + _declarations(rules)
    auction = rules.auction
    if auction is None:
        return lines
    top = max(auction.surcontro_multiplier, auction.contro_multiplier, 1)
    if rules.multiplier_scope == "lines":
        lines *= top
    if rules.made_adds_contract or rules.failed_adds_contract:
        level = max((*auction.levels, auction.capot_level))
        lines += level * (top if rules.multiplier_scope == "contract" else 1)
    return lines


def check_plausible(settings: Settings, totals: Sequence[int], source: Source) -> None:
    """Refuse (:class:`TournamentError`, the bound named) totals no game of ``settings``
    could have made; ``totals`` are two non-negative integers (``judge`` checked)."""
    a, b = int(totals[0]), int(totals[1])
    hand = hand_maximum(tournament_rules(settings))
    if settings.deals is not None:
        deals = settings.deals + (1 if source == "online" else 0)
        limit = deals * hand
        if a + b > limit:
            raise TournamentError("implausible_deals", total=a + b, deals=deals,
                                  limit=limit, hand=hand)
        return
    limit = settings.target - 1 + 2 * hand
    if max(a, b) > limit:
        raise TournamentError("implausible_target", total=max(a, b),
                              target=settings.target, limit=limit, hand=hand)
