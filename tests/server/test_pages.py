"""Every page in every language (issue 5, items 2 and 5), the lobby's forms, the bot pool."""

from __future__ import annotations

import asyncio
import os

import pytest
from starlette.testclient import TestClient

from belote.engine.state import Game
from belote.i18n import LANGUAGES
from belote.rules import find_preset
from belote.server.bots import BotPool
from tests.server.helpers import (
    connect,
    create_table,
    guest,
    play_to_the_end,
    sit_with_bots,
    until,
)

PAGES = ("/", "/login", "/register", "/table/1", "/replay/1", "/fragment/tables")


def _finished_table(client: TestClient) -> int:
    table_id = create_table(client, target=1)
    with connect(client, table_id) as ws:
        sit_with_bots(ws, level="easy")
        play_to_the_end(ws)
    return table_id


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_speaks_the_players_language(client: TestClient, lang: str) -> None:
    guest(client, "Ada")
    client.post("/preferences", data={"lang": lang, "verbosity": "brief"})
    finished = _finished_table(client)
    create_table(client)
    for path in PAGES:
        path = path.replace("/replay/1", f"/replay/{finished}").replace(
            "/table/1", f"/table/{finished + 1}")
        page = client.get(path)
        assert page.status_code == 200, path
        if path != "/fragment/tables":
            assert f'<html lang="{lang}">' in page.text
    if lang != "en":  # nothing left in English on the lobby
        assert "Create a table" not in client.get("/").text


def test_announcements_come_in_the_players_language(client: TestClient) -> None:
    guest(client, "Ada")
    client.post("/preferences", data={"lang": "it"})
    table_id = create_table(client)
    with connect(client, table_id) as ws:
        sit_with_bots(ws)
        frame = until(ws, lambda f: any(e["kind"] == "cards_dealt" for e in f["d"]["events"]))
        dealt = next(e["text"] for e in frame["d"]["events"] if e["kind"] == "cards_dealt")
        assert any(word in dealt for word in ("cuori", "quadri", "fiori", "picche"))


def test_the_accept_language_header_picks_the_first_language_we_have(
        client: TestClient) -> None:
    page = client.get("/", headers={"accept-language": "de-DE,es;q=0.8,en;q=0.5"})
    assert '<html lang="es">' in page.text


def test_creating_a_table_with_flags_and_target_shows_its_rules(client: TestClient) -> None:
    guest(client, "Ada")
    response = client.post("/tables", data={
        "preset": "classic", "target": "501", "flags": "partner_master_frees=false"})
    assert response.status_code == 200
    lobby = client.get("/").text
    assert "501" in lobby and "Table 1" in lobby
    table = client.app.state.room.tables[1]  # type: ignore[attr-defined]
    assert table.rules.target_score == 501 and table.rules.partner_master_frees is False


@pytest.mark.parametrize("data", [
    {"preset": "klaverjas"}, {"preset": "classic", "flags": "no_such_flag=1"},
    {"preset": "classic", "target": "many"},
])
def test_bad_table_requests_are_refused_and_create_nothing(client: TestClient,
                                                           data: dict[str, str]) -> None:
    guest(client, "Ada")
    response = client.post("/tables", data=data)
    assert response.status_code == 200 and 'role="alert"' in response.text
    assert client.app.state.room.tables == {}  # type: ignore[attr-defined]


def test_creating_a_table_needs_a_name(client: TestClient) -> None:
    assert client.post("/tables", data={"preset": "classic"}).status_code == 401


def test_the_lobby_forms_seat_players_and_bots(client: TestClient) -> None:
    guest(client, "Ada")
    table_id = create_table(client)
    for what, data in (("sit", {"seat": "2"}), ("bot", {"seat": "0", "level": "expert"}),
                       ("bot", {"seat": "1", "level": "easy"}), ("unbot", {"seat": "1"})):
        response = client.post(f"/tables/{table_id}/{what}", data=data, follow_redirects=False)
        assert response.status_code == 303
    seats = client.app.state.room.tables[table_id].seats  # type: ignore[attr-defined]
    assert [s.kind for s in seats] == ["bot", "empty", "human", "empty"]
    assert seats[0].level == "expert"
    refused = client.post(f"/tables/{table_id}/sit", data={"seat": "0"})
    assert "You already have a seat at this table" in refused.text
    client.post(f"/tables/{table_id}/stand", data={})
    assert seats[2].kind == "empty"


def test_bots_think_in_another_process_and_answer_legally() -> None:
    async def run() -> tuple[int, int, tuple[int, ...]]:
        pool = BotPool(workers=1, timeout=60.0)
        try:
            game = Game(find_preset("classic"))
            game.deal(list(range(32)))
            observation = game.observation(game.current_player())
            action = (await pool.decide("expert", observation)).action
            loop = asyncio.get_running_loop()
            pid = await loop.run_in_executor(pool._executor, os.getpid)
            return action, pid, observation.legal_actions
        finally:
            pool.close()

    action, pid, legal = asyncio.run(run())
    assert action in legal
    assert pid != os.getpid()


def test_a_late_bot_is_replaced_by_the_heuristic() -> None:
    async def run() -> tuple[int, tuple[int, ...]]:
        pool = BotPool(workers=0, timeout=0.0)
        try:
            game = Game(find_preset("classic"))
            game.deal(list(range(32)))
            observation = game.observation(game.current_player())
            return (await pool.decide("expert", observation)).action, observation.legal_actions
        finally:
            pool.close()

    action, legal = asyncio.run(run())
    assert action in legal


def test_the_documented_keys_are_the_binding_table() -> None:
    from pathlib import Path

    from belote.server.keys import help_rows

    doc = (Path(__file__).resolve().parents[2] / "docs" / "room.md").read_text()
    for keys, does in help_rows("en"):
        assert f"| {keys} | {does} |" in doc
