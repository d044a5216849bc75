"""The review of issue 24 through the room's pages: a best-of-3 match scored at the table
game by game (item 2), and a malformed hidden field refused, never a server error (item
11)."""

from __future__ import annotations

from starlette.testclient import TestClient

from tests.server.helpers import Identities
from tests.server.test_tournament_entry import give, side_codes
from tests.server.test_tournament_http import create, post, register, tournament


def drawn(people: Identities, best_of: str = "1") -> int:
    org = register(people, "Organiser")
    tid = create(org, target="1500")
    for n in range(2):
        post(people.use("Organiser"), f"/tournaments/{tid}/do/register", club=f"Q{n}",
             a_player1=f"Anna{n}", a_player2=f"Bruno{n}", b_player1=f"Carla{n}",
             b_player2=f"Dino{n}")
    if best_of != "1":
        post(people.use("Organiser"), f"/tournaments/{tid}/manage/settings",
             check_in="format", late_rule="zero", best_of=best_of)
        assert tournament(people.client, tid).s.best_of == int(best_of)
    post(people.use("Organiser"), f"/tournaments/{tid}/do/draw")
    return tid


def test_2_a_best_of_3_match_is_entered_at_the_table_game_by_game(
        client: TestClient) -> None:
    people = Identities(client)
    tid = drawn(people, best_of="3")
    ns, ew = side_codes(client, tid, 1)
    people.guest("Scorer")
    give(people, "Scorer", f"/tournaments/{tid}/games/1/code", code=ns)
    scorer = people.use("Scorer")
    here = f"/tournaments/{tid}/games/1/entry"
    page = scorer.get(here).text
    assert "Game 1 of the match" in page and 'id="entry-form"' not in page  # no hands
    post(scorer, here, do="totals", total_ns="1500", total_ew="900")
    post(scorer, here, do="confirm", hands="0", totals="1500-900", code=ew)
    game = tournament(client, tid).game(1)
    assert len(game.legs) == 1 and game.legs[0].source == "entry" and game.result is None
    page = scorer.get(here).text
    assert "Game 2 of the match" in page and "games won so far 1 to 0" in page


def test_11_a_malformed_hidden_field_is_refused_and_changes_nothing(
        client: TestClient) -> None:
    people = Identities(client)
    tid = drawn(people)
    ns, ew = side_codes(client, tid, 1)
    people.guest("Scorer")
    give(people, "Scorer", f"/tournaments/{tid}/games/1/code", code=ns)
    scorer = people.use("Scorer")
    here = f"/tournaments/{tid}/games/1/entry"
    post(scorer, here, do="totals", total_ns="1500", total_ew="1200")
    before = len(tournament(client, tid).audit)
    for bad in ("a-b", "1500", "1500-1200-3", "-1500-1200", "１５００-1200x"):
        page = post(scorer, here, do="confirm", hands="0", totals=bad, code=ew)
        assert 'role="alert"' in page
    assert len(tournament(client, tid).audit) == before
    # A table number or hand number of odd digits is refused too, not a server error.
    page = post(scorer, f"/tournaments/{tid}/enter", table="²", code=ns)
    assert 'role="alert"' in page
