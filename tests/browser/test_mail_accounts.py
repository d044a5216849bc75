"""E-mail for accounts in a real browser, by keyboard alone: a room of its own sends its mails
to a real SMTP server (aiosmtpd) started here; a player sets their address on the account page
and follows the mail's link, forgets the password, asks for a reset from the sign-in page,
chooses a new password from the mail's link, and deletes the account; axe finds no
violation on any of those pages."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from email import message_from_bytes, policy
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from playwright.sync_api import Browser, Page, expect

from tests.browser import sala
from tests.browser.live import LiveServer, free_port
from tests.browser.test_axe import Audit

PUBLIC = "http://sala.invalid"  # the room's public URL in the mails; the test's is its port
LINK = re.compile(re.escape(PUBLIC) + r"(/account/(?:email/verify|reset)\?token=[\w-]+)")


class Inbox:
    def __init__(self) -> None:
        self.bodies: list[str] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        mail = message_from_bytes(envelope.content, policy=policy.default)
        self.bodies.append(mail.get_body().get_content())  # type: ignore[union-attr]
        return "250 OK"


@pytest.fixture
def mail_room() -> Iterator[tuple[LiveServer, Inbox]]:
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    room = LiveServer(smtp_host="127.0.0.1", smtp_port=controller.port, smtp_security="none",
                      smtp_from="sala@example.org", public_url=PUBLIC)
    try:
        room.start()
        yield room, inbox
    finally:
        room.stop()
        controller.stop()


def type_into(page: Page, field: str, text: str) -> None:
    """Tab to the field with id ``field`` and type ``text``: the keyboard alone."""
    sala.tab_to(page, lambda el: el["id"] == field)
    page.keyboard.type(text)


def press(page: Page, name: str) -> None:
    """Tab to the link or button named ``name`` and press Enter; wait for the next page."""
    sala.tab_to_name(page, name)
    with page.expect_navigation():
        page.keyboard.press("Enter")


def link_in(page: Page, inbox: Inbox, count: int) -> str:
    sala.wait_until(page, lambda: len(inbox.bodies) >= count, message=f"mail {count}")
    found = LINK.search(inbox.bodies[count - 1])
    assert found, inbox.bodies[count - 1]
    return found.group(1)


def test_address_reset_and_deletion_by_keyboard(browser: Browser, mail_room: Any) -> None:
    room, inbox = mail_room
    base, audit = room.url, Audit()
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(sala.TIMEOUT)
    page = context.new_page()
    name = f"Mila{secrets.token_hex(3)}"
    try:
        page.goto(base + "/register")
        type_into(page, "name", name)
        type_into(page, "password", "settebello-lungo")
        page.keyboard.press("Enter")
        expect(page.get_by_text(f"Signed in as {name}")).to_be_visible()

        page.goto(base + "/account")
        type_into(page, "email", "mila@example.org")
        type_into(page, "email-password", "settebello-lungo")
        page.keyboard.press("Enter")
        expect(page.get_by_role("status")).to_contain_text("verification link is on its way")
        audit(page, "account page, address waiting for its link")
        page.goto(base + link_in(page, inbox, 1))
        expect(page.get_by_role("heading", level=1)).to_have_text("Address verified")
        audit(page, "address verified")

        press(page, "Sign out")
        page.goto(base + "/login")
        press(page, "Forgot your password?")
        expect(page.get_by_role("heading", level=1)).to_have_text("Forgot your password")
        type_into(page, "who", name)
        page.keyboard.press("Enter")
        expect(page.get_by_role("status")).to_contain_text("Request received")
        audit(page, "forgot-password page, request received")

        page.goto(base + link_in(page, inbox, 2))
        audit(page, "choose a new password")
        type_into(page, "new-password", "short")
        page.keyboard.press("Enter")  # the browser's own check: at least 8 characters
        expect(page.get_by_role("heading", level=1)).to_have_text("Choose a new password")
        page.keyboard.type("-and-longer")
        page.keyboard.press("Enter")
        expect(page.get_by_role("heading", level=1)).to_have_text("Password changed")
        press(page, "Sign in")
        type_into(page, "name", name)
        type_into(page, "password", "short-and-longer")
        page.keyboard.press("Enter")
        expect(page.get_by_text(f"Signed in as {name}")).to_be_visible()

        page.goto(base + "/account")
        sala.tab_to(page, lambda el: el["id"] == "delete-confirm")
        page.keyboard.press("Space")
        type_into(page, "delete-password", "short-and-longer")
        page.keyboard.press("Enter")
        expect(page.get_by_role("heading", level=1)).to_have_text("Account deleted")
        audit(page, "account deleted")
    finally:
        context.close()
    audit.verdict()
