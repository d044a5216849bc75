"""Statistics and the weekly league in a real browser (issue 28): a registered player
finishes a match with bots, reaches their statistics from the end of the match and the league from
the site's header by keyboard alone, at a desktop's size and a phone's; axe finds no
violation on either page."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.browser import sala
from tests.browser.test_axe import Audit
from tests.browser.test_ratings import follow_link
from tests.browser.test_tournament import register


def test_statistics_and_the_league_by_keyboard_with_axe(
        new_page: Callable[..., Page], base_url: str) -> None:
    audit = Audit()
    name = f"Lia{secrets.token_hex(3)}"
    page = new_page()
    register(page, base_url, name)
    sala.create_table(page)
    sala.click_sit(page, "South")
    sala.click_bots(page, "West", "North", "East")
    sala.click_start(page)
    sala.play_match(page)

    # The end of the match links what it did to the player's rating (never silent).
    follow_link(page, "What this match did to your rating and statistics")
    expect(page).to_have_url(re.compile(f"/players/{name}/stats#recent-heading$"))
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Statistics of {name}")

    def counted() -> bool:  # the match is recorded by a task of its own, just after the end
        if "classic, with bots" in page.content():
            return True
        page.reload()
        return False
    sala.wait_until(page, counted, message="the finished match in the statistics")
    expect(page.get_by_role("table", name=re.compile("Your latest matches"))).to_contain_text(
        "Not rated: only matches between four registered players are rated.")
    chart = page.get_by_role("img", name=re.compile("Matches per week in classic"))
    expect(chart).to_be_visible()
    weeks = page.get_by_role("table", name=re.compile("Matches per week in classic"))
    expect(weeks.get_by_role("columnheader")).to_have_count(7)
    expect(weeks.get_by_role("row").last).to_contain_text("1")  # this week, with bots
    # The wide table's region takes the focus, so that a keyboard scrolls it on a phone.
    sala.tab_to(page, lambda a: a["tag"] == "DIV" and a["name"].startswith("Results by"))
    audit(page, "statistics, desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    audit(page, "statistics, phone")
    page.set_viewport_size({"width": 1280, "height": 800})

    follow_link(page, "Leagues")
    expect(page.get_by_role("heading", level=1)).to_have_text("Weekly league")
    expect(page.get_by_text("You are not placed this week yet")).to_be_visible()
    expect(page.get_by_role("heading", name="How the league works")).to_be_visible()
    audit(page, "league, desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    audit(page, "league, phone")
    audit.verdict()
