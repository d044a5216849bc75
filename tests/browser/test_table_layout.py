"""The table on one screen: a laptop's (1280x800) and a phone's (390x844), every preset.

A low-vision trial with screenshots (issue 25) found: at 1280x800 in a valdostana auction the
pickers and the bid box below the fold; on a phone the whole "Your choices" block off screen;
with ten cards (three players) the hand's last row cut; in the auction no sign of the bid
that stands ("Contract —"); three-seat tables scrolling sideways (the score history,
WCAG 1.4.10); on a phone the site's header taking 300 of 844 px.  Here a real table of each
preset is brought to the player's bid and then to their card, and at each size the hand, the
bid or contract and every choice are measured within the screen, unscrolled
(tests/browser/layout.py); at 320 px nothing scrolls sideways; on a phone the header is one
"Menu", by keyboard, with no axe violation open or folded.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.browser import layout, sala
from tests.browser.test_axe import Audit
from tests.browser.test_table_ux import card, scripted_table, view


def shows_the_view(page: Page, frames: sala.Frames) -> None:
    """The "Contract" line says what the last view says: the contract, else the bid that
    stands, else a dash; the drawn table's note says the bid too."""
    def agree() -> bool:
        last = frames.views()[-1][1]
        line = page.locator("#contract").inner_text()
        note = page.locator("#felt .felt-note").inner_text()
        wanted = last["contract"] or last["high_bid"] or "—"
        return line == wanted and (not last["high_bid"] or last["high_bid"] in note)
    sala.wait_until(page, agree, message="the contract line and the note as the view says")


@pytest.mark.parametrize("preset", layout.PRESETS)
def test_the_hand_the_bid_and_the_choices_fit_a_laptop_and_a_phone_unscrolled(
        new_page: Callable[..., Page], base_url: str, preset: str) -> None:
    page = new_page()
    frames = sala.Frames(page)
    layout.start(page, base_url, preset)
    for phase in ("auction", "play"):
        layout.reach(page, phase)
        shows_the_view(page, frames)
        for size in (layout.LAPTOP, layout.PHONE):
            layout.settle(page, size)
            report = layout.measure(page)
            assert report["scrollY"] == 0, report
            cards = [b for b in report["boxes"] if b["name"].startswith("card ")]
            assert len(cards) >= 5, report  # five in a take-or-pass auction, up to 16
            missing = layout.off_screen(report)
            assert not missing, f"{preset}, {phase}, {size}: not on screen: {missing}"
        # 320 CSS px (a phone's narrowest, 1280 px at 400%): nothing scrolls sideways, the
        # score history with a column per player and per total included.
        layout.settle(page, layout.NARROW)
        assert layout.sideways(page) <= 0, f"{preset}: {layout.sideways(page)} px sideways"
        page.set_viewport_size(layout.LAPTOP)


def test_on_a_phone_the_header_is_one_menu_by_keyboard_open_and_folded_without_axe_violations(
        new_page: Callable[..., Page], base_url: str) -> None:
    audit = Audit()
    page = new_page()
    layout.start(page, base_url, "valdostana3")
    layout.reach(page, "auction")
    menu = page.locator("#site-menu")
    assert menu.evaluate("(el) => el.open")  # a laptop: open, its summary not drawn
    summary = menu.locator(":scope > summary")
    expect(summary).to_be_hidden()
    expect(page.locator("#pref-lang")).to_be_visible()

    layout.settle(page, layout.PHONE)
    page.reload()
    sala.connected(page)
    layout.reach(page, "auction")
    # Folded: one control above the table; the links, the language and the settings in it.
    assert not menu.evaluate("(el) => el.open")
    for hidden in ("#pref-lang", "#pref-save", "header nav"):
        expect(page.locator(hidden)).to_be_hidden()
    expect(summary).to_have_text("Menu")
    header = page.locator("header").bounding_box()
    felt = page.locator("#felt").bounding_box()
    assert header is not None and header["height"] < 70, header  # was about 300 px
    assert felt is not None and felt["y"] < 150, felt
    audit(page, "table on a phone, the menu folded")

    # By keyboard: the skip link, the menu, then the page (the table's first control).
    page.locator(".skip").focus()
    page.keyboard.press("Tab")
    expect(summary).to_be_focused()
    page.keyboard.press("Tab")
    assert sala.active(page)["id"] == "help-button", sala.active(page)
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")
    assert menu.evaluate("(el) => el.open")
    page.keyboard.press("Tab")
    assert sala.active(page)["name"] == "Lobby", sala.active(page)
    sala.tab_to(page, lambda el: el["id"] == "pref-lang", limit=12)
    expect(page.locator("#pref-save")).to_be_visible()
    audit(page, "table on a phone, the menu open")
    # Folded again from its summary; the focus stays on it.
    sala.tab_to(page, lambda el: el["tag"] == "SUMMARY" and el["name"] == "Menu", shift=True,
                limit=12)
    page.keyboard.press("Space")
    assert not menu.evaluate("(el) => el.open")
    expect(summary).to_be_focused()

    # V, the pace's key, from the hand: the menu opens on the field.
    page.locator("#hand").focus()
    page.keyboard.press("v")
    expect(page.locator("#pref-pace")).to_be_focused()
    assert menu.evaluate("(el) => el.open")
    summary.click()
    assert not menu.evaluate("(el) => el.open")

    # Wider again (a phone turned, a zoom undone): open, as on a laptop.
    page.set_viewport_size(layout.LAPTOP)
    sala.wait_until(page, lambda: menu.evaluate("(el) => el.open"), message="the menu open")
    audit.verdict()


def test_the_bid_that_stands_is_shown_where_the_contract_will_be(
        new_page: Callable[..., Page], base_url: str) -> None:
    page, script = scripted_table(new_page, base_url)
    bid = "Highest bid: 82 in hearts, West."
    auction = {"phase": "bidding", "contract": "", "taker": None, "high_bid": bid}
    script.frame("sync", view(**auction))
    expect(page.locator("#contract")).to_have_text(bid)
    expect(page.locator("#felt .felt-note")).to_have_text(bid)
    # The contract made: it replaces the bid, in the line and on the table.
    script.frame("update", view(contract="82 in hearts", taker=3, high_bid=""))
    expect(page.locator("#contract")).to_have_text("82 in hearts")
    expect(page.locator("#felt .felt-note")).to_have_text("82 in hearts")
    # No bid yet: a dash, as before.
    script.frame("update", view(**dict(auction, high_bid="")))
    expect(page.locator("#contract")).to_have_text("—")


# Valdostana's longest turn in the auction (seed 000: a partner opened a suit): the raises,
# each with its meaning, beside pass and wait; a double; 288 contracts in the pickers.
RAISES = ["pass (no ace)", "wait (pass holding an ace)", "ancora (two cards in partner's suit)",
          "alzo (three or more cards in partner's suit)",
          "do 10 (the nine alone, in partner's suit)", "do 20 (the jack alone, in partner's suit)",
          "ancora 10 (two trumps, one the nine)", "ancora 20 (two trumps, one the jack)",
          "alzo 10 (three trumps, one the nine)", "alzo 20 (three trumps, one the jack)", "double"]
SUITS = ["hearts", "diamonds", "clubs", "spades"]


def test_the_longest_auction_turn_fits_a_laptop_and_a_phone_unscrolled(
        new_page: Callable[..., Page], base_url: str) -> None:
    page, script = scripted_table(new_page, base_url)
    hand = [card(code, name, "HDCS".index(code[-1]), playable=False) for code, name in (
        ("7H", "seven of hearts"), ("KH", "king of hearts"), ("8D", "eight of diamonds"),
        ("10D", "ten of diamonds"), ("AD", "ace of diamonds"), ("7C", "seven of clubs"),
        ("QS", "queen of spades"), ("JS", "jack of spades"))]
    choices: list[dict[str, object]] = [{"action": n, "label": label}
                                        for n, label in enumerate(RAISES)]
    choices += [{"action": 100 + 4 * i + s, "label": f"{82 + 10 * i} in {SUITS[s]}",
                 "level": 82 + 10 * i, "suit": s, "suit_name": SUITS[s]}
                for i in range(20) for s in range(4)]
    script.frame("sync", view(phase="bidding", contract="", taker=None, hand=hand,
                              choices=choices, high_bid="Highest bid: 82 in hearts, North.",
                              preset="valdostana"))
    expect(page.locator("#bid-pickers")).to_be_visible()
    expect(page.locator("#choice-buttons button")).to_have_count(len(RAISES))
    for size in (layout.LAPTOP, layout.PHONE):
        layout.settle(page, size)
        missing = layout.off_screen(layout.measure(page))
        assert not missing, f"{size}: not on screen: {missing}"
    layout.settle(page, layout.NARROW)
    assert layout.sideways(page) <= 0
