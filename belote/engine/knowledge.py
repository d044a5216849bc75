"""What one seat knows about the other hands, and worlds drawn within it: the one home of
hidden-card sampling.  :func:`belote.engine.resample.resample` (``Game.resample``) and the
expert's world sampling (:mod:`belote.ai.worlds`, which re-exports these names) both draw
from here.

Facts, not evidence.  From one seat's :class:`Observation` we keep only what the rules make
certain (RULES.md), whoever the other players are:

* cards whose place is known: the seat's own, the cards seen (played, in the trick, the
  turned card with the taker), declarations shown, the other card of an announced belote;
* what each card played proves under the obligations of the rules in force
  (:func:`belote.engine.obligations.proven_absent`): a player who did not follow the led
  suit, where following is owed, has none of it; one who had to trump or to overtrump and
  did not holds no trump (or no trump above the one on the table then).  These are
  rectangular facts (a card may or may not be in a hand);
* declarations named (an accuso "tierce" without its cards, a pinasca announcement): the
  hand was dealt one of the combinations that carry the name.  An either-or fact
  (:class:`NamedFact`), not rectangular;
* the monte (fewer than four players) or, during a take-or-pass auction, the deck: unseen
  cards in no hand, any card;
* during a take-or-pass auction (a turned card, no taker yet), the turned card lies face up
  on the table: in no hand, and not among the unseen cards.

Words said by convention (passo "no ace", aspetto, ancora/alzo, the conventional answers,
discard signals) are NOT facts: a person may say them of any hand.  They are evidence,
weighed by :class:`belote.engine.convention_evidence.ConventionEvidence` when a caller passes
it as ``model``.

Drawing (:func:`sample_world`).  With no model, every world consistent with the facts is
equally likely:

1. The rectangular facts: unseen cards are grouped by the set of bins (other seats, plus the
   monte or the undealt deck) allowed to hold them and dealt exactly uniformly by counting
   completions over capacity vectors (:mod:`belote.engine.uniform`): no retry loop.
2. The named declarations: each fact is a list of options (card sets one of which the hand
   holds: a combination for each name said, all the names together).  A tuple of options,
   one per fact, is drawn with probability proportional to the number of worlds that hold
   all of them (cards fixed, the rest counted as in 1), then a world within it, accepted
   with probability 1 / (the number of option tuples that world holds): every consistent
   world comes out with the same probability.  Beyond ``MAX_OPTION_TUPLES`` tuples the
   later facts are checked by rejection.
3. Residual facts, checked by rejection on the drawn world: the exact names a hand with
   those cards would announce (an option holds the name's cards; the names said are a
   function of the whole hand), and the tricks seen (:func:`could_have_played`: exact
   already under follow-suit rules, either-or without them).  At most ``MAX_DRAWS`` draws;
   no world in them raises :class:`ResampleError` (a position no hand can explain).

With a ``model`` (an :class:`belote.engine.evidence.Evidence`), worlds are weighed by
``exp(log_likelihood)``: where the model states an upper bound of its log-likelihood
(``max_log_likelihood``, as ConventionEvidence does: 0) by rejection, exact, accepting a
uniform world with probability ``exp(ll - bound)``, at most ``MODEL_DRAWS`` uniform draws
(past that, sampling-importance-resampling over those draws: counted in the plan's
:class:`SamplerCounts`, ``Knowledge.counts``); with no bound, by
sampling-importance-resampling over ``MODEL_DRAWS`` uniform draws (biased by
O(1/MODEL_DRAWS), never failing: a model with no bound cannot be used for exact
rejection).

A ``deadline`` (``time.monotonic()`` seconds) bounds a draw's time: the clock is read every
``CLOCK_EVERY`` uniform draws and at every model draw.  Past it, the uniform draw takes a
consistent world it set aside only for uniformity's sake, if it has one (a position with
more than one named option), and a model draw weighs the draws made so far; either is
counted (``late``) and logged.  A legal position never fails for want of time: with no
consistent world yet the draws go on (at most ``MAX_DRAWS``).
"""

from __future__ import annotations

import itertools
import logging
import math
import random
import time
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING

from belote.cards import CardSet, Rank
from belote.engine.evidence import Evidence, World
from belote.engine.obligations import could_have_played, proven_absent
from belote.engine.observation import Observation
from belote.engine.uniform import Deal, group_cards
from belote.rules.base import Rules
from belote.rules.declarations import (
    DeclarationRules,
    find_declarations,
    spoken_name,
    spoken_names_held,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

log = logging.getLogger(__name__)

# Either-or facts enumerated together at most (their options' product); the rest by rejection.
MAX_OPTION_TUPLES = 512
# Options of one seat's names taken together at most (beyond, its first open name alone).
MAX_NAMED_OPTIONS = 256
UNBOUNDED = 1 << 30  # what a name no table knows may score, for _scored_for_sure
# Draws before giving up on a world (only residual facts can reject; a legal position's true
# world is among those drawn from, so this bounds impossible inputs only).
MAX_DRAWS = 20_000
# Uniform draws a model's weights choose among (rejection cap, or the SIR pool).
MODEL_DRAWS = 64
# Uniform draws between two readings of the clock (a draw is a few microseconds).
CLOCK_EVERY = 256


@dataclass
class SamplerCounts:
    """What the draws of one :class:`Knowledge` cost and where they fell short (read by
    benchmarks and logs; ``Knowledge.counts``): uniform draws, draws rejected by a residual
    fact or for uniformity, model draws that took sampling-importance-resampling after
    ``MODEL_DRAWS`` rejections, and draws cut short by a deadline (a world less uniform, or
    less weighed, than promised)."""

    draws: int = 0
    rejected: int = 0
    model_fallbacks: int = 0
    late: int = 0


class ResampleError(RuntimeError):
    """No world (or game) is consistent with what the seat has seen: impossible input."""


@dataclass(frozen=True)
class NamedFact:
    """Seat ``seat`` was dealt a hand announcing ``names`` (a multiset, sorted; with
    ``bluff``: or those names less that one, a sequence name that may be a bluff); one of
    ``options`` (card sets to hold now) is held: a necessary condition enumerated by the
    sampler, the names themselves checked on the whole hand."""

    seat: int
    names: tuple[str, ...]
    name_only: bool
    bluff: str | None
    options: tuple[CardSet, ...]


@dataclass(frozen=True)
class Knowledge:
    """What ``seat`` knows about the other hands right now: facts only."""

    seat: int
    own: CardSet  # the seat's own hand
    unseen: CardSet  # cards in other hands (or the monte / the deck) whose place is unknown
    # Per seat (as many as the rules' players):
    known: tuple[CardSet, ...]  # cards known to be in each hand
    forbidden: tuple[CardSet, ...]  # cards a seat cannot hold
    sizes: tuple[int, ...]  # how many unknown cards each seat holds
    # The hand's cards so far, (leader, cards) by trick, oldest first, under ``trump`` and
    # ``rules``: a world must be able to have played them (could_have_played).
    tricks: tuple[tuple[int, tuple[int, ...]], ...] = ()
    trump: int = -1
    rules: Rules | None = None
    played: tuple[CardSet, ...] = ()  # each seat's cards played this hand
    named: tuple[NamedFact, ...] = ()  # declarations named, not shown
    # The observation read (for a model's log-likelihood); not part of the facts' identity.
    observation: Observation | None = field(default=None, compare=False, repr=False)

    @cached_property
    def _plan(self) -> _Plan:
        return _Plan(self)

    @property
    def counts(self) -> SamplerCounts:
        """The draws made from this knowledge so far (:class:`SamplerCounts`)."""
        return self._plan.counts


def _infer_play(rules: Rules, trump: int, leader: int, cards: tuple[int, ...],
                forbidden: list[CardSet]) -> None:
    """Add what the cards of one trick (in play order) prove about the players' hands."""
    for i in range(1, len(cards)):
        forbidden[(leader + i) % rules.players] |= proven_absent(cards[:i], cards[i], trump,
                                                                 rules)


def knowledge(obs: Observation) -> Knowledge:
    """What ``obs.seat`` can deduce about the other hands (facts only: see the module doc)."""
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
    if obs.turned is not None and obs.taker is None:
        out |= 1 << obs.turned  # the auction's turned card is on the table: in no hand
    for s in range(n):
        known[s] |= obs.shown[s] if s < len(obs.shown) else 0
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
    played = [0] * n
    for leader, cards in tricks:
        for i, card in enumerate(cards):
            played[(leader + i) % n] |= 1 << card
    if obs.trump is not None:
        for leader, cards in tricks:
            _infer_play(rules, obs.trump, leader, cards, forbidden)
    sizes = [0] * n
    for s in range(n):
        if s != seat:
            sizes[s] = obs.hand_sizes[s] - known[s].bit_count()
        forbidden[s] &= ~known[s]
    unseen = ~out & ~in_trick & 0xFFFFFFFF
    for s in range(n):
        unseen &= ~known[s]
    named = _named_facts(obs, seat, known, forbidden, unseen, played)
    return Knowledge(
        seat=seat,
        own=obs.hand,
        unseen=unseen,
        known=tuple(known),
        forbidden=tuple(forbidden),
        sizes=tuple(sizes),
        tricks=tricks if obs.trump is not None else (),
        trump=obs.trump if obs.trump is not None else -1,
        rules=rules,
        played=tuple(played),
        named=named,
        observation=obs,
    )


# ---------------------------------------------------------------- declarations named
def _names_of(hand: CardSet, decl: DeclarationRules, trump: int) -> tuple[str, ...]:
    """What a hand announces (sorted): the name-only rules' every name it may say, else the
    names of every declaration it holds, as the engine says them."""
    held = find_declarations(hand, decl, trump)
    if decl.name_only:
        return tuple(sorted(spoken_names_held(held, decl)))
    return tuple(sorted(d.name if decl.carre_rank_said or d.kind != "carre"
                        else spoken_name(d) for d in held))


@lru_cache(maxsize=64)
def _combinations(decl: DeclarationRules, trump: int) -> dict[str, tuple[CardSet, ...]]:
    """Each name, the smallest card sets (runs, carrés) that announce it."""
    candidates = [sum(1 << (s * 8 + r) for s in range(4)) for r in range(8)]  # carrés
    for suit in range(4):
        for length in range(3, 9):
            for start in range(0, 9 - length):
                candidates.append(((1 << length) - 1) << (suit * 8 + start))
    by_name: dict[str, list[CardSet]] = {}
    for cards in candidates:
        for name in set(_names_of(cards, decl, trump)):
            by_name.setdefault(name, []).append(cards)
    out: dict[str, tuple[CardSet, ...]] = {}
    for name, sets in by_name.items():
        minimal = [c for c in sets if not any(o != c and o & c == o for o in sets)]
        out[name] = tuple(minimal)
    return out


def _named_facts(obs: Observation, seat: int, known: list[CardSet], forbidden: list[CardSet],
                 unseen: CardSet, played: list[CardSet]) -> tuple[NamedFact, ...]:
    rules = obs.ruleset
    assert rules is not None
    decl = rules.declarations
    if decl is None or obs.trump is None or not obs.declarations_said:
        return ()
    combos = _combinations(decl, obs.trump)
    facts = []
    for index, (who, said) in enumerate(obs.declarations_said):
        if who == seat:
            continue
        bluff = None
        if decl.bluffs_allowed:
            # showing.bluff: a sequence equal to the last one an opponent announced may be
            # said without being held (any other seat, without partnerships).
            for other, names in reversed(obs.declarations_said[:index]):
                if rules.side_of(other) != rules.side_of(who):
                    sequences = [x for x in names if x.startswith("sequence")]
                    if sequences:
                        if sequences[0] in said:
                            bluff = sequences[0]
                        break
        if bluff is not None and _scored_for_sure(obs, who, bluff, combos):
            bluff = None
        sure = list(said)
        if bluff is not None:
            sure.remove(bluff)
        may_hold = played[who] | known[who] | (unseen & ~forbidden[who])
        options = _joint_options(sure, combos, may_hold, unseen)
        if options is None:
            options = _first_open_options(sure, combos, may_hold, unseen)
        facts.append(NamedFact(who, tuple(sorted(said)), decl.name_only, bluff, options))
    return tuple(facts)


def _scored_for_sure(obs: Observation, who: int, bluff: str,
                     combos: dict[str, tuple[CardSet, ...]]) -> bool:
    """Whether the resolved declaration points prove ``who``'s ``bluff`` name real: his side
    scored more than every other name it said could bring, with every penalty it may have
    won by refuting an opponent's sequence (a fake sequence never scores; a refuted fake
    shows no card, and the observation does not say who refuted).  Only where nothing
    unannounced can count (no side showed, not ``best_team_all``)."""
    rules = obs.ruleset
    assert rules is not None and rules.declarations is not None
    decl = rules.declarations
    if decl.policy == "best_team_all" or any(obs.shown) or obs.trump is None:
        return False
    side = rules.side_of(who)
    names = [name for seat, said in obs.declarations_said if rules.side_of(seat) == side
             for name in said]
    names.remove(bluff)
    bound = sum(_name_bound(name, combos, decl, obs.trump) for name in names)
    # (Any opponent's announcement counted: a bound, whatever its sequence is called.)
    refutable = sum(1 for seat, said in obs.declarations_said if rules.side_of(seat) != side
                    and said)
    return obs.declaration_points[side] > bound + refutable * decl.bluff_penalty


def _name_bound(name: str, combos: dict[str, tuple[CardSet, ...]], decl: DeclarationRules,
                trump: int) -> int:
    """The most a declaration announced as ``name`` can score (a name not known: no bound)."""
    if name not in combos:
        return UNBOUNDED
    return max(sum(d.points for d in find_declarations(cards, decl, trump))
               for cards in combos[name])


def _possible(name: str, combos: dict[str, tuple[CardSet, ...]],
              may_hold: CardSet) -> list[CardSet]:
    return [c for c in combos.get(name, ()) if c & may_hold == c]


def _joint_options(sure: list[str], combos: dict[str, tuple[CardSet, ...]], may_hold: CardSet,
                   unseen: CardSet) -> tuple[CardSet, ...] | None:
    """Every name said at once: the unseen cards of one combination per name (a name said
    twice, two different combinations), the smallest such sets; () when nothing is left to
    enumerate (held for sure, or impossible: the residual check refuses); None past
    ``MAX_NAMED_OPTIONS`` (the caller enumerates one name).  Enumerating the names together,
    not the first alone, is what keeps two tierces from being drawn by rejection."""
    partial: set[tuple[CardSet, int, int]] = {(0, -1, -1)}  # (cards, last name, last index)
    for position, name in enumerate(sorted(sure)):
        possible = _possible(name, combos, may_hold)
        if not possible:
            return ()
        same = position > 0 and sorted(sure)[position - 1] == name
        grown: set[tuple[CardSet, int, int]] = set()
        for cards, _, last in partial:
            start = last + 1 if same else 0  # a name said twice: two different sets
            for index in range(start, len(possible)):
                grown.add((cards | possible[index], position, index))
        if len(grown) > MAX_NAMED_OPTIONS * 4:
            return None
        partial = grown
    pieces = {cards & unseen for cards, _, _ in partial}
    if not pieces or 0 in pieces:
        return ()
    # The smallest sets: by size, each kept unless one kept already lies within it (a set's
    # proper subsets are smaller); past MAX_NAMED_OPTIONS kept, given up.
    minimal: list[CardSet] = []
    for piece in sorted(pieces, key=lambda p: (p.bit_count(), p)):
        if any(kept & piece == kept for kept in minimal):
            continue
        minimal.append(piece)
        if len(minimal) > MAX_NAMED_OPTIONS:
            return None
    return tuple(sorted(minimal))


def _first_open_options(sure: list[str], combos: dict[str, tuple[CardSet, ...]],
                        may_hold: CardSet, unseen: CardSet) -> tuple[CardSet, ...]:
    """The options of the first name not held for sure (the others are checked as residual
    facts with the names): the fallback when the names together have too many options."""
    for name in sorted(set(sure)):
        possible = tuple(c & unseen for c in _possible(name, combos, may_hold))
        if not possible:
            return ()  # impossible: left to the residual check, which will refuse
        if any(p == 0 for p in possible):
            continue  # held for sure (cards played or known)
        return tuple(sorted(set(possible)))
    return ()


def _names_hold(fact: NamedFact, dealt: CardSet, decl: DeclarationRules, trump: int) -> bool:
    names = _names_of(dealt, decl, trump)
    if fact.name_only:
        return all(name in names for name in fact.names)
    if names == fact.names:
        return True
    if fact.bluff is None:
        return False
    rest = list(fact.names)
    rest.remove(fact.bluff)
    return names == tuple(rest)


# ---------------------------------------------------------------- drawing
class _Plan:
    """The counting done once per :class:`Knowledge`: bins, groups and option tuples."""

    def __init__(self, info: Knowledge) -> None:
        n = len(info.sizes)
        self.info = info
        self.counts = SamplerCounts()
        self.seats = [s for s in range(n) if s != info.seat and info.sizes[s] > 0]
        bin_of = {s: b for b, s in enumerate(self.seats)}
        capacity = [info.sizes[s] for s in self.seats]
        cards = [c for c in range(32) if info.unseen >> c & 1]
        spare = len(cards) - sum(capacity)
        if spare < 0 or any(size < 0 for size in info.sizes):
            raise ResampleError("more cards in hands than unseen cards: no world fits")
        self.spare_bin = len(capacity) if spare > 0 else -1
        if spare > 0:
            capacity.append(spare)  # the monte / the deck: any card
        allowed: dict[int, int] = {}
        for c in cards:
            mask = 0
            for s in self.seats:
                if not info.forbidden[s] >> c & 1:
                    mask |= 1 << bin_of[s]
            if spare > 0:
                mask |= 1 << self.spare_bin
            allowed[c] = mask
        self.bin_of = bin_of
        self.capacity = capacity
        self.allowed = allowed
        # Either-or facts enumerated (seat, options) while their product stays small.
        self.enumerated: list[NamedFact] = []
        product = 1
        for fact in info.named:
            if fact.options and fact.seat in bin_of:
                if product * len(fact.options) > MAX_OPTION_TUPLES:
                    break
                product *= len(fact.options)
                self.enumerated.append(fact)
        self.choices: list[tuple[int, list[CardSet], Deal]] = []
        for combo in itertools.product(*(f.options for f in self.enumerated)):
            fixed = [0] * len(capacity)
            taken = 0
            ok = True
            for fact, option in zip(self.enumerated, combo, strict=True):
                b = bin_of[fact.seat]
                if option & taken & ~fixed[b] or any(
                        not allowed[c] >> b & 1 for c in range(32) if option >> c & 1):
                    ok = False
                    break
                fixed[b] |= option
                taken |= option
            if not ok:
                continue
            room = [capacity[b] - fixed[b].bit_count() for b in range(len(capacity))]
            if any(r < 0 for r in room):
                continue
            deal = Deal(group_cards({c: m for c, m in allowed.items() if not taken >> c & 1}),
                        room)
            weight = deal.count()
            if weight:
                self.choices.append((weight, fixed, deal))
        self.total = sum(w for w, _, _ in self.choices)
        if self.total == 0:
            raise ResampleError("no world is consistent with the facts seen")

    def draw(self, rng: random.Random,
             deadline: float | None = None) -> tuple[CardSet, ...]:
        """One world drawn uniformly among those consistent with every fact; past
        ``deadline``, a consistent one set aside for uniformity's sake, if any (counted in
        ``late``, see the module doc)."""
        info = self.info
        counts = self.counts
        spare: tuple[CardSet, ...] | None = None  # consistent, rejected for uniformity only
        for draw in range(1, MAX_DRAWS + 1):
            counts.draws += 1
            if (spare is not None and deadline is not None and draw % CLOCK_EVERY == 0
                    and time.monotonic() >= deadline):
                counts.late += 1
                log.info("sampler: deadline passed after %d draws; a consistent world "
                         "taken without the uniformity check (%d such so far)", draw,
                         counts.late)
                return spare
            pick = rng.randrange(self.total)
            chosen = self.choices[-1]
            for choice in self.choices:
                if pick < choice[0]:
                    chosen = choice
                    break
                pick -= choice[0]
            _, fixed, deal = chosen
            dealt = deal.draw(rng)
            assert dealt is not None
            bins = [d | f for d, f in zip(dealt, fixed, strict=True)]
            hands = list(info.known)
            hands[info.seat] = 0
            for s, b in self.bin_of.items():
                hands[s] |= bins[b]
            if self.enumerated:
                held = 1
                for fact in self.enumerated:
                    held *= sum(1 for o in fact.options if hands[fact.seat] & o == o)
                if held > 1 and rng.randrange(held):
                    counts.rejected += 1
                    if spare is None and deadline is not None and _residual_ok(info, hands):
                        spare = tuple(hands)
                    continue
            if _residual_ok(info, hands):
                return tuple(hands)
            counts.rejected += 1
        raise ResampleError(f"no world consistent with what was seen in {MAX_DRAWS} draws")


def _residual_ok(info: Knowledge, hands: Sequence[CardSet]) -> bool:
    """The facts not dealt exactly: names announced, and the tricks seen."""
    rules = info.rules
    if rules is None:
        return True
    if info.named:
        decl = rules.declarations
        assert decl is not None
        for fact in info.named:
            dealt = hands[fact.seat] | info.played[fact.seat]
            if not _names_hold(fact, dealt, decl, info.trump):
                return False
    if info.tricks:
        full = list(hands)
        full[info.seat] = info.own
        if not could_have_played(full, info.tricks, info.trump, rules):
            return False
    return True


def fits(info: Knowledge, hands: tuple[CardSet, ...],
         rng: random.Random | None = None) -> bool:
    """Whether a world (each seat's cards in hand now; the sampling seat's entry ignored) is
    consistent with the facts of ``info``: one :func:`sample_world` could draw.  ``rng`` is
    not used (kept for callers of the old, partly soft, check)."""
    held = 0
    for s in range(len(info.sizes)):
        if s == info.seat:
            continue
        free = hands[s] & ~info.known[s]
        if (hands[s] & info.known[s] != info.known[s] or free & info.forbidden[s]
                or free & ~info.unseen or free & held or free.bit_count() != info.sizes[s]):
            return False
        held |= free
    return _residual_ok(info, hands)


def world_of(info: Knowledge, hands: Sequence[CardSet], rng: random.Random) -> World:
    """The :class:`World` an evidence model reads: every hand now, as dealt, and the first
    packets (where a turned card splits the deal, which of a seat's dealt cards came first
    is not known to the sampling seat: drawn uniformly)."""
    full = list(hands)
    full[info.seat] = info.own
    played = info.played or (0,) * len(full)
    dealt = tuple(h | p for h, p in zip(full, played, strict=True))
    rules = info.rules
    obs = info.observation
    if (rules is None or not rules.turned_card or obs is None or obs.taker is None
            or obs.phase != 2):
        return World(tuple(full), dealt, dealt)
    first_size = sum(rules.deal_packets)
    turned = 1 << obs.turned if obs.turned is not None else 0
    first = []
    for cards in dealt:
        pool = [c for c in range(32) if cards >> c & 1 and not turned >> c & 1]
        chosen = 0
        for c in rng.sample(pool, min(first_size, len(pool))):
            chosen |= 1 << c
        first.append(chosen)
    return World(tuple(full), dealt, tuple(first))


def sample_world(info: Knowledge, rng: random.Random, tries: int | None = None,
                 deadline: float | None = None,
                 model: Evidence | None = None) -> tuple[CardSet, ...]:
    """The other seats' hands in one random world (the sampling seat's own hand is 0):
    uniform among the worlds consistent with the facts, or weighed by ``model`` (see the
    module doc), within ``deadline`` (``time.monotonic()`` seconds; past it, the best world
    found, counted: see the module doc).  ``tries`` is accepted for older callers and not
    used: the draw is exact and needs no retry budget.  Raises :class:`ResampleError` only
    when no world fits (impossible input)."""
    plan = info._plan
    if model is None:
        return plan.draw(rng, deadline)
    obs = info.observation
    if obs is None:
        raise ValueError("a model needs the knowledge's observation (knowledge(obs))")
    bound = getattr(model, "max_log_likelihood", None)
    pool: list[tuple[float, tuple[CardSet, ...]]] = []
    for _ in range(MODEL_DRAWS):
        hands = plan.draw(rng, deadline)
        weight = model.log_likelihood(obs, world_of(info, hands, rng))
        if bound is not None and math.log(1.0 - rng.random()) <= weight - bound:
            return hands  # accepted with probability exp(weight - bound)
        pool.append((weight, hands))
        if (deadline is not None and len(pool) < MODEL_DRAWS
                and time.monotonic() >= deadline):
            plan.counts.late += 1
            log.info("sampler: deadline passed after %d model draws; the world weighed "
                     "among them (%d such so far)", len(pool), plan.counts.late)
            break
    if bound is not None and len(pool) == MODEL_DRAWS:
        plan.counts.model_fallbacks += 1
        log.debug("model rejection: no world accepted in %d draws; resampling them",
                  MODEL_DRAWS)
    top = max(w for w, _ in pool)
    weights = [math.exp(w - top) for w, _ in pool]
    return rng.choices([h for _, h in pool], weights)[0]


def sample_whole_world(info: Knowledge, rng: random.Random,
                       deadline: float | None = None,
                       model: Evidence | None = None) -> tuple[CardSet, ...]:
    """:func:`sample_world` with the sampling seat's own hand in its place: every hand of
    one world, as a search takes it."""
    world = list(sample_world(info, rng, deadline=deadline, model=model))
    world[info.seat] = info.own
    return tuple(world)
