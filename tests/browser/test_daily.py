"""The daily duplicate in a real browser, by keyboard alone: a registered player reaches the
day's page from the site's menu, enters, plays the first deal at its table with the table's
own keys (bids with the choice buttons, cards with the arrows and Enter), comes back and finds
the deal played and their line in the ranking; then opens a closed day of 121 entrants (written
straight into the room's database), goes to their own line on the ranking's second page and
to a deal's own page of results; axe finds no violation on the way, the per-deal tables
populated."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from playwright.sync_api import Page, expect

from belote.server.daily.schema import daily_entries, daily_plays
from belote.server.persistence.schema import tables, users
from tests.browser import layout, sala
from tests.browser.live import LiveServer
from tests.browser.test_axe import Audit
from tests.browser.test_tournament import register

DEAL_PLAYED = "Deal 1, North deals: played"


def press(page: Page, name: str) -> None:
    """Tab to the control named ``name`` and press Enter: the keyboard alone."""
    sala.tab_to_name(page, name)
    page.keyboard.press("Enter")
    page.wait_for_load_state()


def closed_day(db_url: str, player: str, others: int = 120, deals: int = 8) -> str:
    """Yesterday (UTC) with ``others`` entrants and ``player`` (last on every deal), each
    deal played by all, written into the room's database; the day."""
    day = (datetime.now(UTC).date() - timedelta(days=1)).isoformat()
    now = datetime.now(UTC)
    tag = secrets.token_hex(3)
    engine = sa.create_engine(db_url)
    try:
        with engine.begin() as conn:
            me = conn.execute(sa.select(users.c.id).where(users.c.name == player)).scalar_one()
            crowd = conn.execute(
                sa.insert(users).returning(users.c.id, sort_by_parameter_order=True),
                [{"name": f"Past{tag}{n:03d}", "name_key": f"past{tag}{n:03d}",
                  "password_hash": "x"} for n in range(others)]).scalars().all()
            entrants = [*crowd, me]
            names = [*(f"Past{tag}{n:03d}" for n in range(others)), player]
            entries = conn.execute(
                sa.insert(daily_entries).returning(daily_entries.c.id,
                                                   sort_by_parameter_order=True),
                [{"day": day, "account": a, "name": n, "entered": now}
                 for a, n in zip(entrants, names, strict=True)]).scalars().all()
            table_ids = iter(conn.execute(
                sa.insert(tables).returning(tables.c.id, sort_by_parameter_order=True),
                [{"preset": "classic", "flags": "{}", "target": 1, "status": "finished"}
                 for _ in range(len(entries) * deals)]).scalars().all())
            conn.execute(sa.insert(daily_plays), [
                {"entry": e, "deal": d, "table_id": next(table_ids), "reserved": now,
                 "holder": "uid", "finished": now,
                 "score": -10 if a == me else 10 * ((n * 7 + d) % 17)}
                for n, (e, a) in enumerate(zip(entries, entrants, strict=True))
                for d in range(1, deals + 1)])
    finally:
        engine.dispose()
    return day


def play_the_deal(page: Page) -> None:
    """Bid and play this seat's turns by keyboard until the deal (the table's match) ends."""
    for _ in range(40):
        if sala.my_turn(page, timeout=60_000) == sala.MATCH_OVER:
            return
        if sala.bidding(page):
            said = len(sala.spoken(page))
            sala.keyboard_bid(page)
            sala.wait_until(page, lambda n=said: any(
                re.search(r"You (passed|took|named)", t) for t in sala.spoken(page)[n:]),
                message="the bid's announcement")
        else:
            sala.keyboard_play(page)
    raise AssertionError("the deal never ended; log:\n" + page.locator("#log").inner_text())


def test_a_player_enters_plays_a_deal_and_sees_the_ranking_by_keyboard(
        new_page: Callable[..., Page], base_url: str, live_server: LiveServer) -> None:
    audit = Audit()
    name = f"Dina{secrets.token_hex(3)}"
    page = new_page()
    register(page, base_url, name)
    press(page, "Daily duplicate")
    expect(page).to_have_url(re.compile(r"/daily$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("Daily duplicate")
    audit(page, "the daily duplicate, not entered")

    press(page, "Enter today's daily duplicate")
    expect(page.get_by_role("button", name="Play deal 1")).to_be_visible()
    audit(page, "the daily duplicate, entered")
    press(page, "Play deal 1")
    page.wait_for_url(re.compile(r"/table/\d+$"))
    sala.connected(page)
    expect(page.locator("#seats li").nth(0)).to_contain_text(f"North: {name} (you")
    expect(page.get_by_role("button", name="Stand up")).to_have_count(0)
    expect(page.locator("#invitation")).to_have_count(0)  # private, and no code to pass on
    audit(page, "a deal of the daily duplicate")
    play_the_deal(page)
    # The deal over, the keyboard is on the way back to the day's page (no replay yet, no
    # rematch, no standing up at a deal of the daily).
    back = page.get_by_role("link", name=re.compile("^Deal over. Back to the daily duplicate"))
    expect(back).to_be_focused()
    expect(page.get_by_role("button", name="Rematch, same seats")).to_have_count(0)
    expect(page.get_by_role("button", name="Stand up")).to_have_count(0)
    audit(page, "a deal of the daily duplicate, over")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/daily$"))

    def scored() -> bool:  # stored by a task of its own, just after the deal ends
        if DEAL_PLAYED in page.content():
            return True
        page.reload()
        return False
    sala.wait_until(page, scored, message="the deal played on the day's page")
    expect(page.get_by_role("button", name="Play deal 2")).to_be_visible()
    ranking = page.get_by_role("table", name=re.compile(r"^Ranking of \d{4}-\d\d-\d\d$"))
    row = ranking.get_by_role("row").filter(has=page.get_by_role("rowheader", name=name))
    expect(row).to_contain_text("1 of 8")
    expect(row).to_contain_text("%")
    audit(page, "the daily duplicate after a deal")
    # On a phone: no sideways scrolling, the next deal's button in reach.
    page.set_viewport_size({"width": 390, "height": 844})
    assert layout.sideways(page) == 0
    audit(page, "the daily duplicate on a phone")

    # A closed day of 121 entrants (issue 28's review, M1 and m7): its ranking a page of
    # 100 lines, each deal's first 10 with a link to all of them, the reader's own line.
    page.set_viewport_size({"width": 1280, "height": 800})
    day = closed_day(str(live_server.settings["db_url"]), name)
    page.reload()
    press(page, f"Results of {day}")
    expect(page).to_have_url(re.compile(rf"/daily/{day}$"))
    expect(page.locator("#daily-own-line")).to_contain_text("Your place: 121 of 121")
    expect(page.get_by_role("table", name="Results of deal 1: the first 10 of 121")
           .get_by_role("row")).to_have_count(11)
    audit(page, "a closed day of the daily duplicate")
    press(page, "Go to your line (page 2)")
    expect(page).to_have_url(re.compile(rf"/daily/{day}\?page=2#daily-ranking-heading$"))
    mine = page.get_by_role("row").filter(has=page.get_by_role("rowheader", name=name))
    expect(mine.first).to_contain_text("121 (you)")
    press(page, "All 121 results of deal 1, with their replays")
    expect(page).to_have_url(re.compile(rf"/daily/{day}/deal/1$"))
    results = page.get_by_role("table", name="Results of deal 1, lines 1 to 100 of 121")
    expect(results.get_by_role("row")).to_have_count(101)
    expect(page.locator("#daily-own-line")).to_contain_text(
        "Your result on deal 1: -10 points, 0.0%, place 121 of 121.")
    expect(page.get_by_role("link", name="Next page: lines 101 to 121")).to_be_visible()
    audit(page, "a deal of a closed day of the daily duplicate")
    page.set_viewport_size({"width": 390, "height": 844})
    assert layout.sideways(page) == 0
    audit(page, "a deal of a closed day on a phone")
    audit.verdict()
