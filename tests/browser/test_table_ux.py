"""The table's traps, fixed: heard and reached from the keyboard alone.

Most tests here put the page in front of a scripted socket (Playwright's WebSocket routes),
so that a rare moment of a real game (winning a trick as last player, a king and queen of
trump, 294 contracts) happens every time; the others run against the live room.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, ViewportSize, WebSocketRoute, expect

from tests.browser import sala

SEATS = ["North bot", "East bot", "Ada", "West bot"]


def seat_list() -> list[dict[str, Any]]:
    return [{"name": name, "kind": "human" if n == 2 else "bot", "level": "normal",
             "standin": False, "away": False, "you": n == 2} for n, name in enumerate(SEATS)]


def card(code: str, name: str, suit: int, playable: bool = True, **extra: Any) -> dict[str, Any]:
    return {"code": code, "name": name, "suit": suit, "playable": playable,
            "announce": False, **extra}


INFO = {"bidding": "Turned card: jack of hearts. No bid yet.", "contract": "No contract yet.",
        "points": "This hand: North-South 0, East-West 0.", "winner": "No trick finished yet.",
        "team": "You are South, team North-South.", "summary": "2 cards. hearts 2."}


def view(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "table": 1, "preset": "classic", "target": 1000, "seat": 2, "seats": seat_list(),
        "started": True, "finished": False, "version": 10, "phase": "playing", "turn": 2,
        "turn_name": "Ada", "dealer": 0, "step": 10,
        "hand": [card("KH", "king of hearts", 0), card("QH", "queen of hearts", 0)],
        "choices": [], "prompt": "", "belote": False, "belote_why": "", "hand_sizes": [2] * 4,
        "turned": None, "trick": [], "last_trick": [], "contract": "hearts", "taker": 2,
        "totals": [0, 0], "points": [0, 0], "winner": None, "info": INFO,
        "status": {"table": "No card on the table.", "trump": "Trump is hearts.",
                   "lead": "No card on the table.", "scores": "Scores: 0, 0."},
    }
    base.update(changes)
    return base


class Script:
    """The page's table socket, played by the test: frames in, messages out."""

    def __init__(self, page: Page) -> None:
        self.sent: list[dict[str, Any]] = []
        self.socket: WebSocketRoute | None = None
        self.version = 10
        page.route_web_socket(re.compile(r"/ws/table/"), self._route)

    def _route(self, ws: WebSocketRoute) -> None:
        self.socket = ws
        ws.on_message(lambda message: self._message(ws, json.loads(message)))

    def _message(self, ws: WebSocketRoute, message: dict[str, Any]) -> None:
        if message["t"] == "ping":  # the page's heartbeat: answered, as the room does
            ws.send(json.dumps({"t": "pong", "d": {"n": message["d"].get("n", 0)},
                                "v": self.version}))
            return
        self.sent.append(message)

    def frame(self, kind: str, the_view: dict[str, Any],
              events: tuple[str, ...] | list[str] = ()) -> None:
        assert self.socket is not None
        self.version += 1
        the_view = dict(the_view, version=self.version)
        self.socket.send(json.dumps({"t": kind, "v": self.version, "d": {
            "events": [{"kind": "card_played", "text": t} for t in events], "view": the_view}}))

    def raw(self, frame: dict[str, Any]) -> None:
        assert self.socket is not None
        self.socket.send(json.dumps(frame))

    def acts(self) -> list[Any]:
        """The moves the page sent, without their ids (``m``: see test_stalled_network.py)."""
        return [{k: v for k, v in m["d"].items() if k != "m"} for m in self.sent
                if m["t"] in ("act", "bid")]


def scripted_table(new_page: Callable[..., Page], base_url: str,
                   prepare: Callable[[Page], None] | None = None) -> tuple[Page, Script]:
    """A real table page (a table of the live room) whose socket the test plays."""
    page = new_page()
    sala.guest(page, base_url, "Ada")
    if prepare is not None:
        prepare(page)
    table = sala.create_table(page)
    script = Script(page)
    page.goto(f"{base_url}/table/{table}")
    sala.wait_until(page, lambda: script.socket is not None, message="the scripted socket")
    return page, script


def test_your_turn_is_said_when_you_win_a_trick_as_last_player_and_lead(
        new_page: Callable[..., Page], base_url: str) -> None:
    page, script = scripted_table(new_page, base_url)
    trick = [{"code": "7S", "name": "seven of spades", "suit": 3, "seat": s} for s in (3, 0, 1)]
    script.frame("sync", view(trick=trick, step=10))
    sala.wait_spoken(page, "Your turn")
    expect(page.locator("#hand")).to_be_focused()  # a fresh page: the keyboard on the hand
    page.keyboard.press("Enter")
    sala.wait_until(page, lambda: script.acts(), message="the card sent")
    said = len(sala.spoken(page))
    # My card ended the trick, I won it: my turn again, at a new step, and I must lead.
    script.frame("update", view(hand=[card("QH", "queen of hearts", 0)], step=11),
                 ["You played the king of hearts. You win the trick: 4 points."])
    sala.wait_until(page, lambda: any("Your turn" in t for t in sala.spoken(page)[said:]),
                    message="'Your turn' when leading after winning the trick")


def test_enter_on_a_card_while_bidding_points_to_the_bids(
        new_page: Callable[..., Page], base_url: str) -> None:
    page, script = scripted_table(new_page, base_url)
    choices = [{"action": 64, "label": "pass"}, {"action": 65, "label": "take"}]
    script.frame("sync", view(phase="bidding", choices=choices, contract="",
                              prompt="Your turn to bid. Options: pass, take."))
    sala.wait_spoken(page, "Your turn to bid. Options: pass, take.")  # the options, spoken
    page.locator("#hand").focus()
    page.keyboard.press("Enter")
    said = sala.wait_spoken(page, "Bidding is in progress", region="assertive")
    assert "cannot be played" not in said
    page.keyboard.press("b")  # B: the options again
    sala.wait_until(page, lambda: sala.spoken(page, "assertive")[-1].startswith(
        "Your turn to bid"), message="B says the options")
    assert not script.acts()


def test_space_just_after_the_king_announces_belote_once_its_frame_is_back(
        new_page: Callable[..., Page], base_url: str) -> None:
    page, script = scripted_table(new_page, base_url)
    king = card("KH", "king of hearts", 0)
    script.frame("sync", view(hand=[king, card("QH", "queen of hearts", 0)]))
    sala.wait_spoken(page, "Your turn")
    page.locator("#hand").focus()
    page.keyboard.press("Enter")  # the king, without announcing
    page.keyboard.press("Space")  # at once, before the king's frame is back
    sala.wait_until(page, lambda: len(script.acts()) >= 1, message="the king sent")
    assert script.acts() == [{"a": 6}], "Space must not send the king again, announcing"
    script.frame("update", view(hand=[card("QH", "queen of hearts", 0)], turn=3, step=11,
                                belote=True), ["You played the king of hearts."])
    sala.wait_until(page, lambda: len(script.acts()) == 2, message="the belote sent")
    assert script.acts()[1] == {"a": 72}


def test_space_on_the_queen_says_the_king_comes_first(
        new_page: Callable[..., Page], base_url: str) -> None:
    page, script = scripted_table(new_page, base_url)
    why = "Not with the queen: play the king of hearts first."
    script.frame("sync", view(hand=[card("QH", "queen of hearts", 0, belote_why=why),
                                    card("KH", "king of hearts", 0)],
                              belote_why="Belote is announced with the card."))
    sala.wait_spoken(page, "Your turn")
    page.locator("#hand").focus()
    page.keyboard.press("Space")
    sala.wait_spoken(page, re.escape(why), region="assertive")
    assert not script.acts()


def test_many_contracts_are_two_pickers_and_a_command_box(
        new_page: Callable[..., Page], base_url: str) -> None:
    page, script = scripted_table(new_page, base_url)
    suits = ["hearts", "diamonds", "clubs", "spades"]
    contracts = [{"action": 100 + 4 * i + s, "label": f"{82 + 10 * i} in {suits[s]}",
                  "level": 82 + 10 * i, "suit": s, "suit_name": suits[s]}
                 for i in range(20) for s in range(4)]
    choices = [{"action": 64, "label": "pass"}, *contracts]
    script.frame("sync", view(phase="bidding", choices=choices, contract=""))
    expect(page.locator("#choice-buttons button")).to_have_count(1)  # pass; not 81 buttons
    expect(page.locator("#pick-level option")).to_have_count(20)
    expect(page.locator("#bid-options option")).to_have_count(81)
    page.select_option("#pick-level", "102")
    page.select_option("#pick-suit", "2")
    page.locator("#pick-send").press("Enter")
    sala.wait_until(page, lambda: script.acts(), message="the picked contract")
    assert script.acts()[-1] == {"a": 100 + 4 * 2 + 2}
    page.locator("#hand").focus()
    page.keyboard.press("g")  # G: the command box
    expect(page.locator("#bid-text")).to_be_focused()
    page.keyboard.type("82 cuori")
    page.keyboard.press("Enter")
    sala.wait_until(page, lambda: len(script.acts()) == 2, message="the typed bid")
    assert script.acts()[-1] == {"text": "82 cuori"}


def test_information_and_history_keys_answer(
        new_page: Callable[..., Page], base_url: str) -> None:
    page, script = scripted_table(new_page, base_url)
    script.frame("sync", view(turn=1, turn_name="East bot"))
    sala.connected(page)
    script.frame("update", view(turn=1, turn_name="East bot", step=11), ["First thing."])
    script.frame("update", view(turn=1, turn_name="East bot", step=12), ["Second thing."])
    sala.wait_spoken(page, "Second thing")
    page.locator("#hand").focus()
    for key, question in (("t", "bidding"), ("o", "contract"), ("p", "points"),
                          ("w", "winner"), ("y", "team"), ("u", "summary")):
        page.keyboard.press(key)
        answer = INFO[question]

        def answered(answer: str = answer) -> bool:
            return sala.spoken(page, "assertive")[-1:] == [answer]
        sala.wait_until(page, answered, message=f"the {question} answer")
    page.keyboard.press("r")
    sala.wait_until(page, lambda: sala.spoken(page, "assertive")[-1] == "Second thing.",
                    message="R repeats the last announcement")
    page.keyboard.press(",")
    sala.wait_until(page, lambda: sala.spoken(page, "assertive")[-1]
                    == "First announcement: First thing.", message="comma steps back")
    page.keyboard.press(".")
    sala.wait_until(page, lambda: "Second thing." in sala.spoken(page, "assertive")[-1],
                    message="period steps forward")


def test_declarations_are_spoken_and_made_with_d(
        new_page: Callable[..., Page], base_url: str) -> None:
    page, script = scripted_table(new_page, base_url)
    prompt = "You may also declare: declare combinations. Press D to declare."
    script.frame("sync", view(choices=[{"action": 78, "label": "declare combinations",
                                        "declare": True}], prompt=prompt))
    sala.wait_spoken(page, re.escape(prompt))
    page.locator("#hand").focus()
    page.keyboard.press("d")
    sala.wait_until(page, lambda: script.acts(), message="the declaration")
    assert script.acts() == [{"a": 78}]


# Web Audio, recorded: the frequency of every tone the page starts.
AUDIO_STUB = """
window.__tones = [];
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.destination = {}; }
  createOscillator() {
    const o = { frequency: { value: 0 }, connect: (next) => next, stop: () => {},
                start: () => window.__tones.push(o.frequency.value) };
    return o;
  }
  createGain() { return { gain: { value: 0 }, connect: (next) => next }; }
};
"""
# When each live-region text was given, in ms of the page's clock.
TIMES = """
window.__times = [];
document.addEventListener("DOMContentLoaded", () => {
  const region = document.getElementById("polite");
  if (region) new MutationObserver(() => {
    if (region.textContent) window.__times.push([performance.now(), region.textContent]);
  }).observe(region, { childList: true, characterData: true, subtree: true });
});
"""


def settings_form(pace: str, silence: tuple[str, ...] = (), sounds: bool = False
                  ) -> Callable[[Page], None]:
    """Set the table settings with the preferences form, as a player would."""
    def prepare(page: Page) -> None:
        sala.open_table_settings(page)
        page.fill("#pref-pace", pace)
        for category in silence:
            page.locator(f"input[name=speak][value={category}]").uncheck()
        if sounds:
            page.locator("#pref-sounds").check()
        page.locator("#pref-save").click()
        page.wait_for_load_state()
        expect(page.locator("#pref-save")).to_be_focused()  # focus kept after saving
    return prepare


def test_silenced_categories_are_logged_not_spoken_and_cues_sound(
        new_page: Callable[..., Page], base_url: str) -> None:
    def prepare(page: Page) -> None:
        page.add_init_script(AUDIO_STUB)
        settings_form("0", silence=("plays",), sounds=True)(page)
    page, script = scripted_table(new_page, base_url, prepare)
    script.frame("sync", view(turn=1, turn_name="East bot"))
    sala.connected(page)
    script.raw({"t": "update", "v": 20, "d": {"view": view(turn=2, step=12, version=20),
                                              "events": [
        {"kind": "card_played", "text": "East bot plays the ace of spades."},
        {"kind": "trick_won", "text": "East bot wins the trick: 11 points."}]}})
    sala.wait_spoken(page, "East bot wins the trick")
    assert not any("plays the ace" in t for t in sala.spoken(page))
    expect(page.locator("#log")).to_contain_text("East bot plays the ace of spades.")
    tones = page.evaluate("() => window.__tones")
    assert tones == [523, 660, 880], tones  # trick won, then your turn


def test_the_pace_spaces_the_moves_a_player_hears(
        new_page: Callable[..., Page], base_url: str) -> None:
    def prepare(page: Page) -> None:
        page.add_init_script(TIMES)
        settings_form("1")(page)
    page, script = scripted_table(new_page, base_url, prepare)
    script.frame("sync", view(turn=1, turn_name="East bot"))
    sala.connected(page)
    for n, who in enumerate(("East", "South", "West")):
        script.raw({"t": "update", "v": 30 + n, "d": {
            "view": view(turn=1, step=20 + n, version=30 + n),
            "events": [{"kind": "card_played", "text": f"{who} bot plays a card."}]}})
    sala.wait_spoken(page, "West bot plays a card")
    times = [(t, found.group(1)) for t, text in page.evaluate("() => window.__times")
             if (found := re.search(r"(\w+) bot plays a card", text))]
    assert [who for _, who in times] == ["East", "South", "West"]  # in order, none lost
    gaps = [b[0] - a[0] for a, b in itertools.pairwise(times)]
    assert all(gap >= 900 for gap in gaps), gaps  # at least the chosen pace apart


# ---------------------------------------------------------------------------- live room
def test_focus_is_kept_after_sign_in_table_creation_and_preferences(
        new_page: Callable[..., Page], base_url: str) -> None:
    page = new_page()
    page.goto(base_url + "/")
    page.fill("#guest-name", "Fokus")
    page.press("#guest-name", "Enter")
    expect(page.get_by_text("Signed in as Fokus")).to_be_visible()
    # On to the tables (to sit at one, or go on to create one), not the top of the page.
    expect(page.locator("#tables-heading")).to_be_focused()
    page.fill("#target", "1")
    page.press("#target", "Enter")
    page.wait_for_url(re.compile(r"/table/\d+$"))
    sala.connected(page)
    expect(page.get_by_role("button", name="Sit North")).to_be_focused()
    page.locator("#pref-save").focus()
    page.keyboard.press("Enter")
    page.wait_for_load_state()
    sala.connected(page)
    expect(page.locator("#pref-save")).to_be_focused()


# ---------------------------------------------------------------------------- the visual table
def test_the_hand_is_in_view_unscrolled_on_a_laptop_and_a_phone_and_zoom_keeps_one_column(
        new_page: Callable[..., Page], base_url: str) -> None:
    page, script = scripted_table(new_page, base_url)
    hand = [card(code, code, "HDCS".index(code[-1])) for code in
            ("7H", "9H", "AD", "10C", "JC", "QS", "KS", "AS")]
    history = [{"hand": 1, "points": [92, 70], "totals": [92, 70]}]
    trick = [{"code": "AC", "name": "ace of clubs", "suit": 2, "seat": 0}]
    script.frame("sync", view(hand=hand, trick=trick, history=history))
    expect(page.locator("#score-rows tr")).to_have_count(1)
    expect(page.locator("#score-rows")).to_contain_text("92")
    expect(page.locator("#felt .played-top .face")).to_have_text("A♣")  # North's card
    sizes: tuple[ViewportSize, ...] = ({"width": 1280, "height": 800},
                                       {"width": 390, "height": 844})
    for size in sizes:
        page.set_viewport_size(size)
        page.evaluate("() => window.scrollTo(0, 0)")
        box = page.locator("#hand [role=option]").first.bounding_box()
        assert box is not None and box["y"] + box["height"] <= size["height"], (size, box)
    page.set_viewport_size({"width": 320, "height": 200})  # 1280x800 at 400%
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{overflow} px of horizontal scrolling at 400%"


# ---------------------------------------------------------------------------- between hands
def test_the_pause_and_the_end_of_the_match_take_the_keyboard_to_their_controls(
        new_page: Callable[..., Page], base_url: str) -> None:
    page, script = scripted_table(new_page, base_url)
    script.frame("sync", view(turn=None, phase="deal", paused=True, ready=[]))
    expect(page.locator("#next-hand")).to_be_focused()
    sala.wait_spoken(page, "Press the Next hand button")
    page.keyboard.press("Enter")
    sala.wait_until(page, lambda: any(m["t"] == "next" for m in script.sent),
                    message="the next hand asked for")
    script.frame("update", view(turn=None, phase="deal", paused=True, ready=[2]))
    expect(page.locator("#next-hand")).to_be_hidden()
    script.frame("update", view(turn=None, phase="over", finished=True, rematch=7))
    expect(page.locator("#replay-link")).to_be_focused()
    expect(page.locator("#rematch-button")).to_be_visible()
    expect(page.locator("#rematch-link")).to_have_attribute("href", "/table/7")


def test_version_comes_from_frames_that_bypass_the_pace_queue_a_move_carries_the_version_shown(
        new_page: Callable[..., Page], base_url: str) -> None:
    """Review of issue 21: the page took its version from every frame, ``done`` and ``error``
    too, which skip the pace queue; a move pressed then carried a version the player never
    saw.  The version is the view's on screen: from ``sync`` and ``update`` frames only."""
    page, script = scripted_table(new_page, base_url)
    script.frame("sync", view(step=10))
    shown = script.version
    sala.wait_spoken(page, "Your turn")
    # A refusal and a confirmation, numbered far ahead of the view on screen.
    script.raw({"t": "error", "d": {"code": "chat_too_fast", "text": "Too fast."},
                "v": shown + 7})
    script.raw({"t": "done", "d": {"move": 1}, "v": shown + 9})
    sala.wait_spoken(page, "Too fast.", region="assertive")
    page.locator("#hand").focus()
    page.keyboard.press("Enter")
    sala.wait_until(page, lambda: script.acts(), message="the card sent")
    assert script.sent[-1]["v"] == shown, script.sent[-1]
