"""The lobby built from the table-event bus alone: its list comes from events that crossed a
JSON wire, and what no event says (the viewer's own seats, who attends, an expiry) it asks a
directory by table id (belote/server/directory.py).  Here the directory is a stub that holds
no table: the lobby works all the same, so a bus between processes can carry it."""

from __future__ import annotations

import ast
import asyncio
import json
from collections.abc import Collection
from pathlib import Path
from typing import Any

import pytest

import belote.server.lobby as lobby_module
import belote.server.tournament.room as tournament_module
from belote.server.config import Settings
from belote.server.connection import Connection
from belote.server.directory import Attendance, LobbyTables, SeatHeld, TournamentTables
from belote.server.events import (
    MatchStarted,
    SeatsChanged,
    SeatState,
    TableClosed,
    TableEvent,
    TableFinished,
    TableOpened,
    from_wire,
    to_wire,
)
from belote.server.lobby import LobbyFeed
from belote.server.room import Room

EMPTY = (SeatState("empty"),) * 4
ADA_AT_2 = (SeatState("empty"), SeatState("bot", level="easy"), SeatState("human", "Ada"),
            SeatState("empty"))


class Directory:
    """The room as the lobby may see it: plain answers by table id, no table anywhere."""

    def __init__(self) -> None:
        self.held: list[SeatHeld] = []
        self.watchers: dict[int, int] = {}
        self.present: set[int] = set()
        self.expired: list[int] = []

    async def seats_held(self, table_ids: Collection[int],
                         uids: Collection[str]) -> list[SeatHeld]:
        return [h for h in self.held if h.table_id in table_ids and h.uid in uids]

    async def attendance(self, table_ids: Collection[int],
                         uids: Collection[str]) -> dict[int, Attendance]:
        return {tid: Attendance(self.watchers.get(tid, 0), tid in self.present)
                for tid in table_ids if tid not in self.expired}

    async def expire(self, table_id: int, uids: Collection[str]) -> bool:
        self.expired.append(table_id)
        return True


def over_the_wire(event: TableEvent) -> TableEvent:
    return from_wire(json.loads(json.dumps(to_wire(event))))


def frames(conn: Connection) -> list[dict[str, Any]]:
    sent = []
    while not conn.outbox.empty():
        frame = conn.outbox.get_nowait()
        assert frame is not None
        sent.append(json.loads(frame))
    return sent


def settings(**changes: Any) -> Settings:
    return Settings(**{"lobby_coalesce": 0.01, **changes})


async def settle(feed: LobbyFeed) -> None:
    """Until the pending changes are sent."""
    for _ in range(100):
        await asyncio.sleep(0.01)
        if not feed._pending and not feed._tasks:
            return


def test_the_lobby_lists_tables_from_wire_events_and_asks_only_for_the_viewers_fields(
) -> None:
    directory = Directory()

    async def body() -> tuple[list[dict[str, Any]], ...]:
        feed = LobbyFeed(directory, settings())
        ada, bea = Connection("uid-ada", "Ada"), Connection("uid-bea", "Bea", "fr")
        await feed.join(ada)
        await feed.join(bea)
        deliver = [TableOpened(5, 1, "classic", flags=json.dumps({"target_score": 300}),
                               seats=EMPTY),
                   TableOpened(6, 1, "classic", "Secret", True, seats=EMPTY)]
        for event in deliver:
            feed.on_event(over_the_wire(event))
        await settle(feed)
        directory.held = [SeatHeld("uid-ada", 5, 2)]
        directory.watchers[5] = 2
        feed.on_event(over_the_wire(SeatsChanged(5, 2, ADA_AT_2)))
        await settle(feed)
        page = await feed.page("en", "uid-ada", 1)
        feed.on_event(over_the_wire(MatchStarted(5, 3, 0)))
        await settle(feed)
        playing = feed.summaries("en")
        feed.on_event(over_the_wire(TableFinished(5, 9, "classic", (1, 0), ADA_AT_2, "{}")))
        await settle(feed)
        await feed.close()
        return frames(ada), frames(bea), page["tables"], playing

    ada, bea, page, playing = asyncio.run(body())
    assert [f["t"] for f in ada] == ["sync", "tables", "tables", "tables", "tables"]
    added = ada[1]["d"]
    assert [(c["op"], c["id"]) for c in added["changes"]] == [("add", 5)]  # not the private one
    assert added["say"] == ["New table 5: classic, free seats: 4."]
    table = added["changes"][0]["table"]
    assert table["free"] == 4 and table["status"] == "waiting"
    assert table["rules"] == ["The match is played to 300 points."]
    changed_for_ada = ada[2]["d"]["changes"][0]["table"]
    changed_for_bea = bea[2]["d"]["changes"][0]["table"]
    assert changed_for_ada["seats"][2] == {"name": "Ada", "kind": "human", "level": "normal",
                                           "mine": True}
    assert changed_for_ada["seated"] and changed_for_ada["watchers"] == 2
    assert not changed_for_bea["seated"] and not changed_for_bea["seats"][2]["mine"]
    assert changed_for_bea["seats"][1]["name"] == "Robot Est (facile)"  # in Bea's language
    assert "uid-ada" not in json.dumps(bea)
    assert page[0]["seats"][2]["mine"] and page[0]["seated"]
    assert [(t["id"], t["status"]) for t in playing] == [(5, "playing")]
    assert ada[4]["d"]["changes"] == [{"op": "remove", "id": 5}]
    assert ada[4]["d"]["total"] == 0


def test_a_waiting_table_nobody_attends_is_expired_through_the_directory() -> None:
    directory = Directory()

    async def body() -> tuple[LobbyFeed, list[dict[str, Any]]]:
        feed = LobbyFeed(directory, settings(waiting_table_expiry=0.05, lobby_sweep=0.01))
        listener = Connection("uid-cy", "Cy")
        await feed.join(listener)
        feed.on_event(over_the_wire(TableOpened(7, 1, "classic", seats=EMPTY)))
        feed.on_event(over_the_wire(TableOpened(8, 1, "classic", seats=ADA_AT_2)))
        directory.present.add(8)  # Ada is connected: her table stays
        await settle(feed)
        await feed.sweep(0.0)
        await feed.sweep(1.0)
        await settle(feed)
        feed.on_event(over_the_wire(TableClosed(7, 2, "expired")))  # as the room publishes
        await settle(feed)
        await feed.close()
        return feed, frames(listener)

    feed, sent = asyncio.run(body())
    assert directory.expired == [7]
    assert feed.counts["tables_expired"] == 1
    assert sent[-1]["d"]["changes"] == [{"op": "remove", "id": 7}]
    assert [r["id"] for r in feed.summaries("en")] == [8]


def imports_of(module: object) -> set[str]:
    tree = ast.parse(Path(str(getattr(module, "__file__", ""))).read_text(encoding="utf-8"))
    return {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}


@pytest.mark.parametrize("module", [lobby_module, tournament_module])
def test_the_lobby_and_tournaments_hold_no_table_object(module: object) -> None:
    names = {name for n in ast.walk(ast.parse(Path(str(getattr(module, "__file__", "")))
                                              .read_text(encoding="utf-8")))
             if isinstance(n, ast.ImportFrom) and n.module == "belote.server.table"
             for name in (a.name for a in n.names)}
    assert "Table" not in names and "belote.server.room" not in imports_of(module)


@pytest.mark.parametrize("protocol", [LobbyTables, TournamentTables])
def test_the_room_answers_every_directory_question_asynchronously(protocol: type) -> None:
    """Each question a feature may ask is async on the room (a wire can carry it)."""
    asked = [name for name in vars(protocol) if not name.startswith("_")
             and callable(getattr(protocol, name))]
    assert asked
    for name in asked:
        assert asyncio.iscoroutinefunction(getattr(Room, name)), name
