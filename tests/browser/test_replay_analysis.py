"""The stepping replay in real Chromium (issue 11, items 8 and 9): the end of the match leads
to it, the keyboard alone steps through the match with each step said politely, A asks for
the expert's analysis of the card just played, the record downloads as JSON, and a match
still being played has no replay at all (hidden information)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser import sala
from tests.browser.test_axe import Audit

UNFINISHED = "This match is not over: its replay, record and analysis open when it ends."


def test_a_finished_match_is_stepped_through_and_analysed_by_keyboard(
        new_page: Callable[..., Page], base_url: str, tmp_path: Path) -> None:
    audit = Audit()
    page = new_page()
    sala.guest(page, base_url, "Replayer")
    table_id = sala.create_table(page, target="1")
    sala.click_sit(page, "South")
    sala.click_bots(page, "West", "North", "East")
    sala.click_start(page)

    # While the match is played, its replay, record and analysis are refused outright.
    visitor = new_page()
    response = visitor.goto(base_url + f"/replay/{table_id}")
    assert response is not None and response.status == 409
    expect(visitor.locator("main")).to_contain_text(UNFINISHED)
    assert visitor.locator("#replay-board").count() == 0
    for step in range(0, 40, 3):  # the JSON answers, fetched as the page's script would
        for path in (f"/replay/{table_id}.json", f"/replay/{table_id}/analysis?step={step}"):
            answer = visitor.request.get(base_url + path)
            assert answer.status == 409 and answer.json() == {"error": UNFINISHED}, path

    sala.play_match(page)
    # The end screen focuses its replay link; Enter follows it.
    expect(page.locator("#replay-link")).to_be_focused()
    page.keyboard.press("Enter")
    # the replay is heavy work: the room's first may start its niced process (60 s)
    page.wait_for_url(re.compile(rf"/replay/{table_id}$"), timeout=60_000)
    expect(page.locator("#replay-position")).to_contain_text("Hand 1, the deal")
    audit(page, "replay, first step")

    sala.tab_to(page, lambda el: el["id"] == "replay-board")
    page.keyboard.press("ArrowLeft")
    sala.wait_spoken(page, r"^This is the first step\.$")
    page.keyboard.press("ArrowRight")
    sala.wait_spoken(page, r"^Hand \d+, bidding, call 1: ")
    page.keyboard.press("ArrowDown")  # past the auction: the first trick
    first = sala.wait_spoken(page, r"^Hand \d+, trick 1, card 1 of 4: .* plays the ")
    page.keyboard.press("ArrowRight")
    second = sala.wait_spoken(page, r"^Hand \d+, trick 1, card 2 of 4: .* plays the ")
    expect(page.locator("#replay-position")).to_contain_text("trick 1, card 2 of 4")
    # all four hands are shown: the match is over, nothing is hidden any more
    expect(page.locator("#replay-hands li")).to_have_count(4)

    page.keyboard.press("a")
    said = sala.wait_spoken(page, r"over \d+ worlds", timeout=60_000)
    assert re.search(r"played the .*(expert's choice too|the expert would have played the "
                     r".*It cost [\d.]+ points on average)", said), said
    expect(page.locator("#analysis-text")).to_have_text(said)
    assert page.locator("#analysis-values li").count() >= 1
    expect(page.locator("#replay-board")).to_be_focused()
    audit(page, "replay, analysis shown")

    page.keyboard.press("ArrowLeft")
    sala.wait_spoken(page, "^" + re.escape(first) + "$")
    expect(page.locator("#analysis-text")).to_have_text("")
    page.keyboard.press("r")
    page.wait_for_function("() => window.__spoken.polite.filter("
                           "(t) => t.includes('card 1 of 4')).length >= 2")
    page.keyboard.press("ArrowUp")  # the start of this trick is here: the previous one
    page.keyboard.press("Home")
    page.keyboard.press("a")  # not a card: said so
    sala.wait_spoken(page, r"^Nothing to analyse here: this step is not a card played\.$")
    page.keyboard.press("End")
    sala.wait_spoken(page, r"^Hand \d+(, redeal \d+)?, trick 8, card 4 of 4: ")
    page.keyboard.press("PageDown")
    sala.wait_spoken(page, r"^This is the last step\.$")
    assert second != first

    # The record downloads as a JSON file, by keyboard too.
    sala.tab_to(page, lambda el: el["id"] == "replay-download")
    with page.expect_download() as info:
        page.keyboard.press("Enter")
    download = info.value
    assert download.suggested_filename == f"belote-table-{table_id}.json"
    target = tmp_path / "record.json"
    download.save_as(target)
    record = json.loads(target.read_text(encoding="utf-8"))
    assert record["format"] == "belote-record" and record["players"][2] == "Replayer"
    assert record["result"]["winner"] in (0, 1)
    audit.verdict()
