"""Choices that fit in the ear (issue 25, item 3): several options on one key are a numbered
list, and a long prompt is said whole once, then short with B for the full list.

The page is put in front of a scripted socket (see test_table_ux.py)."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.browser import sala
from tests.browser.test_table_ux import scripted_table, view

DECLARE = [{"action": 78, "label": "declare combinations", "declare": True},
           {"action": 87, "label": "bluff an equal sequence", "declare": True}]
LIST = "1, declare combinations; 2, bluff an equal sequence"


def test_d_with_several_declarations_says_a_numbered_list_and_the_number_picks(
        new_page: Callable[..., Page], base_url: str) -> None:
    page, script = scripted_table(new_page, base_url)
    prompt = f"You may also declare: {LIST}. Press D, then the number."
    script.frame("sync", view(choices=DECLARE, prompt=prompt, declare_list=LIST))
    sala.wait_spoken(page, re.escape(prompt))
    page.locator("#hand").focus()

    # D, then Escape: the list, then "nothing declared", and nothing is sent.
    page.keyboard.press("d")
    sala.wait_spoken(page, re.escape(f"Declare: {LIST}. Press the number, or Escape to cancel."),
                     "assertive")
    page.keyboard.press("Escape")
    sala.wait_spoken(page, "^Nothing declared\\.$", "assertive")
    assert script.acts() == []

    # D, then 2: the second option.
    page.keyboard.press("d")
    page.keyboard.press("2")
    sala.wait_until(page, lambda: script.acts(), message="the declaration")
    assert script.acts() == [{"a": 87}]

    # The menu took one key only: the next 2 is not a declaration.
    page.keyboard.press("2")
    page.wait_for_timeout(200)
    assert script.acts() == [{"a": 87}]


def test_a_long_prompt_is_said_whole_once_then_short_and_b_says_it_whole(
        new_page: Callable[..., Page], base_url: str) -> None:
    page, script = scripted_table(new_page, base_url)
    full = ("Your turn to bid. Options: pass, aspetto, hearts alone, diamonds alone, "
            "or a contract from 82 to 802: type it in the bid box, for example 82 hearts, "
            "or choose a level and a suit.")
    short = "Your turn to bid, 82 to 802. B: every option."
    bidding = {"phase": "bidding", "contract": "", "prompt": full, "prompt_short": short,
               "prompt_kind": "bid", "choices": [{"action": 64, "label": "pass"}]}
    script.frame("sync", view(step=10, **bidding))
    sala.wait_spoken(page, re.escape(full))

    said = len(sala.spoken(page))
    script.frame("update", view(step=14, **bidding), ["West passes."])
    sala.wait_until(page, lambda: any(short in t for t in sala.spoken(page)[said:]),
                    message="the short prompt at the next turn")
    assert not any(full in t for t in sala.spoken(page)[said:])

    # B: the whole list, at any time.
    page.locator("#hand").focus()
    page.keyboard.press("b")
    sala.wait_spoken(page, re.escape(full), "assertive")

    # A reload does not say the long one again: the table's page remembers it was said.
    script.socket = None
    page.reload()
    sala.wait_until(page, lambda: script.socket is not None, message="the socket again")
    said = len(sala.spoken(page))
    script.frame("sync", view(step=16, **bidding))
    sala.wait_until(page, lambda: any(short in t for t in sala.spoken(page)[said:]),
                    message="the short prompt after a reload")


def test_brief_texts_said_together_are_separate_sentences(
        new_page: Callable[..., Page], base_url: str) -> None:
    page, script = scripted_table(new_page, base_url)
    script.frame("sync", view(turn=0, turn_name="North bot"))
    sala.connected(page)
    said = len(sala.spoken(page))
    script.frame("update", view(turn=1, turn_name="East bot", step=12),
                 ["West: 7 hearts", "North: king hearts"])
    # (Texts given within 30 ms are said together: the sync's may come in the same one.)
    sala.wait_until(page, lambda: any("West: 7 hearts. North: king hearts." in t
                                      for t in sala.spoken(page)[said:]),
                    message="a full stop between the brief texts")


def test_a_three_seat_table_waits_for_three_players(
        new_page: Callable[..., Page], base_url: str) -> None:
    page, script = scripted_table(new_page, base_url)
    seats = [{"name": "", "kind": "empty", "you": False, "standin": False, "away": False}] * 3
    script.frame("sync", view(started=False, seats=seats, seat=None, hand=[], turn=None))
    sala.wait_spoken(page, "^Waiting for 3 players\\. Press Enter to start")


def test_escape_leaves_the_bid_box_for_the_hand_and_f1_opens_at_the_top(
        new_page: Callable[..., Page], base_url: str) -> None:
    page, script = scripted_table(new_page, base_url)
    script.frame("sync", view(phase="bidding", contract="", prompt="Your turn to bid.",
                              choices=[{"action": 64, "label": "pass"},
                                       {"action": 65, "label": "take"}]))
    sala.wait_spoken(page, "Your turn to bid")
    page.locator("#hand").focus()
    page.keyboard.press("g")  # the bid box
    expect(page.locator("#bid-text")).to_be_focused()
    page.keyboard.type("pas")
    page.keyboard.press("Escape")
    expect(page.locator("#hand")).to_be_focused()
    assert page.locator("#bid-text").input_value() == "pas"  # kept, nothing sent
    assert script.acts() == []

    page.keyboard.press("F1")
    expect(page.locator("#keys-help")).to_be_visible()
    expect(page.locator("#keys-title")).to_be_focused()
    assert page.evaluate("() => document.getElementById('keys-help').scrollTop") == 0
