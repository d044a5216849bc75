"""Issue 24, item 1 in a real browser: the table card's short code typed on a phone, a hand
entered by keyboard alone, and a player of the other side confirming it by keyboard on their
own phone; axe on the table cards, the short form, the entry awaiting confirmation and the
confirmation page."""

from __future__ import annotations

import secrets
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.browser.test_axe import Audit
from tests.browser.test_tournament import (
    drawn_tournament,
    press_button,
    register,
    type_answer,
)


def test_a_hand_entered_with_the_table_code_is_confirmed_by_the_other_side_by_keyboard(
        new_page: Callable[..., Page], base_url: str) -> None:
    audit = Audit()
    tag = secrets.token_hex(3)
    org = new_page()
    register(org, base_url, f"Org{tag}")
    tid = drawn_tournament(org, base_url, f"Pinasca {tag}", tag)

    # The table cards: a page per table, a half per side with its short code.
    org.goto(f"{base_url}/tournaments/{tid}/table-cards")
    expect(org.locator(".half")).to_have_count(4)
    audit(org, "table cards with the table codes")
    ns = org.locator("#half-1-0 .side-code").inner_text()
    ew = org.locator("#half-1-1 .side-code").inner_text()

    # N-S's scorer types the table's number and their code on the short form.
    scorer = new_page()
    register(scorer, base_url, f"Scorer{tag}")
    scorer.goto(f"{base_url}/tournaments/{tid}/enter")
    audit(scorer, "short form: table and code")
    expect(scorer.locator("#table")).to_be_focused()
    scorer.keyboard.type("1")
    scorer.keyboard.press("Tab")
    scorer.keyboard.type(ns.lower())
    scorer.keyboard.press("Enter")
    expect(scorer.get_by_role("status").first).to_contain_text("you score for N-S")
    for answer in ("ns", "h", "100", "62", "", "", "", ""):
        type_answer(scorer, answer)
    expect(scorer.locator("#totals")).to_have_text(  # not counted before E-W confirm
        "Match, confirmed hands only: N-S 0, E-W 0. With the hands not yet confirmed: "
        "N-S 100, E-W 62.")
    expect(scorer.get_by_role("heading", name="To confirm")).to_be_visible()
    expect(scorer.locator("#confirm-code")).to_be_visible()  # the same phone: E-W's code
    audit(scorer, "score entry, a hand awaiting confirmation")

    # A player of E-W scans their half's QR code (the code in the fragment) and confirms.
    other = new_page()
    register(other, base_url, f"Other{tag}")
    other.goto(f"{base_url}/tournaments/{tid}/games/1/code#c={ew.replace('-', '')}")
    press_button(other, "Use this code")
    expect(other.get_by_text("N-S entered hand 1:")).to_be_visible()
    expect(other.locator("#confirm-code")).to_have_count(0)
    audit(other, "confirmation page")
    press_button(other, "Confirm")
    expect(other.get_by_role("status").first).to_have_text("Confirmed: it counts now.")
    expect(other.get_by_role("cell", name="yes")).to_be_visible()
    audit(other, "confirmation done")

    org.goto(f"{base_url}/tournaments/{tid}")
    expect(org.get_by_role("heading", name="Awaiting confirmation (0)")).to_be_visible()
    audit(org, "console with the queue")
    audit.verdict()
