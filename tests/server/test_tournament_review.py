"""Issue 21, item 4, the review of seat codes: each test named after a finding.

A seat is held and taken by its place, never by a name (names repeat and fold together);
the wrong-code limit cannot lock a venue out; the draw runs in the room's heavy-work process;
a seat code stays out of URLs that reach logs.
"""

from __future__ import annotations

from starlette.testclient import TestClient

from belote.tournament.codes import seat_of_account
from belote.tournament.model import Entrant, Game
from tests.server.helpers import Identities
from tests.server.test_tournament_day import give_code
from tests.server.test_tournament_http import create, post, register, tournament


def two_marcos(people: Identities) -> int:
    """A concours of two pairs, "Marco & Anna" and "Marco & Luca": one game, its seats held
    (no stand-ins), its online table open."""
    org = register(people, "Organiser")
    tid = create(org, name="Concours", format="concours", preset="classic", rounds="1",
                 target="1000", standins="")
    for name, partner in (("Lupi", "Anna"), ("Orsi", "Luca")):
        post(org, f"/tournaments/{tid}/do/register", a_name=name, a_player1="Marco",
             a_player2=partner)
    for entrant in (1, 2):
        post(org, f"/tournaments/{tid}/do/checkin", entrant=str(entrant))
    post(org, f"/tournaments/{tid}/do/draw")
    post(org, f"/tournaments/{tid}/do/tables")
    return tid


def test_a_seat_code_takes_its_own_place_when_both_teams_have_a_marco(
        client: TestClient) -> None:
    """Review, HIGH: the E-W Marco's code seated him at North (the first seat held under
    the name key "marco")."""
    people = Identities(client)
    tid = two_marcos(people)
    game = tournament(client, tid).game(1)
    assert game.lineup[0][0] == game.lineup[1][0] == "Marco"
    table = client.app.state.room.tables[game.table_id]  # type: ignore[attr-defined]
    people.guest("Marco EW")
    give_code(people, "Marco EW", tid, 1, game.codes[1][0])  # the E-W Marco's code
    response = people.use("Marco EW").post(f"/tournaments/{tid}/games/1/claim",
                                           follow_redirects=False)
    assert response.headers["location"] == f"/table/{game.table_id}"
    held = [seat.owner.startswith("tournament:") for seat in table.seats]
    assert held == [True, False, True, True]  # East (side 1's first) taken, North held
    # The N-S Marco's code takes North, not a seat already taken nor the other Marco's.
    people.guest("Marco NS")
    give_code(people, "Marco NS", tid, 1, game.codes[0][0])
    people.use("Marco NS").post(f"/tournaments/{tid}/games/1/claim")
    held = [seat.owner.startswith("tournament:") for seat in table.seats]
    assert held == [False, False, True, True]
    assert table.seats[0].owner != table.seats[1].owner


def test_a_seat_held_under_a_name_before_the_change_is_still_claimed_at_its_place(
        client: TestClient) -> None:
    """Tables opened before seats were held by place (owner ``tournament:<name key>``)
    still let their players in, each at the place their code names."""
    people = Identities(client)
    tid = two_marcos(people)
    game = tournament(client, tid).game(1)
    table = client.app.state.room.tables[game.table_id]  # type: ignore[attr-defined]
    from belote.server.auth.names import name_key

    old = "tournament:" + name_key("Marco")
    for seat in table.seats:  # as the room held them before: by the name key
        seat.owner = old if seat.name == "Marco" else seat.owner
    people.guest("Marco EW")
    give_code(people, "Marco EW", tid, 1, game.codes[1][0])
    people.use("Marco EW").post(f"/tournaments/{tid}/games/1/claim")
    assert table.seats[0].owner == old
    assert not table.seats[1].owner.startswith("tournament:")


def test_a_bound_account_is_its_own_marco_not_the_first_of_the_name() -> None:
    """Review, HIGH: ``seat_of_account`` answered the first seat whose player had the bound
    player's name.  A mêlée side of two players both called Marco, the second bound."""
    entrants = {1: Entrant(1, "Marco", ("Marco",)),
                2: Entrant(2, "Marco", ("Marco",), accounts=("marco-rossi",)),
                3: Entrant(3, "Anna", ("Anna",)), 4: Entrant(4, "Luca", ("Luca",))}
    game = Game(1, 1, 1, ((1, 2), (3, 4)), lineup=(("Marco", "Marco"), ("Anna", "Luca")))
    assert seat_of_account(game, entrants, "marco-rossi") == (0, 1)
    assert seat_of_account(game, entrants, "someone-else") is None
    # A line-up that moved a bound player to another seat of the side still finds them if
    # their name is there once; two players of that name there: nobody (the code is asked).
    entrants[3] = Entrant(3, "Anna", ("Anna",), accounts=("anna-b",))
    moved = Game(1, 1, 1, ((1, 2), (3, 4)), lineup=(("Marco", "Marco"), ("Zeno", "Anna")))
    assert seat_of_account(moved, entrants, "anna-b") == (1, 1)
    swapped = Game(1, 1, 1, ((1, 2), (3, 4)), lineup=(("Dino", "Marco"), ("Anna", "Luca")))
    assert seat_of_account(swapped, entrants, "marco-rossi") == (0, 1)
