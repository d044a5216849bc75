"""Rendering: what one connection is shown of a table, as a view, sentences and frames.

The view is the client's whole state (it renders nothing it was not sent), so a reloaded page
resumes exactly.  Everything in it comes from ``Game.observation(seat)`` (a spectator:
``seat=None``, the public part), and every sentence from the message catalogs.  The table
actor (:mod:`belote.server.table`) decides; this module only describes, and imports nothing
of the actor (it reads a table through :class:`TableState`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from belote.cards import cards_in
from belote.engine import actions as A
from belote.engine.events import Event
from belote.engine.observation import Observation
from belote.engine.state import CHANCE, Game, Phase
from belote.i18n import action_name, card_name, describe_event, preset_name, translate
from belote.i18n.names import contract_name, suit_name, team_name, trump_name
from belote.i18n.refusals import explain
from belote.i18n.status import STATUS_QUESTIONS, status_text
from belote.i18n.table_info import (
    TurnPrompt,
    high_bid,
    info_text,
    numbered_list,
    turn_prompts,
    why_no_belote,
)
from belote.notation import to_card
from belote.rules import Rules
from belote.server import protocol as P
from belote.server.save_vote import SaveVote
from belote.server.seats import Seat, seat_names, short_names
from belote.server.settings import DEFAULT_SUITS, SUIT_ORDERS


@dataclass(frozen=True, slots=True)
class Notice:
    """A room message that is not a game event (a seat change, a chat line)."""

    key: str
    values: dict[str, Any]
    chat: bool = False
    sender: int | None = None  # a chat line's account (a listener who blocks it does not hear)


@dataclass(frozen=True, slots=True)
class AwaySummary:
    """What a bot played for a player while they were away (their actions, in order): said
    to that player alone, once, in the sync that brings them back."""

    moves: tuple[int, ...]


Item = Event | Notice | AwaySummary

AWAY_SHOWN = 6  # moves an away summary names; more are counted, the last ones named

# Notices that name a bot in full (its level too): its arrival and its leaving.
INTRODUCTIONS = frozenset({"web.notice.bot_added", "web.notice.bot_removed"})


class TableState(Protocol):
    """What rendering reads of a table."""

    id: int
    preset: str
    rules: Rules
    seats: list[Seat]
    game: Game | None
    finished: bool
    version: int
    score_history: list[tuple[int, tuple[int, ...], tuple[int, ...]]]
    name: str
    private: bool
    code: str
    waiting_next: bool
    ready: set[int]
    rematch: int | None
    fixed_deck: tuple[int, ...] | None  # a deal of the daily duplicate (its one deal)

    @property
    def save_vote(self) -> SaveVote | None: ...


@dataclass(frozen=True, slots=True)
class Viewer:
    seat: int | None  # None: a spectator
    lang: str
    verbosity: str = "normal"
    suits: str = DEFAULT_SUITS  # the order of the hand (the player's settings: SUIT_ORDERS)
    trump_first: bool = False


def _card(card: int, lang: str) -> dict[str, Any]:
    return {"code": to_card(card), "name": card_name(card, lang), "suit": card >> 3}


def hand_order(hand: int, suits: str, trump: int | None, trump_first: bool) -> list[int]:
    """The cards of ``hand`` in the order the player chose: the suits in ``suits``'s order
    (SUIT_ORDERS), the trump suit first if ``trump_first`` and a trump suit is known (not
    before the bidding ends, nor with no trumps or all trumps); within a suit, from the seven
    up, as ever."""
    order = list(SUIT_ORDERS.get(suits, SUIT_ORDERS[DEFAULT_SUITS]))
    if trump_first and trump is not None and trump in order:
        order.remove(trump)
        order.insert(0, trump)
    place = {suit: n for n, suit in enumerate(order)}
    return sorted(cards_in(hand), key=lambda card: (place[card >> 3], card & 7))


def _hand(obs: Observation, viewer: Viewer, belote_why: str) -> list[dict[str, Any]]:
    """The viewer's hand, in its order: the page's cards, the arrows' order and the hand
    key's speech all follow it."""
    lang = viewer.lang
    legal = set(obs.legal_actions)
    hand = []
    for card in hand_order(obs.hand, viewer.suits, obs.trump, viewer.trump_first):
        entry = _card(card, lang)
        entry["playable"] = card in legal
        entry["announce"] = A.PLAY_ANNOUNCE_BASE + card in legal
        if belote_why and card >> 3 == obs.trump and card & 7 in (5, 6):
            # Space on this card: the reason that applies to it ("the king first").
            why = why_no_belote(obs, lang, card)
            if why != belote_why:
                entry["belote_why"] = why
        hand.append(entry)
    return hand


def _choices(obs: Observation, lang: str) -> list[dict[str, Any]]:
    """The non-card actions open to the viewer (bids, declarations, the cut), with their
    labels; a contract also gives its level and suit (the level and suit pickers), a cut its
    depth (the cut picker)."""
    rules = obs.ruleset
    levels = rules.auction.levels if rules is not None and rules.auction is not None else ()
    choices = []
    for a in obs.legal_actions:
        if A.is_play(a) or a == A.ANNOUNCE_BELOTE:
            continue
        choice: dict[str, Any] = {"action": a, "label": action_name(a, lang, rules)}
        if A.CONTRACT_BASE <= a < A.CONTRACT_END and levels:
            choice.update(level=levels[A.contract_level_index(a)], suit=A.contract_suit(a),
                          suit_name=suit_name(A.contract_suit(a), lang))
        elif A.is_table_talk(a):  # declarations, the ottava, show?, refute, bluff: key D
            choice["declare"] = True
        elif A.is_cut(a) and a != A.KNOCK:  # one picker for every depth, not 29 buttons
            choice["cut"] = A.cut_depth(a)
        choices.append(choice)
    return choices


def _contract(obs: Observation, lang: str) -> str:
    if obs.trump is None:
        return ""
    if obs.contract_level:
        return contract_name(obs.contract_level, obs.trump, lang, obs.ruleset)
    return trump_name(obs.trump, lang) if obs.trump >= 4 else suit_name(obs.trump, lang)


def table_view(table: TableState, viewer: Viewer,
               names: Sequence[str] | None = None) -> dict[str, Any]:
    """``viewer``'s whole view of the table (``names``: the seats' full names in its
    language, when the caller has them already)."""
    lang = viewer.lang
    names = list(names) if names is not None else seat_names(table.seats, lang)
    seats = [
        {"name": names[n], "kind": s.kind, "level": s.level, "standin": s.standin,
         "away": s.kind == "human" and s.away_since is not None, "kept": s.reserved,
         "you": n == viewer.seat}
        for n, s in enumerate(table.seats)
    ]
    view: dict[str, Any] = {
        "table": table.id,
        "preset": preset_name(table.preset, lang),
        "target": table.rules.target_score,
        "seat": viewer.seat, "seats": seats,
        "started": table.game is not None,
        "finished": table.finished,
        "version": table.version,
        "name": table.name,
        "private": table.private,
        "code": table.code,  # the invitation: whoever sees the page may pass it on
        "paused": table.waiting_next and table.finished is False,
        "ready": sorted(table.ready),
        "rematch": table.rematch,
        "fixed_deal": table.fixed_deck is not None,  # (the deck itself is never sent)
        "save_vote": table.save_vote.to_view() if table.save_vote is not None else None,
        # Who scores: the two teams, or each player when there are no partnerships.
        "sides": ([team_name(side, lang) for side in range(2)] if table.rules.partners
                  else names),
        # The engine's hand numbers, as speech and the replay say them.
        "history": [{"hand": hand, "points": list(points), "totals": list(totals)}
                    for hand, points, totals in table.score_history],
    }
    game = table.game
    if game is None:
        return view
    obs = game.observation(viewer.seat) if viewer.seat is not None else game.spectator_view()
    mover = obs.current_player
    belote_why = why_no_belote(obs, lang) if viewer.seat is not None else ""
    prompt = (turn_prompts(obs, lang, viewer.verbosity) if mover == viewer.seat
              else TurnPrompt(""))
    choices = _choices(obs, lang) if mover == viewer.seat else []
    view.update({
        "phase": "over" if game.is_terminal() else ("deal" if mover == CHANCE else
                                                   "cut" if game.phase == Phase.CUT else
                                                   ("bidding" if obs.trump is None
                                                    else "playing")),
        "turn": mover if mover >= 0 else None,
        "turn_name": names[mover] if mover >= 0 else "",
        "dealer": obs.dealer,
        "step": len(game.log),  # actions so far: a new turn is a new step, leading too
        "hand": _hand(obs, viewer, belote_why),
        "choices": choices,
        # D with several declarations: "1, tierce; 2, bluff" (the page's menu)
        "declare_list": numbered_list([c["label"] for c in choices if c.get("declare")], lang),
        "prompt": prompt.full,
        "prompt_short": prompt.short,  # said after the first full prompt of its kind
        "prompt_kind": prompt.kind,
        "belote": A.ANNOUNCE_BELOTE in obs.legal_actions,
        "belote_why": belote_why,
        "hand_sizes": list(obs.hand_sizes),
        "turned": _card(obs.turned, lang) if obs.turned is not None else None,
        "trick": [dict(_card(c, lang), seat=s) for s, c in obs.trick],
        "last_trick": [dict(_card(c, lang), seat=s) for s, c in obs.last_trick or ()],
        "contract": _contract(obs, lang),
        # In the auction: the bid that stands ("" once the contract is made, or none yet),
        # shown where the contract will be.
        "high_bid": high_bid(obs, lang, short_names(table.seats, lang, names)),
        "taker": obs.taker,
        "totals": list(obs.totals),
        "points": list(obs.card_points),
        # The status sentences stay in every frame: the page shows the scores and says
        # trump and scores on a sync (C, A, F, S read them at once).  The information keys'
        # answers are made when a key asks (:func:`info_frame`), not for every frame.
        "status": {q: status_text(q, obs, lang, names) for q in STATUS_QUESTIONS},
        "winner": obs.winner,
    })
    return view


def info_answer(table: TableState, viewer: Viewer, question: str) -> str:
    """The answer to the information key ``question`` (one of ``INFO_QUESTIONS``: T, O, P,
    W, Y, U) for ``viewer``, from its own observation only (a spectator's: the public part)."""
    game = table.game
    if game is None:
        return translate(viewer.lang, "web.js.waiting", count=len(table.seats))
    obs = game.observation(viewer.seat) if viewer.seat is not None else game.spectator_view()
    return info_text(question, obs, viewer.lang, seat_names(table.seats, viewer.lang))


def info_frame(table: TableState, viewer: Viewer, question: str) -> str:
    """An ``info`` frame: the answer to one information key, for one connection."""
    return P.encode_message(P.InfoAnswer(question, info_answer(table, viewer, question)),
                            table.version)


def illegal_text(game: Game, action: int, seat: int, lang: str) -> str:
    """Why ``action`` by ``seat`` is refused, in ``lang``: the engine's reason (a belote
    precisely: the king must come first, the window has closed...), the terminal's sentence."""
    return explain(game, action, seat, lang)


def texts(table: TableState, items: Sequence[Item], viewer: Viewer,
          full: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """The sentences ``viewer`` hears of ``items`` (nothing of an event it may not see).

    A bot is introduced by its full name when it sits down or leaves ("West bot (normal)
    joins the table"); every other sentence names it by its seat alone ("West plays the
    jack of hearts"), three words fewer on every move it makes."""
    full = full if full is not None else seat_names(table.seats, viewer.lang)
    names = short_names(table.seats, viewer.lang, full)
    said: list[dict[str, Any]] = []
    for item in items:
        if isinstance(item, Notice):
            values = dict(item.values)
            if "seat" in values:
                values["player"] = (full if item.key in INTRODUCTIONS else
                                    names)[values["seat"]]
            said.append({"kind": "chat" if item.chat else "notice",
                         "text": translate(viewer.lang, item.key, **values)})
            continue
        if isinstance(item, AwaySummary):
            said.append({"kind": "away_summary",
                         "text": away_text(item.moves, viewer.lang, table.rules)})
            continue
        text = describe_event(item, viewer.lang, viewer.seat, names, viewer.verbosity,  # type: ignore[arg-type]
                              table.rules)
        if text is not None:
            said.append({"kind": item.kind, "text": text})
    return said


def view_frame(table: TableState, kind: str, items: Sequence[Item], viewer: Viewer,
               since: int = 0, said: list[dict[str, Any]] | None = None) -> str:
    """A ``sync`` or ``update`` frame: the sentences of ``items`` (``said``: made already)
    and the whole view (a sync's ``since``: the version its sentences follow, 0 when they
    are all the table keeps)."""
    names = seat_names(table.seats, viewer.lang)  # once for the view and the sentences
    if said is None:
        said = texts(table, items, viewer, names)
    view = table_view(table, viewer, names)
    message: P.Outbound = P.Sync(said, view, since) if kind == "sync" else P.Update(said, view)
    return P.encode_message(message, table.version)


def away_text(moves: Sequence[int], lang: str, rules: Rules) -> str:
    """One short sentence: what a bot played for a player while they were away (the last
    :data:`AWAY_SHOWN` moves named, the others counted)."""
    names = ", ".join(action_name(a, lang, rules) for a in moves[-AWAY_SHOWN:])
    if len(moves) <= AWAY_SHOWN:
        return translate(lang, "stall.away.summary", moves=names)
    return translate(lang, "stall.away.summary_many", count=len(moves), moves=names)


def error_frame(code: str, lang: str, version: int, detail: str = "",
                family: str = "web", move: int = 0) -> str:
    """A refusal, in ``lang`` (``family``: ``web`` for the room's, ``wire`` for the codec's;
    ``move``: the client's id of the move refused)."""
    return P.encode_message(P.Error(code, translate(lang, f"error.{family}.{code}"), detail,
                                    move), version)
