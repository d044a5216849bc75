"""Issue 24, item 11 in a real browser: every state of the organiser's and the scorer's pages
that the other tournament tests leave out, reached by keyboard alone, with axe on each: a
disputed hand and its resolution, final totals typed (one refused as implausible), wrong
codes on the short form and the code page, a best-of-3 match's entry, the check-in, a
reserve promoted and a late entry, the undo of a round close, the finished tournament
(console, standings, projector, prizes with a category), a season with a ranking and a
merge, and the consoles of the mêlée and the double elimination with a round drawn; on a
phone, the heading before the folded preferences.

``BELOTE_STATE_SHOTS=<folder>`` keeps the dispute's screenshots (1280x800 and 390x844)."""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser import sala
from tests.browser.live import LiveServer
from tests.browser.test_axe import Audit
from tests.browser.test_tournament import (
    DRAW_TIMEOUT,
    drawn_tournament,
    register,
    register_neighbourhoods,
    round_drawn,
    type_answer,
)
from tests.browser.test_tournament_console import form_post

SHOTS = os.environ.get("BELOTE_STATE_SHOTS")
SIZES = ((1280, 800), (390, 844))  # a laptop, a phone


@pytest.fixture(scope="module")
def live_server() -> Iterator[LiveServer]:
    """This module's own room: its organisers' accounts, with the rest of the package's,
    are more than one address may sign up in an hour (``signups_per_hour``)."""
    with LiveServer(signups_per_hour=1000) as server:
        yield server


@pytest.fixture(scope="module")
def base_url(live_server: LiveServer) -> str:
    return live_server.url


def shots(page: Page, tmp_path: Path, name: str) -> None:
    """The page at a laptop's and a phone's size (the whole page), then back."""
    folder = Path(SHOTS) if SHOTS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(folder / f"{name}-{width}.png"), full_page=True)
    if size:
        page.set_viewport_size(size)


def fits_a_phone(page: Page) -> None:
    """At a phone's width nothing runs off the side of the page."""
    size = page.viewport_size
    width, height = SIZES[1]
    page.set_viewport_size({"width": width, "height": height})
    widths = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    if size:
        page.set_viewport_size(size)
    assert widths[0] <= widths[1], widths


def tab_into(page: Page, field: str, limit: int = 250) -> None:
    """Tab to the field whose id is ``field``."""
    sala.tab_to(page, lambda el: el["id"] == field, limit=limit)


def posted(page: Page, timeout: float | None = None) -> None:
    """Press Enter on the focused element and wait for the page the form's post leads to
    (the next keys would otherwise land on the old page)."""
    with page.expect_navigation(timeout=timeout):
        page.keyboard.press("Enter")
    page.wait_for_load_state()


def press_and_wait(page: Page, name: str) -> None:
    """Tab to the button named ``name``, press Enter, wait for the next page (a draw's
    longer: DRAW_TIMEOUT)."""
    sala.tab_to_name(page, name, limit=250)
    posted(page, DRAW_TIMEOUT if name.startswith("Draw round") else None)


def side_codes(org: Page, base: str, tid: int, game: int = 1) -> tuple[str, str]:
    """The table card's codes of N-S and E-W for ``game`` (organisers' page)."""
    org.goto(f"{base}/tournaments/{tid}/table-cards")
    return (org.locator(f"#half-{game}-0 .side-code").inner_text(),
            org.locator(f"#half-{game}-1 .side-code").inner_text())


def scorer_with_code(page: Page, base: str, tid: int, table: int, code: str) -> None:
    """On the short form: the table's number and the card's code, typed."""
    page.goto(f"{base}/tournaments/{tid}/enter")
    expect(page.locator("#table")).to_be_focused()
    page.keyboard.type(str(table))
    page.keyboard.press("Tab")
    page.keyboard.type(code)
    posted(page)
    expect(page.get_by_role("status").first).to_contain_text("Code accepted")


def new_tournament(org: Page, base: str, name: str, fmt: str = "pinasca",
                   rounds: int | None = None) -> int:
    """Create a tournament on the list's form, by keyboard (the format and the rounds
    chosen in their fields); its id."""
    org.goto(base + "/tournaments")
    org.locator("#t-name").focus()
    org.keyboard.type(name)
    if fmt != "pinasca":
        org.select_option("#t-format", fmt)
    if rounds is not None:
        org.locator("#t-rounds").focus()
        org.keyboard.press("Control+A")
        org.keyboard.type(str(rounds))
    with org.expect_navigation():
        org.keyboard.press("Enter")
    org.wait_for_url(re.compile(r"/tournaments/\d+$"))
    return int(org.url.rsplit("/", 1)[1])


def described(page: Page, field: str) -> str:
    """The text of what describes the field ``field`` (its aria-describedby)."""
    text: str = page.evaluate("""(id) => (document.getElementById(id)
        .getAttribute("aria-describedby") || "").split(/\\s+/).filter(Boolean)
        .map((ref) => document.getElementById(ref).textContent).join(" ")""", field)
    return text


def done(page: Page) -> None:
    expect(page.get_by_role("status").first).to_have_text("Done.")


# ------------------------------------------------------------------- the dispute
def test_a_disputed_hand_is_resolved_by_the_organiser_by_keyboard(
        new_page: Callable[..., Page], base_url: str, tmp_path: Path) -> None:
    audit = Audit()
    tag = secrets.token_hex(3)
    org = new_page()
    register(org, base_url, f"Org{tag}")
    tid = drawn_tournament(org, base_url, f"Contestazione {tag}", tag)
    ns, ew = side_codes(org, base_url, tid)

    # N-S enter a hand on their phone.
    scorer = new_page()
    sala.guest(scorer, base_url, f"Scorer{tag}")
    scorer_with_code(scorer, base_url, tid, 1, ns)
    for answer in ("ns", "h", "100", "62", "", "", "", ""):
        type_answer(scorer, answer)
    expect(scorer.get_by_role("heading", name="To confirm")).to_be_visible()

    # E-W dispute it on theirs: the reason typed, then Enter (in the reason's field).
    other = new_page()
    sala.guest(other, base_url, f"Other{tag}")
    scorer_with_code(other, base_url, tid, 1, ew)
    expect(other.get_by_text("N-S entered hand 1:")).to_be_visible()
    tab_into(other, "dispute-reason")
    other.keyboard.type("hand 1 was 90 to 72")
    posted(other)
    expect(other.get_by_role("status").first).to_have_text("Disputed: an organiser decides.")
    expect(other.get_by_role("heading", name="Disputed")).to_be_visible()
    # Said from no side's point of view, and no more the call to confirm.
    expect(other.get_by_text("E-W disputed it (hand 1 was 90 to 72)")).to_be_visible()
    expect(other.get_by_text("confirms (or disputes)")).to_have_count(0)
    expect(other.get_by_role("row", name=re.compile("^1 ")))\
        .to_contain_text("awaiting the other side")  # it does not count
    expect(other.locator("#totals")).to_have_text(  # nor in the match's line
        "Match, confirmed hands only: N-S 0, E-W 0. With the hands not yet confirmed: "
        "N-S 100, E-W 62.")
    audit(other, "score entry, the disputer's page after the dispute")
    shots(other, tmp_path, "dispute-disputer")
    fits_a_phone(other)

    # N-S see it disputed: nothing more to enter until the organiser decides.
    scorer.reload()
    expect(scorer.get_by_role("heading", name="Disputed")).to_be_visible()
    said = "N-S entered hand 1; E-W disputed it (hand 1 was 90 to 72): an organiser decides"
    expect(scorer.get_by_text(said)).to_be_visible()
    expect(scorer.locator("#answer")).to_have_count(0)
    audit(scorer, "score entry, the entering side's page showing the dispute")
    shots(scorer, tmp_path, "dispute-entering-side")
    fits_a_phone(scorer)

    # The organiser's queue: the dispute with its reason; accepted with a reason.
    org.goto(f"{base_url}/tournaments/{tid}")
    expect(org.get_by_role("heading", name="Awaiting confirmation (1)")).to_be_visible()
    expect(org.locator("#queue-1")).to_contain_text("Disputed: hand 1 was 90 to 72")
    audit(org, "console, the queue with a dispute")
    shots(org, tmp_path, "dispute-console-queue")
    tab_into(org, "qr-1")
    org.keyboard.type("the sheet says 100 to 62")
    press_and_wait(org, "Accept (table 1)")
    done(org)
    expect(org.get_by_role("heading", name="Awaiting confirmation (0)")).to_be_visible()
    expect(org.locator(".log")).to_contain_text("the sheet says 100 to 62")
    audit(org, "console, the dispute resolved")
    shots(org, tmp_path, "dispute-console-resolved")

    # Both sides' pages after the decision: the hand counts.
    for page, who in ((scorer, "entering side"), (other, "disputer")):
        page.reload()
        expect(page.locator("#totals")).to_have_text("Match: N-S 100, E-W 62.")
        expect(page.get_by_role("heading", name="Disputed")).to_have_count(0)
        audit(page, f"score entry, the {who}'s page after the resolution")
    shots(other, tmp_path, "dispute-after")
    fits_a_phone(other)
    audit.verdict()


# ------------------------------------------------------------------- a phone's screen
def test_on_a_phone_the_heading_comes_before_the_folded_preferences_by_keyboard(
        new_page: Callable[..., Page], base_url: str, tmp_path: Path) -> None:
    """Review: at 390 px the preferences filled the top 250 px of every page, above the
    page's heading; the hands' table broke "N-S" at its hyphen.  On a narrow screen they
    fold, with the site's links, into one "Menu" control (open on a wide one: issue 25), and
    open again to keep the focus where a player saved them."""
    audit = Audit()
    tag = secrets.token_hex(3)
    org = new_page()
    register(org, base_url, f"Org{tag}")
    tid = drawn_tournament(org, base_url, f"Telefono {tag}", tag)
    ns, _ = side_codes(org, base_url, tid)
    scorer = new_page()
    sala.guest(scorer, base_url, f"Scorer{tag}")
    scorer_with_code(scorer, base_url, tid, 1, ns)
    for answer in ("ns", "h", "100", "62", "", "", "", ""):
        type_answer(scorer, answer)
    box = scorer.locator("#site-menu")
    assert box.evaluate("(el) => el.open")  # a laptop's width: open, as before
    width, height = SIZES[1]
    scorer.set_viewport_size({"width": width, "height": height})
    scorer.reload()
    assert not box.evaluate("(el) => el.open")
    expect(scorer.locator("#pref-lang")).to_be_hidden()
    heading = scorer.get_by_role("heading", level=1).bounding_box()
    assert heading is not None and heading["y"] < 240, heading  # was 310: under the settings
    # By keyboard: one control for the links and the preferences, then the page.
    scorer.locator(".skip").focus()
    sala.tab_to(scorer, lambda el: el["tag"] == "SUMMARY", limit=2)
    scorer.keyboard.press("Tab")
    assert sala.active(scorer)["id"] == "confirm-code"  # the page's first field
    scorer.keyboard.press("Shift+Tab")
    scorer.keyboard.press("Enter")
    assert box.evaluate("(el) => el.open")
    tab_into(scorer, "pref-lang", limit=12)  # after the links
    audit(scorer, "score entry on a phone, the preferences opened")
    # Saved: the page comes back with the focus on the button, the preferences open.
    tab_into(scorer, "pref-save", limit=30)
    posted(scorer)
    expect(scorer.locator("#pref-save")).to_be_focused()
    assert box.evaluate("(el) => el.open")
    # The next page starts folded again (a reload keeps the focus, and so opens them).
    scorer.goto(f"{base_url}/tournaments/{tid}/games/1/code")
    assert not box.evaluate("(el) => el.open")
    scorer.goto(f"{base_url}/tournaments/{tid}/games/1/entry")
    assert not box.evaluate("(el) => el.open")
    # The hands' table: each side's name on one line, the table within the phone's width.
    lines = scorer.evaluate("""() => Array.from(document.querySelectorAll(".hands .side"))
        .map((el) => { const range = document.createRange(); range.selectNodeContents(el);
                       return [el.textContent, range.getClientRects().length]; })""")
    assert lines == [["N-S", 1], ["E-W", 1], ["N-S", 1], ["E-W", 1]], lines
    fits_a_phone(scorer)
    audit(scorer, "score entry on a phone, the preferences folded")
    shots(scorer, tmp_path, "phone-score-entry")
    audit.verdict()


# ------------------------------------------------------------------- final totals only
def test_final_totals_typed_one_refused_as_implausible_by_keyboard(
        new_page: Callable[..., Page], base_url: str) -> None:
    audit = Audit()
    tag = secrets.token_hex(3)
    org = new_page()
    register(org, base_url, f"Org{tag}")
    tid = drawn_tournament(org, base_url, f"Totali {tag}", tag)
    ns, ew = side_codes(org, base_url, tid)
    scorer = new_page()
    sala.guest(scorer, base_url, f"Scorer{tag}")
    scorer_with_code(scorer, base_url, tid, 1, ns)
    audit(scorer, "score entry with the totals form")

    # A slip of a digit: 15000 for 1500. Refused, the reason said, nothing stored.
    tab_into(scorer, "total-ns")
    scorer.keyboard.type("15000")
    scorer.keyboard.press("Tab")
    expect(scorer.locator("#total-ew")).to_be_focused()
    scorer.keyboard.type("1200")
    posted(scorer)
    refusal = scorer.get_by_role("alert")
    expect(refusal).to_contain_text("no side can finish with 15000")
    expect(scorer.locator("#total-ns")).to_be_focused()  # back where the slip was made
    expect(scorer.locator("#total-ns")).to_have_value("15000")  # as typed, to correct
    assert "no side can finish with 15000" in described(scorer, "total-ns")
    expect(scorer.locator("#totals")).to_have_text("Match: N-S 0, E-W 0.")
    expect(scorer.get_by_role("heading", name="To confirm")).to_have_count(0)
    audit(scorer, "score entry, totals refused as implausible")

    # The right figures: they await E-W.
    scorer.keyboard.press("Control+A")
    scorer.keyboard.type("1500")
    scorer.keyboard.press("Tab")
    scorer.keyboard.press("Control+A")
    scorer.keyboard.type("1200")
    posted(scorer)
    expect(scorer.get_by_role("status").first).to_have_text(
        "Totals sent: a player of E-W confirms them.")
    expect(scorer.get_by_text("N-S entered final totals N-S 1500, E-W 1200")).to_be_visible()
    audit(scorer, "score entry, totals awaiting confirmation")

    # On the same phone, a wrong code of E-W: refused, said, its field focused again.
    tab_into(scorer, "confirm-code")
    scorer.keyboard.type("ZZZZ")
    posted(scorer)
    expect(scorer.get_by_role("alert")).to_contain_text("not a table code of this game")
    expect(scorer.locator("#confirm-code")).to_be_focused()
    assert "table code" in described(scorer, "confirm-code")
    expect(scorer.get_by_role("heading", name="To confirm")).to_be_visible()
    audit(scorer, "score entry, a wrong code of the other side refused")

    # E-W confirm the totals on their phone: the result is recorded.
    other = new_page()
    sala.guest(other, base_url, f"Other{tag}")
    scorer_with_code(other, base_url, tid, 1, ew)
    audit(other, "confirmation page of final totals")
    press_and_wait(other, "Confirm")
    expect(other.get_by_role("status").first).to_have_text("Confirmed: it counts now.")
    expect(other.get_by_text("its result is recorded")).to_be_visible()
    audit(other, "score entry, the result recorded from the totals")
    audit.verdict()


# ------------------------------------------------------------------- wrong codes
def test_wrong_codes_are_refused_and_said_by_keyboard(
        new_page: Callable[..., Page], base_url: str) -> None:
    audit = Audit()
    tag = secrets.token_hex(3)
    org = new_page()
    register(org, base_url, f"Org{tag}")
    tid = drawn_tournament(org, base_url, f"Codici {tag}", tag)
    scorer = new_page()
    sala.guest(scorer, base_url, f"Scorer{tag}")

    # The short form: a table that does not play, then a wrong code at a real table.
    scorer.goto(f"{base_url}/tournaments/{tid}/enter")
    # (the keys wait for the page to focus its first field, as scorer_with_code does)
    expect(scorer.locator("#table")).to_be_focused()
    scorer.keyboard.type("9")
    scorer.keyboard.press("Tab")
    scorer.keyboard.type("ZZZZ")
    posted(scorer)
    expect(scorer.get_by_role("alert")).to_have_text(
        "No table 9 plays in this round: check the table card.")
    expect(scorer.locator("#table")).to_be_focused()
    assert "No table 9" in described(scorer, "table")
    audit(scorer, "short form, no such table")
    scorer.keyboard.press("Control+A")
    scorer.keyboard.type("1")
    scorer.keyboard.press("Tab")
    scorer.keyboard.type("ZZZZ")
    posted(scorer)
    # The form asks for the table card's code: the refusal names it (not a seat code).
    expect(scorer.get_by_role("alert")).to_contain_text("not a table code of this game")
    # The table's number is kept; the focus is on the code, which the error describes.
    expect(scorer.locator("#table")).to_have_value("1")
    code = scorer.locator("#code")
    expect(code).to_be_focused()
    expect(code).to_have_attribute("aria-invalid", "true")
    assert "table code" in described(scorer, "code")
    audit(scorer, "short form, a wrong code")

    # The code page of table 1 (the table card's QR code opens it): named after the table
    # code. A wrong code, refused, the field focused and described.
    scorer.goto(f"{base_url}/tournaments/{tid}/games/1/code")
    expect(scorer.get_by_role("heading", level=1)).to_have_text("Table code: round 1, table 1")
    expect(scorer.get_by_label("Table code")).to_be_focused()
    scorer.keyboard.type("WRONG1")
    posted(scorer)
    expect(scorer.get_by_role("alert")).to_contain_text("not a table code of this game")
    expect(scorer.locator("#code")).to_be_focused()
    expect(scorer.locator("#code")).to_have_attribute("aria-invalid", "true")
    assert "table code" in described(scorer, "code")
    audit(scorer, "code page, a wrong code")
    # A seat code's length: refused as a seat code (the player holds one).
    scorer.keyboard.press("Control+A")
    scorer.keyboard.type("WRONGONE")
    posted(scorer)
    expect(scorer.get_by_role("alert")).to_contain_text("not a seat code of this game")
    expect(scorer.locator("#code")).to_be_focused()
    audit.verdict()


# ------------------------------------------------------------------- concours: entrants, best of 3
def test_concours_check_in_reserve_late_entry_and_best_of_three_by_keyboard(
        new_page: Callable[..., Page], base_url: str) -> None:
    audit = Audit()
    tag = secrets.token_hex(3)
    org = new_page()
    register(org, base_url, f"Org{tag}")
    tid = new_tournament(org, base_url, f"Concours {tag}", "concours")
    # Best of 3, chosen before the first draw.
    org.select_option("#set-best-of", "3")
    org.locator("#set-best-of").focus()
    press_and_wait(org, "Save the settings")
    done(org)
    for n in range(1, 6):
        org.locator("#r-a_name").focus()
        org.keyboard.type(f"Coppia {n}")
        org.keyboard.press("Tab")
        org.keyboard.type(f"Anna{tag}{n}")
        org.keyboard.press("Tab")
        org.keyboard.type(f"Bruno{tag}{n}")
        posted(org)
        done(org)
    audit(org, "console, concours registration, best of 3")

    org.locator("#r-a_name").focus()
    for n in (1, 2):
        press_and_wait(org, f"Check in Coppia {n}")
        done(org)
    expect(org.get_by_text("present")).to_have_count(2)
    audit(org, "console, check-in under way")
    press_and_wait(org, "Make Coppia 5 a reserve")
    done(org)
    expect(org.locator(".entrants tbody tr").nth(4)).to_contain_text("reserve")
    audit(org, "console, a reserve in the pool")
    for n in (3, 4):
        press_and_wait(org, f"Check in Coppia {n}")
        done(org)
    press_and_wait(org, "Draw round 1")
    round_drawn(org)
    audit(org, "console, concours round 1 drawn (best of 3)")

    org.locator("#round-heading").focus()
    press_and_wait(org, "Promote Coppia 5")
    done(org)
    expect(org.locator(".entrants tbody tr").nth(4)).to_contain_text("playing from round 2")
    audit(org, "console, the reserve promoted")
    tab_into(org, "late-name")
    org.keyboard.type("Coppia tardiva")
    org.keyboard.press("Tab")
    org.keyboard.type(f"Carla{tag}")
    org.keyboard.press("Tab")
    org.keyboard.type(f"Dino{tag}")
    posted(org)
    done(org)
    expect(org.locator(".entrants")).to_contain_text("Coppia tardiva")
    audit(org, "console, a late entry")

    # A match of the round, entered game by game as final totals.
    ns, _ = side_codes(org, base_url, tid)
    scorer = new_page()
    sala.guest(scorer, base_url, f"Scorer{tag}")
    scorer_with_code(scorer, base_url, tid, 1, ns)
    expect(scorer.locator("#match-game")).to_contain_text("Game 1 of the match (best of 3)")
    expect(scorer.locator("#answer")).to_have_count(0)  # no hand-by-hand questions
    audit(scorer, "score entry of a best-of-3 match, game 1")
    tab_into(scorer, "total-ns")
    scorer.keyboard.type("1500")
    scorer.keyboard.press("Tab")
    scorer.keyboard.type("700")
    posted(scorer)
    expect(scorer.get_by_role("status").first).to_contain_text("Totals sent")
    audit(scorer, "score entry of a best-of-3 match, game 1 awaiting confirmation")
    audit.verdict()


# ------------------------------------------------------------------- the end
def test_round_close_undone_and_the_finished_tournament_by_keyboard(
        new_page: Callable[..., Page], base_url: str) -> None:
    audit = Audit()
    tag = secrets.token_hex(3)
    org = new_page()
    register(org, base_url, f"Org{tag}")
    tid = new_tournament(org, base_url, f"Finale {tag}", rounds=1)
    register_neighbourhoods(org, tag, 2)
    press_and_wait(org, "Draw round 1")
    for game, totals in ((1, ("1500", "1100")), (2, ("900", "1510"))):
        tab_into(org, f"ra-{game}")
        org.keyboard.type(totals[0])
        org.keyboard.press("Tab")
        org.keyboard.type(totals[1])
        posted(org)
        done(org)
    expect(org.get_by_text("Every result is in")).to_be_visible()
    press_and_wait(org, "Close round 1")
    done(org)
    expect(org.get_by_text(re.compile(r"target 1500, finished\."))).to_be_visible()
    audit(org, "console, the last round closed (finished)")

    # The close undone, with its reason, then closed again.
    tab_into(org, "reopen-reason")
    org.keyboard.type("a result was typed wrong")
    posted(org)
    done(org)
    expect(org.get_by_role("button", name="Close round 1")).to_be_visible()
    expect(org.locator(".log")).to_contain_text("a result was typed wrong")
    audit(org, "console, the round close undone")
    press_and_wait(org, "Close round 1")
    done(org)

    org.goto(f"{base_url}/tournaments/{tid}/standings")
    expect(org.get_by_text("final standings")).to_be_visible()
    audit(org, "standings, final")
    org.goto(f"{base_url}/tournaments/{tid}/projector")
    expect(org.locator(".final")).to_have_text("Final")
    expect(org.get_by_role("heading", name="Final standings")).to_be_visible()
    audit(org, "projector, final")

    org.goto(f"{base_url}/tournaments/{tid}/prizes")
    org.locator("#p-places").focus()
    org.keyboard.type("Un prosciutto\nDue salami")
    org.locator("#p-best_neighbourhood").focus()
    org.keyboard.type("Una coppa")
    press_and_wait(org, "Save the prizes")
    expect(org.get_by_role("status").first).to_have_text("Prizes saved.")
    expect(org.get_by_role("row", name=re.compile("Best neighbourhood"))).to_contain_text(
        "Una coppa")
    audit(org, "prize list, final, with the best neighbourhood")
    audit.verdict()


# ------------------------------------------------------------------- a season
def finished_concours(org: Page, base: str, name: str, tag: str) -> int:
    """A concours of four pairs, one round, its results in and closed (by the forms'
    posts: the season's pages are what this test drives)."""
    response = form_post(org, base, "/tournaments", name=name, format="concours",
                         preset="classic", target="1000", rounds="1", deals="",
                         rank_by="wins", bye_points="0")
    tid = int(response.headers["location"].rsplit("/", 1)[1])
    for n in range(1, 5):
        form_post(org, base, f"/tournaments/{tid}/do/register", a_name=f"Coppia {n}",
                  a_player1=f"Anna{tag}{n}", a_player2=f"Bruno{tag}{n}")
        form_post(org, base, f"/tournaments/{tid}/do/checkin", entrant=str(n))
    form_post(org, base, f"/tournaments/{tid}/do/draw")
    for game in (1, 2):
        form_post(org, base, f"/tournaments/{tid}/do/result", game=str(game),
                  total_a="1000", total_b="600")
    form_post(org, base, f"/tournaments/{tid}/do/close")
    return tid


def test_a_season_ranks_a_tournament_and_merges_two_names_by_keyboard(
        new_page: Callable[..., Page], base_url: str) -> None:
    audit = Audit()
    tag = secrets.token_hex(3)
    org = new_page()
    register(org, base_url, f"Org{tag}")
    tid = finished_concours(org, base_url, f"Coppa {tag}", tag)
    org.goto(f"{base_url}/seasons")
    org.locator("#s-name").focus()
    org.keyboard.type(f"Stagione {tag}")
    posted(org)
    org.select_option("#s-add", str(tid))
    org.locator("#s-add").focus()
    press_and_wait(org, "Add")
    done(org)
    expect(org.locator("#events-heading + ul")).to_contain_text("finished, counted")
    expect(org.get_by_role("table")).to_contain_text(f"Anna{tag}1")
    audit(org, "season page with a tournament ranked")

    # Two spellings of one player, merged by the owner (in words), then separated.
    org.select_option("#s-player", label=f"Bruno{tag}2")
    org.select_option("#s-into", label=f"Bruno{tag}1")
    org.locator("#s-into").focus()
    press_and_wait(org, "Merge")
    done(org)
    expect(org.get_by_text(f"Bruno{tag}2 is Bruno{tag}1.")).to_be_visible()
    audit(org, "season page, two names merged")
    press_and_wait(org, "Separate")
    done(org)
    expect(org.get_by_text(f"Bruno{tag}2 is Bruno{tag}1.")).to_have_count(0)

    visitor = new_page()  # the public page: no forms
    visitor.goto(org.url)
    expect(visitor.get_by_role("table")).to_be_visible()
    audit(visitor, "season page, a visitor")
    audit.verdict()


# ------------------------------------------------------------------- other formats
def test_the_melee_and_double_elimination_consoles_with_a_round_drawn(
        new_page: Callable[..., Page], base_url: str) -> None:
    audit = Audit()
    tag = secrets.token_hex(3)
    org = new_page()
    register(org, base_url, f"Org{tag}")

    # A mêlée of nine players (one sits out), registered and checked in by keyboard.
    tid = new_tournament(org, base_url, f"Mêlée {tag}", "melee")
    for n in range(1, 10):
        org.locator("#r-a_p1").focus()
        org.keyboard.type(f"Gioc{tag}{n}")
        posted(org)
        done(org)
    audit(org, "mêlée console, registration")
    for n in range(1, 10):
        form_post(org, base_url, f"/tournaments/{tid}/do/checkin", entrant=str(n))
    org.reload()
    press_and_wait(org, "Draw round 1")
    round_drawn(org)
    audit(org, "mêlée console, round 1 drawn")
    org.goto(f"{base_url}/tournaments/{tid}/standings")
    audit(org, "mêlée standings, round 1")

    # A double elimination of five pairs: round 1 drawn, a result in.
    response = form_post(org, base_url, "/tournaments", name=f"Doppia {tag}",
                         format="double_elimination", preset="classic", target="1000",
                         rounds="9", deals="", rank_by="wins", bye_points="0")
    tid = int(response.headers["location"].rsplit("/", 1)[1])
    for n in range(1, 6):
        form_post(org, base_url, f"/tournaments/{tid}/do/register", a_name=f"Coppia {n}",
                  a_player1=f"Anna{tag}{n}", a_player2=f"Bruno{tag}{n}")
        form_post(org, base_url, f"/tournaments/{tid}/do/checkin", entrant=str(n))
    org.goto(f"{base_url}/tournaments/{tid}")
    press_and_wait(org, "Draw round 1")
    round_drawn(org)
    tab_into(org, "ra-1")
    org.keyboard.type("1000")
    org.keyboard.press("Tab")
    org.keyboard.type("400")
    posted(org)
    done(org)
    audit(org, "double elimination console, round 1 drawn, a result in")
    org.goto(f"{base_url}/tournaments/{tid}/standings")
    audit(org, "double elimination standings, round 1")
    audit.verdict()
