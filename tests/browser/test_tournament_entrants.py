"""The console's entrants forms by keyboard alone, with axe on each state (issue 24, items 5
and 8): remove a duplicate neighbourhood, draw, withdraw a pair with its reason, undo the
draw with its reason."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.browser import sala
from tests.browser.test_axe import Audit
from tests.browser.test_tournament import (
    press_button,
    register,
    register_neighbourhoods,
    round_drawn,
)


def type_into(page: Page, field: str, text: str) -> None:
    """Tab to the field ``field`` (its id), type ``text`` and press Enter."""
    sala.tab_to(page, lambda el: el["id"] == field, limit=160)
    page.keyboard.type(text)
    page.keyboard.press("Enter")
    page.wait_for_load_state()


def test_organiser_manages_entrants_by_keyboard(new_page: Callable[..., Page],
                                                base_url: str) -> None:
    audit = Audit()
    tag = secrets.token_hex(3)
    org = new_page()
    register(org, base_url, f"Org{tag}")
    org.goto(base_url + "/tournaments")
    org.fill("#t-name", f"Entrants {tag}")
    org.press("#t-name", "Enter")
    org.wait_for_url(re.compile(r"/tournaments/\d+$"))
    register_neighbourhoods(org, tag, 3)
    expect(org.locator(".entrants tbody tr")).to_have_count(6)
    audit(org, "console, entrants on the day")

    press_button(org, "Remove the neighbourhood Borgo 2")  # a duplicate entry
    expect(org.get_by_role("status").first).to_have_text("Done.")
    expect(org.locator(".entrants tbody tr")).to_have_count(4)

    org.locator("#r-club").focus()  # back up the page, then the draw by keyboard
    press_button(org, "Draw round 1")
    round_drawn(org)
    type_into(org, "w-1", "went home")
    expect(org.get_by_role("status").first).to_have_text("Done.")
    expect(org.locator(".entrants tbody tr").first).to_contain_text("withdrawn")
    expect(org.locator(".log")).to_contain_text("went home")
    audit(org, "console, a pair withdrawn")

    type_into(org, "undraw-reason", "a pair was missing")
    expect(org.get_by_role("status").first).to_have_text("Done.")
    expect(org.get_by_role("button", name="Draw round 1")).to_be_visible()
    expect(org.locator(".log")).to_contain_text("a pair was missing")
    audit(org, "console, the draw undone")
    audit.verdict()
