"""Tournaments in a real browser: the organiser draws a round and a table's scorer enters a
hand by keyboard alone; every tournament page has no axe violation."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.browser import sala
from tests.browser.test_axe import Audit


def register(page: Page, base: str, name: str) -> None:
    page.goto(base + "/register")
    page.fill("#name", name)
    page.fill("#password", "settebello-lungo")
    page.press("#password", "Enter")
    expect(page.get_by_text(f"Signed in as {name}")).to_be_visible()


# A draw runs in the room's heavy-work process, niced below the tables, and the room's first
# draw also starts that process (an interpreter and its imports): on a loaded 2-core machine
# that took over the 15 s every other wait allows (the failure: the draw's navigation still
# unfinished), so a draw's page is waited for longer.
DRAW_TIMEOUT = 60_000


def round_drawn(page: Page, number: int = 1) -> None:
    """Round ``number``'s heading, once the draw asked for has answered (DRAW_TIMEOUT)."""
    expect(page.get_by_role("heading", name=f"Round {number}")).to_be_visible(
        timeout=DRAW_TIMEOUT)


def press_button(page: Page, name: str) -> None:
    """Tab to the button named ``name`` and press Enter: the keyboard alone (a console with
    its entrants' and games' forms has well over 80 tab stops)."""
    sala.tab_to_name(page, name, limit=250)
    page.keyboard.press("Enter")


def type_answer(page: Page, text: str) -> None:
    """The focus is on the answer (autofocus); type it and press Enter."""
    expect(page.locator("#answer")).to_be_focused()
    page.keyboard.press("Control+A")
    page.keyboard.type(text)
    # Every answer is a form post: wait for the new page, or the next answer's keys could
    # land on the old one (its #answer is focused too) while the post is on its way.
    with page.expect_navigation():
        page.keyboard.press("Enter")
    page.wait_for_load_state()


def register_neighbourhoods(org: Page, tag: str, count: int) -> None:
    """Register ``count`` neighbourhoods of two pairs with the console's form, by keyboard."""
    for n in range(count):
        org.fill("#r-club", f"Borgo {n}")
        org.fill("#r-a_p1", f"Anna{tag}{n}")
        org.fill("#r-a_p2", f"Bruno{tag}{n}")
        org.fill("#r-b_p1", f"Carla{tag}{n}")
        org.fill("#r-b_p2", f"Dino{tag}{n}")
        org.press("#r-b_p2", "Enter")
        expect(org.get_by_role("status").first).to_have_text("Done.")


def drawn_tournament(org: Page, base: str, name: str, tag: str, count: int = 2) -> int:
    """Create a Pinasca tournament called ``name``, register ``count`` neighbourhoods and
    draw round 1, all from the console by keyboard; its id."""
    org.goto(base + "/tournaments")
    org.fill("#t-name", name)
    org.press("#t-name", "Enter")
    org.wait_for_url(re.compile(r"/tournaments/\d+$"))
    tid = int(org.url.rsplit("/", 1)[1])
    register_neighbourhoods(org, tag, count)
    press_button(org, "Draw round 1")
    round_drawn(org)
    return tid


def test_organiser_draws_and_scorer_enters_a_hand_by_keyboard(
        new_page: Callable[..., Page], base_url: str) -> None:
    audit = Audit()
    tag = secrets.token_hex(3)
    org = new_page()
    register(org, base_url, f"Org{tag}")
    org.goto(base_url + "/tournaments")
    audit(org, "tournament list with the creation form")
    org.fill("#t-name", f"Pinasca {tag}")
    org.press("#t-name", "Enter")
    org.wait_for_url(re.compile(r"/tournaments/\d+$"))
    tid = int(org.url.rsplit("/", 1)[1])
    register_neighbourhoods(org, tag, 3)
    audit(org, "console, registration")

    press_button(org, "Draw round 1")
    round_drawn(org)
    expect(org.get_by_text("3 tables still playing.")).to_be_visible()
    audit(org, "console, a round drawn")

    # The table cards: each seat's code and QR code, for the organiser to print.
    org.goto(f"{base_url}/tournaments/{tid}/cards")
    expect(org.locator(".slip")).to_have_count(12)
    audit(org, "table cards with the seat codes")
    code = org.locator("#slip-1-0-0 .seat-code").inner_text()

    # The scorer of table 1 scans their slip's QR code (the code page, the code filled in)
    # and, signed in under any name, enters one hand by keyboard alone.
    scorer = new_page()
    register(scorer, base_url, f"Scorer{tag}")
    scorer.goto(f"{base_url}/tournaments/{tid}/games/1/entry")
    expect(scorer.locator("#answer")).to_have_count(0)  # a name alone does not score
    # The QR code carries the code in the fragment (never sent: no log, no Referer); the
    # page's script fills the field from it and drops it from the address.
    scorer.goto(f"{base_url}/tournaments/{tid}/games/1/code#c={code}")
    expect(scorer.locator("#code")).to_have_value(code)
    assert "#c=" not in scorer.url
    audit(scorer, "seat code page")
    press_button(scorer, "Use this code")
    expect(scorer.get_by_role("status").first).to_contain_text("Code accepted")
    audit(scorer, "score entry, first question")
    type_answer(scorer, "xyz")  # a wrong team: refused, said, nothing changes
    expect(scorer.get_by_role("alert")).to_be_visible()
    audit(scorer, "score entry, a refusal")
    for answer in ("ns", "h", "100"):
        type_answer(scorer, answer)
    expect(scorer.locator("#answer")).to_have_value("62")  # derived from 162 - 100
    for answer in ("62", "", "", "", ""):
        type_answer(scorer, answer)
    expect(scorer.locator("#totals")).to_have_text(  # not counted before E-W confirm
        "Match, confirmed hands only: N-S 0, E-W 0. With the hands not yet confirmed: "
        "N-S 100, E-W 62.")
    audit(scorer, "score entry, a hand entered")

    org.goto(f"{base_url}/tournaments/{tid}/standings")
    audit(org, "standings")
    org.goto(f"{base_url}/tournaments/{tid}/standings?projector=1")
    audit(org, "standings, projector")
    org.goto(f"{base_url}/tournaments/{tid}/entrants/1")
    audit(org, "an entrant's history")
    org.goto(f"{base_url}/tournaments/{tid}/sheets")
    audit(org, "printable score sheets")
    audit.verdict()


def test_organiser_substitutes_a_player_from_the_console_by_keyboard(
        new_page: Callable[..., Page], base_url: str) -> None:
    """Seed 001: "Dopo ogni partita si possono sostituire a piacere uno o entrambi i
    componenti della squadra": the console's line-up form of a game, by keyboard."""
    tag = secrets.token_hex(3)
    org = new_page()
    register(org, base_url, f"Org{tag}")
    org.goto(base_url + "/tournaments")
    org.fill("#t-name", f"Sostituzioni {tag}")
    org.press("#t-name", "Enter")
    org.wait_for_url(re.compile(r"/tournaments/\d+$"))
    register_neighbourhoods(org, tag, 2)
    press_button(org, "Draw round 1")
    round_drawn(org)
    field = org.locator("#lu-1-a2")
    field.focus()
    org.keyboard.press("Control+A")
    org.keyboard.type(f"Zeno{tag}")
    org.keyboard.press("Enter")
    expect(org.get_by_role("status").first).to_have_text("Done.")
    expect(org.locator("#lu-1-a2")).to_have_value(f"Zeno{tag}")
    expect(org.locator(".log")).to_contain_text(f"Zeno{tag}")  # kept in the audit log
    audit = Audit()
    audit(org, "console, a line-up changed")
    audit.verdict()
