"""Issue 21, tournament day: what a real tournament found (each test named after a finding).

Identity by seat code, never by a typed name; the scorer's undo stops at the result; a
fixed-deals concours takes real-card results; the substitution in the console; both teams'
declarations typed; a big draw holds the event loop no longer than 50 ms; limits; the CSV
export neutralises formulas and is the organisers'; names through the chat's text checks.
"""

from __future__ import annotations

import asyncio
import csv
import io
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from belote.server.app import create_app
from belote.tournament.events import Event, Tournament
from tests.server.conftest import client_for, make_settings
from tests.server.helpers import Identities
from tests.server.postgres import fresh_database
from tests.server.test_tournament_http import create, enter_hand, post, register, tournament
from tests.server.test_tournament_pages import pinasca as pinasca_drawn

STALL_LIMIT = 0.050  # issue 21: "No request can hold the event loop more than 50 ms"
PROBE_PERIOD = 0.002


def pinasca(people: Identities, **changes: str) -> int:
    """Two neighbourhoods (four pairs), round 1 drawn: games 1 and 2; games to 1500."""
    return pinasca_drawn(people, **{"target": "1500", **changes})


class LoopProbe:
    """A task in the room's own event loop that sleeps ``PROBE_PERIOD`` again and again.

    Each wake-up records how late it is (``lateness``: wall clock) and how much CPU time the
    loop's thread used since the last one (``held``: the loop was running something else,
    a request's work, all that time).  ``held`` is the stall a request causes: on a busy
    machine (two cores shared by many processes) the wall clock also counts the time the
    whole process waited for a core, which no request can help; both are reported."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.lateness: list[float] = []
        self.held: list[float] = []
        self._stop = threading.Event()
        self._started = threading.Event()

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        self._started.set()
        while not self._stop.is_set():
            before, cpu = loop.time(), time.thread_time()
            await asyncio.sleep(PROBE_PERIOD)
            self.held.append(time.thread_time() - cpu)
            self.lateness.append(loop.time() - before - PROBE_PERIOD)

    def __enter__(self) -> LoopProbe:
        portal = self.client.portal  # type: ignore[attr-defined]
        self._future = portal.start_task_soon(self._run)
        assert self._started.wait(5)
        time.sleep(0.05)
        return self

    def __exit__(self, *_: object) -> None:
        time.sleep(0.05)
        self._stop.set()
        self._future.result(5)

    @property
    def worst(self) -> float:
        """The longest time the loop was held (CPU time of its thread between wake-ups)."""
        return max(self.held, default=0.0)

    @property
    def worst_late(self) -> float:
        return max(self.lateness, default=0.0)


def melee_of(client: TestClient, people: Identities, players: int) -> int:
    """A mêlée with ``players`` checked-in players, registered in one change (as the CLI's
    CSV does), by the account "Organiser" (registered already)."""
    org = people.use("Organiser")
    tid = create(org, name="Mêlée", format="melee", preset="classic", rounds="3",
                 target="1000")
    service = client.app.state.tournaments.service  # type: ignore[attr-defined]
    entrants = [{"name": f"Player {n}", "players": [f"Player {n}"], "checked_in": True}
                for n in range(players)]
    client.portal.call(service.change, tid, "registered",  # type: ignore[attr-defined]
                       {"entrants": entrants}, "Organiser")
    return tid


def least_worst_stall(client: TestClient, action: Any, attempts: int = 3,
                      prepare: Any = None) -> float:
    """The least of up to ``attempts`` runs' worst loop stall (each run under a fresh probe,
    stopping at the first within the limit): a stall that the request causes shows in every
    run, a busy machine's noise rarely in all.  Prints each run's stall and wall-clock
    lateness."""
    worst = float("inf")
    for _ in range(attempts):
        ready = prepare() if prepare is not None else None
        with LoopProbe(client) as probe:
            action(ready)
        print(f"loop held at most {probe.worst * 1000:.1f} ms, probe late at most "
              f"{probe.worst_late * 1000:.1f} ms ({len(probe.held)} probes)")
        worst = min(worst, probe.worst)
        if worst <= STALL_LIMIT:
            break
    return worst


# --------------------------------------------------------------------------- item 7
@pytest.mark.slow
def test_a_melee_of_1024_players_draw_does_not_freeze_the_room(tmp_path: Path) -> None:
    """Issue 21: "a mêlée of 1,024 players, Draw (pairing and the projection rewrite run on
    the event loop)" froze every table for 7 s.  A probe in the room's loop measures it."""
    # The room's own heavy-work process draws (the test settings use a thread); its time
    # limit is long, since a loaded machine may take half a minute to draw 1,024.
    app = create_app(make_settings(tmp_path, heavy_workers=1, heavy_timeout=180.0))
    with client_for(app) as client:
        people = Identities(client)
        org = register(people, "Organiser")
        tids: list[int] = []

        def prepare() -> int:
            tid = melee_of(client, people, 1024)  # a fresh tournament: a round draws once
            tids.append(tid)
            return tid

        def draw(tid: int) -> None:
            started = time.monotonic()
            response = org.post(f"/tournaments/{tid}/do/draw", follow_redirects=False)
            print(f"draw of 1,024: {time.monotonic() - started:.2f} s")
            assert response.status_code == 303

        stall = least_worst_stall(client, draw, prepare=prepare)
        print(f"draw of 1,024: worst loop stall {stall * 1000:.1f} ms")
        assert stall <= STALL_LIMIT, stall
        t = tournament(client, tids[-1])
        assert t.current is not None and len(t.current.games) == 256
        # The console and the standings of such a tournament do not hold the loop either.
        for path in (f"/tournaments/{tids[-1]}", f"/tournaments/{tids[-1]}/standings"):
            stall = least_worst_stall(client, lambda _, path=path: org.get(path))
            print(f"{path}: worst loop stall {stall * 1000:.1f} ms")
            assert stall <= STALL_LIMIT, (path, stall)


# --------------------------------------------------------------------------- item 4
def codes_of(client: TestClient, tid: int, game_id: int) -> list[str]:
    game = tournament(client, tid).game(game_id)
    return [code for side in game.codes for code in side]


def give_code(people: Identities, who: str, tid: int, game_id: int, code: str) -> str:
    """``who`` gives a seat code (their session keeps it)."""
    client = people.use(who)
    page = post(client, f"/tournaments/{tid}/games/{game_id}/code", code=code)
    people._jars[who] = client.cookies  # the client may have replaced its jar
    return page


def test_a_guest_signed_in_as_a_drawn_players_name_neither_scores_nor_claims_the_seat(
        client: TestClient) -> None:
    """Issue 21: "a guest who signs in as a drawn player's name (or an account registered
    later under it) passes the scorer check ... and can claim the player's seat"."""
    people = Identities(client)
    tid = pinasca(people, standins="")
    game = tournament(client, tid).game(1)
    impostor = people.guest(game.lineup[0][0])  # a drawn player's very name, as a guest
    response = impostor.post(f"/tournaments/{tid}/games/1/entry", data={"answer": "ns"})
    assert response.status_code == 403
    page = impostor.get(f"/tournaments/{tid}/games/1/entry").text
    assert 'id="entry-form"' not in page and "give your table code" in page
    assert impostor.get(f"/tournaments/{tid}/games/1/check",
                        params={"value": "ns"}).status_code == 403
    # An account registered later under another drawn player's name: no better.
    account = register(people, game.lineup[1][0])
    response = account.post(f"/tournaments/{tid}/games/1/entry", data={"answer": "ns"})
    assert response.status_code == 403
    assert tournament(client, tid).hands.get(1, []) == []
    # Online: the seat stays held for its player.
    post(people.use("Organiser"), f"/tournaments/{tid}/do/tables")
    game = tournament(client, tid).game(1)
    table = client.app.state.room.tables[game.table_id]  # type: ignore[attr-defined]
    for who in (game.lineup[0][0], game.lineup[1][0]):
        page = post(people.use(who), f"/tournaments/{tid}/games/1/claim")
        assert "Give your seat code first" in page
    assert all(seat.owner and seat.owner.startswith("tournament:") for seat in table.seats)
    # Its seats are held for the drawn players: the line-up no longer changes.
    page = post(people.use("Organiser"), f"/tournaments/{tid}/do/lineup", game="1",
                a1="X", a2="Y", b1="Z", b2="W")
    assert "already at its online table" in page
    # The seat code, whoever the person signed in as, is what takes the seat.
    give_code(people, game.lineup[1][0], tid, 1, game.codes[1][0])
    response = people.use(game.lineup[1][0]).post(f"/tournaments/{tid}/games/1/claim",
                                                  follow_redirects=False)
    assert response.headers["location"] == f"/table/{game.table_id}"
    assert not table.seats[1].owner.startswith("tournament:")  # East: side 1's first


def test_an_account_bound_by_the_organiser_scores_and_takes_its_seat_with_no_code(
        client: TestClient) -> None:
    """Issue 21: "identified by something only they have: an account bound by the
    organiser, or a ... code"."""
    people = Identities(client)
    tid = pinasca(people, standins="")
    game = tournament(client, tid).game(1)
    entrant_id = game.sides[1][0]
    entrant = tournament(client, tid).entrants[entrant_id]
    register(people, "Elena Conti")  # her own account, under her own name
    org = people.use("Organiser")
    page = post(org, f"/tournaments/{tid}/do/bind", entrant=str(entrant_id), player="1",
                account="Nobody Here")
    assert "No account is called Nobody Here" in page
    page = post(org, f"/tournaments/{tid}/do/bind", entrant=str(entrant_id), player="1",
                account="Elena Conti")
    assert "Done." in page
    # The account, not the name, is the player: Elena Conti scores the game of the player
    # bound to her (Dino...), whose name she never typed.
    elena = people.use("Elena Conti")
    page = elena.get(f"/tournaments/{tid}/games/1/entry").text
    assert 'id="entry-form"' in page
    page = enter_hand(elena, tid, 1, ["ns", "h", "100", "62", "", "", "", ""])
    assert len(tournament(client, tid).hands[1]) == 1
    # ... and takes that player's seat at the online table.
    post(people.use("Organiser"), f"/tournaments/{tid}/do/tables")
    game = tournament(client, tid).game(1)
    response = people.use("Elena Conti").post(f"/tournaments/{tid}/games/1/claim",
                                              follow_redirects=False)
    assert response.headers["location"] == f"/table/{game.table_id}"
    table = client.app.state.room.tables[game.table_id]  # type: ignore[attr-defined]
    seat = 3 if game.lineup[1][1] == entrant.players[1] else 1  # E-W: East, West
    assert table.seats[seat].name == entrant.players[1]
    assert not table.seats[seat].owner.startswith("tournament:")
    # A guest under her name, or under the player's name, is nobody.
    people.guest(entrant.players[1])
    response = people.use(entrant.players[1]).post(f"/tournaments/{tid}/games/1/entry",
                                                   data={"answer": "ns"})
    assert response.status_code == 403


def test_seat_codes_are_random_and_wrong_guesses_are_limited_per_address(
        client: TestClient) -> None:
    people = Identities(client)
    tid = pinasca(people)
    codes = codes_of(client, tid, 1) + codes_of(client, tid, 2)
    assert len(set(codes)) == 8 and all(len(code) == 8 for code in codes)
    # Not signed in: told to sign in first (the code is kept with who gave it).
    page = give_code(people, "Nobody", tid, 1, codes[0])
    assert "Sign in first" in page
    people.guest("Guesser")
    from belote.server.config import Settings

    for n in range(Settings().seat_code_guesses):
        page = give_code(people, "Guesser", tid, 1, f"AAAA{n:04d}")
        assert "not a seat code of this game" in page
    page = give_code(people, "Guesser", tid, 1, codes[0])  # even the right one, for a while
    assert "Too many wrong codes" in page
    response = people.use("Guesser").post(f"/tournaments/{tid}/games/1/entry",
                                          data={"answer": "ns"})
    assert response.status_code == 403


def test_the_scorers_undo_stops_at_the_recorded_result(client: TestClient) -> None:
    """Issue 21: "a player-scorer can undo the last hand after the result is recorded, with
    no notice to the organiser"."""
    people = Identities(client)
    tid = pinasca(people)
    people.guest("Scorer")
    page = give_code(people, "Scorer", tid, 1, codes_of(client, tid, 1)[2])
    assert "Code accepted" in page
    scorer = people.use("Scorer")
    hand = ["ns", "h", "152", "10", "", "", "", ""]  # N-S 152 a hand: 1500 in 10 hands
    for _ in range(10):
        page = enter_hand(scorer, tid, 1, hand)
    # Issue 24: the hands count once a player of the other side (N-S) confirms them.
    assert tournament(client, tid).game(1).result is None
    people.guest("Opponent")
    give_code(people, "Opponent", tid, 1, codes_of(client, tid, 1)[0])
    post(people.use("Opponent"), f"/tournaments/{tid}/games/1/entry", do="confirm",
         hands="10", totals="")
    scorer = people.use("Scorer")
    page = scorer.get(f"/tournaments/{tid}/games/1/entry").text
    t = tournament(client, tid)
    assert t.game(1).result is not None and t.game(1).result.totals == (1520, 100)
    assert 'value="undo"' not in page and "Only an organiser can change it now" in page
    page = post(scorer, f"/tournaments/{tid}/games/1/entry", do="undo")
    assert "only an organiser can change it now" in page
    page = post(people.use("Organiser"), f"/tournaments/{tid}/games/1/entry", do="undo")
    assert "only an organiser can change it now" in page
    t = tournament(client, tid)
    assert len(t.hands[1]) == 10 and t.game(1).result is not None
    assert [a.kind for a in t.audit][-1] == "confirmed"  # issue 24; no unhand since
    # The organiser's correction, with its reason, in the audit log.
    post(people.use("Organiser"), f"/tournaments/{tid}/do/correct", game="1",
         total_a="1520", total_b="200", reason="hand 10 misread")
    t = tournament(client, tid)
    assert t.game(1).result.totals == (1520, 200) and t.audit[-1].data["was"] == [1520, 100]


def test_table_cards_show_each_seat_code_and_qr_to_organisers_only(
        client: TestClient) -> None:
    people = Identities(client)
    tid = pinasca(people)
    codes = codes_of(client, tid, 1) + codes_of(client, tid, 2)
    page = people.use("Organiser").get(f"/tournaments/{tid}/cards").text
    for code in codes:
        assert f"{code[:4]}-{code[4:]}" in page
    assert page.count("<svg") == 8
    guest = people.guest("Curious")
    response = guest.get(f"/tournaments/{tid}/cards", follow_redirects=False)
    assert response.status_code == 303
    for path in ("standings", "sheets", "entrants/1", "games/1/entry", "games/1/code"):
        text = guest.get(f"/tournaments/{tid}/{path}").text
        assert not any(code in text or f"{code[:4]}-{code[4:]}" in text for code in codes)
    # The QR code's address fills the code in: the holder only presses the button.
    code = codes[0]
    page = guest.get(f"/tournaments/{tid}/games/1/code", params={"c": code}).text
    assert f'value="{code}"' in page


# --------------------------------------------------------------------------- item 5
def test_the_seeds_substitution_has_a_console_form_kept_in_history(
        client: TestClient) -> None:
    """Issue 21: "The seed's substitution ('Dopo ogni partita si possono sostituire ...')
    has no form in the console"."""
    people = Identities(client)
    tid = pinasca(people)
    org = people.use("Organiser")
    console = org.get(f"/tournaments/{tid}").text
    assert "Change the line-up of game 1" in console
    game = tournament(client, tid).game(1)
    old_codes = codes_of(client, tid, 1)
    a1, a2 = game.lineup[0]
    b1, b2 = game.lineup[1]
    page = post(org, f"/tournaments/{tid}/do/lineup", game="1", a1=a1, a2="Zeno Sostituto",
                b1=b1, b2=b2)
    assert "Done." in page
    game = tournament(client, tid).game(1)
    assert game.lineup[0] == (a1, "Zeno Sostituto")
    new_codes = codes_of(client, tid, 1)
    assert new_codes[0] == old_codes[0] and new_codes[1] != old_codes[1]  # the new one's
    assert new_codes[2:] == old_codes[2:]
    # The replaced player's code no longer scores; the substitute's does.
    people.guest("Gone")
    assert "not a seat code" in give_code(people, "Gone", tid, 1, old_codes[1])
    people.guest("Zeno")
    assert "Code accepted" in give_code(people, "Zeno", tid, 1, new_codes[1])
    # Kept: in the audit log and on the entrant's history page.
    org = people.use("Organiser")
    assert "Zeno Sostituto" in org.get(f"/tournaments/{tid}").text
    entrant = game.sides[0][0]
    assert "Zeno Sostituto" in org.get(f"/tournaments/{tid}/entrants/{entrant}").text
    # After the game's result, its line-up is what was played: refused.
    post(org, f"/tournaments/{tid}/do/result", game="1", total_a="1500", total_b="900")
    page = post(org, f"/tournaments/{tid}/do/lineup", game="1", a1=a1, a2=a2, b1=b1, b2=b2)
    assert "already has its result" in page
    assert tournament(client, tid).game(1).lineup[0] == (a1, "Zeno Sostituto")


def concours(people: Identities, deals: str = "2") -> int:
    org = register(people, "Organiser")
    tid = create(org, name="Concours", format="concours", preset="classic", rounds="1",
                 deals=deals, target="1000")
    for n in range(4):
        post(org, f"/tournaments/{tid}/do/register", a_name=f"Pair {n}",
             a_player1=f"Elsa{n}", a_player2=f"Fede{n}")
    for entrant in range(1, 5):
        post(org, f"/tournaments/{tid}/do/checkin", entrant=str(entrant))
    post(org, f"/tournaments/{tid}/do/draw")
    return tid


def test_a_fixed_deals_concours_takes_real_card_results_on_the_entry_page_and_console(
        client: TestClient) -> None:
    """Issue 21: "A fixed-deals concours ('4 parties de 12 donnes') cannot take real-card
    results: the entry page answers 500"."""
    people = Identities(client)
    tid = concours(people, deals="2")
    org = people.use("Organiser")
    response = org.get(f"/tournaments/{tid}/games/1/entry")
    assert response.status_code == 200
    enter_hand(org, tid, 1, ["ns", "h", "100", "62", "", "", "", ""])
    assert tournament(client, tid).game(1).result is None  # one deal of two
    page = enter_hand(org, tid, 1, ["ew", "s", "40", "122", "", "", "", ""])
    result = tournament(client, tid).game(1).result
    assert result is not None and result.source == "entry"
    assert "result is recorded" in page
    assert result.totals == (100 + 40, 62 + 122) and result.winner == 1
    # The console's typed result: equal totals over fixed deals are a draw.
    page = post(org, f"/tournaments/{tid}/do/result", game="2", total_a="160",
                total_b="160")
    assert "Done." in page
    assert tournament(client, tid).game(2).result.winner is None


# --------------------------------------------------------------------------- item 6
def test_both_teams_declarations_typed_on_the_entry_page_record_the_seeds_result(
        client: TestClient) -> None:
    """Issue 21: "N-S take 100/62, N-S terza, E-O quarta: the seed's result is N-S down, E-O
    212; the page leads to N-S 120 / E-O 62"."""
    people = Identities(client)
    tid = pinasca(people)
    org = people.use("Organiser")
    page = enter_hand(org, tid, 1, ["ns", "h", "100", "62", "", "terza", "quarta", ""])
    assert 'role="alert"' not in page
    sheet = tournament(client, tid).sheet(1)
    assert sheet.totals == (0, 212)
    # Two sequences of one length: asked again from N-S's declarations, with the reason.
    page = enter_hand(org, tid, 2, ["ns", "h", "100", "62", "", "terza", "terza", ""])
    assert 'role="alert"' in page and "depends on the cards" in page
    assert tournament(client, tid).hands.get(2, []) == []
    page = enter_hand(org, tid, 2, ["terza", "", ""])
    assert tournament(client, tid).sheet(2).totals == (120, 62)


# --------------------------------------------------------------------------- item 7: limits
def test_one_account_cannot_create_tournaments_without_limit(client: TestClient) -> None:
    """Issue 21: "no limit on tournaments: 100 created in 1 s"."""
    from belote.server.tournament.room import OPEN_PER_ACCOUNT

    people = Identities(client)
    org = register(people, "Organiser")
    for n in range(OPEN_PER_ACCOUNT):
        create(org, name=f"T{n}")
    response = org.post("/tournaments", data={
        "name": "One too many", "format": "pinasca", "preset": "pinasca", "target": "1500",
        "rounds": "3"}, follow_redirects=True)
    assert f"at most {OPEN_PER_ACCOUNT} tournaments" in response.text
    rows = client.portal.call(  # type: ignore[attr-defined]
        client.app.state.tournaments.service.store.list)  # type: ignore[attr-defined]
    assert len(rows) == OPEN_PER_ACCOUNT


def test_a_registration_over_the_entrants_limit_is_refused_whole(client: TestClient) -> None:
    from belote.tournament.events import MAX_ENTRANTS

    people = Identities(client)
    register(people, "Organiser")
    tid = melee_of(client, people, MAX_ENTRANTS)
    page = post(people.use("Organiser"), f"/tournaments/{tid}/do/register",
                a_player1="One more")
    assert f"{MAX_ENTRANTS}" in page and len(tournament(client, tid).entrants) == MAX_ENTRANTS


# --------------------------------------------------------------------------- item 11
def test_the_results_csv_neutralises_formulas_and_is_the_organisers(
        client: TestClient) -> None:
    """Issue 21: "tournament CSV export writes =/+/-/@ names raw (formula injection) and
    anyone can download it"."""
    people = Identities(client)
    org = register(people, "Organiser")
    tid = create(org, name="Concours", format="concours", preset="classic", rounds="1",
                 target="1000")
    names = ['=HYPERLINK("http://x","y")', "+1+1", "-2+3", "@SUM(A1)"]
    for n, name in enumerate(names):
        post(org, f"/tournaments/{tid}/do/register", a_name=name, a_player1=f"P{n}",
             a_player2=f"\tQ{n}")
        post(org, f"/tournaments/{tid}/do/checkin", entrant=str(n + 1))
    post(org, f"/tournaments/{tid}/do/draw")
    post(org, f"/tournaments/{tid}/do/result", game="1", total_a="1000", total_b="800")
    guest = people.guest("Anyone")
    response = guest.get(f"/tournaments/{tid}/results.csv", follow_redirects=False)
    assert response.status_code == 303 and "text/csv" not in response.headers.get(
        "content-type", "")
    assert "results.csv" not in guest.get(f"/tournaments/{tid}/standings").text
    text = people.use("Organiser").get(f"/tournaments/{tid}/results.csv").text
    for row in list(csv.reader(io.StringIO(text)))[1:]:
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), row
    assert "'=HYPERLINK" in text and "'+1+1" in text and "'@SUM(A1)" in text


def test_tournament_and_player_names_go_through_the_chats_text_checks(
        client: TestClient) -> None:
    """Issue 21: "tournament and player names skip the text checks (NUL gives a 500 on
    PostgreSQL; bidi overrides accepted)"."""
    people = Identities(client)
    org = register(people, "Organiser")
    page = post(org, "/tournaments", name="Coppa\x00", format="pinasca", preset="pinasca",
                target="1500", rounds="3")
    assert "control characters" in page
    page = post(org, "/tournaments", name="Coppa \u202eacsaniP", format="pinasca",
                preset="pinasca", target="1500", rounds="3")
    assert "control characters" in page
    rows = client.portal.call(  # type: ignore[attr-defined]
        client.app.state.tournaments.service.store.list)  # type: ignore[attr-defined]
    assert rows == []
    tid = create(org)
    for bad in ("Anna\x00", "Anna\u2066x", "Anna\u202e"):
        page = post(org, f"/tournaments/{tid}/do/register", club="Q", a_player1=bad,
                    a_player2="B", b_player1="C", b_player2="D")
        assert "control characters" in page
    assert tournament(client, tid).entrants == {}
    # Names are stored in NFC, as chat lines are.
    post(org, f"/tournaments/{tid}/do/register", club="Q", a_player1="Nicolo\u0300",
         a_player2="B", b_player1="C", b_player2="D")
    assert tournament(client, tid).entrants[1].players[0] == "Nicolò"


def test_the_audit_log_keeps_the_codes_but_no_page_shows_them(client: TestClient) -> None:
    """The codes live in the events (the ``drawn`` event holds them, so a replay restores
    them): the console's audit log shows none of them, nor do the public pages."""
    people = Identities(client)
    tid = pinasca(people)
    t = tournament(client, tid)
    drawn = next(a for a in t.audit if a.kind == "drawn")
    codes = codes_of(client, tid, 1)
    assert [c for side in drawn.data["games"][0]["codes"] for c in side] == codes
    replayed = Tournament.replay([Event(a.kind, a.data, a.by, a.at) for a in t.audit])
    assert replayed.game(1).codes == t.game(1).codes
    console = people.use("Organiser").get(f"/tournaments/{tid}").text
    assert not any(code in console for code in codes)


def test_a_nul_in_a_tournament_text_is_refused_on_postgresql_not_a_500(
        tmp_path: Path, postgres_url: str) -> None:
    """Issue 21: "NUL gives a 500 on PostgreSQL": every text an organiser types into a
    tournament is refused with its reason, on the production database."""
    settings = make_settings(tmp_path, db_url=fresh_database(postgres_url))
    with client_for(create_app(settings)) as client:
        people = Identities(client)
        org = register(people, "Organiser")
        page = post(org, "/tournaments", name="Coppa\x00", format="pinasca",
                    preset="pinasca", target="1500", rounds="3")
        assert "control characters" in page
        tid = create(org)
        page = post(org, f"/tournaments/{tid}/do/register", club="Q\x00", a_player1="A",
                    a_player2="B", b_player1="C", b_player2="D")
        assert "control characters" in page
        post(org, f"/tournaments/{tid}/do/register", club="Q", a_player1="A", a_player2="B",
             b_player1="C", b_player2="D")
        for action, data in (("bind", {"entrant": "1", "player": "0", "account": "x\x00"}),
                             ("organiser", {"name": "x\x00"}),
                             ("adjust", {"subject": "Q", "points": "1", "reason": "r\x00"})):
            page = post(org, f"/tournaments/{tid}/do/{action}", **data)
            assert "control characters" in page, action
        assert len(tournament(client, tid).audit) == 2  # created, registered: nothing else


@pytest.mark.slow
def test_a_melee_of_1024_players_draw_under_the_probe_socket(tmp_path: Path) -> None:
    """The same finding measured from outside, as the room's other heavy requests are
    (tests/server/test_loop_stalls.py): a real room (uvicorn in a child process), a probe
    socket pinging its lobby every 10 ms from a process of its own, the Draw of a mêlée of
    1,024 posted meanwhile; the worst round trip is the loop's stall."""
    import httpx

    from belote.server.auth.names import name_key
    from belote.server.persistence import Store
    from belote.server.tournament.service import Tournaments
    from belote.server.tournament.store import TournamentStore
    from tests.browser.live import LiveServer
    from tests.server.helpers import sign_up_over_http
    from tests.server.loop_probe import THRESHOLD, worst_stall

    with (LiveServer(signups_per_hour=1000) as room,
          httpx.Client(base_url=room.url, headers={"origin": room.url}, timeout=120) as http):
        room.favour()  # a probe measures it (tests/server/loop_probe.py)
        sign_up_over_http(http, "Organiser")
        assert "Organiser" in http.get("/tournaments").text

        async def prepare() -> list[int]:
            # Three mêlées of 1,024 checked-in players, written straight into the room's
            # database (one a try: a round draws once).
            store = Store(str(room.settings["db_url"]))
            await store.open()
            try:
                service = Tournaments(TournamentStore(store.engine))
                tids = []
                for n in range(3):
                    tid = await service.create({
                        "name": f"Mêlée {n}", "format": "melee", "preset": "classic",
                        "target": 1000, "rounds": 3}, name_key("Organiser"))
                    await service.change(tid, "registered", {"entrants": [
                        {"name": f"Player {k}", "players": [f"Player {k}"],
                         "checked_in": True} for k in range(1024)]}, "Organiser")
                    tids.append(tid)
                return tids
            finally:
                await store.close()
        tids = iter(asyncio.run(prepare()))

        def draw() -> tuple[int, int, float]:
            tid = next(tids)
            started = time.monotonic()
            answer = http.post(f"/tournaments/{tid}/do/draw", follow_redirects=False)
            return tid, answer.status_code, time.monotonic() - started

        measured = worst_stall(room.url, draw)
        print(measured)
        assert measured.stall <= THRESHOLD, measured
        tid, status, seconds = measured.results[-1]
        assert status == 303 and seconds > THRESHOLD  # the work was there to be done
        assert "Round 1" in http.get(f"/tournaments/{tid}").text
