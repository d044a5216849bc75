"""A spectator (a visitor who does not sit) follows the game but never sees a hand."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.browser import sala


def test_a_spectator_hears_the_game_and_sees_no_hand(
        new_page: Callable[..., Page], base_url: str) -> None:
    player = new_page()
    sala.guest(player, base_url, "Zoe")
    table = sala.create_table(player, target="")
    sala.click_sit(player, "South")
    sala.click_bots(player, "North", "East", "West")

    watcher = new_page()  # not signed in at all
    frames = sala.Frames(watcher)
    watcher.goto(f"{base_url}/table/{table}")
    sala.connected(watcher)
    expect(watcher.get_by_role("button", name="Sit South")).to_have_count(0)
    sala.click_start(player)
    sala.wait_spoken(watcher, "The game starts")

    plays = 0
    while plays < 3:
        sala.my_turn(player)
        # The player's hand is still while it is their turn: compare both pages now.
        sala.assert_hand_hidden(player, watcher)
        bidding = sala.bidding(player)
        if not bidding:
            expect(watcher.locator("#trick li")).to_have_text(
                player.locator("#trick li").all_inner_texts())
        name = sala.click_act(player)
        if not bidding:
            plays += 1
            sala.wait_spoken(watcher, f"Zoe plays the {name}\\.")
            expect(watcher.locator("#log")).to_contain_text(f"Zoe plays the {name}.")

    # It hears the bots too, and sees the finished trick.
    # A bot is named by its seat once introduced (issue 21: short names in sentences).
    sala.wait_spoken(watcher, r"(North|East|West) plays the ")
    sala.wait_spoken(watcher, r"wins the trick")
    expect(watcher.locator("#last-trick li")).to_have_count(4)
    # Its hand is the empty listbox; H says so.
    options = watcher.locator("#hand [role=option]")
    expect(options).to_have_count(1)
    expect(options).to_have_text(sala.NO_CARDS)
    expect(options).to_have_attribute("aria-disabled", "true")
    watcher.locator("#hand").focus()
    watcher.keyboard.press("h")
    sala.wait_spoken(watcher, sala.NO_CARDS, region="assertive")

    # No frame it received named a card before it was on the table (or turned).
    seen: set[str] = set()
    checked = 0
    for raw, view in frames.views():
        assert view["seat"] is None and view["hand"] == [] and view["choices"] == []
        seen |= sala.public_codes(view)
        unknown = sala.codes_in(raw) - seen
        assert not unknown, f"version {view['version']}: {unknown} shown to a spectator"
        checked += 1
    assert checked > 10
