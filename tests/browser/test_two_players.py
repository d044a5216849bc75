"""Two people at one table (two browser contexts, two guests) with two bots.

Each hears the other's plays, and neither page ever holds the other's hand: not in its
listbox, not anywhere in its DOM, not in any frame its WebSocket received before the card was
on the table.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.browser import sala


def test_two_guests_play_a_trick_and_never_see_each_others_hands(
        new_page: Callable[..., Page], base_url: str) -> None:
    ada, bob = new_page(), new_page()
    frames = {"Ada": sala.Frames(ada), "Bob": sala.Frames(bob)}
    sala.guest(ada, base_url, "Ada")
    table = sala.create_table(ada, target="")
    sala.guest(bob, base_url, "Bob")
    bob.goto(f"{base_url}/table/{table}")
    sala.connected(bob)

    sala.click_sit(ada, "South")
    sala.click_sit(bob, "East")
    expect(ada.locator("#seats")).to_contain_text("East: Bob")
    sala.click_bots(ada, "North", "West")
    sala.click_start(ada)
    sala.wait_spoken(bob, "The game starts")

    pages = {"Ada": ada, "Bob": bob}
    played: dict[str, list[str]] = {"Ada": [], "Bob": []}
    deadline = time.monotonic() + 60
    while not (played["Ada"] and played["Bob"] and tricks_done(ada) >= 1):
        assert time.monotonic() < deadline, f"no complete trick in time: {played}"
        movers = [name for name, page in pages.items()
                  if page.locator("#turn").inner_text() == sala.YOUR_TURN]
        if not movers:
            ada.wait_for_timeout(50)  # the bots (or the other page's frame) are on their way
            continue
        name = movers[0]
        other = "Bob" if name == "Ada" else "Ada"
        # While it is their turn the mover's hand is still: the other page must not hold it.
        sala.assert_hand_hidden(pages[name], pages[other])
        before = sala.hand_options(pages[name])
        action = sala.click_act(pages[name])
        if len(sala.hand_options(pages[name])) < len(before):
            played[name].append(action)
            sala.wait_spoken(pages[name], f"You played the {action}\\.")
            sala.wait_spoken(pages[other], f"{name} plays the {action}\\.")

    # Each heard the other's plays, in the polite region and in the game log.
    for name, other in (("Ada", "Bob"), ("Bob", "Ada")):
        for card in played[other]:
            expect(pages[name].locator("#log")).to_contain_text(f"{other} plays the {card}.")
        # And each listbox holds only its own 8 (or fewer) cards.
        mine = {o["id"] for o in sala.hand_options(pages[name])}
        own = frames[name].views()[-1][1]["hand"]
        assert mine == {"card-" + c["code"] for c in own}
    sala.assert_frames_private(frames["Ada"], frames["Bob"])
    sala.assert_frames_private(frames["Bob"], frames["Ada"])
    # The checks do catch a hand: each page holds its own.
    with pytest.raises(AssertionError, match="leaked"):
        sala.assert_frames_private(frames["Ada"], frames["Ada"])
    with pytest.raises(AssertionError):
        sala.assert_hand_hidden(bob, bob)


def tricks_done(page: Page) -> int:
    return page.locator("#last-trick li").count() if page.locator("#last-trick").inner_text() \
        != "No trick finished yet." else 0
