"""The pace of speech at the table, counted in words (no clock).

Finding (issue 21): speech at the default settings ran at 754-1022 words a minute (a bot's
card alone about 600 at the 0.8 s bot pace; a bot's name cost 3-4 words each time; brief
mode hardly shortened).  Screen-reader users follow 300-450.  Now a bot is named by its seat
once introduced, brief says at most half the words of full, and the page holds each move a
pace (2 s by default; two after a trick or a hand) so that a whole match at the defaults is
at most 350 words a minute.  ``benchmarks/speech_pace.py`` measures the same in real time.
"""

from __future__ import annotations

import html
import json
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from belote.engine import actions as A
from belote.engine import events as ev
from belote.engine.dealing import seeded_deck_source
from belote.engine.state import CHANCE, Game, Phase
from belote.i18n import translate
from belote.i18n.catalog import LANGUAGES
from belote.i18n.table_info import turn_prompt
from belote.rules import PRESETS, Rules
from belote.server.app import create_app
from belote.server.bots import think
from belote.server.config import Settings
from belote.server.seats import Seat
from belote.server.settings import DEFAULT_PACE
from belote.server.view import Notice, Viewer, texts
from tests.server.conftest import client_for, make_settings
from tests.server.helpers import (
    connect,
    create_table,
    first_legal,
    guest,
    my_turn,
    receive,
    send,
    sit_with_bots,
)

GOAL_WPM = 350
ME = 2  # South
WORD = re.compile(r"\w")


def words(text: str) -> int:
    return sum(1 for token in text.split() if WORD.search(token))


@dataclass
class _Table:
    """What the room's rendering reads of a table (view.texts)."""

    seats: list[Seat]
    rules: Rules


def _record(seed: int) -> list[tuple[bool, bool, int, dict[tuple[str, str], int]]]:
    """A whole match at the lobby's default table (the first preset, its own target): South
    plays at random, three bots of the middle level the rest.  Returns, for each change the
    room would broadcast, (a move?, South's own?, the paces the next move waits if it ends a
    trick (2) or a hand (3), else 0, words heard by each (language, verbosity))."""
    rules = next(iter(PRESETS.values()))
    seats = [Seat("bot", level="normal") for _ in range(4)]
    seats[ME] = Seat("human", "Ada", "uid")
    table = _Table(seats, rules)
    game = Game(rules, first_dealer=seed % 4)
    decks = seeded_deck_source(seed)
    rng = random.Random(seed)
    frames = []
    step_said: dict[tuple[str, str], int | None] = {}
    for _ in range(5000):
        if game.is_terminal():
            break
        mover = game.current_player()
        if mover == CHANCE:
            items: list[Any] = game.deal(decks())
            own = False
        else:
            legal = game.legal_actions()
            action = rng.choice(legal) if mover == ME else think("normal", game.observation(mover))
            items = game.apply(action if action in legal else legal[0])
            own = mover == ME
        heard = {}
        kinds = {type(item) for item in items}
        for lang in LANGUAGES:
            for verbosity in ("normal", "brief"):
                said = [t["text"] for t in texts(table, items, Viewer(ME, lang, verbosity))]
                if game.current_player() == ME and not game.is_terminal():
                    # The page's "your turn" at each new turn (static/table.js receive()).
                    obs = game.observation(ME)
                    prompt = turn_prompt(obs, lang, verbosity)
                    if game.phase in (Phase.BIDDING, Phase.CUT) and prompt:
                        said.append(prompt)
                    else:
                        key = "web.js.your_turn_brief" if verbosity == "brief" else \
                            "web.js.your_turn"
                        said.append(" ".join(t for t in (translate(lang, key), prompt) if t))
                    step_said[lang, verbosity] = len(game.log)
                heard[lang, verbosity] = sum(words(t) for t in said)
        move = bool(kinds & {ev.CardPlayed, ev.BidMade})
        ends = 3 if ev.HandScored in kinds else 2 if ev.TrickWon in kinds else 0
        frames.append((move, own, ends, heard))
    assert game.is_terminal(), "the match did not end"
    return frames


def _minutes_at(pace: float, frames: list[tuple[bool, bool, int, Any]]) -> float:
    """The least time the page takes to show the match at ``pace``: each move a pace after
    the one before (two after a trick, three after a hand), the player's own at once
    (static/table.js drain(); the bots are quicker than the pace, the player answers at
    once)."""
    seconds, gap = 0.0, 1
    for move, own, ends, _ in frames:
        if move and not own:
            seconds += gap * pace
        if move or ends:
            gap = ends or 1
    return seconds / 60


def test_speech_too_fast_a_whole_match_at_the_defaults_is_at_most_350_words_a_minute() -> None:
    assert Settings().default_pace == DEFAULT_PACE
    for seed in (1, 2):
        frames = _record(seed)
        minutes = _minutes_at(DEFAULT_PACE, frames)
        for lang in LANGUAGES:
            full = sum(heard[lang, "normal"] for *_, heard in frames)
            brief = sum(heard[lang, "brief"] for *_, heard in frames)
            print(f"seed {seed} {lang}: {full / minutes:.0f} words a minute, brief "
                  f"{brief / full:.2f} of full")
            assert full / minutes <= GOAL_WPM, (seed, lang, full / minutes)
            assert brief <= 0.5 * full, (seed, lang, brief / full)


def test_speech_too_fast_bots_are_named_by_their_seat_once_introduced(
        client: TestClient) -> None:
    guest(client, "Ada")
    table_id = create_table(client)
    said: list[tuple[str, str]] = []
    with connect(client, table_id) as ws:
        sit_with_bots(ws)
        while True:  # play_to_the_end, keeping every sentence
            frame = receive(ws)
            if frame["t"] != "update":
                continue
            said.extend((e["kind"], e["text"]) for e in frame["d"]["events"])
            view = frame["d"]["view"]
            if view.get("finished"):
                break
            if my_turn(frame):
                send(ws, "act", a=A.ANNOUNCE_BELOTE if view["belote"] and
                     view["turn"] != view["seat"] else first_legal(view))
    introduced = [text for kind, text in said if "bot (normal)" in text]
    assert introduced[:3] == ["North bot (normal) joins the table.",
                              "East bot (normal) joins the table.",
                              "West bot (normal) joins the table."], introduced
    assert len(introduced) == 3, introduced  # never again
    plays = [text for kind, text in said if kind == "card_played"]
    assert any(text.startswith("West plays the ") for text in plays), plays[:8]


def test_speech_too_fast_the_room_gives_the_page_its_default_pace(tmp_path: Path) -> None:
    def page_pace(default_pace: float | None) -> float:
        changes = {} if default_pace is None else {"default_pace": default_pace}
        with client_for(create_app(make_settings(tmp_path, **changes))) as client:
            text = client.get("/").text
            found = re.search(r"data-settings='([^']*)'", text)
            assert found and 'id="pref-pace"' in text
            pace = json.loads(html.unescape(found.group(1)))["pace"]
            client.post("/preferences", data={"settings": "1", "pace": "0.5", "speak": "plays",
                                              "volume": "50", "next": "/"})
            chosen = re.search(r"data-settings='([^']*)'", client.get("/").text)
            assert chosen and json.loads(html.unescape(chosen.group(1)))["pace"] == 0.5
            return float(pace)

    assert Settings().default_pace == DEFAULT_PACE == 2.0  # what `belote serve` gives
    assert page_pace(DEFAULT_PACE) == 2.0  # until the player chooses
    assert page_pace(0.0) == 0.0  # the tests' room (conftest.py)


def test_speech_too_fast_notices_name_a_bot_in_full_only_when_it_comes_and_goes() -> None:
    rules = next(iter(PRESETS.values()))
    table = _Table([Seat("bot", level="normal") if n != ME else Seat("human", "Ada", "u")
                    for n in range(4)], rules)
    viewer = Viewer(ME, "en")
    assert texts(table, [Notice("web.notice.bot_added", {"seat": 3})], viewer)[0]["text"] == \
        "West bot (normal) joins the table."
    assert texts(table, [Notice("web.notice.quick_move", {"seat": 3})], viewer)[0]["text"] \
        .startswith("West made a quick move")
    # A player called "West" keeps the bot at West its full name.
    table.seats[ME] = Seat("human", "west", "u")
    said = texts(table, [ev.CardPlayed(3, 0, 1)], viewer)[0]["text"]
    assert said == "West bot (normal) plays the seven of hearts.", said
