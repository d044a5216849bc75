"""Issue 21, item 4, the review of seat codes: each test named after a finding.

A seat is held and taken by its place, never by a name (names repeat and fold together);
the wrong-code limit cannot lock a venue out; the draw runs in the room's heavy-work process;
a seat code stays out of URLs that reach logs.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from belote.server.app import create_app
from belote.server.config import Settings
from belote.tournament.codes import seat_of_account
from belote.tournament.model import Entrant, Game
from tests.server.conftest import client_for, make_settings
from tests.server.helpers import Identities
from tests.server.test_tournament_day import give_code, pinasca
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


def test_other_peoples_wrong_codes_at_the_venue_do_not_refuse_a_right_one(
        client: TestClient) -> None:
    """Review, HIGH: 20 wrong codes from an address (a club's one Wi-Fi) refused every code
    from it, right ones included, for ten minutes: one person locked the venue out."""
    people = Identities(client)
    tid = pinasca(people)
    right = tournament(client, tid).game(1).codes[0][0]
    people.guest("Guesser")
    for n in range(Settings().seat_code_guesses):  # all at game 2, from the venue's address
        page = give_code(people, "Guesser", tid, 2, f"AAAA{n:04d}")
        assert "not a seat code of this game" in page
    game2 = tournament(client, tid).game(2).codes[0][0]
    assert "Too many wrong codes" in give_code(people, "Guesser", tid, 2, game2)
    assert "Too many wrong codes" in give_code(people, "Guesser", tid, 1, right)
    # Someone else at the same address, at another table: their right code is taken.
    people.guest("Anna")
    page = give_code(people, "Anna", tid, 1, right)
    assert "Too many wrong codes" not in page and "not a seat code" not in page
    assert client.app.state.refused["seat_code_guesses"] == 2  # type: ignore[attr-defined]


def test_the_address_ceiling_on_seat_codes_is_the_room_limiters_and_counted(
        tmp_path: Path) -> None:
    """Review: one limiter mechanism with the invitation codes', configured in Settings and
    counted in ``app.state.refused``; a flood from one address still stops at its ceiling."""
    app = create_app(make_settings(tmp_path, seat_code_guesses=2,
                                   seat_code_guesses_per_address=3))
    with client_for(app) as client:
        people = Identities(client)
        tid = pinasca(people)
        people.guest("Aldo")
        people.guest("Bice")
        for who, game in (("Aldo", 1), ("Aldo", 1), ("Bice", 2)):
            assert "not a seat code" in give_code(people, who, tid, game, "AAAABBBB")
        right = tournament(client, tid).game(2).codes[1][1]
        people.guest("Carlo")
        assert "Too many wrong codes" in give_code(people, "Carlo", tid, 2, right)
        assert app.state.refused["seat_code_guesses"] == 1
        # The invitation codes go through the same mechanism, counted beside.
        for _ in range(Settings().code_guesses_per_minute):
            client.get("/join/NOPENOPE", follow_redirects=False)
        assert client.get("/join/NOPENOPE", follow_redirects=False).status_code == 429
        assert app.state.refused["code_guesses"] == 1


def _hung_draw(*args: object) -> None:
    """A draw that never ends (pickled by name into the heavy-work process)."""
    import time

    time.sleep(40)


@pytest.mark.slow
def test_a_hung_draw_is_stopped_and_releases_the_tournament(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Review, MEDIUM: the draw ran in a home-made process pool with no timeout (a hung
    draw held the tournament's lock for ever), not niced, falling back to a thread with no
    log line nor counter when it broke.  It now runs in the room's heavy-work process."""
    from belote.server.tournament import service

    assert not hasattr(service, "_POOL")
    app = create_app(make_settings(tmp_path, heavy_workers=1, heavy_timeout=6.0))
    with client_for(app) as client:
        people = Identities(client)
        org = register(people, "Organiser")
        tid = create(org, target="1500")
        post(org, f"/tournaments/{tid}/do/register", club="Q0", a_player1="Anna",
             a_player2="Bruno", b_player1="Carla", b_player2="Dino")
        post(org, f"/tournaments/{tid}/do/register", club="Q1", a_player1="Elsa",
             a_player2="Fede", b_player1="Gino", b_player2="Ivo")
        monkeypatch.setattr(service, "_draw_seeded", _hung_draw)
        page = post(org, f"/tournaments/{tid}/do/draw")
        assert "The draw could not finish" in page
        heavy = app.state.heavy
        assert heavy.stats.failed == 1 and heavy.stats.replacements == 1
        assert tournament(client, tid).current is None  # nothing changed
        monkeypatch.undo()
        page = post(org, f"/tournaments/{tid}/do/draw")  # the lock was released
        assert "Done." in page
        assert tournament(client, tid).current is not None
        assert heavy.stats.computed >= 1


def test_a_seat_code_stays_out_of_urls_that_reach_logs(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Review, LOW: the table card's QR code opened ``.../code?c=CODE``: the code landed in
    access logs and Referer headers.  It is now in the fragment (``#c=``), which browsers
    never send; the page's script fills the field from it, and the page sends no Referer
    off the site."""
    import segno

    people = Identities(client)
    tid = pinasca(people)
    encoded: list[str] = []
    make = segno.make
    monkeypatch.setattr(segno, "make", lambda data, **kw: encoded.append(data) or make(
        data, **kw))
    page = people.use("Organiser").get(f"/tournaments/{tid}/cards").text
    codes = [code for n in (1, 2) for side in tournament(client, tid).game(n).codes
             for code in side]
    assert len(encoded) == 8
    for url, code in zip(encoded, codes, strict=True):
        assert url.endswith(f"/code#c={code}") and "?" not in url
    assert "?c=" not in page
    code_page = people.use("Organiser").get(f"/tournaments/{tid}/games/1/code").text
    # No Referer leaves the site ("no-referrer" would make the browser send ``Origin: null``
    # with the form, which the room's same-origin check refuses).
    assert '<meta name="referrer" content="same-origin">' in code_page
    assert '<script src="/static/tournament.js" defer></script>' in code_page
    script = client.get("/static/tournament.js").text
    assert "location.hash" in script and 'getElementById("code")' in script
    # Without scripts the code is typed, as before (and old cards' ?c= still fills it).
    assert 'name="code"' in code_page
    old = people.use("Organiser").get(f"/tournaments/{tid}/games/1/code?c={codes[0]}").text
    assert f'value="{codes[0]}"' in old
