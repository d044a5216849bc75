"""Frames rendered once per kind of viewer and shared; information answered when asked.

A broadcast builds one frame per (seat or spectator, language, verbosity) and sends that
very string to every connection of the kind; a seat's frame holds that seat's hand alone, a
spectator's none; what is one connection's own (its sync, its errors) is its own.  The
information keys (T, O, P, W, Y, U) are answered on request, for the asker's seat only.
"""

from __future__ import annotations

import json
from typing import Any, cast

import pytest
from starlette.testclient import TestClient

from belote.cards import cards_in
from belote.engine.dealing import seeded_deck_source
from belote.engine.state import CHANCE, Game
from belote.i18n import card_name, translate
from belote.i18n.table_info import INFO_QUESTIONS, info_text
from belote.notation import to_card
from belote.server import frames as frames_module
from belote.server.connection import Connection
from belote.server.seats import Seat, seat_names
from belote.server.table import Table, TableLimits
from belote.server.view import Item, Notice, Viewer, view_frame
from tests.server.helpers import (
    Identities,
    ask_info,
    connect,
    create_table,
    guest,
    my_turn,
    receive,
    send,
    sit_with_bots,
    until,
)

HUMAN = 2
CARD_NAMES = {card_name(card, "en"): card for card in range(32)}


def _table(seed: int = 3) -> Table:
    """A classic table, dealt, with a person at South and three bots (nothing stored: the
    tests broadcast by hand)."""
    table = Table(1, "classic", {}, cast(Any, None), cast(Any, None))
    table.seats = [Seat("bot") for _ in range(4)]
    table.seats[HUMAN] = Seat("human", "Ada", "uid-ada")
    table.game = Game(table.rules, first_dealer=seed % 4)
    table.game.deal(seeded_deck_source(seed)())
    return table


def _outbox(conn: Connection) -> list[str]:
    sent = []
    while not conn.outbox.empty():
        frame = conn.outbox.get_nowait()
        assert frame is not None
        sent.append(frame)
    return sent


def _cards_named(raw: str) -> set[int]:
    """Every card a frame names: by its code in the view, or by its name in a sentence."""
    frame = json.loads(raw)
    view = frame["d"].get("view") or {}
    found = {c for name, c in CARD_NAMES.items() if name in raw}
    codes = {to_card(c): c for c in range(32)}
    for key in ("hand", "trick", "last_trick"):
        found |= {codes[c["code"]] for c in view.get(key) or []}
    return found


def test_connections_of_one_kind_share_one_frame_built_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    table = _table()
    built: list[Viewer] = []
    real = view_frame

    def counting(*args: Any, **kwargs: Any) -> str:
        built.append(args[3])
        return real(*args, **kwargs)

    monkeypatch.setattr(frames_module, "view_frame", counting)  # what SharedFrames calls
    ada_tab, ada_phone = Connection("uid-ada", "Ada", "en"), Connection("uid-ada", "Ada", "en")
    ada_brief = Connection("uid-ada", "Ada", "en", "brief")
    watchers = [Connection(f"spectator-{n}", "", "en") for n in range(3)]
    french = Connection("spectator-fr", "", "fr")
    table.connections = {ada_tab, ada_phone, ada_brief, *watchers, french}
    table._broadcast([])
    assert sorted(built, key=repr) == sorted(
        [Viewer(HUMAN, "en"), Viewer(HUMAN, "en", "brief"), Viewer(None, "en"),
         Viewer(None, "fr")], key=repr)  # four kinds of viewer: four frames for seven
    assert (table.frames_built, table.frames_sent) == (4, 7)
    [tab], [phone], [brief] = _outbox(ada_tab), _outbox(ada_phone), _outbox(ada_brief)
    assert tab is phone  # the same string, not an equal one
    assert brief is not tab  # built apart (its sentences may be shorter)
    seen = [_outbox(w) for w in watchers]
    assert all(s[0] is seen[0][0] for s in seen)
    assert _outbox(french)[0] != seen[0][0]


def test_a_seat_frame_holds_its_hand_alone_and_a_spectator_frame_no_hand_card() -> None:
    table = _table()
    game = table.game
    assert game is not None
    ada, watcher = Connection("uid-ada", "Ada", "en"), Connection("spectator-1", "", "en")
    table.connections = {ada, watcher}
    items: list[Item] = []
    for _ in range(40):  # the auction and the first tricks, one broadcast per change
        table._broadcast(items)
        public = set(range(32)) - {c for hand in game.hands for c in cards_in(hand)}
        turned = game.observation(None).turned
        public |= {turned} if turned is not None else set()
        [seat_frame], [spectator_frame] = _outbox(ada), _outbox(watcher)
        hand = json.loads(seat_frame)["d"]["view"]["hand"]
        assert {c["code"] for c in hand} == {to_card(c) for c in cards_in(game.hands[HUMAN])}
        assert _cards_named(seat_frame) <= public | set(cards_in(game.hands[HUMAN]))
        assert json.loads(spectator_frame)["d"]["view"]["hand"] == []
        assert _cards_named(spectator_frame) <= public, spectator_frame
        if game.is_terminal() or game.current_player() == CHANCE:
            break
        items = list(game.apply(game.legal_actions()[0]))


def test_a_sync_is_its_connections_own() -> None:
    table = _table()
    ada, watcher = Connection("uid-ada", "Ada", "en"), Connection("spectator-1", "", "en")
    table.connections = {ada, watcher}
    table._sync(ada, away=[0])  # what a bot played for Ada: said to her alone
    [sync] = _outbox(ada)
    assert json.loads(sync)["t"] == "sync"
    assert any(e["kind"] == "away_summary" for e in json.loads(sync)["d"]["events"])
    assert _outbox(watcher) == []


def test_whole_view_syncs_are_built_once_per_kind_of_viewer_until_the_table_changes(
        ) -> None:
    # (review of issue 22: a reconnect storm built one sync per connection)
    table = _table()
    adas = [Connection("uid-ada", "Ada", "en") for _ in range(4)]
    watchers = [Connection(f"spectator-{n}", "", "en") for n in range(4)]
    french = Connection("spectator-fr", "", "fr")
    for conn in (*adas, *watchers, french):  # they join (or say hello with since=0)
        table.connections.add(conn)
        table._sync(conn)
    assert (table.frames_built, table.frames_sent) == (3, 9)  # three kinds of viewer
    [first], *others = [_outbox(c) for c in adas]
    assert all(sent[0] is first for sent in others)  # the same string
    assert first == view_frame(table, "sync", [], Viewer(HUMAN, "en"))  # a sync as built
    for conn in (*watchers, french):
        _outbox(conn)
    # Presence changes bump no version: the next sync is of the table as it is now
    table.seats[HUMAN].away_since = 1.0
    table._broadcast([])
    built = table.frames_built
    table._sync(watchers[0])
    [_update, resync] = _outbox(watchers[0])
    assert table.frames_built == built + 1
    assert json.loads(resync)["d"]["view"]["seats"][HUMAN]["away"] is True
    # What a connection missed (since) or what was played for it (away) stays its own
    table.version += 1
    table.recent.append((table.version, Notice("sala.notice.ready", {"seat": HUMAN})))
    built = table.frames_built
    table._sync(watchers[1], since=table.version)
    table._sync(watchers[2], since=table.version)
    table._sync(adas[0], away=[0])
    assert table.frames_built == built + 3


def test_information_is_answered_for_the_askers_seat(client: TestClient) -> None:
    guest(client, "Ada")
    table_id = create_table(client)
    with connect(client, table_id) as ws:
        sit_with_bots(ws, seat=HUMAN)
        # My turn: the game waits for me, so the answers are of this very view.
        view = until(ws, lambda f: f["t"] == "update" and my_turn(f))["d"]["view"]
        assert "info" not in view  # made when a key asks, not in every frame
        answers = ask_info(ws)
        table = client.app.state.room.tables[table_id]  # type: ignore[attr-defined]
        assert table.game is not None
        obs = table.game.observation(HUMAN)
        names = seat_names(table.seats, "en")
        assert answers == {q: info_text(q, obs, "en", names) for q in INFO_QUESTIONS}


def test_a_spectator_is_answered_from_the_public_view(client: TestClient) -> None:
    people = Identities(client)
    table_id = create_table(people.guest("Ada"))
    with people.connect("Ada", table_id) as ws, people.connect("watcher", table_id) as watcher:
        sit_with_bots(ws, seat=HUMAN)
        until(watcher, lambda f: f["t"] == "update" and f["d"]["view"]["started"])
        answers = ask_info(watcher)
    assert answers["summary"] == translate("en", "web.js.no_cards")
    assert answers["team"] == translate("en", "sala.info.watching")
    assert not any(name in answers["summary"] for name in CARD_NAMES)


def test_information_asked_too_fast_is_refused_and_counted(client: TestClient) -> None:
    guest(client, "Ada")
    table_id = create_table(client)
    limits = TableLimits()
    with connect(client, table_id) as ws:
        sit_with_bots(ws, seat=HUMAN)
        until(ws, lambda f: f["t"] == "update" and f["d"]["view"]["started"])
        asked = limits.info_burst + 8
        for _ in range(asked):
            send(ws, "info", key="points")
        answers: list[dict[str, Any]] = []
        while len(answers) < asked:
            frame = receive(ws)
            if frame["t"] in ("info", "error"):
                answers.append(frame)
    refused = [f for f in answers if f["t"] == "error"]
    assert refused and all(f["d"]["code"] == "info_too_fast" for f in refused)
    assert refused[0]["d"]["text"].startswith("You are pressing the information keys")
    assert len(answers) - len(refused) >= limits.info_burst
    table = client.app.state.room.tables[table_id]  # type: ignore[attr-defined]
    assert table.info_refusals == len(refused)


@pytest.mark.parametrize("data", [{}, {"key": "hand"}, {"key": 7}])
def test_a_malformed_information_request_changes_nothing(
        client: TestClient, data: dict[str, Any]) -> None:
    guest(client, "Ada")
    table_id = create_table(client)
    with connect(client, table_id) as ws:
        version = receive(ws)["v"]  # the sync
        ws.send_text(json.dumps({"t": "info", "d": data}))
        error = receive(ws)
        assert (error["t"], error["d"]["code"]) == ("error", "bad_field")
        send(ws, "ping", n=1)
        assert receive(ws)["t"] == "pong"  # nothing else was sent meanwhile
    table = client.app.state.room.tables[table_id]  # type: ignore[attr-defined]
    assert table.version == version and table.info_refusals == 0


def test_a_whole_history_sync_makes_each_old_sentence_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The shared sync carries the whole history (up to RECENT items) and is rebuilt after
    every change: the sentences of the items it carried already are kept per kind of viewer,
    only the new items' are made (the loop is not held re-making a match's sentences)."""
    from belote.server import table as table_module

    made: list[int] = []
    real = table_module.texts

    def counting(*args: Any, **kwargs: Any) -> Any:
        made.append(len(args[1]))
        return real(*args, **kwargs)

    monkeypatch.setattr(table_module, "texts", counting)
    table = _table()
    for n in range(300):  # one change may bring several items (three here)
        table.version += n % 3 == 0
        table.recent.append((table.version, Notice("sala.notice.ready", {"seat": n % 4})))
    ada, watcher = Connection("uid-ada", "Ada", "en"), Connection("spectator-1", "", "it")
    table.connections.update({ada, watcher})
    first = table._shared_sync(ada), table._shared_sync(watcher)
    assert sum(made) == 600  # every item once for each kind of viewer
    table.version += 1
    table.recent.append((table.version, Notice("sala.notice.ready", {"seat": 1})))
    made.clear()
    again = table._shared_sync(ada), table._shared_sync(watcher)
    assert sum(made) == 2  # the new item only, for each kind
    items = [item for _, item in table.recent]
    for before, after, viewer in zip(first, again, (Viewer(HUMAN, "en"), Viewer(None, "it")),
                                     strict=True):
        old, new = json.loads(before)["d"]["events"], json.loads(after)["d"]["events"]
        assert new[:-1] == old and len(new) == len(old) + 1
        assert new == real(table, items, viewer)  # each item's own sentences, in order
