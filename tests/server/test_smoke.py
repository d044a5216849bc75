"""One human against three bots through the WebSocket, to the end of a short match."""

from __future__ import annotations

from starlette.testclient import TestClient

from tests.server.helpers import (
    connect,
    create_table,
    guest,
    play_to_the_end,
    send,
    until,
)


def test_a_guest_plays_a_whole_match_against_three_bots(client: TestClient) -> None:
    guest(client, "Ada")
    table_id = create_table(client, target=200)
    with connect(client, table_id) as ws:
        sync = until(ws, lambda f: f["t"] == "sync")
        assert sync["d"]["view"]["seat"] is None
        send(ws, "sit", seat=2)
        for seat in (0, 1, 3):
            send(ws, "bot", seat=seat, level="normal")
        seated = until(ws, lambda f: f["t"] == "update" and all(
            s["kind"] != "empty" for s in f["d"]["view"]["seats"]))
        assert seated["d"]["view"]["seats"][2]["name"] == "Ada"  # the session reached the socket
        send(ws, "start")
        view, moves = play_to_the_end(ws)
        assert moves > 8
        assert view["winner"] in (0, 1)
    page = client.get(f"/replay/{table_id}")
    assert page.status_code == 200
    assert "Deal 1" in page.text
