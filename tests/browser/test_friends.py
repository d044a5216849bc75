"""Friends in a real browser, by keyboard alone: a player finds another by name, asks to be
friends, the other accepts, the first invites them to a table from the table page, and the
invited one, on the lobby, hears the invitation said once in the polite region and goes to
the table with Accept.  axe finds no violation on the friends page, the search results and
the lobby with an invitation shown."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.browser import sala
from tests.browser.test_axe import Audit
from tests.browser.test_tournament import register

# What the page's invitation region (#invitations-said) said, in order; and, standing in for
# what headless Chromium cannot give, the notes the page's Web Audio played (window.__tones)
# and the browser notifications it showed (window.__notified: the person allowed them; the
# page counts as hidden while window.__hidden is true).
RECORD_INVITATIONS = """
(() => {
window.__invited = [];
window.__tones = [];
window.__notified = [];
window.__hidden = false;
Object.defineProperty(document, "hidden", { get: () => window.__hidden });
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.destination = {}; }
  createOscillator() {
    const node = { frequency: { value: 0 }, connect: (n) => n,
                   start: () => window.__tones.push(node.frequency.value), stop: () => {} };
    return node;
  }
  createGain() { return { gain: { value: 0 }, connect: (n) => n }; }
};
window.Notification = class {
  constructor(title, options) { window.__notified.push([title, options.body]); }
};
window.Notification.permission = "granted";
window.Notification.requestPermission = () => Promise.resolve("granted");
document.addEventListener("DOMContentLoaded", () => {
  const region = document.getElementById("invitations-said");
  if (!region) return;
  new MutationObserver(() => {
    if (region.textContent) window.__invited.push(region.textContent);
  }).observe(region, { childList: true, characterData: true, subtree: true });
});
})();
"""


def press(page: Page, name: str) -> None:
    """Tab to the link or button named ``name`` and press Enter; wait for the page it
    leads to (every one here does)."""
    sala.tab_to_name(page, name, limit=120)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    page.wait_for_load_state()


def test_find_ask_accept_invite_and_hear_the_invitation_by_keyboard(
        new_page: Callable[..., Page], base_url: str) -> None:
    audit = Audit()
    tag = secrets.token_hex(3)
    ada_name, bruno_name = f"Ada{tag}", f"Bruno{tag}"
    ada, bruno = new_page(), new_page()
    bruno.add_init_script(RECORD_INVITATIONS)
    register(ada, base_url, ada_name)
    register(bruno, base_url, bruno_name)

    # Ada finds Bruno by the start of his name, folded ("BRUNO..." finds "Bruno..."), and asks.
    press(ada, "Friends")
    expect(ada).to_have_url(re.compile(r"/friends$"))
    sala.tab_to(ada, lambda el: el["id"] == "friend-query")
    ada.keyboard.type(bruno_name.upper())
    with ada.expect_navigation():
        ada.keyboard.press("Enter")
    expect(ada.locator("#search-outcome")).to_have_text("Players found: 1.")
    audit(ada, "friends page, search results")
    press(ada, f"Ask {bruno_name} to be friends")
    expect(ada.locator("#friends-notice")).to_have_text(f"Friend request sent to {bruno_name}.")
    expect(ada.locator("#friends-notice")).to_have_attribute("role", "alert")

    # Bruno accepts from his friends page.
    press(bruno, "Friends")
    press(bruno, f"Accept {ada_name}")
    expect(bruno.locator("#friends-notice")).to_have_text(f"You and {ada_name} are friends now.")
    audit(bruno, "friends page, a friend")

    # Bruno turns the sounds on (the preferences' table settings, by keyboard) and waits on
    # the lobby, the page in the background; Ada opens a table and invites him from its page.
    bruno.goto(base_url + "/")
    sala.tab_to_name(bruno, "Table settings")
    bruno.keyboard.press("Enter")
    sala.tab_to(bruno, lambda el: el["id"] == "pref-sounds")
    bruno.keyboard.press("Space")
    sala.tab_to(bruno, lambda el: el["id"] == "pref-save")
    with bruno.expect_navigation():
        bruno.keyboard.press("Enter")
    expect(bruno.locator("#pref-sounds")).to_be_checked()
    bruno.evaluate("() => { window.__hidden = true; }")
    ada.goto(base_url + "/")
    table = sala.create_table(ada)
    press(ada, "Invite friends")
    expect(ada).to_have_url(re.compile(rf"/friends\?table={table}$"))
    expect(ada.locator("#friend-list")).to_contain_text(f"{bruno_name}: in the room")
    # On a phone the page fits its width (the invitation link's field too).
    ada.set_viewport_size({"width": 390, "height": 844})
    assert ada.evaluate("() => document.documentElement.scrollWidth") <= 390
    audit(ada, "friends page with a table to invite to, 390x844")
    ada.set_viewport_size({"width": 1280, "height": 800})
    press(ada, f"Invite {bruno_name} to table {table}")
    expect(ada.locator("#friends-notice")).to_have_text(
        f"Invitation to table {table} sent to {bruno_name}.")

    # Bruno hears it once, politely, and sees it listed with Accept and Decline.
    sentence = f"{ada_name} invites you to table {table}."
    bruno.wait_for_function("(s) => (window.__invited || []).includes(s)", arg=sentence)
    assert bruno.evaluate("() => window.__invited") == [sentence]
    # With it, the invitation's chime (two notes, not the table's cues) and, the page being
    # in the background, one browser notification with the same words.
    assert bruno.evaluate("() => window.__tones") == [587, 880]
    assert bruno.evaluate("() => window.__notified") == [["Invitations for you", sentence]]
    bruno.evaluate("() => { window.__hidden = false; }")
    expect(bruno.locator("#invitations-said")).to_have_attribute("aria-live", "polite")
    panel = bruno.get_by_role("region", name="Invitations for you")
    expect(panel).to_contain_text(sentence)
    expect(panel.get_by_role("button", name="Decline")).to_be_visible()
    audit(bruno, "lobby with an invitation")
    press(bruno, "Accept and go to the table")
    expect(bruno).to_have_url(re.compile(rf"/table/{table}$"))
    sala.connected(bruno)
    audit.verdict()
