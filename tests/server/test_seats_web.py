"""What the table page is sent with three seats: one side per player, named by the player, and
information keys that name no team (the page draws and reads only what the view says)."""

from __future__ import annotations

from starlette.testclient import TestClient

from tests.server.helpers import (
    ask_info,
    connect,
    create_table,
    first_legal,
    guest,
    my_turn,
    send,
    sit_with_bots,
    until,
)


def test_a_three_seat_view_names_each_player_as_a_side_and_answers_without_a_team(
        client: TestClient) -> None:
    guest(client, "Ada")
    table_id = create_table(client, "valdostana3", target=2000)
    with connect(client, table_id) as ws:
        sit_with_bots(ws, seat=2, players=3)
        while True:  # my first card to play: the contract is set
            view = until(ws, lambda f: f["t"] == "update" and my_turn(f))["d"]["view"]
            if view["phase"] == "playing":
                break
            send(ws, "act", a=first_legal(view))
        info = ask_info(ws)  # the keys' answers, asked as the page asks
    names = [seat["name"] for seat in view["seats"]]
    assert len(names) == 3 and names[2] == "Ada"
    assert view["sides"] == names
    assert info["points"].startswith("This hand: ")
    assert all(name in info["points"] for name in names), info["points"]
    taker = names[view["taker"]]
    assert info["contract"].startswith(f"{taker} holds the contract: "), info["contract"]
    assert " for " not in info["contract"]
    assert info["team"].startswith("You are South and play on your own")


def test_a_four_seat_view_names_the_two_teams(client: TestClient) -> None:
    guest(client, "Ada")
    table_id = create_table(client, "classic")
    with connect(client, table_id) as ws:
        sit_with_bots(ws, seat=2)
        view = until(ws, lambda f: f["t"] == "update" and f["d"]["view"]["started"])["d"]["view"]
    assert view["sides"] == ["North-South", "East-West"]
