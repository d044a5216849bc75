"""Issue 24 in the room: the exports page and files, the printed standings, the audit log in
words, the prize list, a season's pages, the stand-ins read from a table's log, and the
room's cached tournament brought up to date when the CLI changes the same file."""

from __future__ import annotations

import asyncio
import csv
import io
import random
from pathlib import Path

from starlette.testclient import TestClient

from belote.server.persistence import LogEntry, Store
from belote.server.tournament.room import stood_in
from belote.server.tournament.service import Tournaments
from belote.server.tournament.store import TournamentStore
from tests.server.helpers import Identities
from tests.server.test_tournament_http import create, post, register

PAIRS = [("Lupi", "Nicolò", "Ada"), ("Orsi", "Bea", "Carlo"), ("Volpi", "Dario", "Elsa"),
         ("Gufi", "Fabio", "Gina")]


def concours(client: TestClient, people: Identities) -> int:
    org = register(people, "Organiser")
    tid = create(org, name="Concours", format="concours", preset="classic", rounds="1",
                 target="1000", standins="")
    for n, (name, a, b) in enumerate(PAIRS):
        post(org, f"/tournaments/{tid}/do/register", a_name=name, a_player1=a, a_player2=b)
        post(org, f"/tournaments/{tid}/do/checkin", entrant=str(n + 1))
    post(org, f"/tournaments/{tid}/do/draw")
    post(org, f"/tournaments/{tid}/do/result", game="1", total_a="1000", total_b="800")
    post(org, f"/tournaments/{tid}/do/result", game="2", total_a="1000", total_b="600")
    post(org, f"/tournaments/{tid}/do/close")
    return tid


def test_exports_are_offered_to_organisers_with_semicolons_and_a_bom(
        client: TestClient) -> None:
    people = Identities(client)
    tid = concours(client, people)
    org = people.use("Organiser")
    page = org.get(f"/tournaments/{tid}/exports").text
    assert 'name="sep" value="semicolon"' in page and 'name="bom"' in page
    response = org.get(f"/tournaments/{tid}/export?what=results&sep=semicolon&bom=1")
    assert response.status_code == 200 and response.text.startswith("\ufeffround;table;")
    lines = list(csv.reader(io.StringIO(response.text[1:]), delimiter=";"))
    assert {line[11] for line in lines[1:]} == {"typed by the organiser"}
    guest = people.guest("Anyone")
    refused = guest.get(f"/tournaments/{tid}/export?what=results", follow_redirects=False)
    assert refused.status_code == 303
    # The standings are public, as their page is.
    standings = guest.get(f"/tournaments/{tid}/export?what=standings&sep=semicolon").text
    assert standings.startswith("place;name;players;") and "Nicolò & Ada" in standings
    assert guest.get(f"/tournaments/{tid}/export?what=nothing").status_code == 404
    assert guest.get(f"/tournaments/{tid}/exports", follow_redirects=False).status_code == 303


def test_the_printed_standings_repeat_their_header_and_the_log_speaks_words(
        client: TestClient) -> None:
    people = Identities(client)
    tid = concours(client, people)
    guest = people.guest("Anyone")
    page = guest.get(f"/tournaments/{tid}/standings/print").text
    assert "<thead>" in page and "tournament_print.css" in page and "Nicolò &amp; Ada" in page
    css = guest.get("/static/tournament_print.css").text
    assert "table-header-group" in css and "size: A4" in css and "break-inside: avoid" in css
    org = people.use("Organiser")
    log = org.get(f"/tournaments/{tid}/log").text
    assert "Organiser drew round 1: 2 tables." in log
    assert "round=" not in log and "T1" not in log.split("<main", 1)[1].split("Concours")[0]
    console = org.get(f"/tournaments/{tid}").text
    assert "Organiser recorded game 1" in console and "round=" not in console
    guest = people.use("Anyone")  # one client: its jar is the identity used last
    assert guest.get(f"/tournaments/{tid}/log", follow_redirects=False).status_code == 303


def test_the_prize_list_is_set_by_organisers_and_printed_for_everyone(
        client: TestClient) -> None:
    people = Identities(client)
    tid = concours(client, people)
    org = people.use("Organiser")
    page = post(org, f"/tournaments/{tid}/prizes", places="Un prosciutto\n\nUn salame",
                prize_mixed="Una bottiglia", eligible_mixed="Volpi\nGufi")
    assert "Prizes saved." in page and "Un prosciutto" in page
    page = post(org, f"/tournaments/{tid}/prizes", places="x", prize_mixed="y",
                eligible_mixed="Nobody")
    assert "Nobody" in page  # refused, said; the list as it was
    guest = people.guest("Anyone")
    page = guest.get(f"/tournaments/{tid}/prizes").text
    assert "Un prosciutto" in page and "place 3" in page and "Best mixed pair" in page
    assert 'action="/tournaments/' not in page  # no form for a guest
    csv_text = guest.get(f"/tournaments/{tid}/export?what=prizes").text
    assert csv_text.startswith("prize for,prize,winner") and "Una bottiglia" in csv_text


def test_a_season_page_ranks_the_players_and_its_owner_merges_two_spellings(
        client: TestClient) -> None:
    people = Identities(client)
    tid = concours(client, people)
    org = people.use("Organiser")
    response = org.post("/seasons", data={"name": "Grand Prix", "points": "25, 20, 16, 13",
                                          "others": "1"}, follow_redirects=False)
    assert response.status_code == 303
    sid = int(response.headers["location"].rsplit("/", 1)[1])
    page = post(org, f"/seasons/{sid}", do="add", tournament=str(tid))
    assert "Concours" in page and "finished, counted" in page and "Nicolò" in page
    page = post(org, f"/seasons/{sid}", do="merge", player="name:ada", into="name:nicolò")
    assert "ada is nicolò." in page
    guest = people.guest("Anyone")
    page = guest.get(f"/seasons/{sid}").text
    assert "Grand Prix" in page and "A name is not an identity" in page
    assert 'name="do"' not in page
    page = post(guest, f"/seasons/{sid}", do="remove", tournament=str(tid))
    assert "Only the tournament&#39;s organisers" in page
    assert "Grand Prix" in guest.get("/seasons").text
    assert guest.get("/seasons/99").status_code == 404


def test_stand_ins_are_the_seats_a_bot_played_for_not_those_it_only_held() -> None:
    human = {"kind": "human", "standin": False}
    bot = {"kind": "human", "standin": True}
    log = [LogEntry(1, "seats", {"seats": [bot, bot, bot, bot]}),
           LogEntry(2, "seats", {"seats": [human, bot, bot, bot]}),  # seat 0 came in time
           LogEntry(3, "act", {"seat": 1, "action": 3}),
           LogEntry(4, "seats", {"seats": [human, human, bot, human]}),
           LogEntry(5, "act", {"seat": 3, "action": 1}),
           LogEntry(6, "act", {"seat": 2, "action": 1})]
    assert stood_in(log) == {1, 2}


def test_the_room_reads_a_change_the_cli_made_to_its_file(client: TestClient,
                                                          tmp_path: Path) -> None:
    """Issue 24: "the room's cached tournament goes stale and its next change answers 500
    until a restart"."""
    people = Identities(client)
    org = register(people, "Organiser")
    tid = create(org, name="Concours", format="concours", preset="classic", rounds="1",
                 target="1000")
    post(org, f"/tournaments/{tid}/do/register", a_name="Lupi", a_player1="A", a_player2="B")
    assert "Lupi" in org.get(f"/tournaments/{tid}").text  # cached by the room

    async def elsewhere() -> None:  # what `belote tournament register` does on the file
        store = Store(f"sqlite:///{tmp_path / 'sala.db'}")
        await store.open()
        try:
            ts = Tournaments(TournamentStore(store.engine), random.Random(1))
            await ts.change(tid, "registered", {"entrants": [
                {"name": "Orsi", "players": ["C", "D"], "checked_in": True}]}, "offline")
        finally:
            await store.close()
    asyncio.run(elsewhere())
    page = post(org, f"/tournaments/{tid}/do/register", a_name="Volpi", a_player1="E",
                a_player2="F")
    assert "Done." in page and "Orsi" in page and "Volpi" in page
    t = client.app.state.tournaments.service._cache[tid]  # type: ignore[attr-defined]
    assert [e.name for e in t.entrants.values()] == ["Lupi", "Orsi", "Volpi"]
    assert len(t.audit) == 4
