"""The hand is not rebuilt under the screen reader (issue 25, item 1).

A screen reader takes a new active descendant, or the active option replaced by a new element
with the same name, for a new selection and says the card again.  Through the card play of a
hand, played from the keyboard, the active option changes once per move of the player's own
cursor and once per card the player plays, never for the others' cards.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from tests.browser import sala

# Counts, from now on, the changes of the active option (``changes``) and the times it was
# replaced by another element of the same name (``rebuilt``); the observer sees the whole
# hand, so a frame that rebuilds the list shows as ``rebuilt``.
WATCH_ACTIVE = """() => {
  const hand = document.getElementById("hand");
  const seen = { changes: 0, rebuilt: 0 };
  let name = hand.getAttribute("aria-activedescendant");
  let element = name && document.getElementById(name);
  new MutationObserver(() => {
    const now = hand.getAttribute("aria-activedescendant");
    const current = now && document.getElementById(now);
    if (now !== name) seen.changes += 1;
    else if (current !== element) seen.rebuilt += 1;
    name = now;
    element = current;
  }).observe(hand, { attributes: true, childList: true, subtree: true });
  window.__active = seen;
}"""


def active_counts(page: Page) -> dict[str, int]:
    counts: dict[str, int] = page.evaluate("() => ({ ...window.__active })")
    return counts


def selected_id(page: Page) -> str:
    return str(next(o["id"] for o in sala.hand_options(page) if o["selected"]))


def to_card_play(page: Page) -> None:
    """Bid (by clicking) until a contract is made and the card play has begun."""
    for _ in range(40):
        page.wait_for_function(
            "([turn]) => document.getElementById('turn').textContent === turn"
            " || document.getElementById('choices').hidden",
            arg=[sala.YOUR_TURN])
        if not sala.bidding(page) and page.locator("#contract").inner_text() not in ("", "—"):
            return
        if sala.bidding(page) and page.locator("#turn").inner_text() == sala.YOUR_TURN:
            sala.click_act(page)
        else:
            page.wait_for_timeout(50)
    raise AssertionError("no contract was made")


def test_the_active_option_changes_only_for_the_players_own_moves(
        new_page: Callable[..., Page], base_url: str) -> None:
    page = new_page()
    sala.record_speech(page)
    sala.guest(page, base_url, "Orla")
    sala.create_table(page, "300")
    sala.click_sit(page, "South")
    sala.click_bots(page, "North", "East", "West")
    sala.click_start(page)
    to_card_play(page)
    page.evaluate(WATCH_ACTIVE)

    moves = plays = 0
    said_once: list[Any] = []
    while sala.hand_options(page):
        sala.my_turn(page)
        if not sala.hand_options(page):
            break
        sala.focus_hand(page)
        if not said_once:
            # N (the next playable card): said once.  A move is said by the screen reader
            # from the new active option, so the page says nothing more; no move (the
            # selected card is the next playable one), and the page says the card.
            before = selected_id(page)
            assertive = len(sala.spoken(page, "assertive"))
            page.keyboard.press("n")
            page.wait_for_timeout(150)
            after = selected_id(page)
            name = next(o["text"] for o in sala.hand_options(page) if o["selected"])
            told = sala.spoken(page, "assertive")[assertive:]
            if after != before:
                moves += 1
                assert not told, told
            else:
                assert told == [name.removesuffix(" (playable)")], told
            said_once.append(after)
        for _ in range(24):
            options = sala.hand_options(page)
            chosen = next(o for o in options if o["selected"])
            if not chosen["disabled"]:
                break
            suits = {o["suit"] for o in options if not o["disabled"]}
            before = chosen["id"]
            page.keyboard.press("ArrowRight" if chosen["suit"] in suits else "ArrowDown")
            if selected_id(page) != before:
                moves += 1
        chosen = next(o for o in sala.hand_options(page) if o["selected"])
        assert not chosen["disabled"], chosen
        page.keyboard.press("Enter")
        expect(page.locator(f"#{chosen['id']}")).to_have_count(0, timeout=sala.TIMEOUT)
        plays += 1
    # The last card: the others have played theirs and the hand is scored (no new deal yet:
    # the next hand waits for the player).
    expect(page.locator("#log li").filter(has_text="Totals:")).not_to_have_count(0)
    counts = active_counts(page)
    assert plays == 8
    assert counts == {"changes": moves + plays, "rebuilt": 0}, (counts, moves, plays)
