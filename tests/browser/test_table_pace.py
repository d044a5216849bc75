"""The pace of what the table page says, and its key (issue 21).

Finding: speech at the default settings ran at 754-1022 words a minute, faster than
screen-reader users follow (300-450).  The page holds each move a pace (the room's default
until the player chooses; two after a trick, three after a hand), never the player's own
move, and V takes the keyboard to the pace from the table.
"""

from __future__ import annotations

import itertools
import json
import os
import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from belote.server.keys import help_rows
from tests.browser import sala
from tests.browser.test_table_ux import TIMES, scripted_table, settings_form, view

SHOTS = os.environ.get("BELOTE_PACE_SHOTS")  # a folder to keep the pictures in


def _update(script: Any, the_view: dict[str, Any], *events: tuple[str, str]) -> None:
    script.version += 1
    script.raw({"t": "update", "v": script.version, "d": {
        "view": dict(the_view, version=script.version),
        "events": [{"kind": kind, "text": text} for kind, text in events]}})


def _paced_table(new_page: Callable[..., Page], base_url: str, first_script: str,
                 pace: str) -> tuple[Page, Any]:
    """A scripted table page at ``pace``, ``first_script`` run before the page's own,
    East to play (none of the frames to come is the player's own move)."""
    def prepare(page: Page) -> None:
        page.add_init_script(first_script)
        settings_form(pace)(page)
    page, script = scripted_table(new_page, base_url, prepare)
    script.frame("sync", view(turn=1, turn_name="East", step=20))
    sala.connected(page)
    return page, script


def test_speech_too_fast_moves_are_held_a_pace_longer_after_a_trick_never_your_own(
        new_page: Callable[..., Page], base_url: str) -> None:
    page, script = _paced_table(new_page, base_url, TIMES, "1")
    _update(script, view(turn=2, step=21), ("card_played", "East plays a card."))
    _update(script, view(turn=3, step=22), ("card_played", "You played a card."))
    _update(script, view(turn=3, step=23), ("card_played", "West plays a card."),
            ("trick_won", "West wins the trick."))
    _update(script, view(turn=0, step=24), ("card_played", "West leads a card."))
    sala.wait_spoken(page, "West leads a card", timeout=15_000)
    said = {}
    for at, text in page.evaluate("() => window.__times"):
        for key in ("East plays", "You played", "West plays", "West leads"):
            if key in text and key not in said:
                said[key] = at
    assert list(said) == ["East plays", "You played", "West plays", "West leads"], said
    gaps = [b - a for a, b in itertools.pairwise(said.values())]
    assert gaps[0] < 600, gaps  # your own card is never held
    assert gaps[1] >= 900, gaps  # a pace after it
    assert gaps[2] >= 1800 and gaps[2] > gaps[1] + 500, gaps  # two paces after a trick


def test_speech_too_fast_v_takes_the_keyboard_to_the_pace_and_saving_comes_back(
        new_page: Callable[..., Page], base_url: str) -> None:
    assert ("V", "Go to the pace: the pause between the moves you hear (just before it: full "
            "or brief announcements; Enter saves)") in help_rows("en")
    page, script = scripted_table(new_page, base_url)
    script.frame("sync", view(turn=1, turn_name="East"))
    sala.connected(page)
    page.keyboard.press("F1")
    expect(page.locator("#keys-help")).to_contain_text("Go to the pace")
    page.keyboard.press("Escape")
    page.locator("#hand").focus()
    page.keyboard.press("v")
    field = page.locator("#pref-pace")
    expect(field).to_be_focused()
    expect(page.get_by_label(re.compile("^Pause between the moves you hear"))).to_be_focused()
    # The verbosity is the field just before it.
    page.keyboard.press("Shift+Tab")
    expect(page.locator("#pref-verbosity")).to_be_focused()
    page.keyboard.press("Tab")
    page.keyboard.press("Control+A")
    page.keyboard.type("0.5")
    page.keyboard.press("Enter")  # saved in place: no reload (see the test below)
    sala.wait_spoken(page, "Saved.", region="assertive")
    expect(page.locator("#hand")).to_be_focused()  # back at the table, not the header
    assert page.evaluate("() => JSON.parse(document.body.dataset.settings).pace") == 0.5


def test_the_v_keys_pace_change_loses_queued_announcements_and_held_moves_saving_is_in_place(
        new_page: Callable[..., Page], base_url: str) -> None:
    """Review of issue 21: saving the pace (V, then Enter) reloaded the page, so the moves
    waiting for the pace were never said and the moves held (sent, not yet confirmed) were
    forgotten.  The table page saves in place and applies the new pace to what waits."""
    def prepare(page: Page) -> None:
        settings_form("3")(page)
    page, script = scripted_table(new_page, base_url, prepare)
    script.frame("sync", view(step=10))
    sala.wait_spoken(page, "Your turn")
    page.evaluate("() => { window.__same_page = true; }")
    page.locator("#hand").focus()
    page.keyboard.press("Enter")  # the king of hearts: sent, held until the room answers
    sala.wait_until(page, lambda: script.acts(), message="the card sent")
    held = script.sent[-1]["d"]["m"]
    # The card's own frame (never held), then three moves of the others, waiting 3 s each.
    _update(script, view(turn=3, step=11, hand=[view()["hand"][1]]),
            ("card_played", "You played the king of hearts."))
    for n, (seat, name) in enumerate([(3, "West"), (0, "North"), (1, "East")]):
        _update(script, view(turn=(seat + 1) % 4, step=12 + n, hand=[view()["hand"][1]]),
                ("card_played", f"{name} plays card {n}."))
    sala.wait_spoken(page, "West plays card 0", timeout=15_000)  # 3 s pace, slack when busy
    # V, a faster pace, Enter: saved where the player is; nothing waiting is lost.
    page.keyboard.press("v")
    expect(page.locator("#pref-pace")).to_be_focused()
    page.keyboard.press("Control+A")
    page.keyboard.type("0.5")
    page.keyboard.press("Enter")
    sala.wait_spoken(page, "Saved.", region="assertive")
    expect(page.locator("#hand")).to_be_focused()
    sala.wait_spoken(page, "North plays card 1", timeout=3_000)  # the new pace, not 3 s
    sala.wait_spoken(page, "East plays card 2", timeout=3_000)
    assert page.evaluate("() => window.__same_page === true"), "the page was reloaded"
    assert page.evaluate("() => JSON.parse(document.body.dataset.settings).pace") == 0.5
    # The held card is still held: its late confirmation is understood and said.
    script.raw({"t": "done", "d": {"move": held, "already": True}, "v": script.version})
    sala.wait_spoken(page, re.escape("Your move, king of hearts, had arrived: it is played."))
    # Saved in the session too: a later page has the new pace.
    page.reload()
    assert page.evaluate("() => JSON.parse(document.body.dataset.settings).pace") == 0.5


def _lag(frames: sala.Frames, logged: list[str]) -> int:
    """How many update frames came after the last one whose sentences are at the end of the
    log (the last three lines are matched as a sequence, so a repeated "North passes." does
    not match an old frame for a new one)."""
    updates = [json.loads(raw) for raw in list(frames.raw)]
    texts: list[tuple[int, str]] = []  # (frame index, sentence), in order
    for n, frame in enumerate(f for f in updates if f.get("t") == "update"):
        texts.extend((n, event["text"]) for event in frame["d"]["events"])
    count = 1 + max((n for n, _ in texts), default=-1)
    tail = logged[-3:]
    for end in range(len(texts), len(tail) - 1, -1):
        if [t for _, t in texts[end - len(tail):end]] == tail:
            return count - 1 - texts[end - 1][0]
    return count


def test_spectators_fall_further_and_further_behind_the_page_catches_up_saying_how_many_moves(
        new_page: Callable[..., Page], base_url: str) -> None:
    """Review of issue 21: a spectator's frames are all paced (none is its own move); at an
    all-bot table the queue grew without bound.  With more than eight moves waiting the page
    catches up: shows them, writes them in the log, and says one sentence instead."""
    player = new_page()
    sala.guest(player, base_url, "Zoe")
    table = sala.create_table(player, target="")
    sala.click_sit(player, "South")
    sala.click_bots(player, "North", "East", "West")
    sala.click_start(player)
    player.get_by_role("button", name="Stand up").click()  # a bot plays for Zoe: all bots
    sala.wait_spoken(player, "A bot plays for Zoe")

    watcher = new_page()
    sala.guest(watcher, base_url, "Eve")
    settings_form("1.5")(watcher)
    frames = sala.Frames(watcher)
    watcher.goto(f"{base_url}/table/{table}")
    sala.connected(watcher)
    said = sala.wait_spoken(watcher, r"Skipped \d+ moves to keep up with the table\.",
                            timeout=20_000)
    # the sentence may come in one announcement with the moves said before it
    skipped = re.search(r"Skipped (\d+) moves", said)
    assert skipped and int(skipped[1]) >= 8, said  # all that waited but the newest
    watcher.wait_for_timeout(6_000)  # bots play ~20 moves a second; the pace is 1.5 s
    # Frames are counted as the network hears them, and a busy page's script may not have
    # taken the last second's yet: the lag is sampled a few times and the least is bounded.
    # An unbounded queue would be over a hundred frames behind by now, at every sample.
    lags: list[tuple[int, list[str]]] = []
    for _ in range(6):
        logged = watcher.locator("#log li").all_inner_texts()
        lags.append((_lag(frames, logged), logged[-3:]))
        if lags[-1][0] <= 9 + 10:
            break
        watcher.wait_for_timeout(500)
    assert min(lag for lag, _ in lags) <= 9 + 10, lags  # at most 9 waiting, and arriving
    # Said once per catching up, each time one sentence; never the skipped moves' sentences.
    skips = [t for t in sala.spoken(watcher) if "to keep up with the table" in t]
    assert skips and all(t.count("Skipped") == 1 for t in skips), skips


# Keeps the table page's socket (the mock of route_web_socket or a real one) where the
# test can hand it a burst of frames in one task, as a busy device takes them.
_KEEP_TABLE_SOCKET = """
(() => {
  const add = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, listener, options) {
    if (type === "message" && String(this.url || "").includes("/ws/table/")) {
      window.__tableSocket = this;
    }
    return add.call(this, type, listener, options);
  };
})();
"""


def _burst(page: Page, script: Any, moves: list[tuple[str, int]]) -> None:
    """The frames of ``moves`` (a sentence, and whose turn it is after it) handed to the
    page in one task, as a busy device takes them."""
    sala.wait_until(page, lambda: page.evaluate("() => Boolean(window.__tableSocket)"),
                    message="the table socket kept")
    frames = []
    for n, (text, turn) in enumerate(moves, start=1):
        script.version += 1
        frames.append({"t": "update", "v": script.version, "d": {
            "view": view(turn=turn, turn_name="Ada" if turn == 2 else "East", step=20 + n,
                         version=script.version),
            "events": [{"kind": "card_played", "text": text}]}})
    page.evaluate("""(frames) => { for (const frame of frames) {
        window.__tableSocket.dispatchEvent(
          new MessageEvent("message", { data: JSON.stringify(frame) })); } }""", frames)


def test_catching_up_twice_before_the_first_is_said_is_one_sentence_for_both(
        new_page: Callable[..., Page], base_url: str) -> None:
    """A busy device takes the frames in bursts: a CI run caught up twice before the
    first catching up was said, and one announcement said "Skipped 8 moves ... Skipped 8
    moves".  Caught up again before it was said, the page says one sentence counting both
    and the move drawn between them (its words were not said either); the log has every
    move."""
    page, script = _paced_table(new_page, base_url, _KEEP_TABLE_SOCKET, "1.5")
    _burst(page, script, [(f"Move {n} is played.", 1) for n in range(1, 21)])
    # Move 1 said; 2 to 9 skipped, 10 drawn; 11 to 18 skipped; 19 said; 20 waits its pace.
    said = sala.wait_spoken(page, r"Skipped \d+ moves to keep up with the table\.")
    assert "Skipped 17 moves to keep up with the table. Move 19 is played." in said, said
    assert said.count("Skipped") == 1 and "Move 10 " not in said, said
    sala.wait_spoken(page, "Move 20 is played", timeout=15_000)
    skips = [t for t in sala.spoken(page) if "Skipped" in t]
    assert len(skips) == 1, skips
    logged = page.locator("#log li").all_inner_texts()
    assert all(any(f"Move {n} is played." in line for line in logged) for n in range(1, 21)), \
        logged


def test_the_players_own_move_between_two_catchings_up_is_still_said(
        new_page: Callable[..., Page], base_url: str) -> None:
    """Review of the merged catching up: only the skipped sentence and the others' moves
    drawn after it give way to the one sentence; the player's own move drawn between them
    (it answers a key just pressed) is still said."""
    page, script = _paced_table(new_page, base_url, _KEEP_TABLE_SOCKET, "1.5")
    moves = [(f"Move {n} is played.", 1) for n in range(1, 10)]
    moves += [("Move 10 is played.", 2), ("You played the king of hearts.", 3)]
    moves += [(f"Move {n} is played.", 3) for n in range(12, 22)]
    _burst(page, script, moves)
    # Move 1 said; 2 to 9 skipped, 10 drawn (Ada's turn), 11 hers (never held); 12 to 19
    # skipped; 20 said; 21 waits its pace.
    said = sala.wait_spoken(page, r"Skipped \d+ moves to keep up with the table\.")
    assert said.startswith("Move 1 is played. You played the king of hearts. Skipped 17 moves "
                           "to keep up with the table. Move 20 is played."), said
    assert "Move 10 " not in said and "Your turn" not in said, said
    sala.wait_spoken(page, "Move 21 is played", timeout=15_000)
    assert len([t for t in sala.spoken(page) if "Skipped" in t]) == 1, sala.spoken(page)


def test_the_v_keys_pace_change_in_place_a_new_verbosity_takes_a_new_socket_and_the_theme_applies(
        new_page: Callable[..., Page], base_url: str, tmp_path: Any) -> None:
    page, script = scripted_table(new_page, base_url)
    script.frame("sync", view(turn=1, turn_name="East"))
    sala.connected(page)
    first = script.socket
    page.evaluate("() => { window.__same_page = true; }")
    sala.open_table_settings(page)
    page.select_option("#pref-theme", "dark")
    page.select_option("#pref-verbosity", "brief")
    page.locator("#pref-pace").focus()
    page.keyboard.press("Enter")
    sala.wait_spoken(page, "Saved.", region="assertive")
    expect(page.locator("body")).to_have_class(re.compile(r"\btheme-dark\b"))
    assert page.evaluate("() => document.getElementById('game').dataset.verbosity") == "brief"
    sala.wait_until(page, lambda: script.socket is not first, message="a new socket")
    assert page.evaluate("() => window.__same_page === true"), "the page was reloaded"
    page.screenshot(path=str(tmp_path / "saved-in-place.png"))
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/saved-in-place.png")
