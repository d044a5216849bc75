"""The terminal accepts every bid it prints, in every language and preset, through the one
bid parser it shares with the web room (belote/i18n/bids.py)."""

from __future__ import annotations

import io
import re

import pytest

from belote.cli.play import HUMAN_SEAT, TerminalPlayer
from belote.engine import actions as A
from belote.engine.state import Game
from belote.i18n import LANGUAGES, seat_name, translate
from belote.i18n.bids import BidNotAllowed, BidNotUnderstood, parse_bid
from belote.rules import PRESETS, find_preset


def _bidding_player(lang: str, preset: str) -> tuple[TerminalPlayer, Game, str]:
    """A terminal player whose turn it is to bid; returns it, the game and its prompt."""
    rules = find_preset(preset)
    seats = rules.players  # two players: the human sits at seat 0 (no South)
    me = HUMAN_SEAT if seats > HUMAN_SEAT else 0
    game = Game(rules, first_dealer=(me - 1) % seats)
    game.deal(list(range(32)))
    if A.KNOCK in game.legal_actions():  # valdostana: the deck is cut first (seed 000)
        game.apply(A.KNOCK)
    assert game.current_player() == me
    out = io.StringIO()
    names = [seat_name(s, lang) for s in range(seats)]
    player = TerminalPlayer(game, lang, io.StringIO(""), out, names, me)
    with pytest.raises(Exception):  # noqa: B017 - the empty input quits after the prompt
        player.choose(game.observation(me))
    return player, game, out.getvalue()


def _printed_examples(lang: str, prompt: str) -> list[str]:
    """The labels the prompt numbers ("1: pass") and its contract example, if any."""
    numbered = translate(lang, "ui.numbered", number="\0", item="\1")
    before, after = numbered.split("\0")[0], numbered.split("\1")[0].split("\0")[1]
    sep = translate(lang, "list.separator")
    options_text = prompt.split(translate(lang, "ui.prompt.bid", options="\0").split("\0")[0],
                               1)[1]
    labels = []
    for part in re.split(re.escape(sep.strip()) + r"\s", options_text):
        match = re.match(re.escape(before) + r"\d+" + re.escape(after) + r"(.*)", part.strip())
        if match:
            labels.append(match.group(1).rstrip(". ").split(". ")[0])
    found = list(labels)
    head = translate(lang, "ui.prompt.contract", low="\0", high="\0", example="\1")
    lead = head.split("\1")[0].split("\0")[-1]
    if lead in prompt:
        example = prompt.split(lead, 1)[1].split("\n")[0]
        found.append(example.removesuffix(head.split("\1")[1]).strip())
    return found


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_terminal_accepts_every_bid_it_prints(lang: str, preset: str) -> None:
    player, game, prompt = _bidding_player(lang, preset)
    examples = _printed_examples(lang, prompt)
    assert examples, prompt
    legal = game.legal_actions(game.current_player())
    obs = game.observation(game.current_player())
    for example in examples:
        action = player._interpret(example, obs, [a for a in legal if a < A.CONTRACT_BASE],
                                   [example])
        assert action in legal, (example, prompt)


@pytest.mark.parametrize(("text", "lang_label"), [
    ("82 cuori", "it"), ("82 a corazones", "es"), ("82 à cœur", "fr"), ("82 in hearts", "en"),
    ("82H", "notation"), ("82 ♥", "symbol"), ("82 COEUR", "no accents, capitals"),
])
def test_a_contract_is_read_in_any_language(text: str, lang_label: str) -> None:
    rules = find_preset("valdostana")
    legal = [A.PASS, A.contract_bid(0, 0), A.contract_bid(1, 0)]
    assert parse_bid(text, legal, rules) == A.contract_bid(0, 0), lang_label


def test_pass_and_double_are_read_in_any_language() -> None:
    rules = find_preset("coinche")
    legal = [A.PASS, A.CONTRO]
    for text in ("passo", "paso", "passe", "pass", "contro", "contra", "coinche", "double"):
        assert parse_bid(text, legal, rules) in legal, text


def test_a_bid_that_is_not_open_now_is_refused_as_not_allowed() -> None:
    rules = find_preset("coinche")
    with pytest.raises(BidNotAllowed):
        parse_bid("contro", [A.PASS, A.contract_bid(0, 0)], rules)
    with pytest.raises(BidNotAllowed):
        parse_bid("80 cuori", [A.PASS, A.contract_bid(1, 0)], rules)
    # A level the table does not have is a contract all the same: the refusal gives the range.
    with pytest.raises(BidNotAllowed) as refused:
        parse_bid("999 cuori", [A.PASS, A.contract_bid(0, 0)], rules)
    assert (refused.value.action, refused.value.level, refused.value.suit) == (None, 999, 0)


def test_text_that_names_no_bid_is_not_understood() -> None:
    rules = find_preset("coinche")
    for text in ("", "hello", "80", "٢٢ cuori"):
        with pytest.raises(BidNotUnderstood):
            parse_bid(text, [A.PASS, A.contract_bid(0, 0)], rules)


def test_card_names_are_never_read_as_contracts_while_cards_are_played() -> None:
    rules = find_preset("coinche")
    with pytest.raises(BidNotUnderstood):
        parse_bid("7H", [A.play(0), A.DECLARE], rules)
