"""Resampling a game from one seat's information state (OpenSpiel's ``ResampleFromInfostate``).

:func:`resample` returns a new :class:`~belote.engine.state.Game` that ``seat`` cannot tell
from the real one: same rules, same actions in the same order, same cards in ``seat``'s own
hand (in the same packets), same turned card; the other hands are drawn at random among those
consistent with the rules' facts that ``seat`` has seen (:mod:`belote.engine.knowledge`):
uniformly with no ``model``, weighed by an :class:`~belote.engine.evidence.Evidence` with one
(for the hand in progress; finished hands are always drawn uniformly).

How, hand by hand (each deal of the match's log is one segment):

1. A finished hand is not replayed.  Where every card dealt was played, each seat's cards
   are public (the cards it played) and any deck that deals them replays the same hand with
   the same outcome, whichever came in which packet (the bidding does not read the hands):
   the deck is built at once (:func:`_deck_of`): ``seat``'s own cards and the turned card
   where they were, every other seat's cards in its slots in a uniformly random order (which
   came first is unknown to ``seat``), the monte or the undealt cards anywhere else.  Where
   all passed, nothing but ``seat``'s packets and the turned card was seen: the rest is
   shuffled.  A hand that ended otherwise (an ottava) is drawn at its *pivot*, the last
   state ``seat`` saw with the cards still out, with what the last action showed, and its
   few actions are replayed: ``seat`` must see the same after them.  The decks are drawn
   once per game and seat and kept (``Game._resample_cache``, keyed by the log they stand
   for; never the true decks).
2. The hand in progress starts from the match as it stood at its deal (the dealer, the
   scores, the pot: public, ``Game._hand_records``), with the finished hands' log before it.
   It is drawn at its current state: the seat's observation gives the facts
   (:func:`~belote.engine.knowledge.knowledge`) and
   :func:`~belote.engine.knowledge.sample_world` draws the other hands (exactly uniform, see
   there).  The cards each seat played in the hand are added back and a deck is built that
   deals exactly those hands (as in 1); the hand's actions are replayed on it, each one
   validated, and ``seat``'s observation must come out equal.  The facts drawn within make
   this almost always so; what they leave to the replay (declaration points and who scores
   them, the monte's points) is rejected and drawn again, at most ``tries`` times.  A game
   between hands replays its last hand that way, on the match as it stood at that deal.

The result's log is the whole match with the drawn decks: replayed from the start, it gives
the same game (an undo past the hand in progress does that once, to rebuild its stack).
Everything the engine derives from the hands (belote claims, declarations held, legal masks)
comes from the sampled hands: nothing computed from the true hands survives.
:class:`ResampleError` (a ``RuntimeError``) is the only error for a position no deal
explains.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from typing import TYPE_CHECKING

from belote.cards import ALL_CARDS, NUM_CARDS, SUIT_MASKS, Card, CardSet
from belote.engine import actions as A
from belote.engine import showing
from belote.engine.bidding.base import Contract
from belote.engine.evidence import Evidence
from belote.engine.knowledge import Knowledge, ResampleError, knowledge, sample_world
from belote.engine.observation import observe
from belote.errors import IllegalActionError
from belote.rules.base import Rules

if TYPE_CHECKING:
    from belote.engine.history import HandRecord
    from belote.engine.state import Game

__all__ = ["DEFAULT_TRIES", "ResampleError", "resample"]

DEFAULT_TRIES = 2000  # draws per hand whose replay may still disagree, before an error

def resample(game: Game, seat: int, rng: random.Random | int | None = None,
             tries: int = DEFAULT_TRIES, model: Evidence | None = None) -> Game:
    """A game consistent with everything ``seat`` knows in ``game`` (see the module doc)."""
    from belote.engine.state import Game, Phase

    if type(seat) is not int or not 0 <= seat < game.players:
        raise ValueError(f"seat must be 0..{game.players - 1}, not {seat!r}")
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    records = game._hand_records
    if not records:
        return Game(game.rules, game.first_dealer)  # nothing dealt yet
    log = game._log
    in_progress = game.phase in (Phase.CUT, Phase.BIDDING, Phase.PLAYING)
    finished = len(records) - 1 if in_progress else len(records)
    entries = _finished_log(game, seat, finished, rng, tries)
    last = records[-1]
    base = _game_at(game, last, entries[:last.log_index], records[:-1])
    if not in_progress:
        # The last finished hand, replayed on the match as it was at its start.
        drawn: tuple[Card, ...] = entries[last.log_index][1]  # type: ignore[assignment]
        finished_actions: list[tuple[int, int]] = entries[last.log_index + 1:]  # type: ignore[assignment]
        if not _replay(base, list(drawn), finished_actions):
            raise ResampleError("a finished hand drawn could not be replayed")
        return base
    deck: tuple[Card, ...] = log[last.log_index][1]  # type: ignore[assignment]
    actions: list[tuple[int, int]] = log[last.log_index + 1:]  # type: ignore[assignment]
    if game.phase == Phase.CUT:
        # Nothing of this deck is dealt yet: any order is consistent.
        if not _replay(base, rng.sample(range(len(deck)), len(deck)), actions):
            raise ResampleError("the offered deck could not be replayed")
        return base
    target = observe(game, seat)
    info = knowledge(target)
    said = dict(game.declarations_said)  # public: one announcement per seat and hand
    for _attempt in range(tries):
        world = sample_world(info, rng, model=model)
        candidate = base.clone()
        if (_replay(candidate, _build_deck(game, seat, deck, world, rng), actions, said)
                and observe(candidate, seat) == target):
            return candidate
    raise ResampleError(f"no deal of the hand in progress consistent with seat {seat}'s "
                        f"view was found in {tries} draws")


def _game_at(game: Game, record: HandRecord, log: list[tuple[int, object]],
             records: tuple[HandRecord, ...]) -> Game:
    """A new game where ``game`` stood when the hand of ``record`` was about to be dealt
    (everything public: the dealer, the scores, the pot, the last cut), its log ``log`` and
    its earlier hands ``records``.  The last hand's cards and tricks are not there: the next
    deal clears them, and an undo past that deal rebuilds the game from the log."""
    from belote.engine.state import Game

    result = Game(game.rules, game.first_dealer)
    result.dealer = record.dealer
    result.deal_no = record.deal_no
    result.hands_scored = record.hands_scored
    result.totals = list(record.totals)
    result.pot_state = record.pot
    result.cut_depth = record.cut_depth
    result._log = list(log)
    result._hand_records = records
    return result


def _finished_log(game: Game, seat: int, count: int, rng: random.Random,
                  tries: int) -> list[tuple[int, object]]:
    """The log of ``game``'s first ``count`` hands, each deck drawn for ``seat`` (the actions
    are the true ones).  Kept in ``game._resample_cache`` (keyed by the log it stands for) and
    extended hand by hand: the decks are drawn once per game and seat.  Do not change it."""
    from belote.engine.state import CHANCE

    records = game._hand_records
    log = game._log
    end = records[count].log_index if count < len(records) else len(log)
    prefix = tuple(log[:end])
    cache = game._resample_cache
    cached = cache.get(seat)
    entries: list[tuple[int, object]] = []
    first = 0
    if cached is not None:
        kept, kept_entries, kept_hands = cached
        if kept == prefix:
            return kept_entries
        if len(kept) <= end and prefix[:len(kept)] == kept:
            entries, first = list(kept_entries), kept_hands
    for index in range(first, count):
        record = records[index]
        stop = records[index + 1].log_index if index + 1 < len(records) else len(log)
        deck: tuple[Card, ...] = log[record.log_index][1]  # type: ignore[assignment]
        actions: list[tuple[int, int]] = log[record.log_index + 1:stop]  # type: ignore[assignment]
        drawn = _finished_deck(game, seat, record, deck, actions, rng, tries)
        entries.append((CHANCE, tuple(drawn)))
        entries.extend(actions)
    cache[seat] = (prefix, entries, count)
    return entries


def _finished_deck(game: Game, seat: int, record: HandRecord, deck: tuple[Card, ...],
                   actions: list[tuple[int, int]], rng: random.Random,
                   tries: int) -> list[Card]:
    """A deck for a finished hand, drawn for ``seat``.

    Where every card dealt was played, each seat's cards are public (those it played): any
    deck dealing each seat those cards replays the same hand, whichever came in which packet
    (the bidding does not read the hands), so no replay is needed.  Where all passed, no card
    was seen but ``seat``'s own and the turned one: any deck keeping them replays the same
    bids.  Otherwise (an ottava, ...) the hand is drawn at its pivot and replayed
    (:func:`_drawn_deck`)."""
    rules = game.rules
    n = rules.players
    played = [0] * n
    cards = 0
    for who, action in actions:
        if action < A.PASS:
            played[who] |= 1 << (action & 31)
            cards += 1
    # With a cut, the cutter's is the hand's first action (Phase.CUT).
    depth = (A.cut_depth(actions[0][1])
             if rules.cut_deck and actions and A.is_cut(actions[0][1]) else 0)
    contract = record.contract
    drawn: list[Card] | None = None
    if cards == n * rules.hand_size and contract is not None:
        drawn = _deck_of(deck, seat, _positions(rules, record.dealer, contract, depth),
                         played, rng)
    elif cards == 0 and contract is None and all(
            A.is_bid(a) or A.is_cut(a) for _, a in actions):
        drawn = _deck_of(deck, seat, _positions(rules, record.dealer, None, depth), None, rng)
    if drawn is not None:
        return drawn
    return _drawn_deck(game, seat, record, deck, actions, rng, tries)


def _drawn_deck(game: Game, seat: int, record: HandRecord, deck: tuple[Card, ...],
                actions: list[tuple[int, int]], rng: random.Random, tries: int) -> list[Card]:
    """A finished hand's deck drawn at its *pivot*, the last state ``seat`` saw with the
    cards still out (before the hand's last action), with what that action showed; the hand
    replayed through the last action must give ``seat`` the same observation as the real one
    after it."""
    from belote.engine.state import Phase

    truth = _game_at(game, record, [], ())
    pivot = truth.clone()
    pivot.deal(deck)
    for who, action in actions[:-1]:
        pivot.apply(action, who)
    last = actions[-1]
    after = pivot.clone()
    after.apply(last[1], last[0])
    target = observe(after, seat)
    info = _pivot_knowledge(pivot, seat, last)
    for _attempt in range(tries):
        candidate = truth.clone()
        if pivot.phase == Phase.CUT:  # nothing of this deck was dealt
            new_deck = rng.sample(range(len(deck)), len(deck))
        else:
            new_deck = _build_deck(pivot, seat, deck, sample_world(info, rng), rng)
        if (_replay(candidate, new_deck, actions) and observe(candidate, seat) == target):
            return new_deck
    raise ResampleError(f"no deal of hand {record.deal_no + 1} consistent with seat {seat}'s "
                        f"view was found in {tries} draws")


def _pivot_knowledge(truth: Game, seat: int, last: tuple[int, int]) -> Knowledge:
    """What ``seat`` knows at a finished hand's pivot, plus what its last action showed."""
    obs = observe(truth, seat)
    if A.is_bid(last[1]):
        obs = dataclasses.replace(obs, bids=(*obs.bids, last))
    info = knowledge(obs)  # the auction's turned card is in no hand: a fact of knowledge
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


Positions = tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], int]


def _deck_positions(truth: Game) -> Positions:
    """Deck indices of each seat's first packets and of its completion cards, and the turned
    card's index (-1 without one), in the deck as shuffled (the one logged, before any cut).
    Completion indices exist once a contract is made."""
    return _positions(truth.rules, truth.dealer, truth.contract, truth.cut_depth)


@functools.lru_cache(maxsize=4096)
def _positions(rules: Rules, dealer: int, contract: Contract | None, depth: int) -> Positions:
    """:func:`_deck_positions` for a hand dealt by ``dealer`` under ``contract`` after a cut
    of ``depth`` cards: the card dealt ``i``-th came from index ``(i + depth) % 32``."""
    n = rules.players
    order = [(dealer + 1 + i) % n for i in range(n)]
    first: list[list[int]] = [[] for _ in range(n)]
    completion: list[list[int]] = [[] for _ in range(n)]
    position = 0
    for packet in rules.deal_packets:
        for s in order:
            first[s].extend(range(position, position + packet))
            position += packet
    turned_at = position if rules.turned_card else -1
    if rules.turned_card and contract is not None:
        position += 1
        if rules.deal_rest_from_taker:  # seed 002: "se reanuda a partir del tomador"
            order = [(contract.taker + i) % n for i in range(n)]
        for s in order:
            size = 2 if s == contract.taker and contract.takes_turned_card else 3
            completion[s].extend(range(position, position + size))
            position += size
    if turned_at >= 0:
        turned_at = (turned_at + depth) % NUM_CARDS
    return (tuple(tuple((i + depth) % NUM_CARDS for i in f) for f in first),
            tuple(tuple((i + depth) % NUM_CARDS for i in c) for c in completion),
            turned_at)


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
    played = _played_by(truth)
    dealt = [held | cards for held, cards in zip(world, played, strict=True)]
    new = _deck_of(deck, seat, _deck_positions(truth), dealt, rng)
    if new is None:
        raise ResampleError(f"the world drawn does not fit the deal of seat {seat}'s view")
    return new


def _deck_of(deck: tuple[Card, ...], seat: int, positions: Positions,
             dealt: list[CardSet] | None, rng: random.Random) -> list[Card] | None:
    """A deck like ``deck`` where ``seat``'s cards and the turned card stay where they were,
    each other seat's cards (``dealt``, the turned card among the taker's, if it took it) go
    to its slots in a uniformly random order (which came in the first packets is unknown to
    ``seat``) and every other card anywhere else in random order (nobody saw them).  With no
    ``dealt``, the other seats' cards are unknown too.  None where ``dealt`` does not fit the
    slots."""
    first, completion, turned_at = positions
    new: list[Card] = [-1] * len(deck)
    used = 0
    for index in (*first[seat], *completion[seat]):
        new[index] = deck[index]
        used |= 1 << deck[index]
    if turned_at >= 0:
        new[turned_at] = deck[turned_at]
        used |= 1 << deck[turned_at]
    if dealt is not None:
        for s, cards in enumerate(dealt):
            if s == seat:
                continue
            held = _cards(cards & ~used)
            slots = first[s] + completion[s]
            if len(held) != len(slots):
                return None
            rng.shuffle(held)
            for index, card in zip(slots, held, strict=True):
                new[index] = card
                used |= 1 << card
    rest = _cards(ALL_CARDS & ~used)
    rng.shuffle(rest)
    free = [i for i, c in enumerate(new) if c < 0]
    if len(free) != len(rest):
        return None
    for index, card in zip(free, rest, strict=True):
        new[index] = card
    return new


def _cards(cards: CardSet) -> list[Card]:
    """The cards of a set, lowest first."""
    found = []
    while cards:
        low = cards & -cards
        found.append(low.bit_length() - 1)
        cards ^= low
    return found


def _replay(game: Game, deck: list[Card], actions: list[tuple[int, int]],
            said: dict[int, tuple[str, ...]] | None = None) -> bool:
    """Deal ``deck`` and apply ``actions``, each validated; False at the first illegal one.
    ``said``: the words each seat announced its declarations with, where they are known (an
    announcement is replayed as whichever action says them: :func:`showing.as_replayed`).
    The deal keeps no undo snapshot: the game before it is not the whole match (see
    :func:`_game_at`), and an undo past it rebuilds the game from the log."""
    from belote.engine.state import CHANCE

    dealt = tuple(deck)
    game._log.append((CHANCE, dealt))
    game._receive(dealt)
    try:
        for who, action in actions:
            if said is not None and A.is_declaration(action):
                action = showing.as_replayed(game, who, action, said.get(who))
            game.apply(action, who)
    except IllegalActionError:
        return False
    return True
