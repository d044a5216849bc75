"""Saved games in a real browser, by keyboard alone: a registered player saves a match with
bots, finds it in "My saved games" (and in the lobby), resumes it and plays on; the second
player of a match is asked and agrees.  axe finds no violation on any of these pages."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.browser import sala
from tests.browser.test_axe import Audit
from tests.browser.test_tournament import register


def press(page: Page, name: str) -> None:
    """Tab to the control named ``name`` and press Enter."""
    sala.tab_to_name(page, name, limit=200)
    page.keyboard.press("Enter")


def test_a_match_is_saved_listed_and_resumed_by_keyboard(
        new_page: Callable[..., Page], base_url: str) -> None:
    audit = Audit()
    name = f"Sara{secrets.token_hex(3)}"
    page = new_page()
    register(page, base_url, name)
    table_id = sala.create_table(page, target="1000")
    press(page, "Sit South")
    for seat in ("West", "North", "East"):
        press(page, f"Add a bot (normal) {seat}")
        expect(page.locator("#seats")).to_contain_text(f"{seat}: {seat} bot (normal)")
    press(page, "Start the game")
    expect(page.locator("#log")).to_contain_text("The game starts.")
    sala.my_turn(page)
    turn = page.locator("#turn").inner_text()
    expect(page.locator("#save-area")).to_be_visible()
    audit(page, "a match that may be saved")

    press(page, "Save and leave")  # alone with bots: saved at once
    link = page.get_by_role("link", name="Go to my saved games")
    expect(link).to_be_focused()
    sala.wait_spoken(page, "You can resume it from My saved games", region="assertive")
    audit(page, "the table just saved")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/saved$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("My saved games")
    expect(page.get_by_role("heading", name=f"Table {table_id}, classic")).to_be_visible()
    expect(page.locator("main")).to_contain_text(f"Players: {name}")
    audit(page, "my saved games")
    page.set_viewport_size({"width": 390, "height": 844})
    audit(page, "my saved games on a phone")
    page.set_viewport_size({"width": 1280, "height": 900})

    page.goto(base_url + "/")
    expect(page.get_by_role("button", name=f"Resume table {table_id}")).to_be_visible()
    audit(page, "the lobby with a saved game")
    press(page, f"Resume table {table_id}")
    page.wait_for_url(re.compile(rf"/table/{table_id}$"))
    sala.connected(page)
    # Back where it stopped: the same turn, this player's own hand, and play goes on.
    expect(page.locator("#turn")).to_have_text(turn)
    expect(page.locator("#log")).to_contain_text("is back at the saved table")
    audit(page, "the resumed table")
    if sala.bidding(page):
        sala.keyboard_bid(page)
    else:
        sala.keyboard_play(page)
    audit.verdict()


def test_the_other_player_is_asked_and_agrees_by_keyboard(
        new_page: Callable[..., Page], base_url: str) -> None:
    audit = Audit()
    first, second = f"Tea{secrets.token_hex(3)}", f"Ugo{secrets.token_hex(3)}"
    asker, other = new_page(), new_page()
    register(asker, base_url, first)
    register(other, base_url, second)
    table_id = sala.create_table(asker, target="1000")
    press(asker, "Sit South")
    other.goto(f"{base_url}/table/{table_id}")
    sala.connected(other)
    press(other, "Sit North")
    for seat in ("West", "East"):
        press(asker, f"Add a bot (normal) {seat}")
        expect(asker.locator("#seats")).to_contain_text(f"{seat}: {seat} bot (normal)")
    press(asker, "Start the game")
    expect(other.locator("#log")).to_contain_text("The game starts.")

    press(asker, "Save and leave")
    # The other player hears the request, and the focus is on the answer.
    expect(other.get_by_role("button", name="Agree to save")).to_be_focused()
    expect(other.locator("#save-status")).to_contain_text(f"{first} asked to save the match")
    expect(asker.locator("#save-status")).to_contain_text("0 of 1 agreed")
    audit(other, "asked to save")
    other.keyboard.press("Enter")
    for page in (asker, other):
        expect(page.get_by_role("link", name="Go to my saved games")).to_be_focused()
    other.keyboard.press("Enter")
    expect(other.get_by_role("heading", name=f"Table {table_id}, classic")).to_be_visible()
    players = other.locator("main").get_by_text("Players:")
    expect(players).to_contain_text(first)
    expect(players).to_contain_text(second)
    audit.verdict()
