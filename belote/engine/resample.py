"""Resampling a game from one seat's information state (OpenSpiel's ``ResampleFromInfostate``).

:func:`resample` returns a new :class:`~belote.engine.state.Game` that ``seat`` cannot tell
from the real one: same rules, same actions in the same order, same cards in ``seat``'s own
hand (in the same packets), same turned card; the other hands are drawn at random among those
consistent with everything ``seat`` has seen.

How, hand by hand (each deal of the match's log is one segment):

1. The *pivot* of a segment is the last state of it that ``seat`` saw with the cards still
   out: the current state for the hand in progress, the state before the last action for a
   finished hand (its last card, its last pass, or an ottava).
2. :func:`belote.engine.knowledge.knowledge` turns ``seat``'s observation at the pivot into hard
   facts (cards whose holder is known, voids and trump ceilings that the card-play
   obligations prove, the auction's words) and :func:`~belote.engine.knowledge.sample_world` draws
   the other hands within them.  The cards each seat played in the hand are added back, and
   a deck is built that deals exactly those hands (``seat``'s own cards stay where they were;
   which of another seat's cards came in the first packets is unknown, so it is drawn too).
3. The segment's actions are replayed, each one validated, on a fresh game with that deck;
   ``seat``'s observation at the pivot must come out equal.  A draw that breaks anything (a
   declaration the sampled hand does not hold, a belote announced without K+Q, declaration
   points that differ) is rejected and drawn again.

Because the result is a replay of the log, everything the engine derives from the hands
(belote claims, declarations held, legal masks) comes from the sampled hands: nothing computed
from the true hands survives.
"""

from __future__ import annotations

import dataclasses
import random
from typing import TYPE_CHECKING

from belote.cards import SUIT_MASKS, Card, CardSet
from belote.engine import actions as A
from belote.engine.knowledge import Knowledge, knowledge, sample_world
from belote.engine.observation import observe
from belote.errors import IllegalActionError

if TYPE_CHECKING:
    from belote.engine.state import Game

DEFAULT_TRIES = 2000  # draws per hand before giving up with an error


class ResampleError(RuntimeError):
    """No game consistent with the seat's information state was found in the tries allowed."""


def resample(game: Game, seat: int, rng: random.Random | int | None = None,
             tries: int = DEFAULT_TRIES) -> Game:
    """A game consistent with everything ``seat`` knows in ``game`` (see the module doc)."""
    from belote.engine.state import CHANCE, Game, Phase

    if type(seat) is not int or not 0 <= seat < game.players:
        raise ValueError(f"seat must be 0..{game.players - 1}, not {seat!r}")
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    log = game.log
    segments: list[tuple[tuple[Card, ...], list[tuple[int, int]]]] = []
    for who, what in log:
        if who == CHANCE:
            segments.append((what, []))  # type: ignore[arg-type]
        else:
            segments[-1][1].append((who, what))  # type: ignore[arg-type]
    in_progress = game.phase in (Phase.CUT, Phase.BIDDING, Phase.PLAYING)

    truth = Game(game.rules, game.first_dealer)
    result = Game(game.rules, game.first_dealer)
    for index, (deck, actions) in enumerate(segments):
        finished = index < len(segments) - 1 or not in_progress
        seen = actions[:-1] if finished else actions
        truth.deal(deck)
        for who, action in seen:
            truth.apply(action, who)
        pivot_obs = observe(truth, seat)
        info = _pivot_knowledge(truth, seat, actions[-1] if finished else None)
        start = result.clone()
        for _attempt in range(tries):
            candidate = start.clone()
            if truth.phase == Phase.CUT:
                # Nothing of this deck is dealt yet: any order is consistent.
                new_deck = rng.sample(range(len(deck)), len(deck))
            else:
                new_deck = _build_deck(truth, seat, deck, info, rng)
            if _replay(candidate, new_deck, seen) and observe(candidate, seat) == pivot_obs:
                break
        else:
            raise ResampleError(
                f"no deal of hand {index + 1} consistent with seat {seat}'s view "
                f"was found in {tries} draws")
        result = candidate
        if finished:
            who, action = actions[-1]
            truth.apply(action, who)
            result.apply(action, who)  # the pivot matched, so the last action is legal
    return result


def _pivot_knowledge(truth: Game, seat: int, last: tuple[int, int] | None) -> Knowledge:
    """What ``seat`` knows at the pivot, plus what the segment's last action showed."""
    obs = observe(truth, seat)
    if last is not None and A.is_bid(last[1]):
        obs = dataclasses.replace(obs, bids=(*obs.bids, last))
    info = knowledge(obs)
    if truth.turned >= 0 and truth.contract is None:
        # During the auction the turned card lies face up: in no hand.
        info = dataclasses.replace(info, unseen=info.unseen & ~(1 << truth.turned))
    if last is not None and A.is_play(last[1]) and last[0] != seat:
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
    if last is not None and last[1] == A.OTTAVA and last[0] != seat:
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


def _sample_hands(info: Knowledge, rng: random.Random) -> tuple[CardSet, ...]:
    """The other seats' hands now; during the auction some unseen cards are still in the
    deck, and with fewer than four players the monte is never seen, so a random set of them
    (any card no other seat may hold among them) stays out."""
    unseen = [c for c in range(32) if info.unseen >> c & 1]
    spare = len(unseen) - sum(info.sizes)
    if spare <= 0:
        return sample_world(info, rng)
    others = [s for s in range(len(info.sizes)) if s != info.seat]
    nowhere = [c for c in unseen if all(info.forbidden[s] >> c & 1 for s in others)]
    free = [c for c in unseen if c not in nowhere]
    for _attempt in range(50):
        rng.shuffle(free)
        kept = nowhere + free[:spare - len(nowhere)]
        mask = info.unseen
        for c in kept:
            mask &= ~(1 << c)
        try:
            return sample_world(dataclasses.replace(info, unseen=mask), rng, tries=20)
        except RuntimeError:
            continue
    raise ResampleError("no hands consistent with the auction were found")


def _build_deck(truth: Game, seat: int, deck: tuple[Card, ...], info: Knowledge,
                rng: random.Random) -> list[Card]:
    """A deck that deals one sampled world at ``truth``'s pivot, ``seat``'s cards unmoved."""
    world = _sample_hands(info, rng)
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
        rng.shuffle(held)  # which of them came in the first packets is unknown to ``seat``
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
