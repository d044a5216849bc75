"""Issue 25: a card typed in the command box during the play, and the hand's order chosen in
the table settings (the cards drawn, the arrows' order and H agree)."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from belote.i18n import card_name
from belote.notation import parse_card
from belote.server.view import hand_order
from tests.browser import sala

SUITS = ("hearts", "diamonds", "clubs", "spades")


def _codes(page: Page) -> list[str]:
    return [o["id"].removeprefix("card-") for o in sala.hand_options(page)]


def _trump(page: Page) -> int:
    contract = page.locator("#contract").inner_text()
    named = [n for n, suit in enumerate(SUITS) if suit in contract]
    assert len(named) == 1, contract
    return named[0]


def test_a_card_typed_in_the_command_box_is_played_and_the_hand_keeps_its_order(
        new_page: Callable[..., Page], base_url: str) -> None:
    page = new_page()
    sala.guest(page, base_url, "Tess")
    sala.create_table(page, "300")
    sala.click_sit(page, "South")
    sala.click_bots(page, "North", "East", "West")

    # The hand's order, saved in place on the table page: spades first, then hearts,
    # diamonds, clubs, and the trumps before them all once they are known.
    sala.open_table_settings(page)
    page.select_option("#pref-suits", "shdc")
    page.locator("#pref-trump-first").check()
    page.locator("#pref-save").click()
    sala.wait_spoken(page, "^Saved", region="assertive")
    sala.connected(page)
    sala.click_start(page)

    for _ in range(40):  # bid by clicking until the cards are played
        sala.my_turn(page)
        if not sala.bidding(page):
            break
        sala.click_act(page)
    else:
        raise AssertionError("the bidding never ended")
    expect(page.locator("#bid-form")).to_be_visible()

    # The hand as drawn (the options' order, which the arrows follow) is the chosen order.
    codes = _codes(page)
    cards = [parse_card(code) for code in codes]
    expected = hand_order(sum(1 << c for c in cards), "shdc", _trump(page), True)
    assert cards == expected, codes
    trump = _trump(page)
    if any(card >> 3 == trump for card in cards):  # (a hand may hold no trump at all)
        assert cards[0] >> 3 == trump, codes
    sala.focus_hand(page)
    page.keyboard.press("h")  # H says the hand in the same order
    names = ", ".join(card_name(c, "en") for c in cards)
    sala.wait_spoken(page, "^" + re.escape(names) + "$", region="assertive")

    # G: the command box, labelled for a card now; a card named in Italian is played.
    page.keyboard.press("g")
    expect(page.locator("#bid-text")).to_be_focused()
    expect(page.locator("#bid-label")).to_have_text("Type a card")
    expect(page.locator("#bid-send")).to_have_text("Play")
    page.keyboard.type("zzz")
    page.keyboard.press("Enter")
    sala.wait_spoken(page, "That is not a card. Type a card, for example: jack of hearts",
                     region="assertive")
    playable = next(o for o in sala.hand_options(page) if not o["disabled"])
    card = parse_card(playable["id"].removeprefix("card-"))
    page.locator("#bid-text").fill(card_name(card, "it"))
    page.keyboard.press("Enter")
    sala.wait_spoken(page, re.escape(f"You played {card_name(card, 'en', definite=True)}."))
    expect(page.locator(f"#{playable['id']}")).to_have_count(0)
    expect(page.locator("#bid-text")).to_have_value("")
    rest = [parse_card(code) for code in _codes(page)]
    assert rest == [c for c in cards if c != card]  # the order kept as the hand shrinks
