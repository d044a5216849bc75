"""Information-state and observation tensors of one seat, numpy float32 (OpenSpiel observers).

Both are flat vectors whose parts are named slices of :data:`LAYOUT` (information state) and
:data:`OBSERVATION_LAYOUT` (observation).  Seats are *relative to the viewer*: index 0 is the
viewer, 1 the next player (to the left), 2 the partner, 3 the previous player; team pairs put
the viewer's team first.  So a policy learned for one seat serves at every seat.

The observation tensor is what the seat sees now: its hand, the table, the auction's state,
who played which card this hand.  The information state adds the order of everything
(perfect recall within the hand): every bid in sequence, every trick card by card, and the
cards the seat held while it bid (``bidding_hand``: where the auction comes after the first
packets, the five cards it took or passed on; the turned card is public and apart).  Both
hold only what the seat may know: its own hands, never another (``hand_sizes`` counts them).

:func:`state_tensor` is something else, for training only: the global state a centralised
critic reads (:data:`STATE_LAYOUT`), with every seat's hand.  It must never reach a policy
that acts at a seat.

Parts (sizes in brackets; "x/k" means the value divided by k, so most features lie in 0..1):

| name | size | meaning |
|---|---|---|
| ``phase`` | 5 | one-hot: deal, bidding, playing, match over, cut (``Phase``) |
| ``dealer`` | 4 | relative seat of the dealer |
| ``to_act`` | 4 | relative seat of the player to act (none on a chance node or at the end) |
| ``hand`` | 32 | the viewer's cards (card = suit*8 + rank) |
| ``turned`` | 32 | the turned card, while it is face up or known to be the taker's |
| ``trump`` | 6 | suits 0..3, no trump, all trump |
| ``taker`` | 4 | relative seat of the taker |
| ``contract`` | 5 | level index+1 / number of levels, plain/contro/surcontro one-hot, capot |
| ``hand_sizes`` | 4 | cards held by each relative seat / 8 |
| ``current_trick`` | 128 | 4 relative seats x 32: the card each has put in the trick in play |
| ``played_by`` | 128 | 4 relative seats x 32: every card each has played this hand |
| ``shown`` | 128 | 4 relative seats x 32: cards shown with the declarations |
| ``belote_said`` | 8 | 4 relative seats x (belote, rebelote) |
| ``declared`` | 20 | 4 relative seats x (declared, tierce, cinquante, cent or more, carre) |
| ``last_bid`` | 72 | 4 relative seats x the 18 bid features of their last bid |
| ``scores`` | 9 | card points /162, tricks /8, declarations /500, totals / target (1) |
| ``bid_history`` | 880 | the last 40 bids in order: 4 (relative seat) + 18 features (2) |
| ``trick_history`` | 1056 | per trick 0..7: leader (4), each relative seat's card (4 x 32) (2) |
| ``bidding_hand`` | 32 | the viewer's cards during the auction (its first packets) (2) |

(1) each pair with the viewer's team first, then the pot / target.  (2) information state
only.  Longer auctions keep their last 40 bids in ``bid_history``; ``last_bid`` still holds
every seat's last word.

The 18 bid features: pass, take, name a suit (4), senza, tutte, aspetto, ancora, alzo, contro,
surcontro, a contract's suit (4) and its level index+1 / number of levels.  A conventional
raise (valdostana do/ancora/alzo 10/20) sets its word (ancora, alzo; do: the take slot, never
said in an auction) and, in the level feature, its raise in level steps / number of levels;
the suit-only opening is the named suit.

The global state (:data:`STATE_LAYOUT`, :data:`STATE_SIZE`) is seat 0's information state
(so its relative seats are the absolute seats, team 0 first) followed by two parts:

| name | size | meaning |
|---|---|---|
| ``hands`` | 128 | 4 seats x 32: every seat's cards now |
| ``bidding_hands`` | 128 | 4 seats x 32: every seat's cards during the auction |

The order of the cards still in the stock (during the auction: who will get which) is not in
it; to a critic it is chance still to come, like the next deal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from belote.cards import CardSet
from belote.engine import actions as A
from belote.engine.bidding.conventions import RAISES
from belote.engine.state import Phase
from belote.errors import BeloteError

if TYPE_CHECKING:
    from belote.engine.state import Game

Tensor = npt.NDArray[np.float32]

BID_FEATURES = 18
MAX_BIDS = 40

_COMMON: tuple[tuple[str, int], ...] = (
    ("phase", len(Phase)), ("dealer", 4), ("to_act", 4), ("hand", 32), ("turned", 32),
    ("trump", 6),
    ("taker", 4), ("contract", 5), ("hand_sizes", 4), ("current_trick", 128),
    ("played_by", 128), ("shown", 128), ("belote_said", 8), ("declared", 20),
    ("last_bid", 4 * BID_FEATURES), ("scores", 9),
)
_HISTORY: tuple[tuple[str, int], ...] = (
    ("bid_history", MAX_BIDS * (4 + BID_FEATURES)), ("trick_history", 8 * (4 + 128)),
    ("bidding_hand", 32),
)
# The global state's own parts, after seat 0's information state (training only).
_GLOBAL: tuple[tuple[str, int], ...] = (("hands", 4 * 32), ("bidding_hands", 4 * 32))


def _layout(parts: tuple[tuple[str, int], ...]) -> dict[str, slice]:
    layout: dict[str, slice] = {}
    start = 0
    for name, size in parts:
        layout[name] = slice(start, start + size)
        start += size
    return layout


LAYOUT: dict[str, slice] = _layout(_COMMON + _HISTORY)
OBSERVATION_LAYOUT: dict[str, slice] = _layout(_COMMON)
STATE_LAYOUT: dict[str, slice] = _layout(_COMMON + _HISTORY + _GLOBAL)
INFORMATION_STATE_SIZE = sum(size for _, size in _COMMON + _HISTORY)
OBSERVATION_SIZE = sum(size for _, size in _COMMON)
STATE_SIZE = sum(size for _, size in _COMMON + _HISTORY + _GLOBAL)

_O = {name: s.start for name, s in LAYOUT.items()}
_PHASE, _DEALER, _TO_ACT, _HAND, _TURNED = (_O[n] for n in
                                             ("phase", "dealer", "to_act", "hand", "turned"))
_TRUMP, _TAKER, _CONTRACT, _SIZES = (_O[n] for n in ("trump", "taker", "contract",
                                                      "hand_sizes"))
_TRICK, _PLAYED, _SHOWN, _BELOTE = (_O[n] for n in ("current_trick", "played_by", "shown",
                                                     "belote_said"))
_DECLARED, _LAST_BID, _SCORES = (_O[n] for n in ("declared", "last_bid", "scores"))
_BIDS, _TRICKS, _BIDDING = _O["bid_history"], _O["trick_history"], _O["bidding_hand"]

_SIMPLE_BID = {A.PASS: 0, A.TAKE: 1, A.SENZA: 6, A.TUTTE: 7, A.ASPETTO: 8, A.ANCORA: 9,
               A.ALZO: 10, A.CONTRO: 11, A.SURCONTRO: 12}
_DECLARED_KIND = {"tierce": 1, "cinquante": 2, "cent": 3, "carre": 4}
_CARDS = tuple(range(32))


def _bid_features(action: int, levels: int, base: int, ones: list[int],
                  out: Tensor) -> None:
    """Write one bid's 18 features at ``base`` (ones go to ``ones``, the level to ``out``)."""
    simple = _SIMPLE_BID.get(action)
    if simple is not None:
        ones.append(base + simple)
    elif A.NAME_SUIT_BASE <= action < A.NAME_SUIT_BASE + 4:
        ones.append(base + 2 + action - A.NAME_SUIT_BASE)
    elif A.CONVENTION_BASE <= action < A.CONVENTION_END:
        word, points = RAISES[action]
        ones.append(base + (1 if word == "do" else 9 if word == "ancora" else 10))
        out[base + 17] = points / 10 / levels  # a step of the valdostana table is 10 points
    elif action >= A.CONTRACT_BASE:
        ones.append(base + 13 + A.contract_suit(action))
        out[base + 17] = (A.contract_level_index(action) + 1) / levels


def _multiplier_slot(multiplier: int, game: Game) -> int:
    """0 plain, 1 doubled (contro), 2 redoubled (surcontro), from the rules' own
    multipliers (colver's surcoinche is x3, not x4)."""
    auction = game.rules.auction
    if auction is None or multiplier == 1:
        return 0
    if multiplier == auction.contro_multiplier:
        return 1
    return 2 if multiplier == auction.surcontro_multiplier else 0


def _declared_kind(name: str) -> int:
    """tierce 1, cinquante 2, cent (5 or more) 3, carre 4, from spoken or full names."""
    if name.startswith("carre"):
        return 4
    if name.startswith("sequence_"):
        return min(int(name[9:]), 5) - 2
    return _DECLARED_KIND.get(name, 0)


def check_four_seats(players: int) -> None:
    """The tensors' layout has four seats and two teams: refuse other tables (BeloteError)."""
    if players != 4:
        raise BeloteError(f"the RL tensors encode four seats, not {players}; 3- and 2-player "
                          "games play through belote.engine.state.Game")


def bidding_hand(game: Game, seat: int) -> CardSet:
    """The cards ``seat`` held during this hand's auction: its first packets (its whole hand
    where every card is dealt before the auction); 0 while no hand is dealt.

    During the play they are read from the deck as dealt (``game.deck``, after any cut) and
    the deal's packets, the way the engine dealt them; a resampled world keeps the seat's own
    cards where they were in the deck, so its answer does not change."""
    if game.phase == Phase.BIDDING:
        return game.hands[seat]
    if game.phase != Phase.PLAYING:
        return 0
    deck, players = game.deck, game.players
    if len(deck) != 32:
        raise BeloteError("the game has no deck: the cards each seat bid on are unknown")
    turn = (seat - game.dealer - 1) % players  # the dealer deals from the next seat on
    cards = position = 0
    for packet in game.rules.deal_packets:
        for card in deck[position + turn * packet:position + (turn + 1) * packet]:
            cards |= 1 << card
        position += packet * players
    return cards


def _fill(game: Game, viewer: int, out: Tensor, history: bool) -> None:
    """Fill ``out`` (zeros) with ``viewer``'s view of ``game``."""
    check_four_seats(game.players)
    ones: list[int] = [_PHASE + int(game.phase), _DEALER + (game.dealer - viewer) % 4]
    mover = game.current_player()
    if mover >= 0:
        ones.append(_TO_ACT + (mover - viewer) % 4)
    dealt = game.phase == 1 or game.phase == 2
    if not dealt:
        out[ones] = 1.0
        _fill_scores(game, viewer, out)
        return
    hand = game.hands[viewer]
    ones.extend(_HAND + c for c in _CARDS if hand >> c & 1)
    if game.turned >= 0:
        ones.append(_TURNED + game.turned)
    for rel in range(4):
        out[_SIZES + rel] = game.hands[(viewer + rel) % 4].bit_count() / 8
    levels = len(game.rules.auction.levels) if game.rules.auction is not None else 1
    _fill_contract(game, viewer, out)
    leader = game.leader
    for i, card in enumerate(game.trick):
        ones.append(_TRICK + ((leader + i - viewer) % 4) * 32 + card)
    tricks = game.trick_history
    for t, (lead, cards) in enumerate(tricks):
        for i, card in enumerate(cards):
            rel = (lead + i - viewer) % 4
            ones.append(_PLAYED + rel * 32 + card)
            if history:
                ones.append(_TRICKS + t * 132 + 4 + rel * 32 + card)
        if history:
            ones.append(_TRICKS + t * 132 + (lead - viewer) % 4)
    for i, card in enumerate(game.trick):
        rel = (leader + i - viewer) % 4
        ones.append(_PLAYED + rel * 32 + card)
        if history:
            ones.append(_TRICKS + len(tricks) * 132 + 4 + rel * 32 + card)
    if history and game.trick:
        ones.append(_TRICKS + len(tricks) * 132 + (leader - viewer) % 4)
    for s in range(4):
        shown = game.shown_cards[s]
        if shown:
            rel = (s - viewer) % 4
            ones.extend(_SHOWN + rel * 32 + c for c in _CARDS if shown >> c & 1)
    for s, word in game.belote_said:
        ones.append(_BELOTE + ((s - viewer) % 4) * 2 + (word != "belote"))
    for s, names in game.declarations_said:
        base = _DECLARED + ((s - viewer) % 4) * 5
        ones.append(base)
        ones.extend(base + k for k in map(_declared_kind, names) if k)
    bids = game.bid_history
    last: dict[int, int] = {}
    for s, action in bids:
        last[(s - viewer) % 4] = action
    for rel, action in last.items():
        _bid_features(action, levels, _LAST_BID + rel * BID_FEATURES, ones, out)
    if history:
        for slot, (s, action) in enumerate(bids[-MAX_BIDS:]):
            base = _BIDS + slot * (4 + BID_FEATURES)
            ones.append(base + (s - viewer) % 4)
            _bid_features(action, levels, base + 4, ones, out)
        bid_on = bidding_hand(game, viewer)
        ones.extend(_BIDDING + c for c in _CARDS if bid_on >> c & 1)
    out[ones] = 1.0
    _fill_scores(game, viewer, out)


def _fill_contract(game: Game, viewer: int, out: Tensor) -> None:
    """The trump, taker and contract parts, once the contract is set."""
    contract = game.contract
    if contract is None:
        return
    out[_TRUMP + contract.trump] = 1.0
    out[_TAKER + (contract.taker - viewer) % 4] = 1.0
    auction = game.rules.auction
    if contract.level and auction is not None:
        index = auction.levels.index(contract.level)
        out[_CONTRACT] = (index + 1) / len(auction.levels)
    out[_CONTRACT + 1 + _multiplier_slot(contract.multiplier, game)] = 1.0
    if contract.capot:
        out[_CONTRACT + 4] = 1.0


def _fill_scores(game: Game, viewer: int, out: Tensor) -> None:
    mine, theirs = viewer & 1, 1 - (viewer & 1)
    target = max(game.rules.target_score, 1)
    declared = game.declaration_points
    out[_SCORES:_SCORES + 9] = (
        game.card_points[mine] / 162, game.card_points[theirs] / 162,
        game.tricks_won[mine] / 8, game.tricks_won[theirs] / 8,
        declared[mine] / 500, declared[theirs] / 500,
        game.totals[mine] / target, game.totals[theirs] / target, game.pot / target,
    )


def _viewer(seat: int) -> int:
    if type(seat) is not int or not 0 <= seat < 4:
        raise ValueError(f"seat must be 0..3, not {seat!r}")
    return seat


def information_state_tensor(game: Game, seat: int) -> Tensor:
    """``seat``'s information state (:data:`LAYOUT`), a new float32 array."""
    out = np.zeros(INFORMATION_STATE_SIZE, dtype=np.float32)
    _fill(game, _viewer(seat), out, history=True)
    return out


def observation_tensor(game: Game, seat: int) -> Tensor:
    """``seat``'s observation (:data:`OBSERVATION_LAYOUT`), a new float32 array."""
    out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    _fill(game, _viewer(seat), out, history=False)
    return out


def state_tensor(game: Game) -> Tensor:
    """The global state (:data:`STATE_LAYOUT`), a new float32 array: seat 0's information
    state, then every seat's hand and bidding hand.  For training only (a centralised
    critic): it holds every hidden card."""
    out = np.zeros(STATE_SIZE, dtype=np.float32)
    _fill(game, 0, out[:INFORMATION_STATE_SIZE], history=True)
    if game.phase == Phase.BIDDING or game.phase == Phase.PLAYING:
        hands, bid_on = STATE_LAYOUT["hands"].start, STATE_LAYOUT["bidding_hands"].start
        ones: list[int] = []
        for seat in range(4):
            held, first = game.hands[seat], bidding_hand(game, seat)
            ones.extend(hands + seat * 32 + c for c in _CARDS if held >> c & 1)
            ones.extend(bid_on + seat * 32 + c for c in _CARDS if first >> c & 1)
        out[ones] = 1.0
    return out
