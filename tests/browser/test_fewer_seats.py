"""The table page with three and with two seats (valdostana3, valdostana2; see
docs/rules-2-3-players.md).

Seed 000: "è possibile giocare anche con numero ridotto a tre o addirittura a due".  The page
draws as many seats as the table has, the trick with who played what, one score column per
player (no partnerships), and its information keys answer without a partner.  The player plays
by keyboard only (a bid or the cut: Tab to the first choice, Enter; a card: arrows, Enter).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser import sala
from tests.browser.test_axe import Audit

# Set to a folder to refresh the docs' picture (docs/img/table-3-players.png).
SHOTS = os.environ.get("BELOTE_DOCS_SHOTS")
PLACES = ("top", "left", "right", "bottom")


def start_table(page: Page, base_url: str, preset: str, me: str, bots: tuple[str, ...]) -> int:
    sala.guest(page, base_url, "Tre")
    page.select_option("#preset", preset)
    table = sala.create_table(page, target="2000")
    seats = 1 + len(bots)
    # A sit control for each seat the table has, and no more (then three bot levels each).
    expect(page.locator("#seats li")).to_have_count(seats)
    expect(page.get_by_role("button", name=re.compile("^Sit "))).to_have_count(seats)
    sala.click_sit(page, me)
    expect(page.get_by_role("button", name=re.compile("^Add a bot"))).to_have_count(3 * len(bots))
    sala.click_bots(page, *bots)
    sala.click_start(page)
    return table


def felt(page: Page) -> dict[str, str]:
    """The drawn table: each place's name tag and the card played from it (face text)."""
    texts: dict[str, str] = page.evaluate("""(places) => Object.fromEntries(places.flatMap((p) => [
        [p, document.querySelector('#felt .spot-' + p).textContent],
        ['played-' + p, document.querySelector('#felt .played-' + p).textContent]]))""",
                                          list(PLACES))
    return texts


def keyboard_first_choice(page: Page) -> None:
    """From the hand, Tab to the first choice (a pass, or no cut) and press Enter."""
    sala.focus_hand(page)
    labels = page.locator("#choice-buttons button").all_inner_texts()
    assert labels, "no choice offered"
    page.keyboard.press("Tab")
    assert sala.active(page)["name"] == labels[0], sala.active(page)
    said = page.locator("#log li").count()
    page.keyboard.press("Enter")
    # Heard in the log (the choices may come straight back: a redeal after every pass).
    sala.wait_until(page, lambda: page.locator("#log li").count() > said, message="my choice")


def tricks_won(page: Page) -> int:
    count: int = page.evaluate("() => [...document.querySelectorAll('#log li')].filter("
                               "(li) => /wins? the trick/.test(li.textContent)).length")
    return count


def hand_scored(page: Page) -> bool:
    return page.locator("#score-rows td").count() > 1


WAIT_MOVE = """([yours, over]) =>
    [yours, over].includes(document.getElementById('turn').textContent)
    || !document.getElementById('next-hand').hidden"""


def play_by_keyboard(page: Page, tricks: int) -> list[str]:
    """Pass every bid and play cards by keyboard until ``tricks`` tricks have been won, or
    a hand was scored (the pause before the next hand)."""
    played: list[str] = []
    for _ in range(200):
        if tricks_won(page) >= tricks or hand_scored(page):
            return played
        page.wait_for_function(WAIT_MOVE, arg=[sala.YOUR_TURN, sala.MATCH_OVER], timeout=60_000)
        if not page.locator("#next-hand").is_hidden() or hand_scored(page):
            return played
        if page.locator("#turn").inner_text() == sala.MATCH_OVER:
            return played
        if tricks_won(page) >= tricks:
            return played
        if sala.bidding(page):
            keyboard_first_choice(page)
        else:
            check_trick(page)
            played.append(sala.keyboard_play(page))
    raise AssertionError(f"never reached {tricks} tricks: {played}")


def check_trick(page: Page) -> None:
    """On my turn the trick list and the drawing agree: each card with its player, drawn
    only in front of a seat the table has, and fewer cards than seats."""
    items = page.locator("#trick li").all_inner_texts()
    cards = [text for text in items if ", " in text]
    drawing = felt(page)
    seated = [p for p in PLACES if drawing[p]]
    assert len(cards) < len(seated), items
    drawn = [p for p in PLACES if drawing["played-" + p]]
    assert len(drawn) == len(cards) and set(drawn) <= set(seated), (drawn, seated, items)


def test_a_three_player_table_shows_three_seats_and_plays_by_keyboard(
        new_page: Callable[..., Page], base_url: str, tmp_path: Path) -> None:
    page = new_page()
    page.set_viewport_size({"width": 1280, "height": 800})
    start_table(page, base_url, "valdostana3", "South", ("North", "East"))

    # Three seats listed, no West; no sit or bot control left (the table is full and started).
    seats = page.locator("#seats li").all_inner_texts()
    assert len(seats) == 3, seats
    assert [s.split(":")[0] for s in seats] == ["North", "East", "South"]
    assert "South: Tre (you" in seats[2]
    expect(page.locator("#seats button", has_text=re.compile("Sit|Add a bot"))).to_have_count(0)
    drawn = felt(page)
    assert drawn["bottom"].startswith("Tre") and drawn["top"] == ""
    assert drawn["left"].startswith("North bot") and drawn["right"].startswith("East bot")

    sala.my_turn(page)
    audit = Audit()
    audit(page, "three-player table, my first turn")
    played = play_by_keyboard(page, tricks=3)
    assert played, "no card was played by keyboard"
    sala.wait_spoken(page, re.escape(sala.YOUR_TURN))

    # Scores: one per player, named by the player.
    scores = page.locator("#scores").inner_text()
    for name in ("North bot (normal)", "East bot (normal)", "Tre"):
        assert name in scores, scores

    # The information keys, answered without a partner.
    page.locator("#hand").focus()
    for key, pattern in (("y", r"You are South and play on your own.*Opponents: North bot"),
                         ("o", r"holds the contract: (?!.* for )"),
                         ("p", r"This hand: North bot \(normal\) \d+, East bot \(normal\) \d+, "
                               r"Tre \d+\. Match: ")):
        page.keyboard.press(key)
        sala.wait_spoken(page, pattern, region="assertive")

    # The score history has one column per player, twice (points, totals).
    heads = page.locator("#score-history thead th").all_inner_texts()
    assert heads == ["Hand", "North bot (normal)", "East bot (normal)", "Tre",
                     "Total North bot (normal)", "Total East bot (normal)", "Total Tre"], heads
    audit(page, "three-player table mid-hand")

    shot = (Path(SHOTS) if SHOTS else tmp_path) / "table-3-players.png"
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    # To the end of the hand: its row has a value in each of the seven columns.
    play_by_keyboard(page, tricks=99)
    expect(page.locator("#score-rows tr").first.locator("td")).to_have_count(7, timeout=60_000)
    audit(page, "three-player table, a hand scored")
    audit.verdict()


def test_a_two_player_table_starts_and_plays_a_trick(
        new_page: Callable[..., Page], base_url: str) -> None:
    page = new_page()
    start_table(page, base_url, "valdostana2", "North", ("East",))
    seats = page.locator("#seats li").all_inner_texts()
    assert [s.split(":")[0] for s in seats] == ["North", "East"], seats
    drawn = felt(page)
    assert drawn["bottom"].startswith("Tre") and drawn["top"].startswith("East bot")
    assert drawn["left"] == drawn["right"] == ""
    play_by_keyboard(page, tricks=1)
    expect(page.locator("#last-trick li")).to_have_count(2)
    heads = page.locator("#score-history thead th").all_inner_texts()
    assert heads == ["Hand", "Tre", "East bot (normal)", "Total Tre", "Total East bot (normal)"]
