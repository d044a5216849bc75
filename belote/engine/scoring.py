"""Scoring a finished hand (RULES.md "Scoring a hand"), for every preset, from flags only.

Which flags decide each rule:

* what the takers must make: ``taker_min_points`` or the contract level,
  ``taker_must_beat_defenders``, and what counts (``belote_counts_for_contract``,
  ``declarations_count_for_contract``);
* made: each team its own; ``made_adds_contract``; ``multiplier_scope``;
* failed: ``failed_defenders_points`` (None: every card point of the hand),
  ``failed_adds_contract``, ``failed_defenders_take_all_declarations``,
  ``failed_takers_keep_belote``;
* capot: ``capot_bonus`` on the last trick; ``capot_all_points`` (cappotto: every point, and
  impossible against a belote);
* tie: ``tie_rule`` (litige pot, pinasca prigione), ``doubled_tie`` (the last caller loses),
  ``tie_freezes_belote`` (the takers' belote goes into the pot too);
* senza: ``senza_multiplier`` on the card points (declarations unchanged, seed 000), and on
  the capot bonus unless ``senza_capot_multiplied`` is off;
* a failed surcontro: ``surcontro_failed_points`` ("Tipo B" or "Tipo A" points, seed 000).
"""

from __future__ import annotations

from dataclasses import dataclass

from belote.engine.events import NO_TRUMP
from belote.engine.tricks import CARD_POINTS
from belote.rules.base import Rules


def hand_total(rules: Rules, trump: int) -> int:
    """Every card point of a hand in this trump mode, with the last trick's bonus (162; senza
    130 before its multiplier; tutte 258)."""
    return sum(CARD_POINTS[trump]) + rules.last_trick_bonus


@dataclass(frozen=True, slots=True)
class HandFacts:
    """Everything scoring needs to know about a played hand; tuples are per side (two teams
    with four players, else one per player: ``Rules.sides``)."""

    taker_team: int
    trump: int
    card_points: tuple[int, ...]  # trick points with the last trick's bonus, no capot bonus
    tricks_won: tuple[int, ...]
    belote: tuple[int, ...]  # belote points that scored
    declarations: tuple[int, ...] = (0, 0)  # valid declaration points
    level: int = 0  # the contract level of an auction; 0: take-or-pass
    capot_contract: bool = False  # a contract won only by taking every trick
    multiplier: int = 1  # contro x2, surcontro x4
    last_caller_team: int | None = None  # who made the last call of the auction
    tricks: int = 8  # tricks in a hand (Rules.hand_size): a capot takes all of them


@dataclass(frozen=True, slots=True)
class Pot:
    """Points at stake after a tie, and the team whose points they are ("in prison")."""

    points: int = 0
    team: int | None = None


@dataclass(frozen=True, slots=True)
class HandOutcome:
    outcome: str  # "made", "failed" or "litige"
    capot_team: int | None
    card_points: tuple[int, ...]  # after the capot bonus and the senza multiplier
    scores: tuple[int, ...]  # what each side adds to its match total now
    pot: Pot  # points left at stake for the next hand
    pot_winner: int | None  # the team that took an earlier pot with this hand
    pot_won: int


def capot_side(rules: Rules, facts: HandFacts) -> int | None:
    """The side (a team of four players, else one player) that made a capot, for any number
    of sides: every trick, or with ``capot_all_points`` every card point (the others may win
    pointless tricks) and never against another side's belote.  With three players a capot
    is one player's, never the two defenders' together (docs/rules-2-3-players.md)."""
    points = facts.card_points
    for side in range(len(points)):
        others = [o for o in range(len(points)) if o != side]
        if rules.capot_all_points:
            # Seed 000: "la squadra che ha mandato riesca ad effettuare tutti i punti
            # possibili"; "nel caso la squadra non chiamante abbia 'Belot e Rebelot', non è
            # possibile effettuare il 'Cappotto'".
            if (facts.tricks_won[side] > 0 and all(points[o] == 0 for o in others)
                    and not any(facts.belote[o] for o in others)):
                return side
        elif facts.tricks_won[side] == facts.tricks:
            return side
    return None


def score_hand(rules: Rules, facts: HandFacts, pot: Pot = Pot()) -> HandOutcome:
    """Score one hand and settle any pot left by earlier ties."""
    if len(facts.card_points) > 2:
        return _score_three(rules, facts, pot)
    return _score_lines(rules, facts, pot)


def _score_three(rules: Rules, facts: HandFacts, pot: Pot) -> HandOutcome:
    """Three sides (three players): the taker against the other two as one line (RULES.md's
    takers and defenders), then the defence's score shared out (docs/rules-2-3-players.md):
    each defender keeps his own points (cards, capot, belote, declarations) and the rest of
    the line's score (the taker's points on a failed contract, a pot) is split equally, the
    odd point to the first defender after the taker.  A capot is one player taking every
    trick; a pot the defence wins goes to the defender with more card points this hand."""
    sides = len(facts.card_points)
    tt = facts.taker_team
    defenders = [(tt + i) % sides for i in range(1, sides)]

    def line(values: tuple[int, ...]) -> tuple[int, int]:
        return (values[tt], sum(values[d] for d in defenders))

    best_defence = max(facts.tricks_won[d] for d in defenders)
    lines = HandFacts(
        taker_team=0, trump=facts.trump, card_points=line(facts.card_points),
        # The defence line "takes every trick" only when one defender did (a capot).
        tricks_won=(facts.tricks_won[tt], best_defence),
        belote=line(facts.belote), declarations=line(facts.declarations), level=facts.level,
        capot_contract=facts.capot_contract, multiplier=facts.multiplier,
        last_caller_team=(None if facts.last_caller_team is None
                          else 0 if facts.last_caller_team == tt else 1),
        tricks=facts.tricks,
    )
    # The capot is a player's (one home: capot_side), and the lines are scored with it.
    capot = capot_side(rules, facts)
    two = _score_lines(rules, lines, Pot(pot.points, None if pot.team is None
                                         else 0 if pot.team == tt else 1),
                       None if capot is None else 0 if capot == tt else 1)
    factor = rules.senza_multiplier if facts.trump == NO_TRUMP else 1
    points = [p * factor for p in facts.card_points]
    if capot is not None:
        points[capot] += rules.capot_bonus * (factor if rules.senza_capot_multiplied else 1)
    scores = [0] * sides
    scores[tt] = two.scores[0]
    # A multiplied failed contract multiplies the defence line's score (seed 000: "si
    # applicano ai Punti i relativi Coefficienti moltiplicativi (2 e 4) e la Linea Vincente si
    # aggiudica il bottino"): each defender's own points are multiplied with it, so what is
    # shared is only the taker's part; unmultiplied, a defender who took nothing got a share
    # of the other defender's own points (a capot's 162 x 2 split 288 / 36).
    line_factor = (facts.multiplier if two.outcome == "failed"
                   and rules.multiplier_scope == "lines" else 1)
    own = [(points[d] + facts.belote[d] + facts.declarations[d]) * line_factor
           for d in defenders]
    pot_side: int | None = None
    defence = two.scores[1]
    if two.pot_winner == 1:
        pot_side = max(defenders, key=lambda d: (points[d], -defenders.index(d)))
        scores[pot_side] += two.pot_won
        defence -= two.pot_won
    elif two.pot_winner == 0:
        pot_side = tt
    if capot in defenders and defence < sum(own):
        # A fixed failed score (valdostana's 162, "il massimo") holds no capot bonus: the
        # defender who made the capot keeps his own card points, as a line of two would.
        own[defenders.index(capot)] -= ((points[capot] - facts.card_points[capot] * factor)
                                        * line_factor)
    if defence == sum(own):
        shares = own
    elif defence > sum(own):
        extra, odd = divmod(defence - sum(own), len(defenders))
        shares = [o + extra + (1 if i < odd else 0) for i, o in enumerate(own)]
    else:  # a multiplied made contract leaves the defence nothing
        extra, odd = divmod(defence, len(defenders))
        shares = [extra + (1 if i < odd else 0) for i in range(len(defenders))]
    for d, share in zip(defenders, shares, strict=True):
        scores[d] += share
    new_pot = two.pot
    if new_pot.team is not None:
        new_pot = Pot(new_pot.points, tt if new_pot.team == 0 else defenders[0])
    return HandOutcome(
        outcome=two.outcome, capot_team=capot, card_points=tuple(points),
        scores=tuple(scores), pot=new_pot, pot_winner=pot_side, pot_won=two.pot_won,
    )


_FROM_FACTS = -1  # _score_lines: the capot is read from the (two-line) facts themselves


def _score_lines(rules: Rules, facts: HandFacts, pot: Pot,
                 capot: int | None = _FROM_FACTS) -> HandOutcome:
    """Two lines: two teams of four players, or two players (``capot``: the line that made
    a capot when the caller knows it, three players' lines)."""
    tt, dt = facts.taker_team, 1 - facts.taker_team
    factor = rules.senza_multiplier if facts.trump == NO_TRUMP else 1
    points = [facts.card_points[0] * factor, facts.card_points[1] * factor]
    capot_team = capot_side(rules, facts) if capot == _FROM_FACTS else capot
    if capot_team is not None:
        capot_factor = factor if rules.senza_capot_multiplied else 1
        points[capot_team] += rules.capot_bonus * capot_factor
    hand_total = points[0] + points[1]
    belote, decl = facts.belote, facts.declarations
    counted = [
        points[t]
        + (belote[t] if rules.belote_counts_for_contract else 0)
        + (decl[t] if rules.declarations_count_for_contract else 0)
        for t in (0, 1)
    ]
    takers, defenders = counted[tt], counted[dt]
    needed = facts.level if facts.level else rules.taker_min_points

    if facts.capot_contract:
        outcome = "made" if facts.tricks_won[tt] == facts.tricks else "failed"
    elif takers == defenders and (not facts.level or takers >= needed):
        outcome = "litige"
        if facts.multiplier > 1 and rules.doubled_tie == "last_caller_loses":
            # Seed 000 (valdostana): with a contro the attackers win a tie, with a
            # surcontro the defenders do: the side that made the last call must beat.
            outcome = "failed" if facts.last_caller_team == tt else "made"
    elif takers >= needed and (takers > defenders or not rules.taker_must_beat_defenders):
        outcome = "made"
    else:
        outcome = "failed"

    own = [points[t] + belote[t] + decl[t] for t in (0, 1)]
    scores = [0, 0]
    new_pot = Pot()
    mult = facts.multiplier
    if outcome == "made":
        scores = own[:]
        if rules.made_adds_contract:
            scores[tt] += facts.level * (mult if rules.multiplier_scope == "contract" else 1)
        if mult > 1 and rules.multiplier_scope == "lines":
            scores[tt], scores[dt] = (own[0] + own[1]) * mult, 0
    elif outcome == "failed":
        # A fixed amount (valdostana 162, coinche 160) stays fixed even when the defenders
        # took every trick (seed 000: "il massimo ... è la somma di 162 e degli accusi");
        # otherwise every card point of the hand, the capot bonus included.
        base = rules.failed_defenders_points
        if base is None:
            base = hand_total
        scores[dt] = base + belote[dt] + decl[dt]
        if rules.failed_defenders_take_all_declarations:
            scores[dt] += decl[tt] + belote[tt]
        elif rules.failed_takers_keep_belote:
            scores[tt] = belote[tt]
        if rules.failed_adds_contract:
            scores[dt] += facts.level * (mult if rules.multiplier_scope == "contract" else 1)
        if mult > 1 and rules.multiplier_scope == "lines":
            scores[dt] *= mult
            redoubled = facts.last_caller_team == tt
            if redoubled and rules.surcontro_failed_points == "type_a":
                # "se il contratto è disatteso i Punti Tipo A sono quadruplicati (x4) e vanno
                # alla coppia difendente": both lines' own points, as when made.
                scores[dt] = (own[0] + own[1]) * mult
    else:
        # Seed 002: "el equipo que no ha tomado marca inmediatamente sus puntos, mientras que
        # los puntos del equipo atacante se vuelven a poner en juego"; belote never does, unless
        # tie_freezes_belote (reading of seed 001: "i punti restanti").
        scores[dt] = own[dt]
        frozen_belote = belote[tt] if rules.tie_freezes_belote else 0
        scores[tt] = (belote[tt] - frozen_belote
                      + (0 if rules.declarations_count_for_contract else decl[tt]))
        at_stake = (points[tt] + frozen_belote
                    + (decl[tt] if rules.declarations_count_for_contract else 0))
        new_pot = Pot(at_stake, tt)

    pot_winner: int | None = None
    pot_won = 0
    if pot.points:
        if outcome != "litige":
            pot_winner = tt if outcome == "made" else dt
            pot_won = pot.points
        elif rules.tie_rule == "prigione":
            # Seed 001: on a second tie in a row only one hand's points stay frozen; the
            # earlier prison goes to the team not now in prison.
            pot_winner, pot_won = dt, pot.points
        else:
            new_pot = Pot(pot.points + new_pot.points, tt)
        if pot_winner is not None:
            scores[pot_winner] += pot_won
    return HandOutcome(
        outcome=outcome,
        capot_team=capot_team,
        card_points=(points[0], points[1]),
        scores=(scores[0], scores[1]),
        pot=new_pot,
        pot_winner=pot_winner,
        pot_won=pot_won,
    )
