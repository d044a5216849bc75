"""The information keys (T, O, P, W, Y, U) on the room's real path: the page sends "info"
with the question and says the `info` frame that answers it; a question waiting for its
answer is not sent twice; a refusal as too fast is said and the next press asks again
(review of issue 22: the scripted views of test_table_ux.py carry the answers, which the
room's frames never do, so they did not cover this path)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page

from tests.browser import sala
from tests.browser.test_table_ux import Script, scripted_table, view

TOO_FAST = "You are pressing the information keys too fast."


def _no_answers(**changes: Any) -> dict[str, Any]:
    """A view as the room sends it: no information answers in it."""
    the_view = view(**changes)
    del the_view["info"]
    return the_view


def _asked(script: Script) -> list[str]:
    return [m["d"]["key"] for m in script.sent if m["t"] == "info"]


def _said(page: Page, text: str) -> Callable[[], bool]:
    return lambda: sala.spoken(page, "assertive")[-1:] == [text]


def test_an_information_key_asks_the_room_once_and_says_its_answer(
        new_page: Callable[..., Page], base_url: str) -> None:
    page, script = scripted_table(new_page, base_url)
    script.frame("sync", _no_answers(turn=1, turn_name="East bot"))
    sala.connected(page)
    page.locator("#hand").focus()
    page.keyboard.press("p")
    page.keyboard.press("p")  # again before the answer came: not asked twice
    sala.wait_until(page, lambda: _asked(script) == ["points"], message="the question sent")
    page.wait_for_timeout(300)
    assert _asked(script) == ["points"]
    script.raw({"t": "info", "v": script.version,
                "d": {"key": "points", "text": "This hand: North-South 12, East-West 0."}})
    sala.wait_until(page, _said(page, "This hand: North-South 12, East-West 0."),
                    message="the answer said")
    page.keyboard.press("p")  # answered: the next press asks again
    sala.wait_until(page, lambda: _asked(script) == ["points", "points"],
                    message="asked again once answered")


def test_a_refusal_as_too_fast_is_said_and_the_next_press_asks_again(
        new_page: Callable[..., Page], base_url: str) -> None:
    page, script = scripted_table(new_page, base_url)
    script.frame("sync", _no_answers(turn=1, turn_name="East bot"))
    sala.connected(page)
    page.locator("#hand").focus()
    page.keyboard.press("o")
    sala.wait_until(page, lambda: _asked(script) == ["contract"], message="the question sent")
    script.raw({"t": "error", "v": script.version,
                "d": {"code": "info_too_fast", "text": TOO_FAST}})
    sala.wait_until(page, _said(page, TOO_FAST), message="the refusal said")
    page.keyboard.press("o")  # at once: asked again, not ignored for seconds
    # (a page that ignored the key for seconds would never send on this press: no short
    # timeout is needed to tell, and a busy machine gets the default's slack)
    sala.wait_until(page, lambda: _asked(script) == ["contract", "contract"],
                    message="the key asks again after the refusal")


def test_information_keys_answer_at_a_table_of_the_room(
        new_page: Callable[..., Page], base_url: str) -> None:
    page = new_page()
    frames = sala.Frames(page)
    sent: list[str] = []
    page.on("websocket", lambda socket: socket.on("framesent", lambda payload: sent.append(
        payload if isinstance(payload, str) else payload.decode())))
    sala.guest(page, base_url, "Ada")
    sala.create_table(page)
    sala.click_sit(page, "South")
    sala.click_bots(page, "North", "East", "West")
    sala.click_start(page)
    sala.wait_until(page, lambda: frames.views(), message="a started game's view")
    page.locator("#hand").focus()
    page.keyboard.press("y")
    answers = sala.wait_until(
        page, lambda: [json.loads(f)["d"] for f in list(frames.raw)
                       if json.loads(f)["t"] == "info"], message="the room's info frame")
    assert answers[0]["key"] == "team" and "South" in answers[0]["text"]
    assert any(json.loads(m)["t"] == "info" and json.loads(m)["d"] == {"key": "team"}
               for m in sent)
    assert all("info" not in view for _, view in frames.views())  # asked, never pushed
    sala.wait_until(page, _said(page, answers[0]["text"]), message="the answer said")
    assert re.search(r"South", sala.spoken(page, "assertive")[-1])
