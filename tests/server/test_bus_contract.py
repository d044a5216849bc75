"""The table-event bus's contract (belote/server/bus.py), kept by every implementation: the
in-process bus the room runs on, and a loopback bus that carries each event as JSON text and
delivers it from a task of its own, as a bus between processes would (tests/server/wire_bus.py).

Order per table, every event once to every subscriber, a failing subscriber counted and
logged without stopping the others or the publisher, close delivering what was published
before it, events that round-trip through their wire form; and the whole room (lobby, ratings,
tournaments) working on the loopback bus."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from belote.server import app as app_module
from belote.server.app import create_app
from belote.server.bus import Bus, InProcessBus
from belote.server.composition import build
from belote.server.config import Settings
from belote.server.events import (
    KINDS,
    HandScored,
    MatchStarted,
    SeatsChanged,
    SeatState,
    TableBroken,
    TableClosed,
    TableEvent,
    TableFinished,
    TableOpened,
    TableUnwatched,
    from_wire,
    to_wire,
)
from tests.server.conftest import client_for, make_settings
from tests.server.helpers import connect, create_table, play_to_the_end, send
from tests.server.test_ratings import finished_record, register
from tests.server.wire_bus import LoopbackWireBus, PlainDataDirectory

BUSES: dict[str, Callable[[], Bus]] = {"in_process": InProcessBus,
                                       "loopback_wire": LoopbackWireBus}
SEATS = (SeatState("human", "Ada", account=7), SeatState("bot", level="expert"),
         SeatState("human", "Bea", standin=True), SeatState("empty"))
ONE_OF_EACH: list[TableEvent] = [
    TableOpened(1, 0, "classic", "Friday", True),
    SeatsChanged(1, 2, SEATS),
    MatchStarted(1, 3, 2),
    HandScored(1, 9, 1, (162, 0), (162, 0)),
    TableFinished(1, 40, "classic", (1002, 540), SEATS, json.dumps(finished_record())),
    TableBroken(2, 5, "act {} failed: KeyError('x')"),
    TableUnwatched(1, 41),
    TableClosed(1, 41, "finished"),
]


@pytest.fixture(params=sorted(BUSES))
def make_bus(request: pytest.FixtureRequest) -> Callable[[], Bus]:
    return BUSES[request.param]


class Recorder:
    """A subscriber that keeps what it got; ``fail_on``: table ids it raises on."""

    def __init__(self, fail_on: frozenset[int] = frozenset()) -> None:
        self.got: list[TableEvent] = []
        self.fail_on = fail_on

    def __call__(self, event: TableEvent) -> None:
        if event.table_id in self.fail_on:
            raise RuntimeError(f"subscriber bug on table {event.table_id}")
        self.got.append(event)


def interleaved(tables: int = 3, each: int = 20) -> list[TableEvent]:
    """Events of several tables, interleaved as a busy room publishes them."""
    return [HandScored(table, version, version, (version, 0), (version * 2, 0))
            for version in range(1, each + 1) for table in range(1, tables + 1)]


def run(body: Any) -> Any:
    return asyncio.run(body())


def test_every_subscriber_gets_every_event_once_and_each_tables_in_order(
        make_bus: Callable[[], Bus]) -> None:
    events = interleaved()

    async def body() -> list[Recorder]:
        bus = make_bus()
        recorders = [Recorder(), Recorder()]
        for n, recorder in enumerate(recorders):
            bus.subscribe(f"r{n}", recorder)
        await bus.open()
        for event in events:
            bus.publish(event)
        await bus.flush()
        await bus.close()
        return recorders

    for recorder in run(body):
        assert recorder.got == events  # each once, none missing, none added
        for table in (1, 2, 3):
            versions = [e.version for e in recorder.got if e.table_id == table]
            assert versions == sorted(versions)


def test_a_failing_subscriber_is_counted_and_logged_and_stops_nobody(
        make_bus: Callable[[], Bus], caplog: pytest.LogCaptureFixture) -> None:
    events = interleaved(tables=2, each=5)

    async def body() -> tuple[Bus, Recorder, Recorder]:
        bus = make_bus()
        broken, sound = Recorder(fail_on=frozenset({2})), Recorder()
        bus.subscribe("broken", broken)
        bus.subscribe("sound", sound)
        await bus.open()
        for event in events:
            bus.publish(event)  # never raises into the publisher (a table)
        await bus.close()
        return bus, broken, sound

    with caplog.at_level(logging.ERROR, logger="belote.server.bus"):
        bus, broken, sound = run(body)
    assert sound.got == events
    assert broken.got == [e for e in events if e.table_id == 1]
    assert bus.failures == {"broken": 5}
    failed = [r for r in caplog.records if "subscriber broken failed" in r.getMessage()]
    assert len(failed) == 5 and all(r.exc_info for r in failed)


def test_close_delivers_what_was_published_before_it_and_refuses_what_comes_after(
        make_bus: Callable[[], Bus], caplog: pytest.LogCaptureFixture) -> None:
    events = interleaved(tables=4, each=50)

    async def body() -> tuple[Bus, Recorder]:
        bus = make_bus()
        recorder = Recorder()
        bus.subscribe("r", recorder)
        await bus.open()
        for event in events:
            bus.publish(event)
        await bus.close()  # no flush first: close drains
        bus.publish(TableClosed(9, 1, "expired"))  # refused, counted, logged; no raise
        await asyncio.sleep(0.01)
        return bus, recorder

    with caplog.at_level(logging.ERROR, logger="belote.server.bus"):
        bus, recorder = run(body)
    assert recorder.got == events
    assert bus.dropped == 1
    assert any("after the bus closed" in r.getMessage() for r in caplog.records)


def test_an_event_published_by_a_subscriber_comes_after_the_one_it_heard(
        make_bus: Callable[[], Bus]) -> None:
    async def body() -> tuple[Recorder, Recorder]:
        bus = make_bus()
        first, second = Recorder(), Recorder()

        def closer(event: TableEvent) -> None:
            first(event)
            if isinstance(event, TableFinished):
                bus.publish(TableClosed(event.table_id, event.version, "finished"))

        bus.subscribe("closer", closer)
        bus.subscribe("second", second)
        await bus.open()
        bus.publish(ONE_OF_EACH[4])
        bus.publish(MatchStarted(1, 50, 0))
        await bus.close()
        return first, second

    first, second = run(body)
    expected = [ONE_OF_EACH[4], MatchStarted(1, 50, 0), TableClosed(1, 40, "finished")]
    if first.got[1] != expected[1]:  # in process: delivered before publish returned
        expected = [expected[0], expected[2], expected[1]]
    assert first.got == second.got == expected


def test_events_round_trip_through_their_wire_form_and_the_bus(
        make_bus: Callable[[], Bus]) -> None:
    assert {e.kind for e in ONE_OF_EACH} == set(KINDS)  # one of each kind
    for event in ONE_OF_EACH:
        wire = json.loads(json.dumps(to_wire(event)))  # plain JSON, nothing else
        assert wire["kind"] == event.kind and wire["v"] == 1
        assert from_wire(wire) == event

    async def body() -> Recorder:
        bus = make_bus()
        recorder = Recorder()
        bus.subscribe("r", recorder)
        await bus.open()
        for event in ONE_OF_EACH:
            bus.publish(event)
        await bus.close()
        return recorder

    got = run(body).got
    assert got == ONE_OF_EACH
    finished = got[4]
    assert isinstance(finished, TableFinished)
    assert finished.match_record() == finished_record()
    assert [s.seat().account for s in finished.seats] == [7, None, None, None]


@pytest.mark.parametrize(("change", "reason"), [
    (lambda w: w.update(kind="teleported"), "unknown event kind"),
    (lambda w: w.update(v=2), "wire version"),
    (lambda w: w.pop("reason"), "fields"),
    (lambda w: w.update(extra=1), "fields"),
    (lambda w: w.update(table_id="1"), "whole numbers"),
])
def test_a_bad_wire_event_is_refused_clearly(change: Callable[[dict[str, Any]], Any],
                                             reason: str) -> None:
    wire = to_wire(TableClosed(3, 4, "expired"))
    change(wire)
    with pytest.raises(ValueError, match=reason):
        from_wire(wire)


def test_a_seat_on_the_wire_carries_no_session_id() -> None:
    wire = to_wire(ONE_OF_EACH[1])
    assert all("owner" not in seat for seat in wire["seats"])
    with pytest.raises(ValueError, match="seats event"):
        from_wire({**wire, "seats": [{"kind": "human", "owner": "x"}]})


def test_a_subscriber_name_is_taken_once(make_bus: Callable[[], Bus]) -> None:
    bus = make_bus()
    bus.subscribe("lobby", Recorder())
    with pytest.raises(ValueError, match="already"):
        bus.subscribe("lobby", Recorder())


def test_the_room_and_its_features_work_on_the_loopback_wire_bus(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The lobby lists, ratings record and the bus carries only JSON: no subscriber relied
    on the table object (the lobby's list is built from the delivered events alone, see
    test_lobby_events.py; what no event says it asks the room by id)."""
    wire = LoopbackWireBus()
    asked: list[PlainDataDirectory] = []

    def on_the_wire(settings: Settings, offload: Any = None) -> Any:
        services = build(settings, offload, bus=wire)
        # The lobby and tournaments ask the room as across a wire: plain data only.
        for feature in (services.lobby, services.tournaments):
            feature.directory = PlainDataDirectory(services.room)
            asked.append(feature.directory)
        return services

    monkeypatch.setattr(app_module, "build", on_the_wire)
    app = create_app(make_settings(tmp_path))
    with client_for(app) as client:
        register(client, "Ada Lovelace")
        table_id = create_table(client, target=1)
        assert client.portal is not None
        client.portal.call(wire.flush)  # delivered later, as from another process
        assert app.state.lobby.summaries("en")[0]["id"] == table_id
        assert f'href="/table/{table_id}"' in client.get("/").text
        with connect(client, table_id) as ws:
            send(ws, "sit", seat=0)
            for seat in (1, 2, 3):
                send(ws, "bot", seat=seat, level="easy")
            send(ws, "start")
            play_to_the_end(ws)
        client.portal.call(wire.flush)
        client.portal.call(app.state.ratings.close)
        assert "Matches played: 1." in client.get("/players/Ada%20Lovelace").text
        assert app.state.lobby.summaries("en") == []
    assert wire.sent > 0 and wire.failures == {}
    assert asked[0].asked["seats_held"] and asked[0].asked["attendance"]
