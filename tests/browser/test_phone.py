"""The room on a phone (issue 28, item 8), at 390x844 with a touch screen: the page links
the manifest and registers the service worker, which shows the offline page in the
player's language when the network is gone; a player who turned self-voicing on hears the
table's announcements from the page itself, once each, in the page's language (the
browser's speech synthesis, recorded here); the seats, the bids and a card are played by
taps on named controls, each at least 44 by 44 CSS pixels; axe finds nothing."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from belote.i18n import translate
from tests.browser import sala
from tests.browser.layout import PHONE
from tests.browser.test_axe import Audit
from tests.browser.test_table_ux import card, scripted_table, view

# The page's speech, recorded: each utterance's text, language and rate; its end comes at
# once (as a quick voice's would), so that the next one is said.
RECORD_VOICE = """
window.__said = [];
window.__cancels = 0;
window.__holdSpeech = false; // true: a sentence never ends (a slow voice), the rest waits
window.speechSynthesis.speak = (u) => {
  window.__said.push({ text: u.text, lang: u.lang, rate: u.rate });
  if (!window.__holdSpeech) setTimeout(() => u.onend && u.onend(), 0);
};
window.speechSynthesis.cancel = () => { window.__cancels += 1; };
"""
# The main controls drawn now that are narrower or shorter than 44 CSS px: buttons,
# disclosures, fields (a checkbox by its label, which takes its taps too), the cards of the
# hand, the links of the menus (a link inside a sentence is exempt: WCAG 2.5.5).
SMALL_JS = """() => {
  const controls = 'button, summary, select, input:not([type=hidden]), [role=option], ' +
    'header nav a, ul.inline a, .table-buttons a';
  const small = [];
  for (const el of document.querySelectorAll(controls)) {
    if (el.closest('[hidden]') || !el.getClientRects().length) continue;
    if (el.closest('details:not([open])') && el.tagName !== 'SUMMARY') continue;
    const target = ['checkbox', 'radio'].includes(el.type) && el.labels.length ? el.labels[0] : el;
    const r = target.getBoundingClientRect();
    if (r.right <= 0 || r.bottom <= 0) continue; // off screen (the skip link, unfocused)
    if (r.width < 44 || r.height < 44) {
      const name = (el.getAttribute('aria-label') || el.textContent).trim().slice(0, 30);
      small.push(`${el.tagName}#${el.id} "${name}" ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  return small;
}"""


def said(page: Page) -> list[dict[str, Any]]:
    utterances: list[dict[str, Any]] = page.evaluate("() => window.__said")
    return utterances


def tap_choice_until_play(page: Page, connected: str) -> None:
    """Tap a choice at each of this player's turns until a card is to be played."""
    for _ in range(40):
        page.wait_for_function(
            "() => document.querySelector('#hand [role=option][aria-disabled=false]')"
            " || !document.getElementById('choices').hidden", timeout=sala.TIMEOUT)
        if not sala.bidding(page):
            return
        # The last choice: a take, or a suit (pass comes first): the auction ends soon.
        page.locator("#choice-buttons button").last.tap()
        expect(page.locator("#choices")).to_be_hidden(timeout=sala.TIMEOUT)
        expect(page.locator("#connection")).to_have_text(connected)
    raise AssertionError("no card to play after 40 choices")


def test_on_a_phone_the_room_installs_speaks_itself_and_plays_by_touch(
        new_page: Callable[..., Page], base_url: str) -> None:
    audit = Audit()
    page = new_page(has_touch=True, is_mobile=True)
    page.add_init_script(RECORD_VOICE)
    page.set_viewport_size(PHONE)
    # Italian: the table's sentences, the voice's language and the offline page must agree.
    page.goto(base_url + "/")
    page.locator("#site-menu > summary").tap()
    page.select_option("#pref-lang", "it")
    page.locator("#pref-save").tap()
    expect(page.locator("html")).to_have_attribute("lang", "it")
    expect(page.locator('link[rel="manifest"]')).to_have_attribute(
        "href", "/manifest.webmanifest?lang=it")
    worker = page.evaluate("""async () => {
        const registration = await navigator.serviceWorker.ready;
        return [registration.scope, registration.active.scriptURL]; }""")
    assert worker == [base_url + "/", base_url + "/sw.js"]

    page.fill("#guest-name", "Tocco")
    page.locator("#guest-name + button").tap()
    expect(page.locator("header nav")).to_contain_text("Tocco")
    assert not page.evaluate(SMALL_JS), "lobby"
    page.fill("#target", "1")
    page.locator("#target").press("Enter")
    page.wait_for_url(re.compile(r"/table/\d+$"))
    connected = translate("it", "web.js.connected")
    expect(page.locator("#connection")).to_have_text(connected)

    # Self-voicing on (the settings fold into the phone's menu), saved in place.
    page.locator("#site-menu > summary").tap()
    page.locator(".more-settings > summary").tap()
    assert not page.evaluate(SMALL_JS), "the settings open"
    page.locator("#pref-voice").tap()
    page.locator("#pref-save").tap()
    expect(page.locator("#voice-bar")).to_be_visible()
    page.locator("#site-menu > summary").tap()  # folded again
    audit(page, "phone: a waiting table, the speech bar")

    # Seats and bots by tap, on buttons named by what they do.
    page.locator('[data-key="sit-2"]').tap()
    for seat in (0, 1, 3):
        page.locator(f'[data-key^="bot-{seat}-"]').first.tap()
        expect(page.locator(f'[data-key="unbot-{seat}"]')).to_be_visible()
    page.locator("#start-button").tap()
    started = translate("it", "web.notice.started")
    sala.wait_until(page, lambda: any(started in u["text"] for u in said(page)),
                    message="the start said aloud")
    tap_choice_until_play(page, connected)
    assert not page.evaluate(SMALL_JS), "the table, a card to play"
    audit(page, "phone: the card play")
    page.screenshot(path=str(Path(tempfile.gettempdir()) / "belote-phone-table.png"))

    # A card played by a tap: it leaves the hand, and the page says so itself.
    card = page.locator('#hand [role=option][aria-disabled="false"]').first
    card_id = card.get_attribute("id")
    card.tap()
    expect(page.locator(f"#{card_id}")).to_have_count(0)
    played = translate("it", "event.card_played.you", the_card="\0").split("\0")[0]
    sala.wait_until(page, lambda: any(played in u["text"] for u in said(page)),
                    message="the card said aloud")
    # Each announcement once, in the page's language, at the chosen rate.
    texts = [u["text"] for u in said(page)]
    assert sum(started in text for text in texts) == 1, texts
    assert {(u["lang"], u["rate"]) for u in said(page)} == {("it", 1)}

    # Offline: a page the network cannot give is the offline page, in Italian.
    page.context.set_offline(True)
    try:
        page.goto(base_url + "/leaderboard")
        expect(page.locator("h1")).to_have_text(translate("it", "web.phone.offline.heading"))
        audit(page, "phone: the offline page")
    finally:
        page.context.set_offline(False)
    audit.verdict()



def test_belote_is_a_named_button_and_the_voice_queues_and_interrupts(
        new_page: Callable[..., Page], base_url: str) -> None:
    """On a scripted table.  Space announces belote on a keyboard; a phone has none: the card
    that may carry it has a button of its own, and so has belote said after the card.  The
    page's own voice lets polite sentences wait while one is said (a slow voice), and an
    assertive one (the answer to a key) stops it, drops what waits and is said at once; F2
    says it again, Control stops the speech."""
    def touch_phone() -> Page:
        phone = new_page(has_touch=True, is_mobile=True)
        phone.add_init_script(RECORD_VOICE)
        return phone

    def voice_on(phone: Page) -> None:
        phone.set_viewport_size(PHONE)
        phone.request.post(base_url + "/preferences", headers={"origin": base_url}, form={
            "settings": "1", "pace": "0", "volume": "50", "speak": "plays", "voice": "on",
            "voice_rate": "125", "next": "/"})

    page, script = scripted_table(touch_phone, base_url, voice_on)
    expect(page.locator("#voice-bar")).to_be_visible()
    king = card("KH", "king of hearts", 0, announce=True)
    script.frame("sync", view(hand=[king, card("QH", "queen of hearts", 0)]))
    with_card = page.get_by_role("button", name="Play the king of hearts and announce belote")
    with_card.tap()
    sala.wait_until(page, lambda: script.acts(), message="the king sent, announcing")
    assert script.acts() == [{"a": 32 + 6}]  # PLAY_ANNOUNCE_BASE + the king of hearts
    script.frame("update", view(hand=[card("QH", "queen of hearts", 0)], turn=3, step=11,
                                belote=True), ["You played the king of hearts."])
    expect(with_card).to_have_count(0)
    page.get_by_role("button", name="Announce belote", exact=True).tap()
    sala.wait_until(page, lambda: len(script.acts()) == 2, message="the belote sent")
    assert script.acts()[1] == {"a": 72}
    assert not page.evaluate(SMALL_JS)
    sala.wait_until(page, lambda: any("You played the king" in u["text"] for u in said(page)),
                    message="the card said aloud")
    assert {(u["lang"], u["rate"]) for u in said(page)} == {("en", 1.25)}

    page.evaluate("() => { window.__holdSpeech = true; }")
    script.frame("update", view(turn=0, step=12), ["North plays the ace of hearts."])
    sala.wait_until(page, lambda: said(page)[-1]["text"] == "North plays the ace of hearts.",
                    message="the first sentence said (and held)")
    script.frame("update", view(turn=1, step=13), ["East plays the seven of hearts."])
    sala.wait_spoken(page, "East plays the seven")
    page.wait_for_timeout(200)
    assert "East" not in said(page)[-1]["text"], "a polite sentence waits its turn"
    cancels = page.evaluate("() => window.__cancels")
    page.locator("#hand").focus()
    page.keyboard.press("c")  # the cards on the table: an assertive answer
    sala.wait_until(page, lambda: said(page)[-1]["text"] == "No card on the table.",
                    message="the answer said at once")
    assert page.evaluate("() => window.__cancels") > cancels
    page.evaluate("() => { window.__holdSpeech = false; }")
    page.keyboard.press("F2")
    sala.wait_until(page, lambda: [u["text"] for u in said(page)][-2:] == [
        "No card on the table.", "No card on the table."], message="F2 says it again")
    assert not any("East plays" in u["text"] for u in said(page)), "dropped by the answer"
    cancels = page.evaluate("() => window.__cancels")
    page.keyboard.press("Control")
    assert page.evaluate("() => window.__cancels") == cancels + 1
