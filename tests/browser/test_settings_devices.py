"""Settings saved per account and per device (issue 25, item 7), in a real browser: saved in
place on the table page, they are there after a reload and on another device (a second
browser context: its own cookies) once it signs in to the same account; a device's own
settings stay on it until "Use my account's settings here"."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.browser import sala
from tests.browser.test_axe import Audit
from tests.browser.test_tournament import register

PASSWORD = "settebello-lungo"  # register()'s


def _pace(page: Page) -> float:
    return float(page.evaluate("() => JSON.parse(document.body.dataset.settings).pace"))


def _save_in_place(page: Page, pace: str) -> None:
    """Type a pace and press Enter, as V then Enter does: saved without a reload."""
    page.evaluate("() => { window.__same_page = true; }")
    page.fill("#pref-pace", pace)
    page.press("#pref-pace", "Enter")
    sala.wait_spoken(page, "Saved.", region="assertive")
    assert page.evaluate("() => window.__same_page === true"), "the page was reloaded"


def test_settings_saved_on_the_table_page_follow_the_account_to_another_device(
        new_page: Callable[..., Page], base_url: str) -> None:
    name = f"Dev{secrets.token_hex(3)}"
    laptop = new_page()
    register(laptop, base_url, name)
    table = sala.create_table(laptop)
    expect(laptop.locator("#pref-source")).to_have_text("Default settings.")
    expect(laptop.locator("#pref-where-account")).to_be_checked()
    _save_in_place(laptop, "0.5")
    expect(laptop.locator("#pref-source")).to_have_text("Settings of your account.")
    assert _pace(laptop) == 0.5
    laptop.reload()
    sala.connected(laptop)
    expect(laptop.locator("#pref-pace")).to_have_value("0.5")
    expect(laptop.locator("#pref-source")).to_have_text("Settings of your account.")

    # Another device: the defaults until it signs in, then the account's.
    phone = new_page()
    phone.goto(f"{base_url}/table/{table}")
    expect(phone.locator("#pref-source")).to_have_text("Default settings.")
    phone.goto(base_url + "/login")
    phone.fill("#name", name)
    phone.fill("#password", PASSWORD)
    phone.press("#password", "Enter")
    expect(phone.get_by_text(f"Signed in as {name}")).to_be_visible()
    phone.goto(f"{base_url}/table/{table}")
    sala.connected(phone)
    expect(phone.locator("#pref-pace")).to_have_value("0.5")
    expect(phone.locator("#pref-source")).to_have_text("Settings of your account.")

    # This device only: the phone keeps a slower pace, the laptop the account's.
    expect(phone.locator("#pref-forget")).to_be_hidden()
    phone.locator("#pref-where-device").check()
    _save_in_place(phone, "2.5")
    expect(phone.locator("#pref-source")).to_have_text("Settings of this device.")
    expect(phone.locator("#pref-forget")).to_be_visible()
    # The form's new states (where to save, the device's own, forget): axe finds nothing.
    sala.open_table_settings(phone)
    audit = Audit()
    audit(phone, "table settings of an account, this device's own")
    audit(laptop, "table settings of an account, the account's")
    audit.verdict()
    laptop.reload()
    expect(laptop.locator("#pref-pace")).to_have_value("0.5")
    phone.reload()
    expect(phone.locator("#pref-pace")).to_have_value("2.5")
    assert _pace(phone) == 2.5

    # "Use my account's settings here": the page reloads with the account's.
    with phone.expect_navigation():
        phone.locator("#pref-forget").click()
    assert re.search(rf"/table/{table}$", phone.url), phone.url
    expect(phone.locator("#pref-source")).to_have_text("Settings of your account.")
    expect(phone.locator("#pref-pace")).to_have_value("0.5")
    expect(phone.locator("#pref-forget")).to_be_hidden()
