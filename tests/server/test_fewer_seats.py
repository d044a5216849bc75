"""Seed 000: "è possibile giocare anche con numero ridotto a tre o addirittura a due": the
room seats as many players as the preset has (valdostana3: three, valdostana2: two), bots
fill the other seats, and the match plays to its end."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from tests.server.helpers import (
    connect,
    create_table,
    guest,
    play_to_the_end,
    receive,
    send,
    sit_with_bots,
    until,
)


@pytest.mark.parametrize(("preset", "players"), [("valdostana3", 3), ("valdostana2", 2)])
def test_a_table_of_fewer_seats_fills_with_bots_and_plays_to_the_end(
    client: TestClient, preset: str, players: int
) -> None:
    guest(client, "Ada")
    table_id = create_table(client, preset, target=150)
    with connect(client, table_id) as ws:
        sit_with_bots(ws, seat=0, level="normal", players=players)
        view, moves = play_to_the_end(ws)
    assert view["finished"]
    assert moves > 0
    assert len(view["totals"]) == players  # one side per player, no partnership
    assert max(view["totals"]) >= 150


def test_a_seat_the_table_does_not_have_is_refused(client: TestClient) -> None:
    guest(client, "Ada")
    table_id = create_table(client, "valdostana3", target=150)
    with connect(client, table_id) as ws:
        receive(ws)
        send(ws, "sit", seat=3)  # a three-player table has seats 0..2
        frame = until(ws, lambda f: f["t"] == "error")
    assert "bad_seat" in str(frame)
