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

# Counts, from now on until the hand is empty, the changes of the active option (``changes``)
# and the times it was replaced by another element of the same name (``rebuilt``); the
# observer sees the whole hand, so a frame that rebuilds the list shows as ``rebuilt``.
# ``log``: each change, and the test's key presses, for the message of a failure.
WATCH_ACTIVE = """() => {
  const hand = document.getElementById("hand");
  const seen = { changes: 0, rebuilt: 0, over: false, log: [] };
  let name = hand.getAttribute("aria-activedescendant");
  let element = name && document.getElementById(name);
  new MutationObserver(() => {
    if (seen.over) return;  // the hand was played out: the next deal is not counted
    const now = hand.getAttribute("aria-activedescendant");
    const current = now && document.getElementById(now);
    if (now !== name) { seen.changes += 1; seen.log.push([name, now, hand.children.length]); }
    else if (current !== element) seen.rebuilt += 1;
    name = now;
    element = current;
    if (!now) seen.over = true;
  }).observe(hand, { attributes: true, childList: true, subtree: true });
  window.__active = seen;
}"""


def active_counts(page: Page) -> dict[str, Any]:
    counts: dict[str, Any] = page.evaluate("() => ({ ...window.__active })")
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
    page = new_page()  # it records what the live regions say
    sala.guest(page, base_url, "Orla")
    sala.create_table(page, "300")
    sala.click_sit(page, "South")
    sala.click_bots(page, "North", "East", "West")
    sala.click_start(page)
    to_card_play(page)
    page.evaluate(WATCH_ACTIVE)

    moves = plays = 0
    asked_next = False
    while plays < 8:  # the hand's eight cards (the next deal may come at once after)
        sala.my_turn(page)
        sala.focus_hand(page)
        if not asked_next:
            # N (the next playable card): said once.  A move is said by the screen reader
            # from the new active option, so the page says nothing more; no move (the
            # selected card is the next playable one), and the page says the card.
            before = selected_id(page)
            assertive = len(sala.spoken(page, "assertive"))
            page.evaluate("() => window.__active.log.push('N')")
            page.keyboard.press("n")
            # a move, or the card said (30 ms later on a quiet machine; a busy one is slower)
            sala.wait_until(page, lambda b=before, n=assertive: selected_id(page) != b
                            or len(sala.spoken(page, "assertive")) > n,
                            message="the selection moved or the card was said")
            page.wait_for_timeout(150)  # nothing more comes after it
            after = selected_id(page)
            name = next(o["text"] for o in sala.hand_options(page) if o["selected"])
            told = sala.spoken(page, "assertive")[assertive:]
            if after != before:
                moves += 1
                assert not told, told
            else:
                assert told == [name.removesuffix(" (playable)")], repr(
                    (told, sala.spoken(page, "assertive"), before, after, assertive))
            asked_next = True
        for _ in range(24):
            options = sala.hand_options(page)
            chosen = next(o for o in options if o["selected"])
            if not chosen["disabled"]:
                break
            suits = {o["suit"] for o in options if not o["disabled"]}
            before = chosen["id"]
            page.evaluate("() => window.__active.log.push('arrow')")
            page.keyboard.press("ArrowRight" if chosen["suit"] in suits else "ArrowDown")
            if selected_id(page) != before:
                moves += 1
        chosen = next(o for o in sala.hand_options(page) if o["selected"])
        assert not chosen["disabled"], (sala.hand_options(page), page.locator("#turn").inner_text())
        page.evaluate("() => window.__active.log.push('enter')")
        page.keyboard.press("Enter")
        try:
            expect(page.locator(f"#{chosen['id']}")).to_have_count(0, timeout=sala.TIMEOUT)
        except AssertionError:
            raise AssertionError((chosen, sala.spoken(page, "assertive")[-3:],
                                  sala.spoken(page)[-3:], page.locator("#turn").inner_text(),
                                  page.evaluate("() => document.activeElement.id"))) from None
        plays += 1
    # The last card: the others have played theirs and the hand is scored (the watcher
    # stopped counting when the hand was empty: the next deal may have come since).
    expect(page.locator("#log li").filter(has_text="Totals:")).not_to_have_count(0)
    counts = active_counts(page)
    log = counts.pop("log")
    assert counts.pop("over")
    assert plays == 8
    assert counts == {"changes": moves + plays, "rebuilt": 0}, (counts, moves, plays, log)
