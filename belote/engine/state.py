"""The game state of a whole match: one API for humans, bots, records and the server.

``current_player()`` (``CHANCE`` when a deck must be dealt, ``TERMINAL`` at the end),
``legal_actions(seat)``, ``apply(action, seat) -> events``, ``deal(deck) -> events``,
``undo()``, ``clone()``, ``is_terminal()``, ``returns()``.  ``apply`` and ``deal`` validate and
change nothing on bad input; ``_push`` is the unchecked fast path (python-chess style).

The engine is pure: no clock, no I/O, no randomness.  Decks come from the caller
(:mod:`belote.engine.dealing` draws them from a seed or a cryptographic source).
"""

from __future__ import annotations

import operator
import random
from collections.abc import Sequence
from enum import IntEnum
from typing import Any

from belote.cards import ALL_CARDS, NUM_CARDS, SUIT_MASKS, Card, CardSet, Rank, card_list
from belote.engine import actions as A
from belote.engine import showing
from belote.engine.bidding import Contract, bidding_system
from belote.engine.bidding.auction import level_refusal
from belote.engine.bidding.base import BidState
from belote.engine.events import (
    ALL_TRUMP,
    NO_TRUMP,
    AllPassed,
    BeloteAnnounced,
    BidMade,
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
    TrickWon,
    TurnedCardTaken,
)
from belote.engine.evidence import Evidence
from belote.engine.history import BID_FIELDS as _BID_FIELDS
from belote.engine.history import (
    HandRecord,
    Undo,
    hand_number,
    save,
    save_play,
    undo,
    whole_bid_snapshot,
)
from belote.engine.obligations import (
    Refusal,
    RefusalReason,
    belote_refusal,
    legal_plays,
    refusal,
)
from belote.engine.observation import Observation, observe
from belote.engine.refusals import illegal_action
from belote.engine.scoring import HandFacts, Pot, score_hand
from belote.engine.tricks import CARD_POINTS, trick_winner
from belote.errors import IllegalActionError
from belote.rules.base import Rules
from belote.rules.declarations import (
    Declaration,
    find_declarations,
    named_declaration,
    said_name,
    score_declarations,
    spoken_name,
    spoken_names_held,
    valdostana_valid,
)
from belote.rules.target import match_winner

CHANCE = -1
TERMINAL = -4


class Phase(IntEnum):
    DEAL = 0
    BIDDING = 1
    PLAYING = 2
    MATCH_OVER = 3
    CUT = 4  # a deck is offered to the cutter (rules.cut_deck), before it is dealt


# Belote claim stages: the holder of K and Q of a belote suit moves through these.
_UNPLAYED, _FIRST_OPEN, _BELOTE_SAID, _SECOND_OPEN, _COMPLETE, _VOID = range(6)

# The game's lists that actions change in place: copied by clone(), and handed to the undo
# snapshot (the game goes on with a copy) by an action that may change them.
_MUTABLE_LISTS = (
    "totals", "hands", "bid_history", "trick", "trick_history", "shown_cards", "card_points",
    "tricks_won", "belote_points", "belote_said", "_declared", "_announced", "_bluffs",
    "_examined", "penalty_points", "_team_shown", "declarations_said",
)

def _action_id(action: object) -> int:
    """An action id from an int-like value (numpy integers); anything else is refused."""
    if isinstance(action, bool):
        raise IllegalActionError(f"an action is an int id, not {action!r}")
    try:
        return operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        raise IllegalActionError(f"an action is an int id, not {action!r}") from None


class Game:
    """A match of belote under ``rules``, from the first deal to the match's end."""

    def __init__(self, rules: Rules, first_dealer: int = 0) -> None:
        if not 0 <= first_dealer < rules.players:
            raise ValueError(f"first_dealer must be a seat 0..{rules.players - 1}")
        self.rules = rules
        self.players = rules.players  # seats, numbered in playing order
        self.first_dealer = first_dealer
        self._bidding = bidding_system(rules.bidding)
        self.phase = Phase.DEAL
        self.dealer = first_dealer
        self.deal_no = 0  # deals so far, redeals included
        self.hands_scored = 0  # hands played out and scored (a redeal is not one)
        self.totals = [0] * rules.sides
        self.pot_state = Pot()  # points at stake after a tie, and whose they are
        self.winner: int | None = None
        self._uncut: tuple[Card, ...] = ()  # the deck offered to the cutter
        self.cut_depth = 0  # cards the last cut moved under the deck (0: knocked, no cut)
        self._log: list[tuple[int, object]] = []  # (seat or CHANCE, action or deck)
        # undo's snapshot stack, one per deal and action (see _save); None below the first
        # snapshot kept (a fresh game, one unpickled or resampled): undo rebuilds it then.
        self._undo: Undo | None = None
        self._hand_records: tuple[HandRecord, ...] = ()  # one per deal of the log
        # Game.resample's finished hands, drawn once per seat (belote.engine.resample): seat
        # -> (the log they stand for, that log with the decks drawn, its hands).  Shared by
        # clones (each entry is checked against the log before use).
        self._resample_cache: dict[int, tuple[tuple[tuple[int, object], ...],
                                              list[tuple[int, object]], int]] = {}
        self._reset_hand()

    def _reset_hand(self) -> None:
        n, sides = self.rules.players, self.rules.sides
        self.hands: list[CardSet] = [0] * n
        self.widow: CardSet = 0  # the monte: cards dealt to nobody (fewer than four players)
        self.deck: tuple[Card, ...] = ()
        self.turned: Card = -1
        self.bids: BidState = BidState()
        self.bid_history: list[tuple[int, int]] = []
        self.contract: Contract | None = None
        self.trump = -1
        self.leader = 0
        self.to_play = 0
        self.trick: list[Card] = []
        self.trick_no = 0
        self.last_trick: tuple[int, tuple[Card, ...]] | None = None
        self.trick_history: list[tuple[int, tuple[Card, ...]]] = []  # (leader, cards)
        self.played: CardSet = 0
        self.card_points = [0] * sides
        self.tricks_won = [0] * sides
        self.belote_points = [0] * sides
        self.belote_said: list[tuple[int, str]] = []
        self.declaration_points: tuple[int, ...] = (0,) * sides
        self.declarations_said: list[tuple[int, tuple[str, ...]]] = []
        self.shown_cards: list[CardSet] = [0] * n  # shown at the second trick, by seat
        self._held: list[list[Declaration]] = [[] for _ in range(n)]  # hidden until shown
        self._declared: list[list[Declaration] | None] = [None] * n
        self._counted: tuple[tuple[Declaration, ...], ...] = ()
        # Showing on request and bluffs (belote.engine.showing); all hidden until shown.
        self._announced: list[list[Declaration] | None] = [None] * n
        self._bluffs = [False] * n  # announced a sequence not held
        self._examined = [False] * n  # refuted or shown on request
        self.penalty_points = [0] * sides  # refuted bluffs, to the refuters (public)
        self._pending_show: tuple[tuple[Declaration, ...], ...] = ()  # counted once shown
        self._team_shown = [False] * sides
        self._points_as_announced: tuple[int, ...] = (0,) * sides
        self._points_if_shown: tuple[int, ...] = (0,) * sides
        # [suit, holder, stage] per belote suit; the holder stays hidden until announced.
        self._claims: list[list[int]] = []
        self._mask_cache = -1  # legal play mask of the player to move; -1: not computed

    # ------------------------------------------------------------------ queries
    @property
    def pot(self) -> int:
        """Points at stake after a tie (litige), won with the next hand."""
        return self.pot_state.points

    def current_player(self) -> int:
        if self.phase == Phase.PLAYING:
            return self.to_play
        if self.phase == Phase.BIDDING:
            return self.bids.to_speak
        if self.phase == Phase.DEAL:
            return CHANCE
        if self.phase == Phase.CUT:
            return self.cutter()
        return TERMINAL

    def cutter(self) -> int:
        """The seat at the dealer's left (seed 000), in playing-order numbering: the seat
        after the dealer when play goes clockwise, the one before it counter-clockwise."""
        n = self.players
        step = n - 1 if self.rules.direction == "counterclockwise" else 1
        return (self.dealer + step) % n

    def is_terminal(self) -> bool:
        return self.phase == Phase.MATCH_OVER

    def returns(self) -> tuple[float, ...]:
        """+1 for each seat of the winning side, -1 for the others, 0 before the end."""
        if self.winner is None:
            return (0.0,) * self.players
        side_of = self.rules.side_of
        return tuple(1.0 if side_of(seat) == self.winner else -1.0
                     for seat in range(self.players))

    def legal_plays(self, seat: int | None = None) -> CardSet:
        """The cards ``seat`` (default: the player to move) may play now, as a mask."""
        if self.phase != Phase.PLAYING or (seat is not None and seat != self.to_play):
            return 0
        return legal_plays(self.hands[self.to_play], self.trick, self.trump, self.rules)

    def legal_actions(self, seat: int | None = None) -> list[int]:
        """Sorted legal action ids for ``seat`` (default: the player to move).

        A seat whose belote announcement window is open may announce out of turn.
        """
        mover = self.current_player()
        if seat is None:
            seat = mover
        result: list[int] = []
        if seat == mover and self.phase == Phase.BIDDING:
            return sorted(self._bidding.legal_bids(self.bids, self.turned, self.rules))
        if seat == mover and self.phase == Phase.CUT:
            low = self.rules.cut_min_cards
            return [A.KNOCK, *(A.cut(depth) for depth in range(low, NUM_CARDS - low + 1))]
        if seat == mover and self.phase == Phase.PLAYING:
            result = card_list(self._mover_mask())
            if self.trick_no == 0 and (self.rules.declarations or self.rules.ottava):
                result.extend(self._first_trick_extras(seat))
            if self.trick_no < 2 and self.rules.declarations is not None:
                result.extend(showing.extras(self, seat))
            if self._claims:
                result.extend(
                    A.PLAY_ANNOUNCE_BASE + c for c in result if self._may_announce(seat, c)
                )
        elif self._covering_window(seat):
            # Seed 000 (valdostana): an accuso may still be said after one's card, until the
            # next player covers it.
            result.extend(self._first_trick_extras(seat))
        if self._claims and self._window_open_for(seat):
            result.append(A.ANNOUNCE_BELOTE)
        result.sort()  # cards, declarations and announcements were gathered in that order
        return result

    def _covering_window(self, seat: int) -> bool:
        """Whether ``seat`` played the first trick's last card so far and may still announce
        (``announce_until_covered``): the next player has not covered it."""
        decl_rules = self.rules.declarations
        return (
            decl_rules is not None
            and decl_rules.announce_until_covered
            and self.phase == Phase.PLAYING
            and self.trick_no == 0
            and 0 < len(self.trick) < self.players
            and seat == (self.leader + len(self.trick) - 1) % self.players
            and self._declared[seat] is None
        )

    def _first_trick_extras(self, seat: int) -> list[int]:
        """Declarations and the ottava, offered in the first trick before the card."""
        extras: list[int] = []
        if self.rules.ottava and any(self.hands[seat] & m == m for m in SUIT_MASKS):
            extras.append(A.OTTAVA)
        decl_rules = self.rules.declarations
        if decl_rules is not None and self._held[seat] and self._declared[seat] is None:
            if decl_rules.name_only:
                kinds = spoken_names_held(self._held[seat])
                extras.extend(A.DECLARE_NAME_BASE + i
                              for i, name in enumerate(A.DECLARE_NAMES) if name in kinds)
            else:
                extras.append(A.DECLARE)
        if (decl_rules is not None and decl_rules.bluffs_allowed
                and self._declared[seat] is None and showing.equal_sequence(self, seat)):
            extras.append(A.BLUFF)  # offered whether the sequence is held or not
        return extras

    def _mover_mask(self) -> CardSet:
        mask = self._mask_cache
        if mask < 0:
            mask = legal_plays(self.hands[self.to_play], self.trick, self.trump, self.rules)
            self._mask_cache = mask
        return mask

    def is_legal(self, action: int, seat: int | None = None) -> bool:
        mover = self.current_player()
        if seat is None:
            seat = mover
        if type(action) is not int:
            return False
        if 0 <= action < A.PASS:
            if self.phase != Phase.PLAYING or seat != mover:
                return False
            card = action & 31
            if not self._mover_mask() >> card & 1:
                return False
            return action < A.PLAY_ANNOUNCE_BASE or self._may_announce(seat, card)
        if action == A.ANNOUNCE_BELOTE:
            return self._window_open_for(seat)
        if seat != mover and not self._covering_window(seat):
            return False
        return action in self.legal_actions(seat)

    def observation(self, seat: int | None) -> Observation:
        """What ``seat`` may see now; ``None`` gives the spectator's view."""
        return observe(self, seat)

    def spectator_view(self) -> Observation:
        return observe(self, None)

    # ------------------------------------------------------------------ dealing
    def deal(self, deck: Sequence[Card]) -> list[Event]:
        """Deal a shuffled deck (32 distinct cards, dealt from index 0) for the next hand."""
        if self.phase != Phase.DEAL:
            raise IllegalActionError("no deal is due now")
        if len(deck) != NUM_CARDS or sorted(deck) != list(range(NUM_CARDS)):
            raise IllegalActionError("a deck must hold each of the 32 cards exactly once")
        deck = tuple(deck)
        self._log.append((CHANCE, deck))
        self._save(_MUTABLE_LISTS)
        return self._receive(deck)

    def _receive(self, deck: tuple[Card, ...]) -> list[Event]:
        """A shuffled deck arrives (already in the log): it is cut first where the rules say
        so, then dealt."""
        events: list[Event] = []
        self._hand_records = (*self._hand_records, HandRecord(
            len(self._log) - 1, self.dealer, self.deal_no, self.hands_scored,
            tuple(self.totals), self.pot_state, self.cut_depth))
        if self.deal_no == 0:
            events.append(MatchStarted(self.rules.name, self.rules.target_score, self.dealer))
        if not self.rules.cut_deck:
            self.cut_depth = 0
            return events + self._deal(deck)
        self._reset_hand()  # the last hand's cards and contract are off the table
        self._uncut = deck
        self.phase = Phase.CUT
        return events

    def _cut(self, seat: int, action: int) -> list[Event]:
        depth = A.cut_depth(action)
        deck = self._uncut[depth:] + self._uncut[:depth]
        self._uncut = ()
        self.cut_depth = depth
        return [DeckCut(seat, depth), *self._deal(deck)]

    def _deal(self, deck: tuple[Card, ...]) -> list[Event]:
        events: list[Event] = []
        self._reset_hand()
        self.deck = deck
        position = 0
        n = self.players
        order = [(self.dealer + 1 + i) % n for i in range(n)]
        for packet in self.rules.deal_packets:
            for seat in order:
                for card in deck[position:position + packet]:
                    self.hands[seat] |= 1 << card
                position += packet
        self.turned = deck[position] if self.rules.turned_card else -1
        if not self.rules.turned_card:
            for card in deck[position:]:  # the monte (rules.widow): nobody sees it
                self.widow |= 1 << card
        self.bids = self._bidding.start(self.dealer, n)
        self.phase = Phase.BIDDING
        turned = self.turned if self.turned >= 0 else None
        hand, redeal = self.hand_number()
        events.append(HandStarted(hand, self.dealer, turned, redeal))
        events.extend(CardsDealt(seat, self.hands[seat]) for seat in order)
        return events

    def _complete_deal(self, contract: Contract) -> list[Event]:
        """Give the taker the turned card and 2 more, everyone else 3 more (seed 002)."""
        events: list[Event] = [
            ContractSet(contract.taker, contract.trump, contract.level, contract.multiplier)
        ]
        position = sum(self.rules.deal_packets) * self.players + 1
        if contract.takes_turned_card:
            self.hands[contract.taker] |= 1 << self.turned
            events.append(TurnedCardTaken(contract.taker, self.turned))
        # Seed 002: "se reanuda a partir del tomador" (rules.deal_rest_from_taker).
        n_seats = self.players
        first = (contract.taker if self.rules.deal_rest_from_taker
                 else (self.dealer + 1) % n_seats)
        for i in range(n_seats if self.rules.turned_card else 0):
            seat = (first + i) % n_seats
            n = 2 if seat == contract.taker and contract.takes_turned_card else 3
            given = 0
            for card in self.deck[position:position + n]:
                given |= 1 << card
            position += n
            self.hands[seat] |= given
            events.append(CardsDealt(seat, given))
        self.contract = contract
        self.trump = contract.trump
        records = self._hand_records
        self._hand_records = (*records[:-1], records[-1]._replace(contract=contract))
        self._claims = self._find_belote_claims()
        if self.rules.declarations is not None:
            self._held = [
                find_declarations(self.hands[seat], self.rules.declarations, self.trump)
                for seat in range(self.players)
            ]
        self.phase = Phase.PLAYING
        self.leader = self.to_play = (self.dealer + 1) % self.players
        return events

    def _find_belote_claims(self) -> list[list[int]]:
        if not self.rules.belote_enabled or self.trump == NO_TRUMP:
            return []
        suits = range(4) if self.trump == ALL_TRUMP else (self.trump,)
        claims = []
        for suit in suits:
            pair = (1 << (suit * 8 + Rank.KING)) | (1 << (suit * 8 + Rank.QUEEN))
            for seat in range(self.players):
                if self.hands[seat] & pair == pair:
                    claims.append([suit, seat, _UNPLAYED])
        return claims

    # ------------------------------------------------------------------ actions
    def apply(self, action: int, seat: int | None = None) -> list[Event]:
        """Apply ``action`` by ``seat`` (default: the player to move) after checking it.

        Raises IllegalActionError with the reason and leaves the state unchanged if the
        action is not legal now.
        """
        if type(action) is not int:
            action = _action_id(action)
        if (
            self.phase == Phase.PLAYING
            and (seat is None or seat == self.to_play)
            and type(action) is int
            and 0 <= action < A.PLAY_ANNOUNCE_BASE
            and self._mover_mask() >> action & 1
        ):
            # The common case, checked inline: the player to move plays a legal card.
            seat = self.to_play
        else:
            mover = self.current_player()
            if seat is None:
                if mover < 0:
                    raise IllegalActionError("nobody is to act now")
                seat = mover
            if type(seat) is not int or not 0 <= seat < self.players:
                raise IllegalActionError(f"no seat {seat!r}")
            why = self.refusal_of(action, seat)
            if why is not None:
                raise illegal_action(action, seat, why)
        self._log.append((seat, action))
        return self._push(seat, action)

    def explain_illegal(self, action: int, seat: int) -> RefusalReason | None:
        """Why ``action`` by ``seat`` is not legal now (None if it is).  With what its
        sentence names: :meth:`refusal_of`; the sentences: :mod:`belote.i18n.refusals`."""
        why = self.refusal_of(action, seat)
        return None if why is None else why.reason

    def refusal_of(self, action: int, seat: int) -> Refusal | None:
        """Why ``action`` by ``seat`` is not legal now, with the card and suit its sentence
        names (None if it is legal).  Belote: the precise rule (:func:`belote_refusal`)."""
        if self.is_legal(action, seat):
            return None
        if action == A.ANNOUNCE_BELOTE:
            return (belote_refusal(self.observation(seat))
                    or Refusal(RefusalReason.NO_BELOTE_TO_ANNOUNCE))
        if seat != self.current_player():
            return Refusal(RefusalReason.NOT_YOUR_TURN)
        if A.is_play(action):
            card = A.played_card(action)
            led = self.trick[0] >> 3 if self.trick else None
            if self.phase != Phase.PLAYING:
                return Refusal(RefusalReason.CARDS_NOT_BEING_PLAYED, card, led)
            reason = refusal(card, self.hands[seat], self.trick, self.trump, self.rules)
            return Refusal(reason or RefusalReason.CARD_DOES_NOT_OPEN_A_BELOTE, card, led)
        if A.is_bid(action) and self._known_bid(action):
            return self._bid_refusal(action)
        if A.is_table_talk(action):
            return Refusal(RefusalReason.DECLARATION_NOT_ALLOWED)
        return Refusal(RefusalReason.UNKNOWN_ACTION)

    def contract_refusal(self, level: int, suit: int, seat: int) -> Refusal | None:
        """Why a contract of ``level`` points in ``suit`` by ``seat`` is refused (None if it
        is legal): :meth:`refusal_of` for a level as a player says it, a level of the auction's
        table or not (50, 900: the table's range, and the lowest level allowed now)."""
        auction = self.rules.auction
        if auction is None:
            return Refusal(RefusalReason.BID_NOT_ALLOWED)  # no auction: no contract at all
        if level in auction.levels:
            return self.refusal_of(A.contract_bid(auction.levels.index(level), suit), seat)
        if seat != self.current_player():
            return Refusal(RefusalReason.NOT_YOUR_TURN)
        if self.phase != Phase.BIDDING:
            return self._bid_refusal(A.PASS)
        return level_refusal(self.bids, level, self.rules)

    def _bid_refusal(self, action: int) -> Refusal:
        """Why the player to move may not make the bid ``action``: the phase, else the
        bidding system's reason (:meth:`BiddingSystem.refusal`)."""
        if self.phase == Phase.PLAYING:
            return Refusal(RefusalReason.BIDDING_OVER)
        if self.phase != Phase.BIDDING:
            return Refusal(RefusalReason.BIDDING_NOT_STARTED)
        return self._bidding.refusal(self.bids, action, self.turned, self.rules)

    def _known_bid(self, action: int) -> bool:
        if action < A.CONTRACT_BASE:
            return True
        auction = self.rules.auction
        return auction is not None and A.contract_level_index(action) < len(auction.levels)

    def _push(self, seat: int, action: int) -> list[Event]:
        """Apply an action known to be legal, already in the log (its undo snapshot is taken
        here).  Does NOT check legality."""
        if action < A.PASS:
            if len(self.trick) < self.players - 1 and not self._claims and not self._counted:
                # Most cards: not the trick's last, no belote claim, no declaration to show
                # (see _play): only these change, two lists of them in place.
                hands, trick = self.hands, self.trick
                self._undo = (len(self._log) - 1, self._undo,
                              hands, self.played, trick, self.to_play, self._mask_cache)
                self.hands, self.trick = hands[:], trick[:]
            else:
                self._save_play()
        elif self.phase == Phase.BIDDING:  # a bid: the only action of the bidding
            # Most bids change only these two, in place; the one that ends the bidding
            # makes this snapshot whole (_bid).
            bids, history = self.bids, self.bid_history
            self._undo = (len(self._log) - 1, self._undo, bids, history, self._mask_cache)
            self.bids, self.bid_history = BidState(*_BID_FIELDS(bids)), history[:]
        else:
            self._save(_MUTABLE_LISTS)
        self._mask_cache = -1
        if action < A.PASS:
            return self._play(seat, action & 31, action >= A.PLAY_ANNOUNCE_BASE)
        if action == A.ANNOUNCE_BELOTE:
            return self._announce(seat)
        if A.is_declaration(action):
            return self._declare(seat, action)
        if A.is_cut(action):
            return self._cut(seat, action)
        if action == A.OTTAVA:
            return self._ottava(seat)
        if action == A.REQUEST_SHOW:
            return showing.request_show(self, seat)
        if action == A.REFUTE:
            return showing.refute(self, seat)
        if action == A.BLUFF:
            return showing.bluff(self, seat)
        return self._bid(seat, action)

    def _bid(self, seat: int, action: int) -> list[Event]:
        events: list[Event] = [BidMade(seat, action, self.bids.round)]
        self.bid_history.append((seat, action))
        result = self._bidding.apply(self.bids, seat, action, self.turned, self.rules)
        if result is not False:
            self._whole_bid_snapshot()
        if result is True:
            next_dealer = (self.dealer + 1) % self.players
            events.append(AllPassed(self.hand_number()[0], next_dealer))
            self.hands = [0] * self.players  # the cards go back to the deck
            self.widow = 0
            self.dealer = next_dealer
            self.deal_no += 1
            self.phase = Phase.DEAL
        elif result is not False:
            events.extend(self._complete_deal(result))
        return events

    def _play(self, seat: int, card: Card, announce: bool) -> list[Event]:
        events: list[Event] = []
        if self._claims and self.rules.belote_window == "next_card":
            self._close_windows()
        self.hands[seat] &= ~(1 << card)
        self.played |= 1 << card
        led = self.trick[0] >> 3 if self.trick else None
        self.trick.append(card)
        events.append(CardPlayed(seat, card, self.trick_no, led))
        if self._counted and self.trick_no == 1:
            # Seed 000/001: the declarations are shown at the second trick.
            self._show_declarations(events)
        if self._claims:
            self._belote_card_played(seat, card, announce, events)
        if len(self.trick) < self.players:
            self.to_play = (seat + 1) % self.players
            return events
        return self._finish_trick(events)

    def _finish_trick(self, events: list[Event]) -> list[Event]:
        trick = self.trick
        winner = (self.leader + trick_winner(trick, self.trump)) % self.players
        points = CARD_POINTS[self.trump]
        value = sum(points[card] for card in trick)
        last = self.rules.hand_size - 1
        if self.trick_no == last:
            value += self.rules.last_trick_bonus
            if self.widow and self.rules.widow == "last_trick":
                # The monte goes, unseen, to the last trick's winner (reading, rules.widow).
                value += sum(points[card] for card in card_list(self.widow))
        team = self.rules.side_of(winner)
        self.card_points[team] += value
        self.tricks_won[team] += 1
        events.append(TrickWon(winner, self.trick_no, self.leader, tuple(trick), value))
        self.last_trick = (self.leader, tuple(trick))
        self.trick_history.append(self.last_trick)
        if self.trick_no == 0 and self.rules.declarations is not None:
            self._resolve_declarations(events)
        if self._claims and (self.rules.belote_window == "trick" or self.trick_no == last):
            # "next_card" windows stay open past the trick's end until the next card; the
            # hand's end closes every window (the last card must be announced with itself).
            self._close_windows()
        self.trick = []
        self.trick_no += 1
        self.leader = self.to_play = winner
        if self.trick_no == self.rules.hand_size:
            events.extend(self._score_hand())
        return events

    def _score_hand(self) -> list[Event]:
        contract = self.contract
        assert contract is not None
        side_of = self.rules.side_of
        facts = HandFacts(
            taker_team=side_of(contract.taker),
            trump=contract.trump,
            card_points=tuple(self.card_points),
            tricks_won=tuple(self.tricks_won),
            belote=self._scoring_belote(),
            declarations=self.declaration_points,
            level=contract.level,
            capot_contract=contract.capot,
            multiplier=contract.multiplier,
            last_caller_team=(None if contract.last_caller is None
                              else side_of(contract.last_caller)),
            tricks=self.rules.hand_size,
        )
        result = score_hand(self.rules, facts, self.pot_state)
        for side, score in enumerate(result.scores):
            self.totals[side] += score
        self.pot_state = result.pot
        events: list[Event] = [
            HandScored(
                self.hands_scored + 1,
                contract.taker,
                result.outcome,
                result.capot_team,
                result.card_points,
                facts.belote,
                result.scores,
                result.pot.points,
                result.pot_winner,
                result.pot_won,
                tuple(self.totals),
                facts.declarations,
                self.deal_no + 1,
            )
        ]
        self.deal_no += 1
        self.hands_scored += 1
        self.dealer = (self.dealer + 1) % self.players
        winner = match_winner(self.rules, self.totals, self.hands_scored)
        if winner is None:
            self.phase = Phase.DEAL
        else:
            self.winner = winner
            self.phase = Phase.MATCH_OVER
            events.append(MatchOver(winner, tuple(self.totals)))
        return events

    # ------------------------------------------------------------------ declarations
    def _declare(self, seat: int, action: int) -> list[Event]:
        held = self._held[seat]
        decl_rules = self.rules.declarations
        assert decl_rules is not None
        if action == A.DECLARE:
            declared = list(held)
            self._announced[seat] = declared
            # Seed 000 (italian): "dei poker, senza specificare di che natura".
            names = tuple(d.name if decl_rules.carre_rank_said or d.kind != "carre"
                          else spoken_name(d) for d in held)
        else:
            name = A.DECLARE_NAMES[action - A.DECLARE_NAME_BASE]
            # Seed 000 (valdostana): "l'accuso di una combinazione di valore +basso rende
            # nulla quella di valore +alto eventualmente posseduta".
            declared = valdostana_valid(name, held, decl_rules, self.trump)
            said = named_declaration(name, declared, decl_rules, self.trump)
            self._announced[seat] = [] if said is None else [said]  # what the name says
            names = (said_name(name, said, decl_rules),)
        self._declared[seat] = declared
        self.declarations_said.append((seat, names))
        return [DeclarationAnnounced(seat, names)]

    def _resolve_declarations(self, events: list[Event]) -> None:
        decl_rules = self.rules.declarations
        assert decl_rules is not None and self.contract is not None
        announced = [d or [] for d in self._announced]
        # Only what was announced decides which side scores; a valdostana player's valid list
        # (``_declared``) adds his lower, unannounced accusi to a winning side's count.
        counted, points, winner = self._declaration_score(
            announced, [d or [] for d in self._declared])
        self._points_as_announced = self._points_if_shown = points
        self._counted = counted
        if decl_rules.show_on_request:
            # Seed 000: shown only if asked; until then only what was said counts.
            self._points_as_announced = self._declaration_score(announced)[1]
            self._pending_show, self._counted = counted, ()
        self._rescore_declarations()
        if self.declarations_said:  # public: said whether a bluff was among them or not
            events.append(DeclarationsResolved(winner, self.declaration_points))

    def _declaration_score(
        self, declared: list[list[Declaration]], held: list[list[Declaration]] | None = None
    ) -> tuple[tuple[tuple[Declaration, ...], ...], tuple[int, ...], int | None]:
        """(counted per seat, side points, winning side) of these declarations; ``held``: what
        each seat may count besides (rules.declarations.score_declarations)."""
        decl_rules = self.rules.declarations
        assert decl_rules is not None and self.contract is not None
        score = score_declarations(declared, decl_rules, self.trump,
                                   first_to_declare=(self.dealer + 1) % self.players,
                                   held=held,
                                   taker_team=self.rules.side_of(self.contract.taker))
        # A "beloté" sequence is worth its table value plus the belote's own 20 (seed 000:
        # "sommando i punti della tabella precedente ai punti Belote"), and the belote scores
        # only if announced with the cards: so the 20 is counted once, by the announcement.
        bonus = [0] * self.rules.sides
        for seat, counted in enumerate(score.counted):
            bonus[self.rules.side_of(seat)] += sum(d.belote_bonus for d in counted)
        points = tuple(points - extra for points, extra
                       in zip(score.team_points, bonus, strict=True))
        return score.counted, points, score.winner_team

    def _rescore_declarations(self) -> None:
        """Declaration points now: a side's as shown once shown (or never hidden), else as
        announced, plus the refuted bluffs' penalties."""
        decl_rules = self.rules.declarations
        hidden = decl_rules is not None and decl_rules.show_on_request
        self.declaration_points = tuple(
            (self._points_if_shown[t] if self._team_shown[t] or not hidden
             else self._points_as_announced[t]) + self.penalty_points[t]
            for t in range(self.rules.sides))

    def _show_declarations(self, events: list[Event]) -> None:
        for seat, counted in enumerate(self._counted):
            if counted:
                cards = 0
                for d in counted:
                    cards |= d.cards
                events.append(DeclarationsShown(seat, tuple(d.name for d in counted), cards))
                self.shown_cards[seat] |= cards
        self._counted = ()

    def _ottava(self, seat: int) -> list[Event]:
        suit = next(s for s, m in enumerate(SUIT_MASKS) if self.hands[seat] & m == m)
        self.winner = self.rules.side_of(seat)
        self.phase = Phase.MATCH_OVER
        return [OttavaShown(seat, suit), MatchOver(self.winner, tuple(self.totals))]

    # ------------------------------------------------------------------ belote
    def _may_announce(self, seat: int, card: Card) -> bool:
        """Whether playing ``card`` now opens a belote/rebelote announcement for ``seat``."""
        rank = card & 7
        if rank != Rank.KING and rank != Rank.QUEEN:
            return False
        for suit, holder, stage in self._claims:
            if holder == seat and suit == card >> 3:
                if stage == _UNPLAYED:
                    return not (self.rules.belote_king_first and rank == Rank.QUEEN)
                return stage == _BELOTE_SAID
        return False

    def seats_with_open_window(self) -> list[int]:
        """Seats that may announce belote/rebelote right now (out of turn)."""
        return [seat for seat in range(self.players)
                if self._claims and self._window_open_for(seat)]

    def _window_open_for(self, seat: int) -> bool:
        for _, holder, stage in self._claims:
            if holder == seat and (stage in (_FIRST_OPEN, _SECOND_OPEN)):
                return True
        return False

    def _belote_card_played(
        self, seat: int, card: Card, announce: bool, events: list[Event]
    ) -> None:
        rank = card & 7
        if rank != Rank.KING and rank != Rank.QUEEN:
            return
        for claim in self._claims:
            suit, holder, stage = claim
            if holder != seat or suit != card >> 3:
                continue
            if stage == _UNPLAYED:
                if self.rules.belote_king_first and rank == Rank.QUEEN:
                    claim[2] = _VOID
                else:
                    claim[2] = _FIRST_OPEN
            elif stage == _BELOTE_SAID:
                claim[2] = _SECOND_OPEN
            if announce:
                self._say(claim, events)

    def _announce(self, seat: int) -> list[Event]:
        events: list[Event] = []
        for claim in self._claims:
            if claim[1] == seat and claim[2] in (_FIRST_OPEN, _SECOND_OPEN):
                self._say(claim, events)
                break
        return events

    def _say(self, claim: list[int], events: list[Event]) -> None:
        suit, seat, stage = claim
        word = "belote" if stage == _FIRST_OPEN else "rebelote"
        claim[2] = _BELOTE_SAID if stage == _FIRST_OPEN else _COMPLETE
        self.belote_said.append((seat, word))
        events.append(BeloteAnnounced(seat, word, suit))
        if claim[2] == _COMPLETE:
            self.belote_points[self.rules.side_of(seat)] += self.rules.belote_points

    def _scoring_belote(self) -> tuple[int, ...]:
        """Belote points that score; in tutte only the highest suit's (seed 000: "solo il
        'Belot e Rebelot' del seme più alto")."""
        if self.trump == ALL_TRUMP and self.rules.tutte_only_highest_belote:
            done = [(suit, seat) for suit, seat, stage in self._claims if stage == _COMPLETE]
            points = [0] * self.rules.sides
            if done:
                _, seat = min(done)  # suits are numbered from the highest, hearts
                points[self.rules.side_of(seat)] = self.rules.belote_points
            return tuple(points)
        return tuple(self.belote_points)

    def _close_windows(self) -> None:
        """A forgotten announcement voids the bonus (seed 002: "el olvido ... nula")."""
        for claim in self._claims:
            if claim[2] == _FIRST_OPEN or claim[2] == _SECOND_OPEN:
                claim[2] = _VOID

    # ------------------------------------------------------------------ history
    # The undo stack lives in belote.engine.history; these are its entry points.
    def _save(self, changed: tuple[str, ...]) -> None:
        save(self, changed, self.phase == Phase.BIDDING)

    def _whole_bid_snapshot(self) -> None:
        whole_bid_snapshot(self)

    def _save_play(self) -> None:
        save_play(self)

    def clone(self) -> Game:
        other = Game.__new__(Game)
        state = other.__dict__
        state.update(self.__dict__)
        for name in _MUTABLE_LISTS:
            state[name] = state[name][:]
        other.bids = BidState(*_BID_FIELDS(self.bids))
        other._claims = [claim[:] for claim in self._claims]
        other._log = self._log[:]
        return other  # the undo stack is shared: nothing in it is ever changed

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the undo stack (rebuilt from the log by the first undo that needs
        it) and without resampling's cache."""
        state = self.__dict__.copy()
        state["_undo"] = None
        state["_resample_cache"] = {}
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.__dict__.pop("_snapshots", None)  # the older per-deal stack
        self._undo = None
        if "_hand_records" not in state:  # pickled before the hand records
            self._hand_records = self._replayed(len(self._log))._hand_records

    def hand_number(self) -> tuple[int, int]:
        """The deal in progress (or the last one dealt): its hand number, counted over the
        hands scored (an all-pass redeal deals the same hand again), and its redeal number
        (0: the hand's first deal) (:func:`belote.engine.history.hand_number`)."""
        return hand_number(self._hand_records)

    @property
    def log(self) -> list[tuple[int, object]]:
        """Every deal (CHANCE, deck) and action (seat, action id) so far, in order."""
        return list(self._log)

    def undo(self) -> None:
        """Take back the last deal or action, in constant time (:func:`belote.engine.
        history.undo`)."""
        undo(self)

    def _replayed(self, length: int) -> Game:
        """A new game through the first ``length`` entries of the log, its undo stack whole."""
        game = Game(self.rules, self.first_dealer)
        for who, what in self._log[:length]:
            game._log.append((who, what))
            if who == CHANCE:
                game._save(_MUTABLE_LISTS)
                game._receive(what)  # type: ignore[arg-type]
            else:
                game._push(who, what)  # type: ignore[arg-type]
        return game

    def remaining_cards(self) -> CardSet:
        return ALL_CARDS & ~self.played

    def resample(self, seat: int, rng: random.Random | int | None = None,
                 model: Evidence | None = None) -> Game:
        """A game consistent with the rules' facts that ``seat`` has seen, the other hands
        drawn at random: uniformly, or weighed by ``model`` (soft evidence, e.g.
        :class:`belote.engine.convention_evidence.ConventionEvidence`)
        (:mod:`belote.engine.resample`); this game is unchanged."""
        from belote.engine.resample import resample

        return resample(self, seat, rng, model=model)

    resample_from_infostate = resample  # OpenSpiel's name
