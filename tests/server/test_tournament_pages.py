"""Every tournament page in the four languages; players take their reserved seats online."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from belote.i18n import LANGUAGES
from tests.server.helpers import Identities
from tests.server.test_tournament_http import create, post, register, tournament


def pinasca(people: Identities, **changes: str) -> int:
    org = register(people, "Organiser")
    tid = create(org, **changes)
    for n in range(2):
        post(people.use("Organiser"), f"/tournaments/{tid}/do/register", club=f"Q{n}",
             a_player1=f"Anna{n}", a_player2=f"Bruno{n}", b_player1=f"Carla{n}",
             b_player2=f"Dino{n}")
    post(people.use("Organiser"), f"/tournaments/{tid}/do/draw")
    return tid


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_tournament_page_speaks_each_language(client: TestClient, lang: str) -> None:
    people = Identities(client)
    tid = pinasca(people, target="1500")
    org = people.use("Organiser")
    post(org, f"/tournaments/{tid}/do/result", game="1", total_a="1500", total_b="1200")
    org.post("/preferences", data={"lang": lang, "next": "/"})
    for path in ("/tournaments", f"/tournaments/{tid}", f"/tournaments/{tid}/standings",
                 f"/tournaments/{tid}/standings?projector=1",
                 f"/tournaments/{tid}/entrants/1", f"/tournaments/{tid}/sheets",
                 f"/tournaments/{tid}/cards", f"/tournaments/{tid}/games/2/code",
                 f"/tournaments/{tid}/games/2/entry"):
        page = org.get(path)
        assert page.status_code == 200, (path, page.text)
        assert f'<html lang="{lang}">' in page.text
    fragment = org.get(f"/tournaments/{tid}/standings?fragment=1").text
    assert fragment.startswith("<table")
    export = org.get(f"/tournaments/{tid}/results.csv").text
    assert export.splitlines()[0].split(",")[0] == {
        "it": "turno", "es": "ronda", "fr": "manche", "en": "round"}[lang]


def test_unknown_tournament_and_game_are_404(client: TestClient) -> None:
    assert client.get("/tournaments/99/standings").status_code == 404
    people = Identities(client)
    tid = pinasca(people, target="1500")
    assert client.get(f"/tournaments/{tid}/games/99/entry").status_code == 404
    assert client.get(f"/tournaments/{tid}/entrants/99").status_code == 404


def test_a_guest_cannot_create_a_tournament(client: TestClient) -> None:
    people = Identities(client)
    guest = people.guest("Passer")
    page = post(guest, "/tournaments", name="T", format="pinasca", preset="pinasca",
                target="1500", rounds="3")
    assert "Sign in with an account" in page


def test_without_stand_ins_the_table_starts_when_the_four_players_take_their_seats(
        client: TestClient) -> None:
    people = Identities(client)
    tid = pinasca(people, target="1500", standins="")
    post(people.use("Organiser"), f"/tournaments/{tid}/do/tables")
    game = tournament(client, tid).game(1)
    assert game.table_id is not None
    table = client.app.state.room.tables[game.table_id]  # type: ignore[attr-defined]
    stranger = people.guest("Stranger")
    page = post(stranger, f"/tournaments/{tid}/games/1/claim")
    assert "Give your seat code first" in page
    for side, codes in zip(game.lineup, game.codes, strict=True):
        for _player, code in zip(side, codes, strict=True):
            assert table.game is None
            # Any name signs in: the seat code, not the name, says whose seat it is.
            person = people.guest(f"Guest {code[:4]}")
            post(person, f"/tournaments/{tid}/games/1/code", code=code.lower())
            response = person.post(f"/tournaments/{tid}/games/1/claim",
                                   follow_redirects=False)
            assert response.headers["location"] == f"/table/{game.table_id}"
    assert table.game is not None  # the four are seated: the match has begun
    assert {seat.name for seat in table.seats} == {p for side in game.lineup for p in side}
