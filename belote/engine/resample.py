"""Resampling a game from one seat's information state (OpenSpiel's ``ResampleFromInfostate``).

:func:`resample` returns a new :class:`~belote.engine.state.Game` that ``seat`` cannot tell
from the real one: same rules, same actions in the same order, same cards in ``seat``'s own
hand (in the same packets), same turned card; the other hands are drawn at random among those
consistent with the rules' facts that ``seat`` has seen (:mod:`belote.engine.knowledge`):
uniformly with no ``model``, weighed by an :class:`~belote.engine.evidence.Evidence` with one
(for the hand in progress; finished hands are always drawn uniformly).

How, hand by hand (each deal of the match's log is one segment):

1. The hand in progress is drawn at its current state: the seat's observation gives the
   facts (:func:`~belote.engine.knowledge.knowledge`) and
   :func:`~belote.engine.knowledge.sample_world` draws the other hands (exactly uniform, see
   there).  The cards each seat played in the hand are added back, and a deck is built that
   deals exactly those hands: ``seat``'s own cards stay where they were; which of another
   seat's cards came in the first packets is unknown to ``seat``, so every split is equally
   likely (the seat's cards are put in its slots in a uniformly random order); the cards
   still in the deck or in the monte fill the other slots in random order.
2. A finished hand is drawn at its *pivot*, the last state ``seat`` saw with the cards still
   out (before the hand's last action), with what that action showed (the last card's
   holder, an ottava's suit); the game replayed through the last action must give ``seat``
   the same observation as the real one after it (scores, the monte's points at the last
   trick).  Finished hands are drawn once per game and seat and kept
   (``Game._resample_cache``, keyed by the log they stand for): a resample in the tenth hand
   replays only the hand in progress.  Nothing in that cache comes from the true hidden
   cards: it holds games built from sampled decks only.
3. The segment's actions are replayed, each one validated, on the game so far with that
   deck, and ``seat``'s observation must come out equal.  The facts drawn within make this
   almost always so; what they leave to the replay (declaration points and who scores them,
   the monte's points) is rejected and drawn again, at most ``tries`` times.

Because the result is a replay of the log, everything the engine derives from the hands
(belote claims, declarations held, legal masks) comes from the sampled hands: nothing computed
from the true hands survives.  :class:`ResampleError` (a ``RuntimeError``) is the only error
for a position no deal explains.
"""

from __future__ import annotations

import dataclasses
import random
from typing import TYPE_CHECKING

from belote.cards import SUIT_MASKS, Card, CardSet
from belote.engine import actions as A
from belote.engine.evidence import Evidence
from belote.engine.knowledge import Knowledge, ResampleError, knowledge, sample_world
from belote.engine.observation import observe
from belote.errors import IllegalActionError

if TYPE_CHECKING:
    from belote.engine.state import Game

__all__ = ["DEFAULT_TRIES", "ResampleError", "resample"]

DEFAULT_TRIES = 2000  # draws per hand whose replay may still disagree, before an error

Segment = tuple[tuple[Card, ...], list[tuple[int, int]]]


def resample(game: Game, seat: int, rng: random.Random | int | None = None,
             tries: int = DEFAULT_TRIES, model: Evidence | None = None) -> Game:
    """A game consistent with everything ``seat`` knows in ``game`` (see the module doc)."""
    from belote.engine.state import CHANCE, Phase

    if type(seat) is not int or not 0 <= seat < game.players:
        raise ValueError(f"seat must be 0..{game.players - 1}, not {seat!r}")
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    log = game._log
    in_progress = game.phase in (Phase.CUT, Phase.BIDDING, Phase.PLAYING)
    current = len(log)
    if in_progress:
        current = max(i for i, (who, _) in enumerate(log) if who == CHANCE)
    result = _finished_hands(game, seat, current, rng, tries).clone()
    result._resample_cache = {}
    if not in_progress:
        return result
    deck: tuple[Card, ...] = log[current][1]  # type: ignore[assignment]
    actions: list[tuple[int, int]] = log[current + 1:]  # type: ignore[assignment]
    if game.phase == Phase.CUT:
        # Nothing of this deck is dealt yet: any order is consistent.
        if not _replay(result, rng.sample(range(len(deck)), len(deck)), actions):
            raise ResampleError("the offered deck could not be replayed")
        return result
    target = observe(game, seat)
    info = _turned_out(game, knowledge(target))
    for _attempt in range(tries):
        world = sample_world(info, rng, model=model)
        candidate = result.clone()
        if (_replay(candidate, _build_deck(game, seat, deck, world, rng), actions)
                and observe(candidate, seat) == target):
            candidate._resample_cache = {}
            return candidate
    raise ResampleError(f"no deal of the hand in progress consistent with seat {seat}'s "
                        f"view was found in {tries} draws")


def _finished_hands(game: Game, seat: int, end: int, rng: random.Random, tries: int) -> Game:
    """A game whose log has ``game``'s actions up to ``end`` (finished hands only), each
    deck drawn for ``seat``; kept in ``game._resample_cache`` and extended hand by hand."""
    from belote.engine.state import CHANCE, Game

    prefix = tuple(game._log[:end])
    cache = game._resample_cache
    cached = cache.get(seat)
    if cached is not None and cached[0] == prefix:
        return cached[1]
    truth = Game(game.rules, game.first_dealer)
    result = Game(game.rules, game.first_dealer)
    start = 0
    if cached is not None and len(cached[0]) <= end and prefix[:len(cached[0])] == cached[0]:
        start, result, truth = len(cached[0]), cached[1].clone(), cached[2].clone()
    segments: list[Segment] = []
    for who, what in prefix[start:]:
        if who == CHANCE:
            segments.append((what, []))  # type: ignore[arg-type]
        else:
            segments[-1][1].append((who, what))  # type: ignore[arg-type]
    for deck, actions in segments:
        result = _finished_hand(truth, result, seat, deck, actions, rng, tries)
        truth.deal(deck)
        for who, action in actions:
            truth.apply(action, who)
    truth._resample_cache, result._resample_cache = {}, {}
    cache[seat] = (prefix, result, truth)
    return result


def _finished_hand(truth: Game, result: Game, seat: int, deck: tuple[Card, ...],
                   actions: list[tuple[int, int]], rng: random.Random, tries: int) -> Game:
    """``result`` with one finished hand (``deck``, ``actions``) drawn for ``seat``."""
    pivot = truth.clone()
    pivot._resample_cache = {}
    pivot.deal(deck)
    seen = actions[:-1]
    for who, action in seen:
        pivot.apply(action, who)
    last = actions[-1]
    after = pivot.clone()
    after.apply(last[1], last[0])
    target = observe(after, seat)
    info = _pivot_knowledge(pivot, seat, last)
    for _attempt in range(tries):
        candidate = result.clone()
        if pivot.phase == 4:  # Phase.CUT: nothing of this deck was dealt
            new_deck = rng.sample(range(len(deck)), len(deck))
        else:
            new_deck = _build_deck(pivot, seat, deck, sample_world(info, rng), rng)
        if (_replay(candidate, new_deck, actions) and observe(candidate, seat) == target):
            return candidate
    raise ResampleError(f"no deal of hand {truth.deal_no + 1} consistent with seat {seat}'s "
                        f"view was found in {tries} draws")


def _turned_out(truth: Game, info: Knowledge) -> Knowledge:
    """During the auction the turned card lies face up: in no hand."""
    if truth.turned >= 0 and truth.contract is None and info.unseen >> truth.turned & 1:
        return dataclasses.replace(info, unseen=info.unseen & ~(1 << truth.turned))
    return info


def _pivot_knowledge(truth: Game, seat: int, last: tuple[int, int]) -> Knowledge:
    """What ``seat`` knows at a finished hand's pivot, plus what its last action showed."""
    obs = observe(truth, seat)
    if A.is_bid(last[1]):
        obs = dataclasses.replace(obs, bids=(*obs.bids, last))
    info = _turned_out(truth, knowledge(obs))
    if A.is_play(last[1]) and last[0] != seat:
        # The hand's last card was seen: it was in that hand (with a monte, fewer than four
        # players, the sampler could otherwise leave it out).
        card = A.played_card(last[1])
        known = list(info.known)
        sizes = list(info.sizes)
        if not known[last[0]] >> card & 1:
            known[last[0]] |= 1 << card
            sizes[last[0]] -= 1
        info = dataclasses.replace(info, unseen=info.unseen & ~(1 << card),
                                   known=tuple(known), sizes=tuple(sizes))
    if last[1] == A.OTTAVA and last[0] != seat:
        # The ottava shows the whole suit: its holder is public.
        shown = next(m for m in SUIT_MASKS if truth.hands[last[0]] & m == m)
        known = list(info.known)
        sizes = list(info.sizes)
        fresh = shown & ~known[last[0]]
        known[last[0]] |= fresh
        sizes[last[0]] -= fresh.bit_count()
        info = dataclasses.replace(info, unseen=info.unseen & ~shown,
                                   known=tuple(known), sizes=tuple(sizes))
    return info


def _deck_positions(truth: Game) -> tuple[list[list[int]], list[list[int]], int]:
    """Deck indices of each seat's first packets and of its completion cards, and the turned
    card's index (-1 without one).  Completion indices exist once a contract is made.

    Indices are in the deck as shuffled (the one logged), before any cut: the card dealt
    ``i``-th came from index ``(i + cut depth) % 32`` of it."""
    first, completion, turned_at = _dealt_positions(truth)
    shift = truth.cut_depth
    size = len(truth.deck)

    def uncut(indices: list[int]) -> list[int]:
        return [(i + shift) % size for i in indices]

    return ([uncut(f) for f in first], [uncut(c) for c in completion],
            -1 if turned_at < 0 else (turned_at + shift) % size)


def _dealt_positions(truth: Game) -> tuple[list[list[int]], list[list[int]], int]:
    """:func:`_deck_positions` in the deck as dealt (after the cut)."""
    rules = truth.rules
    n = truth.players
    order = [(truth.dealer + 1 + i) % n for i in range(n)]
    first: list[list[int]] = [[] for _ in range(n)]
    completion: list[list[int]] = [[] for _ in range(n)]
    position = 0
    for packet in rules.deal_packets:
        for s in order:
            first[s].extend(range(position, position + packet))
            position += packet
    turned_at = position if rules.turned_card else -1
    contract = truth.contract
    if rules.turned_card and contract is not None:
        position += 1
        if rules.deal_rest_from_taker:  # seed 002: "se reanuda a partir del tomador"
            order = [(contract.taker + i) % 4 for i in range(4)]
        for s in order:
            n = 2 if s == contract.taker and contract.takes_turned_card else 3
            completion[s].extend(range(position, position + n))
            position += n
    return first, completion, turned_at


def _played_by(truth: Game) -> list[CardSet]:
    """The cards each seat has played in the hand so far."""
    n = truth.players
    played = [0] * n
    tricks = [*truth.trick_history, (truth.leader, tuple(truth.trick))]
    for leader, cards in tricks:
        for i, card in enumerate(cards):
            played[(leader + i) % n] |= 1 << card
    return played


def _build_deck(truth: Game, seat: int, deck: tuple[Card, ...], world: tuple[CardSet, ...],
                rng: random.Random) -> list[Card]:
    """A deck that deals ``world`` (the other hands at ``truth``'s state), ``seat``'s cards
    unmoved, each other seat's cards in its slots in a uniformly random order."""
    first, completion, turned_at = _deck_positions(truth)
    new: list[Card] = [-1] * len(deck)
    used = 0
    for index in (*first[seat], *completion[seat]):
        new[index] = deck[index]
        used |= 1 << deck[index]
    if turned_at >= 0:
        new[turned_at] = deck[turned_at]
        used |= 1 << deck[turned_at]
    played = _played_by(truth)
    contract = truth.contract
    for s in range(truth.players):
        if s == seat:
            continue
        cards = world[s] | played[s]
        if (turned_at >= 0 and contract is not None and s == contract.taker
                and contract.takes_turned_card):
            cards &= ~(1 << deck[turned_at])
        held = [c for c in range(32) if cards >> c & 1]
        rng.shuffle(held)  # which came in the first packets is unknown: every split alike
        slots = first[s] + completion[s]
        if len(held) != len(slots):
            raise ResampleError(f"seat {s} would be dealt {len(held)} cards, not {len(slots)}")
        for index, card in zip(slots, held, strict=True):
            new[index] = card
            used |= 1 << card
    rest = [c for c in range(32) if not used >> c & 1]
    rng.shuffle(rest)  # cards still in the deck: nobody has seen them
    free = [i for i, c in enumerate(new) if c < 0]
    for index, card in zip(free, rest, strict=True):
        new[index] = card
    return new


def _replay(game: Game, deck: list[Card], actions: list[tuple[int, int]]) -> bool:
    """Deal ``deck`` and apply ``actions``, each validated; False at the first illegal one."""
    try:
        game.deal(deck)
        for who, action in actions:
            game.apply(action, who)
    except IllegalActionError:
        return False
    return True
