"""Issue 24, item 1 and part of 10, through the room's pages: the table cards with a short
code per side, the short form (table and code), a hand entered on one phone and confirmed on
another (or on the same one with the other side's code), a dispute resolved in the console's
queue, a hand entered twice stored once, and implausible totals refused with the bound."""

from __future__ import annotations

from starlette.testclient import TestClient

from belote.tournament.codes import side_code
from tests.server.helpers import Identities
from tests.server.test_tournament_http import enter_hand, post, tournament
from tests.server.test_tournament_pages import pinasca as pinasca_drawn

HAND = ["ns", "h", "152", "10", "", "", "", ""]  # N-S 152, E-W 10


def pinasca(people: Identities) -> int:
    return pinasca_drawn(people, target="1500")


def side_codes(client: TestClient, tid: int, game_id: int) -> list[str]:
    game = tournament(client, tid).game(game_id)
    return [side_code(game, 0), side_code(game, 1)]


def give(people: Identities, who: str, path: str, **data: str) -> str:
    client = people.use(who)
    page = post(client, path, **data)
    people._jars[who] = client.cookies  # the client may have replaced its jar
    return page


def test_table_cards_show_each_sides_short_code_and_qr_to_organisers_only(
        client: TestClient) -> None:
    people = Identities(client)
    tid = pinasca(people)
    codes = side_codes(client, tid, 1) + side_codes(client, tid, 2)
    page = people.use("Organiser").get(f"/tournaments/{tid}/table-cards").text
    for code in codes:
        assert f"{code[:3]}-{code[3:]}" in page
    assert page.count("<svg") == 4 and page.count('class="sheet table-card"') == 2
    assert f"/tournaments/{tid}/enter" in page
    console = people.use("Organiser").get(f"/tournaments/{tid}").text
    assert f"/tournaments/{tid}/table-cards" in console and "queue-heading" in console
    guest = people.guest("Curious")
    response = guest.get(f"/tournaments/{tid}/table-cards", follow_redirects=False)
    assert response.status_code == 303
    for path in ("standings", "sheets", "enter", "games/1/entry", "games/1/code"):
        text = guest.get(f"/tournaments/{tid}/{path}").text
        assert not any(code in text for code in codes)


def test_a_hand_entered_with_the_table_code_counts_once_the_other_side_confirms(
        client: TestClient) -> None:
    people = Identities(client)
    tid = pinasca(people)
    ns, ew = side_codes(client, tid, 1)
    people.guest("Scorer")
    page = give(people, "Scorer", f"/tournaments/{tid}/enter", table="1", code=ns.lower())
    assert "you score for N-S" in page
    page = enter_hand(people.use("Scorer"), tid, 1, HAND)
    assert "To confirm" in page and "awaiting the other side" in page
    t = tournament(client, tid)
    assert t.counted(1) == 0 and len(t.hands[1]) == 1
    # The scorer cannot confirm their own side's hand, not even by typing their own code.
    page = post(people.use("Scorer"), f"/tournaments/{tid}/games/1/entry", do="confirm",
                hands="1", totals="", code=ns)
    assert "A player of the other side confirms" in page
    assert tournament(client, tid).counted(1) == 0
    # A player of E-W confirms on their own phone.
    people.guest("Opponent")
    give(people, "Opponent", f"/tournaments/{tid}/games/1/code", code=ew)
    page = people.use("Opponent").get(f"/tournaments/{tid}/games/1/entry").text
    assert "N-S entered hand 1:" in page and 'id="confirm-code"' not in page
    page = post(people.use("Opponent"), f"/tournaments/{tid}/games/1/entry", do="confirm",
                hands="1", totals="")
    assert "Confirmed: it counts now." in page
    assert tournament(client, tid).counted(1) == 1
    # The next hand, confirmed on the scorer's phone with a seat code of E-W typed there.
    enter_hand(people.use("Scorer"), tid, 1, HAND)
    page = post(people.use("Scorer"), f"/tournaments/{tid}/games/1/entry", do="confirm",
                hands="2", totals="", code=tournament(client, tid).game(1).codes[1][1])
    assert "Confirmed" in page and tournament(client, tid).counted(1) == 2
    # The code typed there is not kept: the scorer still scores for N-S.
    page = people.use("Scorer").get(f"/tournaments/{tid}/games/1/entry").text
    assert "You score for N-S" in page


def test_a_wrong_confirming_code_is_counted_like_any_code(client: TestClient) -> None:
    people = Identities(client)
    tid = pinasca(people)
    ns, _ = side_codes(client, tid, 1)
    people.guest("Scorer")
    give(people, "Scorer", f"/tournaments/{tid}/games/1/code", code=ns)
    scorer = people.use("Scorer")
    enter_hand(scorer, tid, 1, HAND)
    page = post(scorer, f"/tournaments/{tid}/games/1/entry", do="confirm", hands="1",
                totals="", code="ZZZZZZ")
    assert "not a table code of this game" in page  # six characters: a table code's length
    page = post(scorer, f"/tournaments/{tid}/games/1/entry", do="confirm", hands="1",
                totals="")
    assert "types their code" in page
    assert tournament(client, tid).counted(1) == 0


def test_a_dispute_reaches_the_console_queue_and_the_organiser_resolves_it(
        client: TestClient) -> None:
    people = Identities(client)
    tid = pinasca(people)
    ns, ew = side_codes(client, tid, 1)
    people.guest("Scorer")
    people.guest("Opponent")
    give(people, "Scorer", f"/tournaments/{tid}/games/1/code", code=ew)
    give(people, "Opponent", f"/tournaments/{tid}/games/1/code", code=ns)
    enter_hand(people.use("Scorer"), tid, 1, HAND)
    page = post(people.use("Opponent"), f"/tournaments/{tid}/games/1/entry", do="dispute",
                hands="1", totals="", reason="we took 152, not them")
    assert "Disputed: an organiser decides." in page
    org = people.use("Organiser")
    console = org.get(f"/tournaments/{tid}").text
    assert "Awaiting confirmation (1)" in console
    assert "Disputed: we took 152, not them" in console
    page = post(org, f"/tournaments/{tid}/games/1/resolve", decision="reject",
                reason="re-entered at the table")
    assert "Awaiting confirmation (0)" in page
    t = tournament(client, tid)
    assert t.hands[1] == [] and [a.kind for a in t.audit][-2:] == ["disputed", "resolved"]
    # Only an organiser resolves.
    response = people.use("Scorer").post(f"/tournaments/{tid}/games/1/resolve",
                                         data={"decision": "accept", "reason": "x"},
                                         follow_redirects=False)
    assert response.headers["location"].endswith("/standings")


def test_two_phones_entering_the_same_hand_store_it_once(client: TestClient) -> None:
    people = Identities(client)
    tid = pinasca(people)
    ns, ew = side_codes(client, tid, 1)
    people.guest("North")
    people.guest("East")
    give(people, "North", f"/tournaments/{tid}/games/1/code", code=ns)
    give(people, "East", f"/tournaments/{tid}/games/1/code", code=ew)
    # Both start hand 1; North finishes first; East's identical hand is stored once.
    path = f"/tournaments/{tid}/games/1/entry"
    give(people, "East", path, answer="ns", do="next", hand="1")
    enter_hand(people.use("North"), tid, 1, HAND)
    for answer in HAND[1:]:  # East's session keeps the answers given so far
        page = give(people, "East", path, answer=answer, do="next")
    assert "Hand 1 was already entered with these same figures" in page
    assert len(tournament(client, tid).hands[1]) == 1


def test_typed_totals_await_the_other_side_and_implausible_ones_are_refused(
        client: TestClient) -> None:
    people = Identities(client)
    tid = pinasca(people)
    ns, ew = side_codes(client, tid, 1)
    people.guest("Scorer")
    give(people, "Scorer", f"/tournaments/{tid}/games/1/code", code=ns)
    scorer = people.use("Scorer")
    page = post(scorer, f"/tournaments/{tid}/games/1/entry", do="totals", total_ns="15000",
                total_ew="1200")
    assert "no side can finish with 15000" in page and 'role="alert"' in page
    page = post(scorer, f"/tournaments/{tid}/games/1/entry", do="totals", total_ns="1500",
                total_ew="1200")
    assert "Totals sent" in page and tournament(client, tid).game(1).result is None
    page = post(scorer, f"/tournaments/{tid}/games/1/entry", do="confirm", hands="0",
                totals="1500-1200", code=ew)
    result = tournament(client, tid).game(1).result
    assert result is not None and result.totals == (1500, 1200) and result.source == "entry"
    # The console's typed totals: the same bound.
    page = post(people.use("Organiser"), f"/tournaments/{tid}/do/result", game="2",
                total_a="1500", total_b="12000")
    assert "at most" in page and tournament(client, tid).game(2).result is None
