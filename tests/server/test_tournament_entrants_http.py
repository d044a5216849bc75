"""The console's entrants, settings and undo forms (issue 24, items 5 and 8), through the
room's HTTP pages: organisers only, refusals said on the console, the standings marked."""

from __future__ import annotations

import html

from starlette.testclient import TestClient

from belote.tournament.standings import standings
from tests.server.helpers import Identities
from tests.server.test_tournament_http import create, post, register, tournament


def concours(people: Identities, pairs: int = 5, **changes: str) -> int:
    org = register(people, "Organiser")
    tid = create(org, name="Concours", format="concours", target="1500", **changes)
    for n in range(pairs):
        post(people.use("Organiser"), f"/tournaments/{tid}/do/register", a_name=f"Pair {n}",
             a_player1=f"Anna{n}", a_player2=f"Bruno{n}")
    return tid


def manage(client: TestClient, tid: int, action: str, **data: str) -> str:
    return html.unescape(post(client, f"/tournaments/{tid}/manage/{action}", **data))


def test_withdraw_remove_reserve_promote_from_the_console(client: TestClient) -> None:
    people = Identities(client)
    tid = concours(people)
    org = people.use("Organiser")
    page = html.unescape(org.get(f"/tournaments/{tid}").text)
    assert "Entrants on the day" in page and "Remove Pair 4" in page
    assert "Done." in manage(org, tid, "remove", entrant="5")
    assert 5 not in tournament(org, tid).entrants
    manage(org, tid, "reserve", entrant="4")
    for entrant in (1, 2, 3):
        post(org, f"/tournaments/{tid}/do/checkin", entrant=str(entrant))
    post(org, f"/tournaments/{tid}/do/draw")
    t = tournament(org, tid)
    assert all(4 not in side for g in t.current.games for side in g.sides)
    page = manage(org, tid, "remove", entrant="1")
    assert "withdraw it instead" in page and 1 in tournament(org, tid).entrants
    page = manage(org, tid, "withdraw", entrant="2", reason="went home")
    assert "Done." in page and tournament(org, tid).entrants[2].withdrawn
    page = manage(org, tid, "promote", entrant="4")
    assert "Done." in page and tournament(org, tid).entrants[4].joined == 2
    public = html.unescape(client.get(f"/tournaments/{tid}/standings").text)
    assert "Pair 1 (withdrawn)" in public and "Buchholz" in public
    assert "went home" in html.unescape(org.get(f"/tournaments/{tid}").text)  # audit
    page = manage(org, tid, "reinstate", entrant="2")
    assert "Done." in page and not tournament(org, tid).entrants[2].withdrawn


def test_late_entry_settings_and_undo_from_the_console(client: TestClient) -> None:
    people = Identities(client)
    tid = concours(people, pairs=4)
    org = people.use("Organiser")
    page = manage(org, tid, "settings", check_in="off", late_rule="bye", best_of="1",
                  tiebreak1="point_difference", tiebreak2="lot", tiebreak3="")
    assert "Done." in page
    t = tournament(org, tid)
    assert t.s.tiebreaks == ("point_difference", "lot") and t.s.lot_seed is not None
    assert t.s.check_in is False and t.s.late_rule == "bye"
    page = manage(org, tid, "settings", check_in="maybe", late_rule="zero")
    assert "Not a valid setting" in page and tournament(org, tid).s.late_rule == "bye"
    post(org, f"/tournaments/{tid}/do/draw")  # check-in off: every pair is drawn
    page = html.unescape(org.get(f"/tournaments/{tid}").text)
    assert "Undo the draw of round 1" in page and "Late entry" in page
    assert "Point difference" in page and "Lot" in page  # the tie-breaks' columns
    page = manage(org, tid, "undraw", reason="")
    assert "reason" in page.lower() and tournament(org, tid).current is not None
    page = manage(org, tid, "undraw", reason="wrong pairs drawn")
    assert "Done." in page and tournament(org, tid).rounds == []
    post(org, f"/tournaments/{tid}/do/draw")
    for game in tournament(org, tid).current.games:
        post(org, f"/tournaments/{tid}/do/result", game=str(game.id), total_a="1500",
             total_b="1000")
    post(org, f"/tournaments/{tid}/do/close")
    page = manage(org, tid, "reopen", reason="a result to check")
    assert "Done." in page and not tournament(org, tid).current.closed
    post(org, f"/tournaments/{tid}/do/close")
    page = manage(org, tid, "late", name="Late", player1="Lia", player2="Mara")
    assert "Done." in page
    rec = {line.name: line for line in standings(tournament(org, tid))}["Late"].record
    assert rec is not None and rec.byes == 1  # the organiser's rule: a missed round, a bye


def test_only_organisers_manage_entrants(client: TestClient) -> None:
    people = Identities(client)
    tid = concours(people, pairs=2)
    stranger = register(people, "Stranger")
    page = manage(stranger, tid, "withdraw", entrant="1")
    assert "organisers" in page.lower()
    assert not tournament(stranger, tid).entrants[1].withdrawn
    assert stranger.post(f"/tournaments/{tid}/manage/nothing", data={}).status_code == 404


def test_best_of_3_games_are_typed_in_the_console_one_by_one(client: TestClient) -> None:
    people = Identities(client)
    tid = concours(people, pairs=2)
    org = people.use("Organiser")
    manage(org, tid, "settings", check_in="off", late_rule="zero", best_of="3")
    post(org, f"/tournaments/{tid}/do/draw")
    game = tournament(org, tid).current.games[0]
    post(org, f"/tournaments/{tid}/do/result", game=str(game.id), total_a="1500",
         total_b="1000")
    page = html.unescape(org.get(f"/tournaments/{tid}").text)
    assert "Matches, best of 3" in page and "1 games played (1500–1000)" in page
    page = html.unescape(post(org, f"/tournaments/{tid}/do/tables"))
    assert "not at an online table" in page
    post(org, f"/tournaments/{tid}/do/result", game=str(game.id), total_a="1500",
         total_b="1200")
    result = tournament(org, tid).game(game.id).result
    assert result is not None and result.winner == 0 and result.totals == (3000, 2200)
