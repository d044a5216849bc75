"""No frame sent to a client ever holds a card that its seat may not see (issue 5, item 7).

Whole matches are played through the WebSocket (one scripted human, three bots, two
spectators) on every preset.  Afterwards the table's stored log is replayed version by version
to know, for each frame, what its receiver was allowed to know at that version: its own cards
so far, every card played or turned up, every card shown with a declaration.  Every card in the
frame (codes in the view, names in every sentence) must be in that set.

The room runs as one process, then as two (issue 26, item 7: tests/server/room_under_test.py):
there the table runs in process 0, the human and one spectator reach it through process 1
(every frame they get is relayed) and the other spectator directly.
"""

from __future__ import annotations

from typing import Any

import pytest

from belote.engine.state import Game
from belote.i18n import card_name
from belote.notation import parse_card
from belote.server.persistence import LogEntry
from tests.server.helpers import first_legal, receive, send
from tests.server.room_under_test import Sala, sala

__all__ = ["sala"]  # the fixture: the room as one process, then as two

HUMAN = 2
OWNER, RELAYED = 0, 1  # through the process running the table, or through the other

CARD_NAMES = {card_name(card, "en"): card for card in range(32)}


def _allowed_by_version(entries: list[LogEntry], rules: Any, seat: int | None
                        ) -> dict[int, int]:
    """For each version, the cards ``seat`` (None: a spectator) may have seen by then."""
    allowed = 0
    by_version: dict[int, int] = {0: 0}
    game: Game | None = None
    for entry in entries:
        if entry.kind == "start":
            game = Game(rules, entry.data["first_dealer"])
        elif entry.kind == "deal":
            assert game is not None
            game.deal(entry.data["deck"])
        elif entry.kind == "act":
            assert game is not None
            game.apply(entry.data["action"], entry.data["seat"])
        if game is not None:
            if seat is not None:
                allowed |= game.hands[seat]
            allowed |= game.played
            for card in game.trick:
                allowed |= 1 << card
            if game.turned >= 0:
                allowed |= 1 << game.turned
            for shown in game.shown_cards:
                allowed |= shown
        by_version[entry.version] = allowed
    return by_version


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _cards_in_frame(frame: dict[str, Any]) -> set[int]:
    found: set[int] = set()
    view = frame["d"].get("view") or {}
    for key in ("hand", "trick", "last_trick"):
        found.update(parse_card(c["code"]) for c in view.get(key) or [])
    if view.get("turned"):
        found.add(parse_card(view["turned"]["code"]))
    for text in _strings(frame["d"]):
        found.update(card for name, card in CARD_NAMES.items() if name in text)
    return found


def _drain(ws: Any) -> list[dict[str, Any]]:
    frames = []
    while True:
        frame = receive(ws)
        frames.append(frame)
        if frame["d"].get("view", {}).get("finished"):
            return frames


@pytest.mark.parametrize("preset,target", [
    ("classic", 300), ("coinche", 300), ("italian", 200), ("pinasca", 400),
    ("valdostana", 200),
])
def test_no_frame_holds_a_card_its_receiver_may_not_see(sala: Sala, preset: str,
                                                         target: int) -> None:
    sala.guest("Ada")
    table_id = sala.create_table("Ada", preset, target)
    human_frames: list[dict[str, Any]] = []
    with (sala.connect("Ada", table_id, via=RELAYED) as ws,
          sala.connect("watcher", table_id, via=RELAYED) as relayed_spectator,
          sala.connect("watcher", table_id, via=OWNER) as spectator):
        send(ws, "sit", seat=HUMAN)
        for seat in (0, 1, 3):
            send(ws, "bot", seat=seat, level="normal")
        send(ws, "start")
        while True:
            frame = receive(ws)
            human_frames.append(frame)
            view = frame["d"].get("view", {})
            if view.get("finished"):
                break
            if frame["t"] != "update" or not view.get("started"):
                continue
            if view["belote"]:
                send(ws, "act", a=72)
            elif view["turn"] == HUMAN and (view["choices"] or any(
                    c["playable"] for c in view["hand"])):
                send(ws, "act", a=first_legal(view))
        spectators = [_drain(relayed_spectator), _drain(spectator)]
    entries = sala.log(table_id)
    rules = sala.rules(table_id)
    assert entries[-1].kind == "finish"  # the match ended, and is stored so
    for seat, frames in ((HUMAN, human_frames), (None, spectators[0]), (None, spectators[1])):
        allowed = _allowed_by_version(entries, rules, seat)
        assert len(frames) > 30  # a whole match: at least one hand of 32 cards
        for frame in frames:
            seen = _cards_in_frame(frame)
            leaked = {c for c in seen if not allowed[frame["v"]] >> c & 1}
            assert not leaked, (seat, frame["v"], sorted(leaked), frame)
        hands = [f["d"]["view"].get("hand") for f in frames if "view" in f["d"]]
        if seat is None:
            assert all(not h for h in hands)  # a spectator never holds a hand
        else:
            assert any(hands)
