"""The game log's history by category, from the keyboard, and whole again after a reload.

Comma and period step through one category (all, cards played, bids, tricks, scores, chat),
less-than and greater-than change it saying its name and count, R says its latest message.
Trials found the keys holding one entry after a reload although the log was rebuilt: the
history is now the table's log, which every sync brings whole.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.browser import sala

CATEGORY_SAID = re.compile(r"^(?P<name>[^:]+): (?:(?P<count>\d+) messages?|no messages yet)\.$")
CATEGORIES = ["Cards played", "Bids", "Tricks", "Scores", "Chat", "All"]  # from "All", by >
BID = re.compile(r"\(round \d\)|Trump is|turned card|Everyone passed|no trump|all trump")
CHAT = "Ada: Hello, table!"


def press(page: Page, key: str) -> str:
    """Press ``key``; what the page says of it (assertively)."""
    before = len(sala.spoken(page, "assertive"))
    page.keyboard.press(key)
    said: list[str] = sala.wait_until(page, lambda: sala.spoken(page, "assertive")[before:],
                                      message=f"an answer to {key!r}")
    return said[-1]


def counts(page: Page) -> dict[str, int]:
    """Every category's name and count, pressing > round them all, back to "All"."""
    found: dict[str, int] = {}
    for _ in CATEGORIES:
        said = press(page, ">")
        match = CATEGORY_SAID.match(said)
        assert match, said
        found[match["name"]] = int(match["count"] or 0)
    assert list(found) == CATEGORIES
    return found


def play_until_two_tricks(page: Page) -> None:
    """Click through the bidding and the first tricks, until my turn with two tricks done."""
    for _ in range(40):
        sala.my_turn(page)
        if not sala.bidding(page) and len(sala.hand_options(page)) <= 6:
            return
        sala.click_act(page)
    raise AssertionError("never reached the third trick")


def test_the_history_steps_by_category_and_is_whole_after_a_reload(
        new_page: Callable[..., Page], base_url: str) -> None:
    page = new_page()
    sala.guest(page, base_url, "Ada")
    table = sala.create_table(page, target="")
    sala.click_sit(page, "South")
    sala.click_bots(page, "North", "East", "West")
    page.fill("#table-chat-text", "Hello, table!")
    page.press("#table-chat-text", "Enter")
    expect(page.locator("#table-chat")).to_contain_text(CHAT)
    sala.click_start(page)
    play_until_two_tricks(page)
    page.locator("#hand").focus()

    before = counts(page)
    assert before["Cards played"] >= 8 and before["Tricks"] >= 1 and before["Bids"] >= 1
    assert before["Chat"] == 1 and before["Scores"] == 0  # no hand scored yet
    assert before["All"] > sum(n for name, n in before.items() if name != "All")  # notices too

    # One category: its latest message first, back to its first, and no further.
    assert press(page, ">") == "Cards played: {} messages.".format(before["Cards played"])
    assert press(page, ">") == "Bids: {} message{}.".format(
        before["Bids"], "" if before["Bids"] == 1 else "s")
    bids = [press(page, ",") for _ in range(before["Bids"])]
    if len(bids) > 1:
        assert bids[0].startswith("Latest announcement: ")
    assert bids[-1].startswith("First announcement: ")
    texts = [re.sub(r"^(Latest|First) announcement: ", "", said) for said in bids]
    assert all(BID.search(text) for text in texts), texts
    assert press(page, ",") == bids[-1]  # the first stays the first
    assert press(page, "r") == texts[0]  # R: the category's latest message
    log = page.locator("#log").inner_text()
    assert all(text in log for text in texts)

    # The chat has its own category; back to "All" after it.
    assert press(page, ">").startswith("Tricks: ")
    assert press(page, ">") == "Scores: no messages yet."
    assert press(page, ",") == "Scores: no messages yet."  # nothing to step through
    assert press(page, ">") == "Chat: 1 message."
    assert press(page, ",") == f"First announcement: {CHAT}"
    assert press(page, "<") == "Scores: no messages yet."  # < goes back
    assert press(page, ">") == "Chat: 1 message."
    assert press(page, ">") == "All: {} messages.".format(before["All"])
    assert press(page, "r") == sala.wait_until(
        page, lambda: page.locator("#log li").last.inner_text())  # all: the newest line

    # A reload: the history is the table's log, whole again, category by category.
    page.reload()
    assert page.url.endswith(f"/table/{table}")
    sala.connected(page)
    sala.my_turn(page)
    expect(page.locator("#hand")).to_be_focused()
    assert counts(page) == before
    press(page, ">")
    press(page, ">")
    assert press(page, ",") == bids[0]  # the same latest bid as before the reload
    assert press(page, ">").startswith("Tricks: ")
    assert press(page, ">") == "Scores: no messages yet."
    assert press(page, ">") == "Chat: 1 message."
    assert press(page, "r") == CHAT
