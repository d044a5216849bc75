"""One sentence per event for a screen reader, in the listener's language.

``describe_event`` reads only the event, the listener's seat and (optionally) the rules: it keeps
no state, so it can announce a live game, a replay or a reconnecting client's backlog alike.
The rules are needed to name auction contracts by their level ("112 cuori") and to say an
auction pass with the table's word; without them a contract is named by its position.
Hidden information is respected: an event that the listener may not see (another seat's
cards) describes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from belote.cards import card_list
from belote.engine import actions
from belote.engine import events as ev
from belote.i18n.catalog import check_language, has_message, translate
from belote.i18n.names import (
    TRUMP_MODE_KEYS,
    action_name,
    card_name,
    cards_text,
    contract_name,
    declaration_name,
    hand_label,
    join_list,
    pass_key,
    preset_name,
    rank_name,
    seat_name,
    suit_name,
    team_name,
)

if TYPE_CHECKING:
    from belote.rules.base import Rules

Verbosity = Literal["brief", "normal"]
VERBOSITIES: tuple[str, ...] = ("brief", "normal")


@dataclass(frozen=True, slots=True)
class _Context:
    lang: str
    viewer: int | None
    names: Sequence[str] | None
    verbosity: str
    rules: Rules | None = None

    def say(self, key: str, seat: int | None = None, **values: Any) -> str:
        """The message ``key`` (``key.you`` when ``seat`` is the listener; ``.brief`` if any)."""
        if seat is not None:
            values.setdefault("player", seat_name(seat, self.lang, self.names))
            if seat == self.viewer:
                key += ".you"
        if self.verbosity == "brief" and has_message(self.lang, key + ".brief"):
            key += ".brief"
        return translate(self.lang, key, **values)

    def card(self, card: int) -> dict[str, str]:
        brief = self.verbosity == "brief"
        return {
            "card": translate(self.lang, "card.name.brief", rank=rank_name(card & 7, self.lang),
                              suit=suit_name(card >> 3, self.lang)) if brief
            else card_name(card, self.lang),
            "the_card": card_name(card, self.lang, definite=True),
        }

    @property
    def players(self) -> int:
        """Seats at the table: the rules say, else the names given (4 without either)."""
        if self.rules is not None:
            return self.rules.players
        return len(self.names) if self.names is not None else 4

    def side(self, side: int) -> str:
        """A scoring side's name: a team of two with four players, else the player."""
        if self.players == 4:
            return team_name(side, self.lang)
        return seat_name(side, self.lang, self.names)

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.players == 4 else seat

    def side_key(self, key: str, side: int) -> str:
        """``key`` for a sentence about a side: with no partnerships the side is one player,
        so the player form (``.alone``, ``.alone.you`` for the listener) reads right."""
        if self.players == 4:
            return key
        return key + ".alone" + (".you" if side == self.viewer else "")

    def teams(self, prefix: str, values: tuple[int, ...]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for side, value in enumerate(values):
            out[f"team{side}"] = self.side(side)
            out[f"{prefix}{side}"] = value
        return out


def _match_started(e: ev.MatchStarted, c: _Context) -> str:
    dealer = seat_name(e.first_dealer, c.lang, c.names)
    preset = preset_name(e.preset, c.lang)
    return c.say(
        "event.match_started",
        e.first_dealer,
        preset=preset,
        target=e.target,
        dealer=dealer,
    )


def _hand_started(e: ev.HandStarted, c: _Context) -> str:
    dealer = seat_name(e.dealer, c.lang, c.names)
    hand = hand_label(e.hand_no, e.redeal, c.lang)
    if e.turned is None:
        return c.say("event.hand_started.no_turned", e.dealer, hand_no=hand, dealer=dealer)
    return c.say(
        "event.hand_started",
        e.dealer,
        hand_no=hand,
        dealer=dealer,
        **c.card(e.turned),
    )


def _cards_dealt(e: ev.CardsDealt, c: _Context) -> str:
    if c.verbosity == "brief":
        # Brief: by suit, each suit named once ("hearts: seven, jack; spades: ace").
        cards = card_list(e.cards)
        groups = [translate(c.lang, "event.cards_dealt.suit.brief", suit=suit_name(suit, c.lang),
                            ranks=join_list((rank_name(card & 7, c.lang) for card in cards
                                             if card >> 3 == suit), c.lang))
                  for suit in range(4) if any(card >> 3 == suit for card in cards)]
        return translate(c.lang, "event.cards_dealt.brief", cards="; ".join(groups))
    return translate(
        c.lang, "event.cards_dealt", cards=cards_text(card_list(e.cards), c.lang)
    )


_BID_KEYS: dict[int, str] = {
    actions.PASS: "pass",
    actions.TAKE: "take",
    actions.SENZA: "no_trump",
    actions.TUTTE: "all_trump",
    **{actions.name_suit(suit): "name_suit" for suit in range(4)},
    actions.ASPETTO: "aspetto",
    actions.ANCORA: "ancora",
    actions.ALZO: "alzo",
    actions.CONTRO: "contro",
    actions.SURCONTRO: "surcontro",
    **dict.fromkeys(range(actions.CONVENTION_BASE, actions.CONVENTION_END), "convention"),
}


def _bid_key(action: int, rules: Rules | None) -> str:
    if actions.CONTRACT_BASE <= action < actions.CONTRACT_END:
        return "contract"
    if action not in _BID_KEYS:
        raise ValueError(f"BidMade with an action id that is not a bid: {action!r}")
    if action == actions.PASS:
        # "via" in take-or-pass; "passo" (no ace) or a plain pass in an auction.
        return pass_key(rules)
    if _BID_KEYS[action] == "name_suit" and rules is not None and rules.auction is not None:
        return "suit_only"  # seed 000: the number omitted
    return _BID_KEYS[action]


def _bid_made(e: ev.BidMade, c: _Context) -> str:
    key = _bid_key(e.action, c.rules)
    values: dict[str, Any] = {
        "round": e.round,
        "bid": action_name(e.action, c.lang, c.rules),
    }
    if key in ("name_suit", "suit_only"):
        values["suit"] = suit_name(e.action - actions.NAME_SUIT_BASE, c.lang)
    if c.verbosity == "brief":
        return c.say("event.bid_made", e.seat, **values)
    return c.say(f"event.bid_made.{key}", e.seat, **values)


def _all_passed(e: ev.AllPassed, c: _Context) -> str:
    dealer = seat_name(e.next_dealer, c.lang, c.names)
    return c.say("event.all_passed", e.next_dealer, hand_no=e.hand_no, dealer=dealer)


def _contract_set(e: ev.ContractSet, c: _Context) -> str:
    if e.trump in TRUMP_MODE_KEYS:
        text = c.say(f"event.contract_set.{TRUMP_MODE_KEYS[e.trump]}", e.taker)
    elif e.level:
        contract = contract_name(e.level, e.trump, c.lang, c.rules)
        text = c.say("event.contract_set.level", e.taker, contract=contract)
    else:
        text = c.say("event.contract_set.suit", e.taker, suit=suit_name(e.trump, c.lang))
    if e.multiplier == 1:
        return text
    return text + " " + c.say(
        f"event.contract_set.{_multiplier_key(e.multiplier, c.rules)}",
        multiplier=e.multiplier,
    )


def _multiplier_key(multiplier: int, rules: Rules | None) -> str:
    """Which word a contract's multiplier is: the rules' contro / surcontro, else x2 / x4."""
    auction = None if rules is None else rules.auction
    contro, surcontro = (2, 4) if auction is None else (
        auction.contro_multiplier,
        auction.surcontro_multiplier,
    )
    if multiplier == surcontro:
        return "surcontro"
    if multiplier == contro:
        return "contro"
    return "multiplied"


def _turned_card_taken(e: ev.TurnedCardTaken, c: _Context) -> str:
    return c.say("event.turned_card_taken", e.seat, **c.card(e.card))


def _deck_cut(e: ev.DeckCut, c: _Context) -> str:
    if e.depth == 0:
        return c.say("event.deck_knocked", e.seat)
    return c.say("event.deck_cut", e.seat, depth=e.depth)


def _card_played(e: ev.CardPlayed, c: _Context) -> str:
    if c.verbosity == "brief" and e.led is not None and e.card >> 3 == e.led:
        # Brief: a card of the suit led is said by its rank alone ("West: king").
        return c.say("event.card_played.follow", e.seat,
                     rank=rank_name(e.card & 7, c.lang), **c.card(e.card))
    return c.say("event.card_played", e.seat, trick_no=e.trick_no, **c.card(e.card))


def _belote_announced(e: ev.BeloteAnnounced, c: _Context) -> str:
    key = f"announce.{e.word}"
    word = translate(c.lang, key) if has_message(c.lang, key) else e.word
    return c.say(
        "event.belote_announced", e.seat, word=word, suit=suit_name(e.suit, c.lang)
    )


def _declarations(names: Sequence[str], lang: str) -> str:
    return join_list((declaration_name(name, lang) for name in names), lang)


def _declaration_announced(e: ev.DeclarationAnnounced, c: _Context) -> str:
    if not e.names:
        return c.say("event.declaration_announced.nothing", e.seat)
    return c.say(
        "event.declaration_announced",
        e.seat,
        declarations=_declarations(e.names, c.lang),
    )


def _declarations_resolved(e: ev.DeclarationsResolved, c: _Context) -> str:
    scoring = [team for team, points in enumerate(e.points) if points]
    if not scoring:
        return c.say("event.declarations_resolved.none")
    if len(scoring) == 1:
        team = scoring[0]
        return c.say(
            c.side_key("event.declarations_resolved.one", team),
            team=c.side(team),
            points=e.points[team],
        )
    key = "event.declarations_resolved.both" + (".three" if len(e.points) == 3 else "")
    return c.say(key, **c.teams("points", e.points))


def _declarations_shown(e: ev.DeclarationsShown, c: _Context) -> str:
    return c.say(
        "event.declarations_shown",
        e.seat,
        declarations=_declarations(e.names, c.lang),
        cards=cards_text(card_list(e.cards), c.lang),
    )


def _show_requested(e: ev.ShowRequested, c: _Context) -> str:
    return c.say("event.show_requested" + (".refute" if e.refute else ""), e.seat)


def _bluff_refuted(e: ev.BluffRefuted, c: _Context) -> str:
    return c.say("event.bluff_refuted", e.seat, team=c.side(e.team), points=e.points)


def _ottava_shown(e: ev.OttavaShown, c: _Context) -> str:
    return c.say("event.ottava_shown", e.seat, suit=suit_name(e.suit, c.lang))


def _trick_won(e: ev.TrickWon, c: _Context) -> str:
    key = "event.trick_won" if e.points else "event.trick_won.no_points"
    return c.say(key, e.seat, points=e.points, trick_no=e.trick_no)


def _hand_scored(e: ev.HandScored, c: _Context) -> str:
    taker_side = c.side_of(e.taker)
    taker_team = c.side(taker_side)
    parts: list[str] = []
    if e.outcome == "litige":
        parts.append(c.say("event.hand_scored.litige", team=taker_team, pot=e.pot))
    elif e.outcome in ("made", "failed"):
        parts.append(c.say(c.side_key(f"event.hand_scored.{e.outcome}", taker_side),
                           team=taker_team))
    else:
        raise ValueError(f"unknown hand outcome {e.outcome!r}")
    if e.capot_team is not None:
        parts.append(
            c.say(c.side_key("event.hand_scored.capot", e.capot_team),
                  team=c.side(e.capot_team))
        )
    for team, points in enumerate(e.declarations):
        if points:
            parts.append(
                c.say(
                    c.side_key("event.hand_scored.declarations", team),
                    team=c.side(team),
                    points=points,
                )
            )
    for team, points in enumerate(e.belote):
        if points:
            parts.append(
                c.say(
                    c.side_key("event.hand_scored.belote", team),
                    team=c.side(team),
                    points=points,
                )
            )
    if e.pot_winner is not None and e.pot_won:
        winner = c.side(e.pot_winner)
        parts.append(c.say(c.side_key("event.hand_scored.pot_won", e.pot_winner),
                           team=winner, points=e.pot_won))
    three = ".three" if len(e.scores) == 3 else ""
    if c.verbosity != "brief":  # brief: the totals only (S says the hand's points)
        parts.append(c.say("event.hand_scored.scores" + three, **c.teams("score", e.scores)))
    parts.append(c.say("event.hand_scored.totals" + three, **c.teams("total", e.totals)))
    return " ".join(parts)


def _match_over(e: ev.MatchOver, c: _Context) -> str:
    key = "event.match_over"
    if c.players != 4:
        # Each player on his own: "you win", or who won and what you have.
        others = [t for side, t in enumerate(e.totals) if side != e.winner]
        values: dict[str, Any] = {"team": c.side(e.winner), "winner_total": e.totals[e.winner],
                  "loser_total": max(others)}
        if c.viewer is None:
            return c.say(key + ".alone", **values)
        if c.viewer == e.winner:
            return c.say(key + ".won.alone", **values)
        own = e.totals[c.viewer] if c.viewer < len(e.totals) else 0
        return c.say(key + ".lost.alone", own_total=own, **values)
    if c.viewer is not None:
        key += ".won" if c.viewer % 2 == e.winner else ".lost"
    return c.say(
        key,
        team=team_name(e.winner, c.lang),
        winner_total=e.totals[e.winner],
        loser_total=e.totals[1 - e.winner],
    )


_DESCRIBERS: dict[type[ev.Event], Callable[[Any, _Context], str]] = {
    ev.MatchStarted: _match_started,
    ev.DeckCut: _deck_cut,
    ev.HandStarted: _hand_started,
    ev.CardsDealt: _cards_dealt,
    ev.BidMade: _bid_made,
    ev.AllPassed: _all_passed,
    ev.ContractSet: _contract_set,
    ev.TurnedCardTaken: _turned_card_taken,
    ev.CardPlayed: _card_played,
    ev.BeloteAnnounced: _belote_announced,
    ev.DeclarationAnnounced: _declaration_announced,
    ev.DeclarationsResolved: _declarations_resolved,
    ev.DeclarationsShown: _declarations_shown,
    ev.OttavaShown: _ottava_shown,
    ev.TrickWon: _trick_won,
    ev.HandScored: _hand_scored,
    ev.MatchOver: _match_over,
    ev.ShowRequested: _show_requested,
    ev.BluffRefuted: _bluff_refuted,
}


def describe_event(
    event: ev.Event,
    lang: str,
    viewer: int | None,
    names: Sequence[str] | None = None,
    verbosity: Verbosity = "normal",
    rules: Rules | None = None,
) -> str | None:
    """The sentence announcing ``event`` to ``viewer`` (a seat, or None for a spectator).

    Returns None when the listener may not see the event (another seat's cards).  ``names``
    gives the players' names by seat; without it seats are North, East, South, West.  The
    listener's own actions are told in the second person ("You played the jack of hearts.").
    ``verbosity="brief"`` shortens the frequent sentences (plays and bids).  ``rules`` (the
    table's rules, optional) names auction contracts by level and says the auction's pass word;
    without them contracts are named by their position in the level table.
    """
    check_language(lang)
    if verbosity not in VERBOSITIES:
        raise ValueError(f"verbosity must be one of {VERBOSITIES}, got {verbosity!r}")
    seats = rules.players if rules is not None else None
    if names is not None and (len(names) not in (2, 3, 4) or seats not in (None, len(names))):
        raise ValueError(f"names must give every seat ({seats or '2, 3 or 4'}), "
                         f"got {len(names)}")
    describer = _DESCRIBERS.get(type(event))
    if describer is None:
        raise TypeError(f"no description for event {type(event).__name__}")
    if not event.visible_to(viewer):
        return None
    return describer(event, _Context(lang, viewer, names, verbosity, rules))
