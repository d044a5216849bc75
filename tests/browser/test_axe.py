"""axe-core finds no violation on any page of La Sala, in any state a player meets it."""

from __future__ import annotations

from collections.abc import Callable

from axe_playwright_python.base import AxeResults
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from tests.browser import sala

AXE = Axe()
# axe's defaults (WCAG A/AA and best practices), plus one experimental rule that the room's
# buttons once broke: the visible text of a control must be part of its name (WCAG 2.5.3).
OPTIONS = {"resultTypes": ["violations"],
           "rules": {"label-content-name-mismatch": {"enabled": True}}}
# The violations only come back: the passes and the rules that did not apply, which the
# audit never reads, made most of each answer's bytes.
VIOLATIONS_ONLY = "(o) => axe.run(document, o).then((r) => ({violations: r.violations}))"


def run_axe(page: Page) -> AxeResults:
    """axe on the page as it is now, with :data:`OPTIONS`.  Its 570 KB script is sent once
    per document, not before every audit as ``Axe.run`` does: with the violations alone
    coming back, an audit of a page of 150 table rows took 1.12 s instead of 1.51 s (the
    2-core machine busy; the suite runs some 200 audits, several on one document)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.axe_script)
    return AxeResults(page.evaluate(VIOLATIONS_ONLY, OPTIONS))


class Audit:
    """Runs axe on each page state; the test fails at the end, listing every report."""

    def __init__(self) -> None:
        self.reports: dict[str, str] = {}
        self.checked: list[str] = []

    def __call__(self, page: Page, label: str) -> None:
        results = run_axe(page)
        self.checked.append(label)
        if results.violations_count:
            self.reports[label] = results.generate_report()

    def verdict(self) -> None:
        assert not self.reports, "\n\n".join(
            f"=== {label} ({page_count(text)}) ===\n{text}" for label, text in self.reports.items())


def page_count(report: str) -> str:
    return report.splitlines()[0] if report else ""


def test_every_page_has_no_axe_violation(new_page: Callable[..., Page], base_url: str) -> None:
    audit = Audit()
    visitor = new_page()
    visitor.goto(base_url + "/")
    audit(visitor, "lobby, signed out")
    visitor.goto(base_url + "/login")
    audit(visitor, "sign-in page")
    visitor.fill("#name", "nobody-here")
    visitor.fill("#password", "wrong password")
    visitor.press("#password", "Enter")
    expect(visitor.get_by_role("alert")).to_be_visible()
    audit(visitor, "sign-in page with an error")
    visitor.goto(base_url + "/register")
    audit(visitor, "registration page")
    visitor.goto(base_url + "/table/9999")
    expect(visitor.get_by_role("heading", level=1)).to_have_text("Something went wrong")
    audit(visitor, "error page (no such table)")

    # A guest: a waiting table (standing, then seated), the lobby that lists it.
    player = new_page()
    sala.guest(player, base_url, "Axel")
    audit(player, "lobby, signed in")
    table = sala.create_table(player)
    audit(player, "table waiting, not seated")
    sala.click_sit(player, "South")
    audit(player, "table waiting, seated")
    player.goto(base_url + "/")
    expect(player.get_by_role("button", name=f"Stand up from table {table}")).to_be_visible()
    audit(player, "lobby, signed in, seated at a waiting table")
    player.goto(f"{base_url}/table/{table}")
    sala.connected(player)

    # Mid-game: the table with the keys dialog closed, then open; a spectator's view.
    sala.click_bots(player, "North", "East", "West")
    audit(player, "table full, before the start")
    sala.click_start(player)
    while sala.my_turn(player) == sala.YOUR_TURN and sala.bidding(player):
        audit(player, "table, bidding")
        sala.click_act(player)
    sala.my_turn(player)
    player.locator("#hand").focus()
    audit(player, "table mid-game")
    player.keyboard.press("F1")
    expect(player.locator("#keys-help")).to_be_visible()
    audit(player, "table mid-game, keys dialog open")
    player.keyboard.press("Escape")
    expect(player.locator("#keys-help")).to_be_hidden()
    audit(player, "table mid-game, keys dialog closed")
    watcher = new_page()
    watcher.goto(f"{base_url}/table/{table}")
    sala.connected(watcher)
    audit(watcher, "table mid-game, spectator")

    # The end of the match, and its replay.
    sala.play_match(player)
    audit(player, "table, match over")
    player.goto(f"{base_url}/replay/{table}", timeout=60_000)  # heavy work: may start its process
    expect(player.get_by_role("heading", level=2, name="Deal 1")).to_be_visible()
    audit(player, "replay of a finished game")
    player.goto(base_url + "/")
    expect(player.get_by_role("link", name=f"Replay of table {table}")).to_be_visible()
    audit(player, "lobby with a finished game")

    assert len(audit.checked) >= 16
    audit.verdict()


def test_the_visual_table_has_no_axe_violation_in_any_theme(
        new_page: Callable[..., Page], base_url: str) -> None:
    audit = Audit()
    player = new_page()
    sala.guest(player, base_url, "Tema")
    player.select_option("#preset", "valdostana")
    table = sala.create_table(player, target="2000")
    sala.click_sit(player, "South")
    sala.click_bots(player, "North", "East", "West")
    sala.click_start(player)
    sala.my_turn(player)
    if sala.bidding(player):
        audit(player, "valdostana auction: level and suit pickers, command box")
    for theme, deck in (("dark", "two"), ("contrast", "four"), ("light", "four")):
        sala.open_table_settings(player)
        audit(player, f"table settings open ({theme} before saving)")
        player.select_option("#pref-theme", theme)
        player.select_option("#pref-deck", deck)
        player.locator("#pref-save").click()
        player.wait_for_url(f"{base_url}/table/{table}")
        sala.connected(player)
        player.locator("#hand [role=option]").first.wait_for()
        audit(player, f"table, {theme} theme, {deck}-colour deck")
    assert len(audit.checked) >= 6
    audit.verdict()
