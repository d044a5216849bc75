"""The four seats' tensors of one game, kept up to date from its events instead of rebuilt.

:func:`belote.rl.tensors.information_state_tensor` builds a tensor from scratch (tens of
microseconds).  A :class:`TensorTracker` drives a :class:`~belote.engine.state.Game`
(``tracker.deal(deck)``, ``tracker.apply(action)``: the game's own validated calls) and
updates one buffer from the events each call returns.  The buffer is the tensor of a viewer
at seat 0 (relative seats are then absolute seats, team 0 first) plus every seat's hand and
bidding hand: a card sets three entries, a bid a few.  A seat's tensor is that buffer read
through a fixed permutation (:data:`PERMUTATIONS`: the seat blocks rotated, the teams swapped
for seats 1 and 3, the seat's own hands in the hand parts), one ``numpy.take``.  The result
is the same vector as the from-scratch builder, entry for entry
(``tests/test_rl_tracker.py`` checks it at every step of random matches of every preset).

If the game moves without the tracker (``game.apply`` called directly, ``undo``), the next
call notices it (the game's log differs from what the tracker saw) and rebuilds from
scratch, counting it in :attr:`TensorTracker.rebuilds`; so does a bid past the 40 that
``bid_history`` keeps.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from belote.cards import Card
from belote.engine.events import (
    AllPassed,
    BeloteAnnounced,
    BidMade,
    BluffRefuted,
    CardPlayed,
    CardsDealt,
    ContractSet,
    DeckCut,
    DeclarationAnnounced,
    DeclarationsResolved,
    DeclarationsShown,
    Event,
    HandScored,
    HandStarted,
    MatchOver,
    MatchStarted,
    OttavaShown,
    ShowRequested,
    TrickWon,
    TurnedCardTaken,
)
from belote.engine.state import Game, Phase
from belote.rl import tensors as T
from belote.rl.tensors import (
    INFORMATION_STATE_SIZE,
    MAX_BIDS,
    OBSERVATION_SIZE,
    Tensor,
    check_four_seats,
)

_SIZE = INFORMATION_STATE_SIZE
_HANDS = _SIZE  # the buffer's extra parts: seat s's hand at _HANDS + 32 * s,
_BIDDING_HANDS = _HANDS + 4 * 32  # its cards during the auction at _BIDDING_HANDS + 32 * s
_BUFFER = _BIDDING_HANDS + 4 * 32
_BID_SLOT = 4 + T.BID_FEATURES

# The parts made of 4 relative-seat blocks: (offset, block size).
_SEAT_BLOCKS = (
    (T._DEALER, 1), (T._TO_ACT, 1), (T._TAKER, 1), (T._SIZES, 1), (T._TRICK, 32),
    (T._PLAYED, 32), (T._SHOWN, 32), (T._BELOTE, 2), (T._DECLARED, 5),
    (T._LAST_BID, T.BID_FEATURES),
    *((T._BIDS + slot * _BID_SLOT, 1) for slot in range(MAX_BIDS)),
    *((T._TRICKS + t * 132, 1) for t in range(8)),
    *((T._TRICKS + t * 132 + 4, 32) for t in range(8)),
)


def _permutation(viewer: int) -> npt.NDArray[np.intp]:
    """Where each entry of ``viewer``'s tensor is in the buffer."""
    perm = np.arange(_SIZE, dtype=np.intp)
    for offset, block in _SEAT_BLOCKS:
        for rel in range(4):
            seat = (viewer + rel) % 4
            for j in range(block):
                perm[offset + rel * block + j] = offset + seat * block + j
    perm[T._HAND:T._HAND + 32] = np.arange(_HANDS + 32 * viewer, _HANDS + 32 * viewer + 32)
    perm[T._BIDDING:T._BIDDING + 32] = np.arange(_BIDDING_HANDS + 32 * viewer,
                                                 _BIDDING_HANDS + 32 * viewer + 32)
    if viewer & 1:  # the scores' pairs put the viewer's team first
        for pair in range(4):
            perm[T._SCORES + 2 * pair] = T._SCORES + 2 * pair + 1
            perm[T._SCORES + 2 * pair + 1] = T._SCORES + 2 * pair
    return perm


#: For each seat, the buffer index of each entry of its information-state tensor (the
#: observation tensor is the first OBSERVATION_SIZE entries).
PERMUTATIONS: tuple[npt.NDArray[np.intp], ...] = tuple(_permutation(v) for v in range(4))
_PHASE_ENTRY = {phase: T._PHASE + int(phase) for phase in Phase}
_OBS_PERMUTATIONS = tuple(np.ascontiguousarray(p[:OBSERVATION_SIZE]) for p in PERMUTATIONS)


# Events that change nothing the tensors show; any other event without a handler (one added
# to the engine after this module) makes the tracker rebuild, never serve a stale tensor.
_UNSEEN: frozenset[type[Event]] = frozenset({MatchStarted, ShowRequested})  # nothing encoded
# Events after which the buffer is rebuilt whole, by design (rare: once a hand at most).
_REBUILT: frozenset[type[Event]] = frozenset({DeckCut, OttavaShown})


class TensorTracker:
    """Drives ``game`` and keeps every seat's information-state tensor up to date."""

    def __init__(self, game: Game) -> None:
        check_four_seats(game.players)
        self.game = game
        self.rebuilds = 0  # full rebuilds after the game moved without the tracker
        self._legal: list[int] | None = None  # the mover's legal actions, once asked
        self._log_len = 0  # the game's log as the tracker last saw it: length, last entry
        self._log_last: tuple[int, object] | None = None
        self._buf = np.zeros(_BUFFER, dtype=np.float32)
        # Scalar writes through a memoryview cost a third of numpy's; typeshed types its items
        # as int only, hence Any (the buffer's format is "f": floats are stored as float32).
        self._mv: Any = memoryview(self._buf.data)
        self._handlers: dict[type[Event], Callable[[Any], None]] = {
            CardPlayed: self._card, TrickWon: self._trick_won, BidMade: self._bid,
            HandStarted: self._hand_started, CardsDealt: self._cards_dealt,
            TurnedCardTaken: self._turned_taken, ContractSet: self._contract,
            BeloteAnnounced: self._belote, DeclarationAnnounced: self._declared,
            DeclarationsShown: self._shown, DeclarationsResolved: self._scores,
            AllPassed: self._clear, HandScored: self._clear, MatchOver: self._clear,
            BluffRefuted: self._scores,  # the penalty is declaration points
        }
        self._rebuild()
        self.rebuilds = 0

    # ------------------------------------------------------------------ driving the game
    def deal(self, deck: Sequence[Card]) -> list[Event]:
        """``game.deal(deck)``, then the tensors follow."""
        self._check_sync()
        events = self.game.deal(deck)
        # Once a hand: rebuilt whole (a deal may wait for a cut, and what a cut phase shows
        # is the rebuild's to say), so the per-step increments stay the fast path.
        self._rebuild()
        return events

    def apply(self, action: int, seat: int | None = None) -> list[Event]:
        """``game.apply(action, seat)`` (validated; a refused action changes nothing), then
        the tensors follow."""
        # _check_sync inlined: this runs at every step
        log = self.game._log
        if len(log) != self._log_len or (log and log[-1] is not self._log_last):
            self.rebuilds += 1
            self._rebuild()
        events = self.game.apply(action, seat)
        self._follow(events)
        self._log_len = len(log)
        self._log_last = log[-1]
        self._turn_stale = True
        self._legal = None
        return events

    def legal_actions(self) -> list[int]:
        """``game.legal_actions()`` for the player to move, kept from the last step (do not
        change the list)."""
        self._check_sync()
        legal = self._legal
        if legal is None:
            legal = self._legal = self.game.legal_actions()
        return legal

    def step(self, action: int) -> tuple[Tensor, list[int]]:
        """The per-step call of a learning loop, as colver's ``Env.step``: the player to move
        takes ``action`` (checked against :meth:`legal_actions`; anything else goes through
        ``game.apply``, which refuses it with its reason and changes nothing), then the
        observation tensor of the next player to move (of the player who acted, at a deal
        or the match's end) and that player's legal actions (empty then)."""
        legal = self.legal_actions()  # checks that the game did not move behind our back
        game = self.game
        log = game._log
        seat = game.current_player()
        if type(action) is int and seat >= 0 and action in legal:
            # apply() would check the same list again: record and push as it does
            log.append((seat, action))
            events = game._push(seat, action)
        else:
            events = game.apply(action)
        self._follow(events)
        self._log_len = len(log)
        self._log_last = log[-1]
        mover = game.current_player()
        legal = self._legal = game.legal_actions() if mover >= 0 else []
        self._write_turn()
        return self._buf.take(_OBS_PERMUTATIONS[mover if mover >= 0 else seat]), legal

    # ------------------------------------------------------------------ tensors
    def information_state(self, seat: int, out: Tensor | None = None) -> Tensor:
        """``information_state_tensor(game, seat)``: a new array, or written into ``out``."""
        return self._tensor(PERMUTATIONS[T._viewer(seat)], out)

    def observation(self, seat: int, out: Tensor | None = None) -> Tensor:
        """``observation_tensor(game, seat)``: a new array, or written into ``out``."""
        if out is None and type(seat) is int and 0 <= seat < 4:
            # the common call, inlined (_tensor does the same)
            log = self.game._log
            if len(log) != self._log_len or (log and log[-1] is not self._log_last):
                self.rebuilds += 1
                self._rebuild()
            if self._turn_stale:
                self._write_turn()
            return self._buf.take(_OBS_PERMUTATIONS[seat])
        return self._tensor(_OBS_PERMUTATIONS[T._viewer(seat)], out)

    def _tensor(self, perm: npt.NDArray[np.intp], out: Tensor | None) -> Tensor:
        self._check_sync()
        if self._turn_stale:
            self._write_turn()
        if out is None:
            return self._buf.take(perm)
        if out.shape != perm.shape or out.dtype != np.float32:
            raise ValueError(f"out must be a float32 array of shape {perm.shape}")
        return self._buf.take(perm, out=out)

    # ------------------------------------------------------------------ keeping up
    def _check_sync(self) -> None:
        log = self.game._log
        if len(log) != self._log_len or (log and log[-1] is not self._log_last):
            self.rebuilds += 1
            self._rebuild()

    def _synced(self) -> None:
        log = self.game._log
        self._log_len = len(log)
        self._log_last = log[-1] if log else None
        self._turn_stale = True
        self._legal = None

    def _write_turn(self) -> None:
        """Phase, dealer and player to act (the last changes with almost every step): only
        the entries that differ from the last call are written."""
        game = self.game
        buf = self._mv
        on = self._turn_on
        entry = _PHASE_ENTRY[game.phase]
        if entry != on[0]:
            if on[0] >= 0:
                buf[on[0]] = 0.0
            buf[entry] = 1.0
            on[0] = entry
        entry = T._DEALER + game.dealer
        if entry != on[1]:
            if on[1] >= 0:
                buf[on[1]] = 0.0
            buf[entry] = 1.0
            on[1] = entry
        mover = game.current_player()
        entry = T._TO_ACT + mover if mover >= 0 else -1
        if entry != on[2]:
            if on[2] >= 0:
                buf[on[2]] = 0.0
            if entry >= 0:
                buf[entry] = 1.0
            on[2] = entry
        self._turn_stale = False

    def _rebuild(self) -> None:
        """The buffer from scratch: seat 0's view, then every hand."""
        game = self.game
        buf = self._buf
        buf[:] = 0.0
        T._fill(game, 0, buf[:_SIZE], history=True)
        buf[T._HAND:T._HAND + 32] = 0.0
        buf[T._BIDDING:T._BIDDING + 32] = 0.0
        buf[T._PHASE:T._TO_ACT + 4] = 0.0  # phase, dealer and player to act
        self._turn_on = [-1, -1, -1]  # the entries _write_turn set to 1 (-1: none)
        if game.phase == 1 or game.phase == 2:
            for seat, hand in enumerate(game.hands):
                bid_on = T.bidding_hand(game, seat)
                for c in range(32):
                    if hand >> c & 1:
                        buf[_HANDS + 32 * seat + c] = 1.0
                    if bid_on >> c & 1:
                        buf[_BIDDING_HANDS + 32 * seat + c] = 1.0
        # cards dealt from now on are the completion, after the auction (a new hand's first
        # packets come with its HandStarted)
        self._first_packets = False
        self._sizes = [h.bit_count() for h in game.hands]
        self._in_trick = len(game.trick)
        self._bids = len(game.bid_history)
        self._synced()

    def _follow(self, events: list[Event]) -> None:
        """Update the buffer from ``events``: rebuilt whole after a cut, or after an event the
        increments do not model (that one counted), never served stale."""
        handlers = self._handlers
        for event in events:
            handler = handlers.get(type(event))
            if handler is not None:
                handler(event)
            elif type(event) not in _UNSEEN:
                if type(event) not in _REBUILT:  # added to the engine after this module
                    self.rebuilds += 1
                self._rebuild()
                return

    def _consume(self, events: list[Event]) -> None:
        self._follow(events)
        self._synced()

    def _card(self, e: CardPlayed) -> None:
        seat, card, t = e.seat, e.card, e.trick_no
        buf = self._mv
        if self._in_trick == 0:
            buf[T._TRICKS + t * 132 + seat] = 1.0
        self._in_trick += 1
        block = seat * 32 + card
        buf[T._TRICK + block] = 1.0
        buf[T._PLAYED + block] = 1.0
        buf[T._TRICKS + t * 132 + 4 + block] = 1.0
        buf[_HANDS + block] = 0.0
        n = self._sizes[seat] - 1
        self._sizes[seat] = n
        buf[T._SIZES + seat] = n / 8

    def _trick_won(self, e: TrickWon) -> None:
        self._in_trick = 0
        self._buf[T._TRICK:T._TRICK + 128] = 0.0
        buf = self._mv
        points, tricks = self.game.card_points, self.game.tricks_won
        buf[T._SCORES] = points[0] / 162
        buf[T._SCORES + 1] = points[1] / 162
        buf[T._SCORES + 2] = tricks[0] / 8
        buf[T._SCORES + 3] = tricks[1] / 8

    def _scores(self, e: Event) -> None:
        T._fill_scores(self.game, 0, self._buf)

    def _bid(self, e: BidMade) -> None:
        slot = self._bids
        self._bids += 1
        if slot >= MAX_BIDS:  # the history keeps the last 40: shift by rebuilding
            self.rebuilds += 1
            self._rebuild()
            return
        auction = self.game.rules.auction
        levels = len(auction.levels) if auction is not None else 1
        seat, action = e.seat, e.action
        buf = self._buf
        last = T._LAST_BID + seat * T.BID_FEATURES
        buf[last:last + T.BID_FEATURES] = 0.0
        base = T._BIDS + slot * _BID_SLOT
        ones: list[int] = [base + seat]
        T._bid_features(action, levels, last, ones, buf)
        T._bid_features(action, levels, base + 4, ones, buf)
        buf[ones] = 1.0

    def _hand_started(self, e: HandStarted) -> None:
        self._buf[:] = 0.0
        self._turn_on = [-1, -1, -1]
        self._sizes = [0, 0, 0, 0]
        self._in_trick = 0
        self._bids = 0
        self._first_packets = True  # the CardsDealt that follow are the cards bid on
        if e.turned is not None:
            self._buf[T._TURNED + e.turned] = 1.0
        T._fill_scores(self.game, 0, self._buf)

    def _add_cards(self, seat: int, cards: int, bid_on: bool = False) -> None:
        buf = self._mv
        base = _HANDS + 32 * seat
        first = _BIDDING_HANDS + 32 * seat
        self._sizes[seat] += cards.bit_count()
        while cards:
            low = cards & -cards
            buf[base + low.bit_length() - 1] = 1.0
            if bid_on:
                buf[first + low.bit_length() - 1] = 1.0
            cards ^= low
        buf[T._SIZES + seat] = self._sizes[seat] / 8

    def _cards_dealt(self, e: CardsDealt) -> None:
        self._add_cards(e.seat, e.cards, self._first_packets)

    def _turned_taken(self, e: TurnedCardTaken) -> None:
        self._add_cards(e.seat, 1 << e.card)

    def _contract(self, e: ContractSet) -> None:
        self._first_packets = False  # the completion follows
        # the capot flag is not in the event: the game's contract is read (set by now)
        T._fill_contract(self.game, 0, self._buf)

    def _belote(self, e: BeloteAnnounced) -> None:
        self._buf[T._BELOTE + e.seat * 2 + (e.word != "belote")] = 1.0

    def _declared(self, e: DeclarationAnnounced) -> None:
        base = T._DECLARED + e.seat * 5
        self._buf[[base, *(base + k for k in map(T._declared_kind, e.names) if k)]] = 1.0

    def _shown(self, e: DeclarationsShown) -> None:
        base = T._SHOWN + e.seat * 32
        self._buf[[base + c for c in range(32) if e.cards >> c & 1]] = 1.0

    def _clear(self, e: Event) -> None:
        # between hands the tensors hold only phase, dealer, player to act and scores
        self._buf[:] = 0.0
        self._turn_on = [-1, -1, -1]
        T._fill_scores(self.game, 0, self._buf)
