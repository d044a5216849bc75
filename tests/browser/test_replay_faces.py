"""The replay board in real Chromium (issue 25): each step the keys reach is drawn for the
eyes as card faces (the hands around the felt, the trick at the seats that played it, the
turned card during the auction), the same cards as the step's lines say; the drawing is
aria-hidden, axe finds nothing on the page in the light and contrast themes, the suit
colours follow the deck setting, and a phone (390 px) or a 200 % zoom never scrolls sideways.

``BELOTE_DOCS_SHOTS=docs/img`` refreshes the docs' picture (docs/img/replay-board.png).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from belote.i18n import translate
from belote.i18n.names import card_name, cards_text
from belote.notation import parse_card
from tests.browser import sala
from tests.browser.test_axe import Audit

SHOTS = os.environ.get("BELOTE_DOCS_SHOTS")
SYMBOLS = {"H": "♥", "D": "♦", "C": "♣", "S": "♠"}
CARD = re.compile(r"\b(?:seven|eight|nine|ten|jack|queen|king|ace) of "
                  r"(?:hearts|diamonds|clubs|spades)\b")
# "Hand 1, trick 1, card 2 of 4: Cleo plays the nine of hearts."
PLAYS = re.compile(r": (.+?) plays the (\w+ of \w+)")

BOARD_JS = """() => {
  const felt = document.getElementById("replay-felt");
  const faces = (root) => [...root.querySelectorAll(".face")].map((f) => ({
    code: f.dataset.code, text: f.innerText, colour: getComputedStyle(f).color }));
  return {
    hidden: felt.getAttribute("aria-hidden"),
    lines: [...document.querySelectorAll("#replay-hands li")].map((li) => li.textContent),
    table: document.getElementById("replay-table").textContent,
    said: document.getElementById("replay-said").textContent,
    hands: [...felt.querySelectorAll(".rhand")].filter((h) => h.childElementCount).map((h) => ({
      place: h.className.match(/rhand-(\\w+)/)[1], who: h.querySelector(".who").textContent,
      faces: faces(h) })),
    played: ["top", "left", "right", "bottom"].flatMap((p) =>
      faces(felt.querySelector(".played-" + p)).map((f) => Object.assign(f, { place: p }))),
    turned: faces(felt.querySelector(".felt-note")),
  };
}"""
NO_SIDEWAYS_JS = """() => {
  const felt = document.getElementById("replay-felt").getBoundingClientRect();
  return { scroll: document.documentElement.scrollWidth, width: window.innerWidth,
           felt: felt.right };
}"""


def names(codes: list[str]) -> str:
    return cards_text([parse_card(code) for code in codes], "en")


def check_board(page: Page) -> dict[str, Any]:
    """The drawing shows the cards the step's lines name, each face its rank and symbol."""
    board: dict[str, Any] = page.evaluate(BOARD_JS)
    assert board["hidden"] == "true"  # for the eyes only: the lines say it all
    faces = [f for h in board["hands"] for f in h["faces"]] + board["played"] + board["turned"]
    for face in faces:  # never colour alone: rank and suit symbol on every face
        assert re.sub(r"\s", "", face["text"]) == face["code"][:-1] + SYMBOLS[face["code"][-1]]
    # each seat's hand drawn is that seat's line, card for card
    drawn = [f"{h['who']}: " + (names([f["code"] for f in h["faces"]]) if h["faces"]
                                else translate("en", "replays.no_cards"))
             for h in board["hands"]]
    assert sorted(drawn) == sorted(board["lines"]), (drawn, board["lines"])
    # the cards on the felt's centre are those of the table line
    on_table = sorted(card_name(parse_card(f["code"]), "en") for f in board["played"])
    assert on_table == sorted(CARD.findall(board["table"])), (on_table, board["table"])
    # the card just played lies before the hand of the seat that played it
    said = PLAYS.search(board["said"])
    if said and board["played"]:
        player, card = said.groups()
        face = next(f for f in board["played"] if card_name(parse_card(f["code"]), "en") == card)
        assert next(h["who"] for h in board["hands"] if h["place"] == face["place"]) == player
    # the turned card, said at the deal, lies in the centre during the auction
    if "Turned card: " in board["said"]:
        assert len(board["turned"]) == 1
        assert f"Turned card: {card_name(parse_card(board['turned'][0]['code']), 'en')}" \
            in board["said"]
    return board


def step(page: Page, key: str) -> dict[str, Any]:
    before = page.locator("#replay-position").text_content()
    page.keyboard.press(key)
    page.wait_for_function("(p) => document.getElementById('replay-position').textContent !== p",
                           arg=before)
    return check_board(page)


def suit_colours(board: dict[str, Any]) -> dict[str, str]:
    faces = [f for h in board["hands"] for f in h["faces"]] + board["played"]
    return {f["code"][-1]: f["colour"] for f in faces}


def no_sideways_scroll(page: Page, width: int, height: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    box = page.evaluate(NO_SIDEWAYS_JS)
    assert box["scroll"] <= box["width"] and box["felt"] <= box["width"], (width, box)


def test_the_replay_board_draws_each_step_as_card_faces(
        new_page: Callable[..., Page], base_url: str, tmp_path: Path) -> None:
    audit = Audit()
    page = new_page()
    sala.guest(page, base_url, "Faces")
    table_id = sala.create_table(page, target="1")
    sala.click_sit(page, "South")
    sala.click_bots(page, "West", "North", "East")
    sala.click_start(page)
    sala.play_match(page)
    page.goto(f"{base_url}/replay/{table_id}", timeout=60_000)  # heavy work: may start its process
    expect(page.locator("#replay-position")).to_contain_text("Hand 1, the deal")
    deal = check_board(page)
    assert len(deal["hands"]) == 4
    # seen from South, as a spectator sees the table: the player sat South is at the bottom
    assert next(h["who"] for h in deal["hands"] if h["place"] == "bottom") == "Faces"

    sala.tab_to(page, lambda el: el["id"] == "replay-board")
    step(page, "ArrowRight")  # the first call of the auction
    first = step(page, "ArrowDown")  # the first card of the first trick
    assert len(first["played"]) == 1
    second = step(page, "ArrowRight")
    assert len(second["played"]) == 2
    third = step(page, "ArrowRight")
    assert len(third["played"]) == 3
    audit(page, "replay board, a trick on the table")
    shot = (Path(SHOTS) if SHOTS else tmp_path) / "replay-board.png"
    page.locator("#replay-board").screenshot(path=str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # two colours: red hearts and diamonds, black clubs and spades (with their symbols)
    colours = suit_colours(third)
    assert set(colours) == set(SYMBOLS), colours  # 29 cards in hand: every suit is there
    assert colours["H"] == colours["D"] != colours["C"] == colours["S"], colours
    step(page, "ArrowRight")  # the fourth card closes the trick: the table line is empty
    step(page, "ArrowDown")
    last = step(page, "End")
    assert all(not h["faces"] for h in last["hands"]) and not last["played"]
    step(page, "Home")

    # A phone and a 200 % zoom (1280 px at 200 %): the hands wrap, nothing scrolls sideways.
    for width, height in ((390, 844), (640, 450)):
        no_sideways_scroll(page, width, height)
        step(page, "ArrowRight")  # every hand whole after the auction
        no_sideways_scroll(page, width, height)
        step(page, "ArrowLeft")
    page.set_viewport_size({"width": 1280, "height": 900})

    # The high-contrast theme with the four-colour deck: each suit its own colour.
    sala.open_table_settings(page)
    page.select_option("#pref-theme", "contrast")
    page.select_option("#pref-deck", "four")
    with page.expect_navigation():
        page.locator("#pref-save").click()
    expect(page.locator("body")).to_have_class(re.compile(r"\btheme-contrast\b.*\bdeck-four\b"))
    page.locator("#replay-board").focus()
    board = check_board(page)
    step(page, "ArrowRight")
    board = step(page, "ArrowDown")
    colours = suit_colours(board)
    assert len(set(colours.values())) == len(colours), colours
    audit(page, "replay board, contrast theme, four-colour deck")
    no_sideways_scroll(page, 390, 844)
    audit.verdict()
