"""What fits on one screen of the table page, for tests/browser/test_table_layout.py and the
docs' screenshots (scripts/screenshots.py): a real table of a preset brought to this
player's bid or card, and the boxes of what a player needs then, measured unscrolled.

A player needs, without scrolling: every card of the hand, the bid that stands or the
contract, and every choice open to them (the buttons, the level and suit pickers, the bid
box, the cut field).  On a wide screen the bid or contract is the "Contract" line beside
the table; on a phone that column comes after the hand, and the drawn table's note says it.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, ViewportSize, expect

from tests.browser import sala

PRESETS = ("classic", "pinasca", "italian", "valdostana", "coinche", "valdostana3",
           "valdostana2")
# The player's seat and the bots' seats of each preset (three and two seats: see
# docs/rules-2-3-players.md).
SEATS: dict[str, tuple[str, tuple[str, ...]]] = {
    "valdostana3": ("South", ("North", "East")),
    "valdostana2": ("North", ("East",)),
}
FOUR = ("South", ("North", "East", "West"))
LAPTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}
NARROW: ViewportSize = {"width": 320, "height": 640}  # WCAG 1.4.10: no sideways scrolling
PHONE_WIDTH = 640  # px (40rem): the site's links and settings fold into one menu

# What the page shows now: "auction" (a bid to make), "cut", "choices" (another choice: a
# declaration), "play" (a card to play), or "" (not this player's move).
PHASE_JS = """(yours) => {
  const shown = (id) => !document.getElementById(id).hidden;
  if (document.getElementById("turn").textContent !== yours) return "";
  if (shown("choices") && shown("bid-form")) return "auction";
  if (shown("choices") && shown("cut-form")) return "cut";
  // A card to play, a declaration offered with it or not.
  if (document.querySelector('#hand [role=option][aria-disabled="false"]')) return "play";
  return shown("choices") ? "choices" : "";
}"""
# This player's move, the pause between hands, or the end of the match.
WAIT_JS = """([yours, over]) => (""" + PHASE_JS + """)(yours)
  || !document.getElementById("next-hand").hidden
  || document.getElementById("turn").textContent === over"""

# Every box a player needs now, unscrolled (the page scrolled to its top first).
MEASURE_JS = """(phoneWidth) => {
  window.scrollTo(0, 0);
  const box = (el, name) => { const r = el.getBoundingClientRect();
    return { name, top: r.top, bottom: r.bottom, left: r.left, right: r.right }; };
  const drawn = (el) => el.getClientRects().length > 0 && !el.closest("[hidden]");
  const phone = window.innerWidth <= phoneWidth;
  const boxes = [...document.querySelectorAll("#hand [role=option]")]
    .map((o) => box(o, "card " + o.id));
  const controls = "#choice-buttons button, #bid-pickers select, #bid-pickers button, " +
    "#cut-form input, #cut-form button, #bid-form input, #bid-form button";
  for (const el of document.querySelectorAll(controls)) {
    if (drawn(el)) boxes.push(box(el, "choice " + (el.id || el.textContent)));
  }
  const line = phone ? document.querySelector("#felt .felt-note")
    : document.getElementById("contract");
  boxes.push(box(line, phone ? "the table's note" : "the contract line"));
  return { boxes, scrollY: window.scrollY, width: window.innerWidth, height: window.innerHeight,
           scrollWidth: document.documentElement.scrollWidth,
           contract: document.getElementById("contract").textContent,
           note: document.querySelector("#felt .felt-note").textContent };
}"""


def start(page: Page, base_url: str, preset: str, name: str = "Vista") -> None:
    """Sign in as a guest, open a table of ``preset`` (a long match), sit, fill it with
    bots and start."""
    me, bots = SEATS.get(preset, FOUR)
    sala.guest(page, base_url, name)
    page.select_option("#preset", preset)
    sala.create_table(page, target="3000")
    sala.click_sit(page, me)
    sala.click_bots(page, *bots)
    sala.click_start(page)


def phase(page: Page) -> str:
    now: str = page.evaluate(PHASE_JS, sala.YOUR_TURN)
    return now


def reach(page: Page, wanted: str, limit: int = 120) -> None:
    """Make moves (the first choice, a playable card) until it is this player's turn in
    ``wanted`` ("auction" or "play"); the pause between hands is passed with its button."""
    for _ in range(limit):
        page.wait_for_function(WAIT_JS, arg=[sala.YOUR_TURN, sala.MATCH_OVER], timeout=60_000)
        now = phase(page)
        if now == wanted:
            return
        if not now and not page.locator("#next-hand").is_hidden():
            page.locator("#next-hand").click()
            expect(page.locator("#next-hand")).to_be_hidden()
            continue
        assert now, f"the match ended before the {wanted}"
        act(page, now)
    raise AssertionError(f"never reached the {wanted}")


def act(page: Page, now: str) -> None:
    """Play a card, else take the first choice (take rather than pass, as
    :func:`sala.click_act`); wait until the game log has it."""
    said = page.locator("#log li").count()
    if now == "play":
        page.locator('#hand [role=option][aria-disabled="false"]').first.click()
    else:
        buttons = page.locator("#choice-buttons button")
        labels = buttons.all_inner_texts()
        buttons.nth(1 if len(labels) > 1 and labels[0] == "pass" else 0).click()
    sala.wait_until(page, lambda: page.locator("#log li").count() > said, message="my move")


def settle(page: Page, size: ViewportSize) -> None:
    """The viewport at ``size``, the page at its top, laid out (two frames)."""
    page.set_viewport_size(size)
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => "
                  "requestAnimationFrame(() => { window.scrollTo(0, 0); done(); })))")


def measure(page: Page) -> dict[str, Any]:
    report: dict[str, Any] = page.evaluate(MEASURE_JS, PHONE_WIDTH)
    return report


def off_screen(report: dict[str, Any]) -> list[str]:
    """What a player needs now and cannot see without scrolling (with its box)."""
    width, height = report["width"], report["height"]
    return [f"{b['name']}: {b}" for b in report["boxes"]
            if b["top"] < 0 or b["left"] < 0 or b["bottom"] > height or b["right"] > width]


def sideways(page: Page) -> int:
    """Pixels of horizontal scrolling the page has (0: none)."""
    overflow: int = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    return overflow
