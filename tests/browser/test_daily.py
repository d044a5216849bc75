"""The daily duplicate in a real browser, by keyboard alone: a registered player reaches the
day's page from the site's menu, enters, plays the first deal at its table with the table's
own keys (bids with the choice buttons, cards with the arrows and Enter), comes back and finds
the deal played and their line in the ranking; axe finds no violation on the way."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.browser import layout, sala
from tests.browser.test_axe import Audit
from tests.browser.test_tournament import register

DEAL_PLAYED = "Deal 1, North deals: played"


def press(page: Page, name: str) -> None:
    """Tab to the control named ``name`` and press Enter: the keyboard alone."""
    sala.tab_to_name(page, name)
    page.keyboard.press("Enter")
    page.wait_for_load_state()


def play_the_deal(page: Page) -> None:
    """Bid and play this seat's turns by keyboard until the deal (the table's match) ends."""
    for _ in range(40):
        if sala.my_turn(page, timeout=60_000) == sala.MATCH_OVER:
            return
        if sala.bidding(page):
            said = len(sala.spoken(page))
            sala.keyboard_bid(page)
            sala.wait_until(page, lambda n=said: any(
                re.search(r"You (passed|took|named)", t) for t in sala.spoken(page)[n:]),
                message="the bid's announcement")
        else:
            sala.keyboard_play(page)
    raise AssertionError("the deal never ended; log:\n" + page.locator("#log").inner_text())


def test_a_player_enters_plays_a_deal_and_sees_the_ranking_by_keyboard(
        new_page: Callable[..., Page], base_url: str) -> None:
    audit = Audit()
    name = f"Dina{secrets.token_hex(3)}"
    page = new_page()
    register(page, base_url, name)
    press(page, "Daily duplicate")
    expect(page).to_have_url(re.compile(r"/daily$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("Daily duplicate")
    audit(page, "the daily duplicate, not entered")

    press(page, "Enter today's daily duplicate")
    expect(page.get_by_role("button", name="Play deal 1")).to_be_visible()
    audit(page, "the daily duplicate, entered")
    press(page, "Play deal 1")
    page.wait_for_url(re.compile(r"/table/\d+$"))
    sala.connected(page)
    expect(page.locator("#seats li").nth(0)).to_contain_text(f"North: {name} (you")
    expect(page.get_by_role("button", name="Stand up")).to_have_count(0)
    expect(page.locator("#invitation")).to_have_count(0)  # private, and no code to pass on
    audit(page, "a deal of the daily duplicate")
    play_the_deal(page)
    # The deal over, the keyboard is on the way back to the day's page (no replay yet, no
    # rematch, no standing up at a deal of the daily).
    back = page.get_by_role("link", name=re.compile("^Deal over. Back to the daily duplicate"))
    expect(back).to_be_focused()
    expect(page.get_by_role("button", name="Rematch, same seats")).to_have_count(0)
    expect(page.get_by_role("button", name="Stand up")).to_have_count(0)
    audit(page, "a deal of the daily duplicate, over")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/daily$"))

    def scored() -> bool:  # stored by a task of its own, just after the deal ends
        if DEAL_PLAYED in page.content():
            return True
        page.reload()
        return False
    sala.wait_until(page, scored, message="the deal played on the day's page")
    expect(page.get_by_role("button", name="Play deal 2")).to_be_visible()
    ranking = page.get_by_role("table", name=re.compile(r"^Ranking of \d{4}-\d\d-\d\d$"))
    row = ranking.get_by_role("row").filter(has=page.get_by_role("rowheader", name=name))
    expect(row).to_contain_text("1 of 8")
    expect(row).to_contain_text("%")
    audit(page, "the daily duplicate after a deal")
    # On a phone: no sideways scrolling, the next deal's button in reach.
    page.set_viewport_size({"width": 390, "height": 844})
    assert layout.sideways(page) == 0
    audit(page, "the daily duplicate on a phone")
    audit.verdict()
