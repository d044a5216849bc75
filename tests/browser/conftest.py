"""Fixtures of the browser suite: one live room, Debian's Chromium, and pages.

The room runs in a child process (tests/browser/live.py) with bots that play after 0.05 s;
it, Playwright and the browser live as long as this package's tests (scope "package").
Chromium is Debian's (``/usr/bin/chromium``, installed by scripts/system-deps.sh), never one
downloaded by ``playwright install``; without it every test here fails, naming the script.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    Playwright,
    expect,
    sync_playwright,
)

from tests.browser import sala
from tests.browser.live import MISSING_CHROMIUM, LiveServer, chromium_missing, launch_chromium
from tests.server.postgres import postgres_url  # noqa: F401  (test_through_nginx.py's database)

expect.set_options(timeout=sala.TIMEOUT)


@pytest.fixture(scope="package")
def live_server() -> Iterator[LiveServer]:
    # Many browser tests sign up an account each: on one worker they would pass the room's
    # 10 sign-ups per address per hour (tested on its own in tests/server/test_accounts.py).
    # Their new accounts enter the daily duplicate at once (the wait for new accounts is
    # tested in tests/server/test_daily.py).
    server = LiveServer(signups_per_hour=1000, daily_entry_account_hours=0)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="package")
def base_url(live_server: LiveServer) -> str:
    return live_server.url


@pytest.fixture(scope="package")
def playwright() -> Iterator[Playwright]:
    if chromium_missing():
        pytest.fail(MISSING_CHROMIUM, pytrace=False)
    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="package")
def browser(playwright: Playwright) -> Iterator[Browser]:
    chromium = launch_chromium(playwright)
    try:
        yield chromium
    finally:
        chromium.close()


@pytest.fixture
def new_page(browser: Browser, live_server: LiveServer,
             request: pytest.FixtureRequest) -> Iterator[Callable[..., Page]]:
    """Pages, each in its own context (its own cookies: one player each).

    Every page records what its live regions said; errors in its scripts fail the test.
    """
    contexts: list[BrowserContext] = []
    errors: list[str] = []

    def make(**options: Any) -> Page:
        context = browser.new_context(viewport={"width": 1280, "height": 900}, **options)
        context.set_default_timeout(sala.TIMEOUT)
        contexts.append(context)
        page = context.new_page()
        sala.record_speech(page)
        page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
        page.on("console", lambda message: errors.append(f"{page.url}: {message.text}")
                if console_error(page, message) else None)
        return page

    yield make
    for context in contexts:
        context.close()
    failed = request.node.stash.get(FAILED, False)
    if failed:
        print(f"--- the room's log ---\n{live_server.log()[-5000:]}")
    assert not errors, f"errors in the pages' scripts: {errors}"


FAILED = pytest.StashKey[bool]()
# A reconnection attempt refused while "offline": the page's normal, handled path.
RETRYING = re.compile(r"WebSocket connection to .* failed")
# Chromium's own word when it will not fetch the service worker over the nginx tests'
# self-signed certificate (browsers install workers only over trusted TLS); the page
# catches the refusal and works without the offline shell (static/install.js).
WORKER_REFUSED = re.compile(r"An SSL certificate error occurred when fetching the script")


def console_error(page: Page, message: ConsoleMessage) -> bool:
    """An error in the console, other than the page's own status (a 404 page is meant)."""
    if message.type != "error" or RETRYING.search(message.text) or \
            WORKER_REFUSED.search(message.text):
        return False
    own_status = message.text.startswith("Failed to load resource") and \
        message.location.get("url") == page.url
    return not own_status


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    if report.when == "call" and report.failed:
        item.stash[FAILED] = True
    return report
