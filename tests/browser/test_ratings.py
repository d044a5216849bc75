"""Profiles and leaderboards in a real browser: a registered player finishes a match with bots,
then reaches their profile and the leaderboards by keyboard alone; axe finds no violation."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.browser import sala
from tests.browser.test_axe import Audit
from tests.browser.test_tournament import register


def follow_link(page: Page, name: str) -> None:
    """Tab to the link named ``name`` and press Enter: the keyboard alone."""
    sala.tab_to_name(page, name)
    page.keyboard.press("Enter")
    page.wait_for_load_state()


def test_a_player_reaches_profile_and_leaderboards_by_keyboard(
        new_page: Callable[..., Page], base_url: str) -> None:
    audit = Audit()
    name = f"Rita{secrets.token_hex(3)}"
    page = new_page()
    register(page, base_url, name)
    sala.create_table(page)
    sala.click_sit(page, "South")
    sala.click_bots(page, "West", "North", "East")
    sala.click_start(page)
    sala.play_match(page)

    page.goto(base_url + "/")
    follow_link(page, "Your sessions")
    expect(page).to_have_url(re.compile(r"/account$"))
    follow_link(page, "Your profile: matches, contracts and ratings")
    expect(page).to_have_url(re.compile(f"/players/{name}$"))
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Profile of {name}")

    def counted() -> bool:  # the match is recorded by a task of its own, just after the end
        if "Matches played: 1." in page.content():
            return True
        page.reload()
        return False
    sala.wait_until(page, counted, message="the finished match on the profile")
    table = page.get_by_role("table", name="Results by preset")
    expect(table.get_by_role("rowheader")).to_have_text(["classic"])
    expect(table).to_contain_text("not rated yet")  # bots at the table: counted, not rated
    audit(page, "profile after a match with bots")

    follow_link(page, "Leaderboard")
    expect(page.get_by_role("heading", level=1)).to_have_text("Leaderboard: classic")
    board = page.get_by_role("table", name="Ratings in classic, highest first")
    expect(board.get_by_role("rowheader")).to_have_text([
        "Bot, expert level (fixed reference rating)",
        "Bot, quick level (fixed reference rating)",
        "Bot, normal level (fixed reference rating)",
        "Bot, easy level (fixed reference rating)"])
    expect(board).not_to_contain_text(name)  # a match with bots rates nobody
    audit(page, "leaderboard, classic")

    follow_link(page, "Pinasca")
    expect(page.get_by_role("heading", level=1)).to_have_text("Leaderboard: Pinasca")
    expect(page.get_by_role("link", name="Pinasca")).to_have_attribute("aria-current", "page")
    audit(page, "leaderboard, Pinasca")
    audit.verdict()
