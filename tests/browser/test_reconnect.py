"""Reconnection mid-hand: after a reload, and after the network drops the socket (for long,
and for a moment), the table comes back exactly as it was (same hand, same trick, same turn)
and the game goes on; a drop that is over at once is one sentence."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from tests.browser import sala

QUICK_RETURN = ("The connection dropped for a moment and is back: nothing is lost, "
                "the table is up to date.")


class Network:
    """The page's table socket, passed through a route so that the test can cut it."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.down = False
        self.links: list[tuple[Any, Any]] = []
        self.refused = 0
        page.route_web_socket(re.compile(r"/ws/table/\d+(\?.*)?$"), self._route)

    def _route(self, socket: Any) -> None:
        if self.down:
            self.refused += 1
            socket.close(code=1011, reason="offline")
            return
        self.links.append((socket, socket.connect_to_server()))

    def cut(self) -> None:
        """The network goes away: both ends of every open socket are closed."""
        self.down = True
        self.page.context.set_offline(True)
        for page_side, server_side in self.links:
            server_side.close()
            page_side.close(code=1011, reason="network down")
        self.links.clear()

    def restore(self) -> None:
        self.down = False
        self.page.context.set_offline(False)


def test_the_table_resumes_exactly_after_a_reload_and_after_a_dropped_socket(
        new_page: Callable[..., Page], base_url: str) -> None:
    page = new_page()
    network = Network(page)
    sala.guest(page, base_url, "Rita")
    table = sala.create_table(page, target="")
    sala.click_sit(page, "South")
    sala.click_bots(page, "North", "East", "West")
    sala.click_start(page)

    play_until_mid_hand(page)
    before = sala.snapshot(page)
    assert before["turn"] == sala.YOUR_TURN and before["contract"] != "—"

    # 1. Reload the page: a new socket, a fresh sync, the same table.
    page.reload()
    assert page.url.endswith(f"/table/{table}")
    sala.connected(page)
    sala.wait_until(page, lambda: sala.snapshot(page) == before,
                    message="the same table after the reload")
    sala.wait_spoken(page, re.escape(sala.YOUR_TURN))
    # The keyboard is back where it was (the hand), not at the top of the page.
    expect(page.locator("#hand")).to_be_focused()
    name = sala.keyboard_play(page)
    sala.wait_spoken(page, f"You played the {name}\\.")

    # 2. The network drops the socket: the page says so, retries, and resumes.
    sala.my_turn(page)
    before = sala.snapshot(page)
    assert before["turn"] == sala.YOUR_TURN
    network.cut()
    expect(page.locator("#connection")).to_have_text(
        "⚠ Connection lost: your moves are held. Reconnecting…")
    # Said (after the grace a quick return is given, below), assertively, and only once
    # however many retries fail.
    sala.wait_spoken(page, "Connection lost: your moves are held", region="assertive")
    sala.wait_until(page, lambda: network.refused >= 1, message="a refused reconnection")
    network.restore()
    sala.connected(page)
    sala.wait_spoken(page, "Connected again: the table is up to date.", region="assertive")
    lost = [t for t in sala.spoken(page, "assertive") if "Connection lost" in t]
    assert len(lost) == 1, lost
    sala.wait_until(page, lambda: sala.snapshot(page) == before,
                    message="the same table after the drop")
    name = sala.keyboard_play(page)
    sala.wait_spoken(page, f"You played the {name}\\.")

    # 3. A drop that is over at once (a room process restarted behind the front, a blip):
    # one sentence, when the socket is back, and no "Connection lost" before it.
    sala.my_turn(page)
    assertive_before = len(sala.spoken(page, "assertive"))
    network.cut()
    network.restore()
    sala.connected(page)
    sala.wait_spoken(page, re.escape(QUICK_RETURN), region="assertive")
    page.wait_for_timeout(3500)  # past the grace: nothing more comes about the drop
    assert sala.spoken(page, "assertive")[assertive_before:] == [QUICK_RETURN]
    name = sala.keyboard_play(page)
    sala.wait_spoken(page, f"You played the {name}\\.")
    sala.my_turn(page)


def play_until_mid_hand(page: Page) -> None:
    """Play (with clicks) until it is my turn in the card play, with cards already played."""
    for _ in range(40):
        sala.my_turn(page)
        playing = not sala.bidding(page)
        if playing and len(sala.hand_options(page)) < 8 and (
                page.locator("#trick li").count() > 1 or
                page.locator("#last-trick li").count() > 1):
            return
        sala.click_act(page)
    raise AssertionError("never reached the middle of a hand")
