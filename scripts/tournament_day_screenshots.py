"""A tournament day in pictures, for docs/tournaments.md's "A tournament day, step by step".

    PYTHONPATH=. .venv/bin/python scripts/tournament_day_screenshots.py [OUT_DIR]  # docs/img

It starts its own room (a throwaway SQLite file) and Debian's Chromium (scripts/system-deps.sh),
as the browser tests do, and lives a village concours through: the organiser creates it,
registers seven pairs and checks in the six that came, draws round 1, prints the table cards;
two phones enter and confirm a hand, a third side's totals are disputed and the organiser
resolves the dispute; the round clock, the projector, the wall list, the next round, the final
standings, the prizes, the exports and the season.  Every step is driven by keyboard and forms,
as a person would (Enter in a field, a button focused by its name and pressed with Enter), and
each writes ``day-NN-<step>.png`` in OUT_DIR: :data:`SHOTS` lists them in the docs' order
(tests/test_docs_tournament_day.py checks the docs link exactly these).

Buttons and fields are found by their accessible names and ids, never by their place on the
page, so the script keeps working when the console's layout changes: rerun it to refresh the
pictures.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from playwright.sync_api import (  # noqa: E402
    Browser,
    BrowserContext,
    Locator,
    Page,
    Playwright,
    ViewportSize,
    expect,
    sync_playwright,
)

from tests.browser import sala  # noqa: E402
from tests.browser.live import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    MISSING_CHROMIUM,
    LiveServer,
    chromium_missing,
)

DESKTOP: ViewportSize = {"width": 1280, "height": 800}  # the organiser's laptop
PHONE: ViewportSize = {"width": 390, "height": 844}  # a player's phone
MARGIN = 12  # px of page kept around a clipped part
# The room's address in the pictures (printed on the table cards, in their QR codes): the
# browser maps it to the live room, so no port of the moment shows.
VENUE = "sala.example"

# The pictures, in the order the docs show them (their files are OUT_DIR/NAME.png).
SHOTS = (
    "day-01-create",
    "day-02-check-in",
    "day-03-round-1",
    "day-04-table-card",
    "day-05-phone-code",
    "day-06-phone-hand",
    "day-07-phone-confirm",
    "day-08-still-to-report",
    "day-09-queue",
    "day-10-projector",
    "day-11-wall",
    "day-12-round-2",
    "day-13-standings",
    "day-14-prizes",
    "day-15-exports",
    "day-16-season",
)

TOURNAMENT = "Gara di San Rocco"
EARLIER = "Gara di Sant'Orso"  # last month's, finished: the season's first
SEASON = "Coppa della valle"
ORGANISER = "Giulia"
PASSWORD = "settebello-lungo"
# Seven pairs register; the Marmotte do not come, so they are never checked in.
PAIRS = (
    ("Lupi", "Anna Rey", "Bruno Perron"),
    ("Orsi", "Carla Vuillermoz", "Dino Chabod"),
    ("Aquile", "Elsa Bionaz", "Franco Jacquin"),
    ("Camosci", "Gina Favre", "Ivo Marguerettaz"),
    ("Stambecchi", "Lea Cerise", "Marco Vierin"),
    ("Volpi", "Nella Gerbore", "Oreste Pession"),
    ("Marmotte", "Pia Bertin", "Ugo Ronc"),
)
ABSENT = "Marmotte"


@dataclass(frozen=True)
class Half:
    """One side's half of a table card: its players and its code as printed."""

    players: str
    printed: str

    @property
    def raw(self) -> str:
        return self.printed.replace("-", "")


@dataclass
class Day:
    """The room, the browser and the day's pages; each step method writes its pictures."""

    browser: Browser
    base: str
    out_dir: Path
    tid: int = 0
    written: list[Path] = field(default_factory=list)
    contexts: list[BrowserContext] = field(default_factory=list)

    # ------------------------------------------------------------------ pages and pictures
    def page(self, viewport: ViewportSize, **options: Any) -> Page:
        context = self.browser.new_context(viewport=viewport, **options)
        context.set_default_timeout(sala.TIMEOUT)
        self.contexts.append(context)
        return context.new_page()

    def phone(self) -> Page:
        return self.page(PHONE, is_mobile=True, has_touch=True)

    def shoot(self, page: Page, name: str, part: Locator | None = None,
              until: Locator | None = None) -> None:
        """The picture ``name``: the viewport, or the page's full width from ``part``'s top
        to ``until``'s bottom (``part``'s own bottom without it), at most a screen high (a
        phone's picture starts at the page's heading, as after a flick past the menu)."""
        assert name in SHOTS, name
        path = self.out_dir / f"{name}.png"
        if part is None:
            page.screenshot(path=str(path))
        else:
            part.scroll_into_view_if_needed()
            top = _span(part)[0]
            bottom = _span(until if until is not None else part)[1]
            screen = page.viewport_size or DESKTOP
            y = max(0.0, top - MARGIN)
            height = min(bottom + MARGIN - y, float(screen["height"]))
            page.screenshot(path=str(path), full_page=True,
                            clip={"x": 0, "y": y, "width": screen["width"], "height": height})
        self.written.append(path)

    def close(self) -> None:
        for context in self.contexts:
            context.close()

    # ---------------------------------------------------------------------------- steps
    def create_and_check_in(self, org: Page) -> None:
        """Step 1: the tournament created, seven pairs registered, six checked in."""
        register(org, self.base, ORGANISER)
        fill_concours_form(org, self.base, TOURNAMENT, rounds=2)
        self.shoot(org, "day-01-create", org.locator("#new-heading"),
                   org.get_by_role("button", name="Create", exact=True))
        self.tid = create(org)
        register_pairs(org, PAIRS, present=[name for name, *_ in PAIRS if name != ABSENT])
        org.get_by_role("button", name=f"Check in {ABSENT}").focus()
        self.shoot(org, "day-02-check-in", org.locator("#register-heading"),
                   org.locator(f"#entrants-heading + ul > li:has-text('{ABSENT}')"))

    def draw_round_1(self, org: Page) -> None:
        """Step 2: round 1 drawn, its clock started: the console lists its three tables."""
        press(org, "Draw round 1")
        expect(org.get_by_role("heading", name="Round 1")).to_be_visible()
        expect(org.locator("#missing-count")).to_have_text("3 tables still playing.")
        org.fill("#clock-minutes", "45")
        submit(org, "#clock-minutes")
        expect(org.get_by_role("timer")).to_have_text(re.compile(r"^4[45]:\d\d$"))
        self.shoot(org, "day-03-round-1", org.locator("#round-heading"),
                   org.locator("#game-3"))

    def table_cards(self, org: Page) -> dict[tuple[int, int], Half]:
        """Step 3: the table cards; each half's players and code, by (table, side)."""
        org.goto(f"{self.base}/tournaments/{self.tid}")
        # The console's "Go to" list names the organiser's other pages.
        org.get_by_role("navigation", name="Go to").get_by_role(
            "link", name="Table cards with the table codes").focus()
        with org.expect_navigation():
            org.keyboard.press("Enter")
        expect(org.locator(".half")).to_have_count(6)
        cards = {(table, side): Half(half.locator("h3 + p").inner_text(),
                                     half.locator(".side-code").inner_text())
                 for table in (1, 2, 3) for side in (0, 1)
                 for half in [org.locator(f"#half-{table}-{side}")]}
        org.emulate_media(media="print")  # the page as printed
        self.shoot(org, "day-04-table-card", org.locator("#tcard-1"), org.locator("#half-1-1"))
        org.emulate_media(media="screen")
        return cards

    def phones_enter_and_confirm(self, cards: dict[tuple[int, int], Half]) -> None:
        """Steps 4 and 5: table 1's N-S scan their half and enter a hand; a player of E-W
        confirms it on their own phone."""
        ns = self.player(cards[1, 0])
        # The QR code opens the game's code page with the code in its fragment.
        ns.goto(self.qr_address(1, cards[1, 0]))
        expect(ns.locator("#code")).to_have_value(cards[1, 0].raw)
        self.shoot(ns, "day-05-phone-code", ns.locator("h1"), ns.locator("form").last)
        press(ns, "Use this code")
        expect(notice(ns)).to_contain_text("you score for N-S")
        answer(ns, "ns")  # the taker's team
        answer(ns, "h")  # trump: hearts
        expect(ns.locator("#answer")).to_be_focused()
        ns.keyboard.type("92")  # N-S's trick points, checked as they are typed
        expect(ns.locator("#answer-check")).not_to_be_empty()
        self.shoot(ns, "day-06-phone-hand", ns.locator("h1"), ns.locator("#totals-form"))
        with ns.expect_navigation():
            ns.keyboard.press("Enter")
        for text in ("", "", ""):  # E-W's 70 (filled in), no capot, no belote
            answer(ns, text)
        expect(ns.get_by_role("heading", name="To confirm")).to_be_visible()

        ew = self.player(cards[1, 1])
        ew.goto(self.qr_address(1, cards[1, 1]))
        press(ew, "Use this code")
        expect(ew.get_by_text("N-S entered hand 1")).to_be_visible()
        ew.get_by_role("button", name="Confirm", exact=True).focus()
        self.shoot(ew, "day-07-phone-confirm", ew.locator("h1"), ew.get_by_role("table"))
        press(ew, "Confirm")
        expect(notice(ew)).to_have_text("Confirmed: it counts now.")

    def dispute_and_resolve(self, org: Page, cards: dict[tuple[int, int], Half]) -> None:
        """Step 6: table 2's N-S send their final totals, E-W dispute them; the console
        lists the tables still to report and the queue; the organiser rejects the totals
        and types the right ones from the paper sheet."""
        ns = self.player(cards[2, 0])
        ns.goto(f"{self.base}/tournaments/{self.tid}/enter")
        expect(ns.locator("#table")).to_be_focused()
        ns.keyboard.type("2")
        ns.keyboard.press("Tab")
        ns.keyboard.type(cards[2, 0].printed.lower())  # typed as printed, any case
        with ns.expect_navigation():
            ns.keyboard.press("Enter")
        ns.fill("#total-ns", "1012")
        ns.fill("#total-ew", "718")
        press(ns, "Send the totals")
        expect(notice(ns)).to_contain_text("Totals sent")

        ew = self.player(cards[2, 1])
        ew.goto(self.qr_address(2, cards[2, 1]))
        press(ew, "Use this code")
        ew.fill("#dispute-reason", "we made 818, not 718")
        press(ew, "Dispute")
        expect(notice(ew)).to_contain_text("Disputed")

        org.goto(f"{self.base}/tournaments/{self.tid}")
        expect(org.locator("#round-live")).to_contain_text("disputed")
        self.shoot(org, "day-08-still-to-report", org.locator("#round-heading"),
                   org.locator("#round-live"))
        org.fill("#qr-2", "sheet says 818")
        org.focus("#qr-2")
        self.shoot(org, "day-09-queue", org.locator("#queue-heading"),
                   org.locator("#queue-2"))
        press(org, "Reject: enter again (table 2)")
        expect(notice(org)).to_have_text("Done.")
        self.record(org, 2, "1012", "818")

    def projector_and_wall(self) -> None:
        """Steps 7 and 8: the venue's screen (nobody signed in) and the wall list."""
        screen = self.page(DESKTOP)
        screen.goto(f"{self.base}/tournaments/{self.tid}/projector")
        expect(screen.locator(".big-clock [role=timer]")).to_have_text(re.compile(r"^\d+:\d\d$"))
        self.shoot(screen, "day-10-projector")
        wall = self.page(DESKTOP)
        wall.emulate_media(media="print")  # as posted: no site navigation
        wall.goto(f"{self.base}/tournaments/{self.tid}/rounds/1/wall")
        expect(wall.get_by_role("table")).to_be_visible()
        self.shoot(wall, "day-11-wall", wall.locator("h1"), wall.get_by_role("table"))

    def next_round(self, org: Page) -> None:
        """Step 9: the last results typed; round 1 closed and round 2 drawn in one step."""
        self.record(org, 1, "1004", "702")
        self.record(org, 3, "640", "1020")
        expect(org.locator("#missing-count")).to_have_text("0 tables still playing.")
        draw = org.get_by_role("button", name="Draw round 2", exact=True)
        draw.focus()
        self.shoot(org, "day-12-round-2", org.locator("#round-heading"), draw)
        press(org, "Draw round 2")
        expect(org.get_by_role("heading", name="Round 2")).to_be_visible()

    def finish(self, org: Page) -> None:
        """Step 10: round 2's results, the last close, the standings, prizes and exports."""
        for game, a, b in ((4, "1008", "866"), (5, "1002", "990"), (6, "734", "1016")):
            self.record(org, game, a, b)
        press(org, "Close round 2")
        expect(notice(org)).to_have_text("Done.")
        org.goto(f"{self.base}/tournaments/{self.tid}/standings")
        self.shoot(org, "day-13-standings", org.locator("h1"), org.get_by_role("table").first)
        org.goto(f"{self.base}/tournaments/{self.tid}/prizes")
        org.focus("#p-places")
        org.keyboard.type("Un prosciutto\nDue salami\nUna fontina")
        press(org, "Save the prizes")
        expect(notice(org)).to_have_text("Prizes saved.")
        self.shoot(org, "day-14-prizes", org.locator("h1"), org.get_by_role("table"))
        org.goto(f"{self.base}/tournaments/{self.tid}/exports")
        self.shoot(org, "day-15-exports", org.locator("h1"), org.locator("#print-heading + ul"))

    def season(self, org: Page) -> None:
        """Step 11: a season of the valley's concours: last month's and today's."""
        earlier = finished_concours(org, self.base)
        org.goto(f"{self.base}/seasons")
        org.fill("#s-name", SEASON)
        press(org, "Create the season")
        org.wait_for_url(re.compile(r"/seasons/\d+$"))
        for tid in (earlier, self.tid):
            org.select_option("#s-add", str(tid))
            press(org, "Add")
            expect(notice(org)).to_have_text("Done.")
        self.shoot(org, "day-16-season", org.locator("#events-heading"),
                   org.get_by_role("table"))

    # ------------------------------------------------------------------------ helpers
    def player(self, half: Half) -> Page:
        """A phone signed in as a guest under the first name of the half's first player."""
        phone = self.phone()
        sala.guest(phone, self.base, half.players.split()[0])
        return phone

    def qr_address(self, game: int, half: Half) -> str:
        """What a half's QR code holds: the game's code page, the code in the fragment."""
        return f"{self.base}/tournaments/{self.tid}/games/{game}/code#c={half.raw}"

    def record(self, org: Page, game: int, total_a: str, total_b: str) -> None:
        """The organiser types a game's two match totals in its line of the console."""
        org.goto(f"{self.base}/tournaments/{self.tid}")
        org.fill(f"#ra-{game}", total_a)
        org.fill(f"#rb-{game}", total_b)
        submit(org, f"#rb-{game}")
        expect(notice(org)).to_have_text("Done.")


def _span(locator: Locator) -> tuple[float, float]:
    """The element's top and bottom on the page (not the viewport), in CSS pixels."""
    box = locator.bounding_box()
    assert box is not None, f"{locator} is not on the page"
    top = box["y"] + float(locator.page.evaluate("window.scrollY"))
    return top, top + box["height"]


def notice(page: Page) -> Locator:
    """The line the page says after a change (a status, or an alert for a refusal)."""
    return page.locator("p.notice[role=status], p.flash[role=alert]").first


def answer(page: Page, text: str) -> None:
    """The score entry's question has the focus (autofocus): type ``text``, press Enter."""
    expect(page.locator("#answer")).to_be_focused()
    page.keyboard.press("Control+A")
    page.keyboard.type(text)
    with page.expect_navigation():  # a form post: the next question is a new page
        page.keyboard.press("Enter")
    page.wait_for_load_state()


def submit(page: Page, selector: str) -> None:
    """Enter in a form's field: the form is sent; wait for the page it leads to."""
    with page.expect_navigation():
        page.press(selector, "Enter")
    page.wait_for_load_state()


def press(page: Page, name: str) -> None:
    """Focus the button named ``name`` (wherever the layout puts it) and press Enter."""
    button = page.get_by_role("button", name=name, exact=True)
    button.focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    page.wait_for_load_state()


def register(page: Page, base: str, name: str) -> None:
    """An account (an organiser needs one): the registration form, by keyboard."""
    page.goto(base + "/register")
    page.fill("#name", name)
    page.fill("#password", PASSWORD)
    submit(page, "#password")
    expect(page.get_by_text(f"Signed in as {name}")).to_be_visible()


def fill_concours_form(org: Page, base: str, name: str, rounds: int) -> None:
    """The creation form filled in for a concours of ``rounds`` rounds to 1000 (classic)."""
    org.goto(base + "/tournaments")
    org.fill("#t-name", name)
    org.select_option("#t-format", "concours")
    org.select_option("#t-preset", "classic")
    org.fill("#t-target", "1000")
    org.fill("#t-rounds", str(rounds))
    org.focus("#t-name")


def create(org: Page) -> int:
    """Enter in the creation form's name: the tournament's console opens; its id."""
    submit(org, "#t-name")
    org.wait_for_url(re.compile(r"/tournaments/\d+$"))
    return int(org.url.rsplit("/", 1)[1])


def register_pairs(org: Page, pairs: Sequence[tuple[str, str, str]],
                   present: Sequence[str]) -> None:
    """The console's registration form, once per pair; then *Check in* those ``present``."""
    for name, first, second in pairs:
        org.fill("#r-a_name", name)
        org.fill("#r-a_p1", first)
        org.fill("#r-a_p2", second)
        submit(org, "#r-a_p2")
        expect(notice(org)).to_have_text("Done.")
    for name in present:
        press(org, f"Check in {name}")
        expect(notice(org)).to_have_text("Done.")


def finished_concours(org: Page, base: str) -> int:
    """Last month's concours, four of today's pairs and one round, already played: its id."""
    fill_concours_form(org, base, EARLIER, rounds=1)
    tid = create(org)
    register_pairs(org, PAIRS[:4], present=[name for name, *_ in PAIRS[:4]])
    press(org, "Draw round 1")
    for game, a, b in ((1, "1010", "604"), (2, "912", "1006")):
        org.fill(f"#ra-{game}", a)
        org.fill(f"#rb-{game}", b)
        submit(org, f"#rb-{game}")
    press(org, "Close round 1")
    expect(notice(org)).to_have_text("Done.")
    return tid


def take_screenshots(browser: Browser, base: str, out_dir: Path) -> list[Path]:
    """Live the day in the room at ``base``; the pictures written in ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    day = Day(browser, base, out_dir)
    try:
        org = day.page(DESKTOP)
        day.create_and_check_in(org)
        day.draw_round_1(org)
        cards = day.table_cards(org)
        day.phones_enter_and_confirm(cards)
        day.dispute_and_resolve(org, cards)
        day.projector_and_wall()
        day.next_round(org)
        day.finish(org)
        day.season(org)
        return day.written
    finally:
        day.close()


def venue_chromium(playwright: Playwright, port: int) -> Browser:
    """Debian's Chromium as :func:`tests.browser.live.launch_chromium` starts it, which also
    finds the room at ``http://VENUE/`` (its port mapped to ``port``)."""
    if chromium_missing():
        raise RuntimeError(MISSING_CHROMIUM)
    rule = f"--host-resolver-rules=MAP {VENUE} 127.0.0.1:{port}"
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                      args=[*CHROMIUM_ARGS, rule])


def main() -> None:
    out_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "img"
    expect.set_options(timeout=sala.TIMEOUT)
    # Plain http on a name that is not loopback: the session cookie without its Secure flag.
    room = LiveServer(allowed_hosts=[VENUE, "127.0.0.1", "localhost"], secure_cookies=False)
    with room as server, sync_playwright() as playwright:
        browser = venue_chromium(playwright, server.port)
        try:
            for path in take_screenshots(browser, f"http://{VENUE}", out_dir):
                print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
        finally:
            browser.close()


if __name__ == "__main__":
    main()
