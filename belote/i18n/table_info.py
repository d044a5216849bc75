"""The web room's spoken answers beyond the seed's four status keys, and its turn prompts.

Every answer reads one seat's :class:`Observation` only (a spectator's: the public part), so
it can say nothing that seat may not know.  Sentences come from the catalogs (``sala.*``,
``locale/<lang>/LC_MESSAGES/table.po``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from belote.cards import Rank, cards_in
from belote.engine import actions as A
from belote.engine.obligations import belote_refusal
from belote.engine.observation import Observation
from belote.i18n.catalog import translate
from belote.i18n.names import (
    action_name,
    card_name,
    contract_name,
    join_list,
    seat_name,
    suit_name,
    team_name,
    trump_name,
)
from belote.i18n.refusals import refusal_sentence

INFO_QUESTIONS = ("bidding", "contract", "points", "winner", "team", "summary")
# Up to this many contracts are read out one by one; past it, as a range of levels.
SPOKEN_CONTRACTS = 8


def info_text(question: str, obs: Observation, lang: str, names: Sequence[str]) -> str:
    """The sentence answering ``question`` (one of ``INFO_QUESTIONS``) for ``obs``."""
    if question == "bidding":
        return _bidding(obs, lang, names)
    if question == "contract":
        return _contract(obs, lang, names)
    if question == "points":
        if obs.ruleset is not None and not obs.ruleset.partners:
            return _points_alone(obs, lang, names)
        return translate(lang, "sala.info.points", team0=team_name(0, lang),
                         team1=team_name(1, lang), points0=obs.card_points[0],
                         points1=obs.card_points[1], score0=obs.totals[0],
                         score1=obs.totals[1])
    if question == "winner":
        if not obs.last_trick:
            return translate(lang, "sala.info.no_last_trick")
        cards = join_list((translate(lang, "ui.status.table_entry", card=card_name(c, lang),
                                     player=names[s]) for s, c in obs.last_trick), lang)
        return translate(lang, "sala.info.winner", player=names[obs.leader], cards=cards)
    if question == "team":
        return _team(obs, lang, names)
    if question == "summary":
        return _summary(obs, lang)
    raise ValueError(f"unknown question {question!r}: expected {INFO_QUESTIONS}")


def _bidding(obs: Observation, lang: str, names: Sequence[str]) -> str:
    turned = (translate(lang, "sala.info.turned", card=card_name(obs.turned, lang))
              if obs.turned is not None else translate(lang, "sala.info.no_turned"))
    if not obs.bids:
        return translate(lang, "sala.info.no_bids", turned=turned)
    bids = join_list((translate(lang, "event.bid_made.brief", player=names[seat],
                                bid=action_name(action, lang, obs.ruleset))
                      for seat, action in obs.bids), lang)
    return translate(lang, "sala.info.bids", turned=turned, bids=bids)


def high_bid(obs: Observation, lang: str, names: Sequence[str]) -> str:
    """The bid that stands in the auction, in words ("Highest bid: 82 in hearts, West."), or
    "" when none stands or the contract is made.  Public (every seat heard the bids); the
    page shows it where the contract will be, and O says it: never "no contract yet" alone
    while a bid stands."""
    auction = obs.ruleset.auction if obs.ruleset is not None else None
    standing = obs.standing_contract() if obs.taker is None else None
    if standing is None or auction is None:
        return ""
    bidder, index, suit, doubled = standing
    key = "sala.table.high_bid.contro" if doubled else "sala.table.high_bid"
    return translate(lang, key, player=names[bidder],
                     bid=contract_name(auction.levels[index], suit, lang, obs.ruleset))


def _contract(obs: Observation, lang: str, names: Sequence[str]) -> str:
    if obs.taker is None or obs.trump is None:
        return high_bid(obs, lang, names) or translate(lang, "sala.info.no_contract")
    if obs.contract_level:
        contract = contract_name(obs.contract_level, obs.trump, lang, obs.ruleset)
    else:
        contract = trump_name(obs.trump, lang)
    four = obs.ruleset is None or obs.ruleset.players == 4
    values = {"player": names[obs.taker], "team": team_name(obs.taker & 1, lang) if four else "",
              "contract": contract, "times": obs.contract_multiplier}
    key = "sala.info.contract" if obs.contract_multiplier <= 1 else "sala.info.contract.times"
    # No partnership: the taker holds it for himself ("for {team}" would name him twice).
    return translate(lang, key if four else key + ".alone", **values)


def _points_alone(obs: Observation, lang: str, names: Sequence[str]) -> str:
    """Card points of this hand and match totals, one per player (no partnerships)."""
    def per_player(values: Sequence[int]) -> str:
        return join_list((translate(lang, "cli.replay.side_points", side=names[s], points=v)
                          for s, v in enumerate(values)), lang)
    return translate(lang, "sala.info.points.alone", points=per_player(obs.card_points),
                     scores=per_player(obs.totals))


def _team(obs: Observation, lang: str, names: Sequence[str]) -> str:
    seat = obs.seat
    if seat is None:
        return translate(lang, "sala.info.watching")
    players = len(names)
    if players != 4:  # seed 000 "a tre o addirittura a due": no partner
        opponents = join_list((names[(seat + i) % players] for i in range(1, players)), lang)
        return translate(lang, "sala.info.alone", seat=seat_name(seat, lang),
                         opponents=opponents)
    return translate(lang, "sala.info.team", seat=seat_name(seat, lang),
                     team=team_name(seat & 1, lang), partner=names[(seat + 2) % 4],
                     left=names[(seat + 1) % 4], right=names[(seat + 3) % 4])


def _summary(obs: Observation, lang: str) -> str:
    cards = list(cards_in(obs.hand))
    if not cards:
        return translate(lang, "web.js.no_cards")
    parts = []
    for suit in range(4):
        held = [c for c in cards if c >> 3 == suit]
        ranks = join_list((translate(lang, f"card.rank.{_RANK_KEYS[c & 7]}") for c in held),
                          lang)
        parts.append(translate(lang, "sala.info.suit_cards", suit=suit_name(suit, lang),
                               count=len(held), ranks=ranks) if held else
                     translate(lang, "sala.info.suit_void", suit=suit_name(suit, lang)))
    return translate(lang, "sala.info.summary", count=len(cards), suits="; ".join(parts))


_RANK_KEYS = {0: "seven", 1: "eight", 2: "nine", 3: "ten", 4: "jack", 5: "queen", 6: "king",
              7: "ace"}


# ---------------------------------------------------------------------------- prompts
@dataclass(frozen=True, slots=True)
class TurnPrompt:
    """What the page says at the player's turn.  ``full``: every choice (said the first time
    a prompt of its ``kind`` comes in a match, and by B at any time); ``short``: said at the
    later turns of that kind, ending with B for the full list (empty: ``full`` is short
    enough to say every time)."""

    full: str
    short: str = ""
    kind: str = ""


# A prompt longer than this (in words) is said in full once a match, then short.
SHORT_ENOUGH_WORDS = 16


def turn_prompt(obs: Observation, lang: str, verbosity: str) -> str:
    """Every choice open to the player whose turn it is, beyond the cards (see
    :func:`turn_prompts`)."""
    return turn_prompts(obs, lang, verbosity).full


def turn_prompts(obs: Observation, lang: str, verbosity: str) -> TurnPrompt:
    """What is open to the player whose turn it is, beyond the cards: the bids (brief: the
    words and the range of levels; normal: each, up to a few contracts), the declarations
    (numbered when there are several: D, then the number), and belote.  Empty when there is
    nothing but cards to play.  Brief prompts are short already."""
    rules = obs.ruleset
    legal = obs.legal_actions
    brief = verbosity == "brief"
    cuts = [A.cut_depth(a) for a in legal if A.is_cut(a) and a != A.KNOCK]
    if A.KNOCK in legal:  # seed 000: cut the deck, or knock on it to trust the dealer
        if not cuts:
            return TurnPrompt(translate(lang, "sala.prompt.knock" + (".brief" if brief else "")))
        return TurnPrompt(translate(lang, "sala.prompt.cut" + (".brief" if brief else ""),
                                    low=min(cuts), high=max(cuts)))
    bids = [a for a in legal if A.is_bid(a)]
    contracts = [a for a in bids if A.CONTRACT_BASE <= a < A.CONTRACT_END]
    words = [action_name(a, lang, rules) for a in bids if a not in contracts]
    if bids:
        if contracts and (brief or len(contracts) > SPOKEN_CONTRACTS) and rules is not None \
                and rules.auction is not None:
            levels = rules.auction.levels
            low = levels[A.contract_level_index(contracts[0])]
            high = levels[A.contract_level_index(contracts[-1])]
            key = "sala.prompt.bid_range" + (".brief" if brief else "")
            full = translate(lang, key, options=join_list(words, lang), low=low, high=high,
                             example=action_name(contracts[0], lang, rules))
            short = translate(lang, "sala.prompt.bid_range.short", low=low, high=high)
            return _shortened(full, short, "bid", brief)
        options = words + [action_name(a, lang, rules) for a in contracts]
        full = translate(lang, "sala.prompt.bid" + (".brief" if brief else ""),
                         options=join_list(options, lang))
        short = translate(lang, "sala.prompt.bid.short", count=len(options))
        return _shortened(full, short, "bid", brief)
    parts = []
    shorts = []
    extras = [a for a in legal if A.is_table_talk(a)]
    if extras:
        names = [action_name(a, lang, rules) for a in extras]
        if len(names) == 1:
            key = "sala.prompt.declare.brief" if brief else "sala.prompt.declare_one"
            parts.append(translate(lang, key, option=names[0]))
        elif brief:
            parts.append(translate(lang, "sala.prompt.declare_several.brief", count=len(names)))
        else:
            parts.append(translate(lang, "sala.prompt.declare", options=numbered_list(names, lang)))
        shorts.append(translate(lang, "sala.prompt.declare.short"))
    announcing = [a for a in legal if A.is_play(a) and A.announces(a)]
    if announcing:
        # The second card of a pair is announced as rebelote: the other card of its pair (the
        # king's queen, the queen's king) is no longer in the hand, so it was played (with two
        # pairs in tutte, each pair has its own belote).
        card = A.played_card(announcing[0])
        other = (card & ~7) | (Rank.QUEEN + Rank.KING - (card & 7))
        word = "belote" if obs.hand >> other & 1 else "rebelote"
        belote = translate(lang, f"sala.prompt.{word}" + (".brief" if brief else ""),
                           card=card_name(card, lang))
        parts.append(belote)
        shorts.append(belote)
    if not parts:
        return TurnPrompt("")
    return _shortened(" ".join(parts), " ".join(shorts), "play", brief)


def _shortened(full: str, short: str, kind: str, brief: bool) -> TurnPrompt:
    if brief or len(full.split()) <= SHORT_ENOUGH_WORDS or len(short) >= len(full):
        return TurnPrompt(full, "", kind)
    return TurnPrompt(full, short, kind)


def numbered_list(options: Sequence[str], lang: str) -> str:
    """"1, tierce; 2, bluff": the options with the number that picks each."""
    return translate(lang, "list.numbered_separator").join(
        translate(lang, "list.numbered_item", number=n, option=option)
        for n, option in enumerate(options, 1))


# ---------------------------------------------------------------------------- belote
def why_no_belote(obs: Observation, lang: str, card: int | None = None) -> str:
    """Why Space (announce belote) does nothing now, for the seat of ``obs``; ``card`` is the
    card the player has selected, if any: the engine's reason
    (:func:`belote.engine.obligations.belote_refusal`: the king first, the announcement goes
    with the card, or the window closed with the next card) in ``lang``; empty when the seat
    may announce."""
    refusal = belote_refusal(obs, card)
    return "" if refusal is None else refusal_sentence(refusal, lang)
