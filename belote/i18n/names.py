"""Names of cards, suits, ranks, trump modes, seats, teams and actions, from the catalogs."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from belote.cards import RANKS, SUITS, Card, rank_of, suit_of
from belote.engine import actions
from belote.engine.events import ALL_TRUMP, NO_TRUMP
from belote.i18n.catalog import has_message, translate

if TYPE_CHECKING:
    from belote.rules.base import Rules

RANK_KEYS: tuple[str, ...] = (
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
)
SUIT_KEYS: tuple[str, ...] = ("hearts", "diamonds", "clubs", "spades")
SEAT_KEYS: tuple[str, ...] = ("north", "east", "south", "west")
TEAM_KEYS: tuple[str, ...] = ("north_south", "east_west")
TRUMP_MODE_KEYS: dict[int, str] = {NO_TRUMP: "no_trump", ALL_TRUMP: "all_trump"}


def _check(value: int, count: int, what: str) -> int:
    if not 0 <= value < count:
        raise ValueError(f"{what} must be in 0..{count - 1}, got {value!r}")
    return value


def rank_name(rank: int, lang: str, *, definite: bool = False) -> str:
    """``jack`` / ``fante``; with ``definite``, the form with its article (``il fante``)."""
    group = "the" if definite else "rank"
    return translate(
        lang, f"card.{group}.{RANK_KEYS[_check(rank, len(RANKS), 'rank')]}"
    )


def suit_name(suit: int, lang: str) -> str:
    return translate(lang, f"card.suit.{SUIT_KEYS[_check(suit, len(SUITS), 'suit')]}")


def card_name(card: Card, lang: str, *, definite: bool = False) -> str:
    """``jack of hearts`` / ``fante di cuori``; with ``definite``, ``il fante di cuori``."""
    _check(card, 32, "card")
    return translate(
        lang,
        "card.name",
        rank=rank_name(rank_of(card), lang, definite=definite),
        suit=suit_name(suit_of(card), lang),
    )


def trump_name(trump: int, lang: str) -> str:
    """A trump code in words: a suit 0..3, ``NO_TRUMP`` (senza) or ``ALL_TRUMP`` (tutte)."""
    if trump in TRUMP_MODE_KEYS:
        return translate(lang, f"trump.{TRUMP_MODE_KEYS[trump]}")
    return suit_name(trump, lang)


def seat_name(seat: int, lang: str, names: Sequence[str] | None = None) -> str:
    """``names[seat]`` when given, else the catalog's compass name (North, East, South, West)."""
    _check(seat, 4, "seat")
    if names is not None:
        return names[seat]
    return translate(lang, f"seat.{SEAT_KEYS[seat]}")


def team_name(team: int, lang: str) -> str:
    """Team 0 is North-South (seats 0 and 2), team 1 East-West."""
    return translate(lang, f"team.{TEAM_KEYS[_check(team, 2, 'team')]}")


def preset_name(preset: str, lang: str) -> str:
    """A preset's translated name, or the preset's own name if the catalogs do not know it."""
    key = f"preset.{preset}"
    return translate(lang, key) if has_message(lang, key) else preset


def hand_label(hand_no: int, redeal: int, lang: str) -> str:
    """A hand's number as every "hand N" says it (speech, replay): the number alone, or with
    its redeal ("3, redeal 1") when everyone passed on its earlier deals
    (:meth:`belote.engine.state.Game.hand_number`)."""
    if not redeal:
        return str(hand_no)
    return translate(lang, "event.hand_no.redeal", hand_no=hand_no, redeal=redeal)


def join_list(items: Iterable[str], lang: str) -> str:
    return translate(lang, "list.separator").join(items)


def cards_text(cards: Iterable[Card], lang: str) -> str:
    """Card names in the given order, joined with the catalog's list separator."""
    return join_list((card_name(card, lang) for card in cards), lang)


def declaration_name(name: str, lang: str) -> str:
    """A declaration in words: a ``Declaration.name`` ("sequence_4", "carre_J") or a spoken
    name ("tierce", "cinquante", "cent", "carre").  An unknown name is returned as it is."""
    key = f"declaration.{name}"
    if has_message(lang, key):
        return translate(lang, key)
    kind, _, size = name.partition("_")
    if kind == "sequence" and size.isdigit():
        return translate(lang, "declaration.sequence_n", count=int(size))
    return name


def contract_name(level: int, suit: int, lang: str, rules: Rules | None = None) -> str:
    """An auction contract in words ("112 cuori"); the rules' capot level says "capot"."""
    auction = None if rules is None else rules.auction
    values = {"level": level, "suit": suit_name(suit, lang)}
    if auction is not None and auction.capot_level and level == auction.capot_level:
        return translate(lang, "action.contract.capot", **values)
    return translate(lang, "action.contract", **values)


# Action ids with a fixed label (``action.<key>``); PASS depends on the bidding system.
_SIMPLE_ACTIONS: dict[int, str] = {
    actions.PASS: "pass",
    actions.TAKE: "take",
    actions.SENZA: "no_trump",
    actions.TUTTE: "all_trump",
    actions.ANNOUNCE_BELOTE: "announce_belote",
    actions.ASPETTO: "aspetto",
    actions.ANCORA: "ancora",
    actions.ALZO: "alzo",
    actions.CONTRO: "contro",
    actions.SURCONTRO: "surcontro",
    actions.DECLARE: "declare",
    actions.OTTAVA: "ottava",
    actions.KNOCK: "knock",
    actions.REQUEST_SHOW: "request_show",
    actions.REFUTE: "refute",
    actions.BLUFF: "bluff",
    actions.DO_10: "do_10",
    actions.DO_20: "do_20",
    actions.ANCORA_10: "ancora_10",
    actions.ANCORA_20: "ancora_20",
    actions.ALZO_10: "alzo_10",
    actions.ALZO_20: "alzo_20",
}


def pass_key(rules: Rules | None) -> str:
    """The label of PASS: "pass" (take-or-pass, "via"), "pass_auction" or "passo" (no ace)."""
    if rules is None or rules.auction is None:
        return "pass"
    return "passo" if rules.auction.pass_words else "pass_auction"


def action_name(action: int, lang: str, rules: Rules | None = None) -> str:
    """A short label for an action id (a card name for a play), for menus and brief forms.

    ``rules`` (optional) names auction contracts by their level ("112 cuori") and picks the
    auction's word for a pass; without it a contract is named by its position in the level
    table ("contract no. 4 in hearts").
    """
    if actions.is_play(action):
        name = card_name(actions.played_card(action), lang)
        if actions.announces(action):
            return translate(lang, "action.play_announcing", card=name)
        return name
    if actions.NAME_SUIT_BASE <= action < actions.NAME_SUIT_BASE + len(SUITS):
        # In an auction a suit named alone is seed 000's suit-only opening.
        auction = rules is not None and rules.auction is not None
        return translate(
            lang,
            "action.suit_only" if auction else "action.name_suit",
            suit=suit_name(action - actions.NAME_SUIT_BASE, lang),
        )
    if actions.DECLARE_NAME_BASE <= action < actions.DECLARE_NAME_BASE + len(
        actions.DECLARE_NAMES
    ):
        spoken = actions.DECLARE_NAMES[action - actions.DECLARE_NAME_BASE]
        return translate(
            lang, "action.declare_name", name=declaration_name(spoken, lang)
        )
    if actions.CONTRACT_BASE <= action < actions.CONTRACT_END:
        return _contract_action_name(action, lang, rules)
    if action != actions.KNOCK and actions.is_cut(action):
        return translate(lang, "action.cut", depth=actions.cut_depth(action))
    if action == actions.PASS:
        return translate(lang, f"action.{pass_key(rules)}")
    if action not in _SIMPLE_ACTIONS:
        raise ValueError(f"no name for action id {action!r}")
    return translate(lang, f"action.{_SIMPLE_ACTIONS[action]}")


def _contract_action_name(action: int, lang: str, rules: Rules | None) -> str:
    index = actions.contract_level_index(action)
    suit = actions.contract_suit(action)
    if rules is None:
        return translate(
            lang, "action.contract.index", number=index + 1, suit=suit_name(suit, lang)
        )
    if rules.auction is None:
        raise ValueError(f"action id {action!r} is a contract, but {rules.name!r} has no auction")
    levels = rules.auction.levels
    if index >= len(levels):
        raise ValueError(
            f"action id {action!r} names contract level {index}, "
            f"but {rules.name!r} has {len(levels)} levels"
        )
    return contract_name(levels[index], suit, lang, rules)
