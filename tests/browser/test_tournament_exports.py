"""Issue 24 in a real browser: the organiser sets the prize list and creates a season by
keyboard alone; the prize list, the exports, the printed standings, the audit log in words
and the season's page have no axe violation."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.browser.test_axe import Audit
from tests.browser.test_tournament import drawn_tournament, press_button, register


def test_prize_list_and_season_by_keyboard_with_no_axe_violation(
        new_page: Callable[..., Page], base_url: str) -> None:
    audit = Audit()
    tag = secrets.token_hex(3)
    org = new_page()
    register(org, base_url, f"Org{tag}")
    tid = drawn_tournament(org, base_url, f"Premi {tag}", tag)

    # The prize list, typed: the places one a line, a category and who it covers.
    org.goto(f"{base_url}/tournaments/{tid}/prizes")
    audit(org, "prize list, empty, with the organiser's form")
    org.locator("#p-places").focus()
    org.keyboard.type("Un prosciutto\nDue salami")
    org.locator("#p-mixed").focus()
    org.keyboard.type("Una bottiglia")
    org.locator("#e-mixed").focus()
    org.keyboard.type(f"Anna{tag}1 & Bruno{tag}1")
    press_button(org, "Save the prizes")
    expect(org.get_by_role("status").first).to_have_text("Prizes saved.")
    expect(org.get_by_role("table")).to_contain_text("Un prosciutto")
    audit(org, "prize list, set")

    org.goto(f"{base_url}/tournaments/{tid}/exports")
    audit(org, "exports")
    org.goto(f"{base_url}/tournaments/{tid}/standings/print")
    audit(org, "standings to print")
    org.goto(f"{base_url}/tournaments/{tid}/log")
    expect(org.locator(".audit-words")).to_contain_text("set the prize list: 3 prizes")
    audit(org, "audit log in words")

    # A season, by keyboard: created, the tournament added.
    org.goto(f"{base_url}/seasons")
    audit(org, "seasons, with the creation form")
    org.fill("#s-name", f"Grand Prix {tag}")
    press_button(org, "Create the season")
    org.wait_for_url(re.compile(r"/seasons/\d+$"))
    org.select_option("#s-add", str(tid))
    press_button(org, "Add")
    expect(org.get_by_role("status").first).to_have_text("Done.")
    expect(org.locator("#events-heading + ul")).to_contain_text("not finished yet")
    audit(org, "a season's page, its owner's forms")
    audit.verdict()
