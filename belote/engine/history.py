"""What a game keeps of its past: the undo snapshot stack and the hand records.

``Game.undo`` is O(1): each deal and action pushes a snapshot of the game before it
(python-chess's move stack), a persistent stack that clones share.  A :class:`HandRecord`
per deal keeps the match as it stood at that deal (public facts), so that a resample
(:mod:`belote.engine.resample`) starts the hand in progress without replaying the match.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias

from belote.engine.bidding import Contract
from belote.engine.bidding.base import BidState
from belote.engine.scoring import Pot
from belote.errors import IllegalActionError

if TYPE_CHECKING:
    from belote.engine.state import Game

__all__ = ["BID_FIELDS", "HandRecord", "Undo", "hand_number", "save", "save_play", "undo",
           "whole_bid_snapshot"]

# An undo snapshot: (the log's length before the deal or action, the snapshot before, what the
# game was then): all its attributes (one dict), or only the attributes that change: a card
# that does not end its trick (hands, played, trick, to_play, _mask_cache), a bid that does not
# end the bidding (bids, bid_history, _mask_cache) (see _push).  A persistent stack: clones
# share it, and nothing in it is ever changed.
Undo: TypeAlias = "tuple[Any, ...]"
BID_FIELDS = operator.attrgetter(*BidState.__slots__)


class HandRecord(NamedTuple):
    """One deal of the match, as everybody saw it start: where it is in the log, the match
    before it, and the contract once the bidding made one (public facts only: a resample
    copies them, :mod:`belote.engine.resample`)."""

    log_index: int
    dealer: int
    deal_no: int
    hands_scored: int
    totals: tuple[int, ...]
    pot: Pot
    cut_depth: int  # the last cut before this deal (the previous hand's)
    contract: Contract | None = None


def hand_number(records: tuple[HandRecord, ...]) -> tuple[int, int]:
    """The last deal's hand number and redeal number: hands are numbered by the hands scored
    before them, from 1 (a deal everyone passed is the same hand dealt again, not a new
    one), and its redeal number counts the deals of that hand before it (0: the first).
    Before any deal: (1, 0).  Every "hand N" the players read or hear comes from here, so
    the speech, the score history and the replay agree."""
    if not records:
        return 1, 0
    scored = records[-1].hands_scored
    redeal = 0
    for record in reversed(records[:-1]):  # this hand's earlier deals, all passed
        if record.hands_scored != scored:
            break
        redeal += 1
    return scored + 1, redeal


def save(game: Game, changed: tuple[str, ...], bidding: bool) -> None:
    """Push the undo snapshot of the game before the logged deal or action just appended.

    The snapshot keeps the game's attributes as they are, the very objects; the game goes
    on with copies of the lists the action may change in place (``changed``), so nothing a
    snapshot holds is ever changed and clones may share the stack."""
    state = game.__dict__
    game._undo = (len(game._log) - 1, game._undo, state.copy())
    for name in changed:
        state[name] = state[name][:]
    game._claims = [claim[:] for claim in game._claims]
    if bidding:  # the bidding system changes the bid state in place
        game.bids = BidState(*BID_FIELDS(game.bids))


def whole_bid_snapshot(game: Game) -> None:
    """The bid being pushed ends the bidding: its snapshot (_push) becomes the whole game
    before it, and the game goes on with copies of what the deal's completion or the
    redeal changes in place."""
    assert game._undo is not None
    length, before, bids, history, mask = game._undo
    whole = game.__dict__.copy()
    whole.update(bids=bids, bid_history=history, _mask_cache=mask, _undo=before)
    game._undo = (length, before, whole)
    game.hands = game.hands[:]
    game._claims = [claim[:] for claim in game._claims]


def save_play(game: Game) -> None:
    """:func:`save` for a card play, the common action, kept lean: only the lists a play
    changes in place are copied, those of the trick's and the hand's end when it ends
    them, the belote claims and the shown cards when they may change (see _play)."""
    game._undo = (len(game._log) - 1, game._undo, game.__dict__.copy())
    game.hands = game.hands[:]
    game.trick = game.trick[:]
    if len(game.trick) == game.players - 1:  # the trick ends: _finish_trick, _score_hand
        game.trick_history = game.trick_history[:]
        game.card_points = game.card_points[:]
        game.tricks_won = game.tricks_won[:]
        game.totals = game.totals[:]
    if game._claims:
        game._claims = [claim[:] for claim in game._claims]
        game.belote_said = game.belote_said[:]
        game.belote_points = game.belote_points[:]
    if game._counted:
        game.shown_cards = game.shown_cards[:]


def undo(game: Game) -> None:
    """Take back the last deal or action, in constant time: each deal and action pushed
    a snapshot of the game before it (python-chess's move stack).  Where the stack does
    not reach (a game unpickled or resampled), the log is replayed once to rebuild it."""
    if not game._log:
        raise IllegalActionError("nothing to undo")
    target = len(game._log) - 1
    node = game._undo
    if node is None or node[0] != target:
        node = game._replayed(target + 1)._undo
        assert node is not None and node[0] == target
    # What the game changes in place from here on is copied first (_push, _save): the
    # snapshot's own lists stay as they are, for the clones that share it.
    if len(node) == 3:  # the whole game
        log, cache = game._log, game._resample_cache
        state = game.__dict__
        state.clear()
        state.update(node[2])
        game._log, game._resample_cache = log, cache
    elif len(node) == 5:  # a bid that did not end the bidding (_push)
        _, _, game.bids, game.bid_history, game._mask_cache = node
    else:  # a card that did not end its trick (_push)
        _, _, game.hands, game.played, game.trick, game.to_play, game._mask_cache = node
    game._log.pop()
    game._undo = node[1]
