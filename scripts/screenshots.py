"""Screenshots of La Sala for the docs: the lobby with a few tables, a table mid-game (at
1280x800 with the hand in view, on a phone, in the dark and high-contrast themes with the
four-colour deck, at 400% zoom), and a valdostana auction with its level and suit pickers;
then, for the table's layout, each of a few presets in the auction and in the play at
1280x800 and 390x844, unscrolled (table-<preset>-<phase>-<size>.png).

    .venv/bin/python scripts/screenshots.py [OUT_DIR]     # default: docs/img
    .venv/bin/python scripts/screenshots.py OUT_DIR layout   # the layout's pictures only

It starts its own room (a throwaway SQLite file, quick bots) and Debian's Chromium (run
scripts/system-deps.sh first), exactly as the browser tests do; tests/browser/test_screenshots.py
calls :func:`take_screenshots` so that this keeps working.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.browser import layout, sala  # noqa: E402
from tests.browser.live import LiveServer, launch_chromium  # noqa: E402

VIEWPORT = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def _settings(page: Any, theme: str, deck: str) -> None:
    """Choose a colour theme and deck with the preferences form (saved in place on a table
    page, with a reload elsewhere)."""
    sala.open_table_settings(page)
    page.select_option("#pref-theme", theme)
    page.select_option("#pref-deck", deck)
    page.locator("#pref-save").click()
    page.wait_for_load_state()
    sala.connected(page)


def take_screenshots(browser: Any, base_url: str, out_dir: Path) -> list[Path]:
    """Play a little in the room at ``base_url``; write lobby.png and table.png in ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    contexts = [browser.new_context(viewport=VIEWPORT) for _ in range(3)]
    try:
        ada, bruno, chiara = (context.new_page() for context in contexts)
        for page in (ada, bruno, chiara):
            page.context.set_default_timeout(sala.TIMEOUT)

        # Ada plays against three bots.
        sala.guest(ada, base_url, "Ada")
        sala.create_table(ada, target="500")
        sala.click_sit(ada, "South")
        sala.click_bots(ada, "North", "East", "West")
        sala.click_start(ada)
        # Bruno waits for partners at a second table, with one bot.
        sala.guest(bruno, base_url, "Bruno")
        sala.create_table(bruno, target="1000")
        sala.click_sit(bruno, "North")
        sala.click_bots(bruno, "East")

        # The table: Ada's turn in the card play, cards on the table, the hand focused.
        for _ in range(40):
            sala.my_turn(ada)
            if not sala.bidding(ada) and ada.locator("#trick li").count() >= 2:
                break
            sala.click_act(ada)
        ada.locator("#hand").blur()  # the clicks left it focused by the mouse: no ring
        sala.focus_hand(ada)  # from the keyboard, the focus ring shows
        sala.select_playable(ada)
        table_png = out_dir / "table.png"
        ada.screenshot(path=str(table_png))  # the viewport: the hand is in view unscrolled
        shots = [table_png]
        table_url = ada.url

        # The same table on a phone, in the dark and high-contrast themes, at 400% zoom.
        phone = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
        contexts.append(phone)
        viewer = phone.new_page()
        viewer.context.set_default_timeout(sala.TIMEOUT)
        viewer.context.add_cookies(ada.context.cookies())
        viewer.goto(table_url)
        sala.connected(viewer)
        viewer.locator("#hand [role=option]").first.wait_for()
        shots.append(out_dir / "table-phone.png")
        viewer.screenshot(path=str(shots[-1]))
        _settings(ada, "dark", "two")
        shots.append(out_dir / "table-dark.png")
        ada.screenshot(path=str(shots[-1]))
        _settings(ada, "contrast", "four")
        shots.append(out_dir / "table-contrast.png")
        ada.screenshot(path=str(shots[-1]))
        _settings(ada, "light", "two")
        zoom = browser.new_context(viewport={"width": 320, "height": 200},
                                   device_scale_factor=4)  # 1280x800 at 400%
        contexts.append(zoom)
        zoomed = zoom.new_page()
        zoomed.context.set_default_timeout(sala.TIMEOUT)
        zoomed.context.add_cookies(ada.context.cookies())
        zoomed.goto(table_url)
        sala.connected(zoomed)
        zoomed.locator("#hand [role=option]").first.wait_for()
        shots.append(out_dir / "table-zoom400.png")
        zoomed.screenshot(path=str(shots[-1]), full_page=True)

        # The lobby, as a newcomer sees it once signed in; Bruno asks for players.
        sala.guest(chiara, base_url, "Chiara")
        chiara.locator("#tables table").wait_for()
        bruno.goto(base_url + "/")
        bruno.fill("#chat-text", "Two seats free at table 2, who plays?")
        bruno.press("#chat-text", "Enter")
        chiara.locator("#chat-log li").first.wait_for()
        lobby_png = out_dir / "lobby.png"
        chiara.screenshot(path=str(lobby_png), full_page=True)

        # A valdostana auction: pass and wait as buttons, the contracts as two pickers.
        return [lobby_png, *shots, _auction(chiara, base_url, out_dir)]
    finally:
        for context in contexts:
            context.close()


def _auction(page: Any, base_url: str, out_dir: Path) -> Path:
    """A valdostana table at this player's turn to bid; returns the screenshot's path."""
    page.goto(base_url + "/")
    page.select_option("#preset", "valdostana")
    sala.create_table(page, target="500")
    sala.click_sit(page, "South")
    sala.click_bots(page, "North", "East", "West")
    sala.click_start(page)
    for _ in range(40):
        sala.my_turn(page)
        if sala.bidding(page):
            break
        sala.click_act(page)
    page.locator("#pick-level").focus()
    path = out_dir / "table-auction.png"
    page.screenshot(path=str(path))
    return path


# The presets of the layout's pictures: take or pass, an auction, three and two players.
LAYOUT_PRESETS = ("classic", "valdostana", "valdostana3", "valdostana2")
LAYOUT_SIZES = (layout.LAPTOP, layout.PHONE)


def take_layout_screenshots(browser: Any, base_url: str, out_dir: Path,
                            presets: tuple[str, ...] = LAYOUT_PRESETS) -> list[Path]:
    """Each preset's table at this player's bid, then card, at each size, unscrolled:
    ``table-<preset>-<auction|play>-<width>x<height>.png`` in ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    shots = []
    for preset in presets:
        context = browser.new_context(viewport=layout.LAPTOP)
        try:
            page = context.new_page()
            page.context.set_default_timeout(sala.TIMEOUT)
            layout.start(page, base_url, preset, name="Vista")
            for phase in ("auction", "play"):
                layout.reach(page, phase)
                for size in LAYOUT_SIZES:
                    layout.settle(page, size)
                    name = f"table-{preset}-{phase}-{size['width']}x{size['height']}.png"
                    shots.append(out_dir / name)
                    page.screenshot(path=str(shots[-1]))
                page.set_viewport_size(layout.LAPTOP)
        finally:
            context.close()
    return shots


def main() -> None:
    from playwright.sync_api import sync_playwright

    out_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "img"
    only_layout = sys.argv[2:] == ["layout"]
    with LiveServer() as server, sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            paths = [] if only_layout else take_screenshots(browser, server.url, out_dir)
            for path in paths + take_layout_screenshots(browser, server.url, out_dir):
                print(path)
        finally:
            browser.close()


if __name__ == "__main__":
    main()
