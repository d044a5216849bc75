"""Issue 24, the review of the scorer's pages on a phone, through the room's pages: each test
named after a finding.  The match's line counted hands still awaiting the other side; "entered
hands 1"; the table card's QR code opened a page that spoke of seat codes (and refused a
table code as "not a seat code"); the preferences filled a phone's screen above the heading;
a side's name broke at its hyphen in the hands' table."""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient

from belote.i18n import LANGUAGES
from belote.server.routes.tournaments.scores import hands_in_words
from tests.server.helpers import Identities
from tests.server.test_tournament_entry import HAND, give, pinasca, side_codes
from tests.server.test_tournament_http import enter_hand, post, tournament


def match_line(page: str) -> str:
    found = re.search(r'<p id="totals" role="status">([^<]*)</p>', page)
    assert found, "no match line"
    return found.group(1)


def heading(page: str) -> str:
    found = re.search(r"<h1>([^<]*)</h1>", page)
    assert found, "no heading"
    return found.group(1)

def ns_scorer(client: TestClient) -> tuple[Identities, int, str]:
    """A drawn Pinasca tournament and a guest "Scorer" holding N-S's code of game 1: the
    people, the tournament, E-W's code."""
    people = Identities(client)
    tid = pinasca(people)
    ns, ew = side_codes(client, tid, 1)
    people.guest("Scorer")
    give(people, "Scorer", f"/tournaments/{tid}/games/1/code", code=ns)
    return people, tid, ew



def test_the_match_line_counts_only_confirmed_hands_and_says_the_rest_apart(
        client: TestClient) -> None:
    people, tid, ew = ns_scorer(client)
    page = enter_hand(people.use("Scorer"), tid, 1, HAND)
    assert match_line(page) == ("Match, confirmed hands only: N-S 0, E-W 0. "
                                "With the hands not yet confirmed: N-S 152, E-W 10.")
    # Confirmed by E-W: it counts, and the line is the match's again.
    page = post(people.use("Scorer"), f"/tournaments/{tid}/games/1/entry", do="confirm",
                hands="1", totals="", code=ew)
    assert match_line(page) == "Match: N-S 152, E-W 10."
    # A second hand awaiting E-W: the first counts, the second is said apart.
    page = enter_hand(people.use("Scorer"), tid, 1, ["ew", "h", "10", "152", "", "", "", ""])
    assert match_line(page) == ("Match, confirmed hands only: N-S 152, E-W 10. "
                                "With the hands not yet confirmed: N-S 162, E-W 162.")
    # Final totals typed on top: said apart too, never as the match's score.
    page = post(people.use("Scorer"), f"/tournaments/{tid}/games/1/entry", do="totals",
                total_ns="1500", total_ew="1200")
    assert match_line(page).endswith(" Final totals not yet confirmed: N-S 1500, E-W 1200.")
    assert match_line(page).startswith("Match, confirmed hands only: N-S 152, E-W 10.")


def test_typed_totals_alone_are_said_apart_from_the_match(client: TestClient) -> None:
    people, tid, _ = ns_scorer(client)
    page = post(people.use("Scorer"), f"/tournaments/{tid}/games/1/entry", do="totals",
                total_ns="1500", total_ew="1200")
    assert match_line(page) == ("Match, confirmed hands only: N-S 0, E-W 0. "
                                "Final totals not yet confirmed: N-S 1500, E-W 1200.")


@pytest.mark.parametrize(("lang", "said"), [
    ("en", ["hand 1", "hands 1 and 2", "hands 1 to 3", "hands 1, 2 and 4"]),
    ("it", ["la mano 1", "le mani 1 e 2", "le mani da 1 a 3", "le mani 1, 2 e 4"]),
    ("es", ["la mano 1", "las manos 1 y 2", "las manos de la 1 a la 3",
            "las manos 1, 2 y 4"]),
    ("fr", ["la donne 1", "les donnes 1 et 2", "les donnes 1 à 3", "les donnes 1, 2 et 4"]),
])
def test_hand_numbers_are_said_as_a_sentence_says_them(lang: str, said: list[str]) -> None:
    assert lang in LANGUAGES
    cases = [[1], [1, 2], [1, 2, 3], [1, 2, 4]]
    assert [hands_in_words(lang, numbers) for numbers in cases] == said


def test_the_pending_hands_are_named_hand_1_then_hands_1_and_2(client: TestClient) -> None:
    people, tid, _ = ns_scorer(client)
    page = enter_hand(people.use("Scorer"), tid, 1, HAND)
    assert "N-S entered hand 1: a player of E-W confirms" in page
    page = enter_hand(people.use("Scorer"), tid, 1, HAND)
    assert "N-S entered hands 1 and 2: a player of E-W confirms" in page
    page = enter_hand(people.use("Scorer"), tid, 1, HAND)
    assert "N-S entered hands 1 to 3: a player of E-W confirms" in page


def test_the_table_cards_qr_code_opens_a_page_that_speaks_of_the_table_code(
        client: TestClient) -> None:
    people = Identities(client)
    tid = pinasca(people)
    people.guest("Scorer")
    scorer = people.use("Scorer")
    page = scorer.get(f"/tournaments/{tid}/games/1/code").text
    assert heading(page) == "Table code: round 1, table 1"
    assert "<title>Table code: round 1, table 1</title>" in page
    assert '<label for="code">Table code</label>' in page
    assert "printed on its half of the table card" in page and "Seat code" not in page
    # A wrong code is refused naming the kind typed: a table code's six characters, or a
    # seat code's eight; anything else, the page's kind.
    path = f"/tournaments/{tid}/games/1/code"
    assert "not a table code of this game" in give(people, "Scorer", path, code="ZZZ-ZZZ")
    assert "not a seat code of this game" in give(people, "Scorer", path, code="ZZZZ-ZZZZ")
    assert "not a table code of this game" in give(people, "Scorer", path, code="ZZZZ")
    # The score entry, for someone with no code yet, asks for the table code.
    entry = people.guest("Curious").get(f"/tournaments/{tid}/games/1/entry").text
    assert "To score this game, give your table code." in entry


def test_a_game_at_an_online_table_speaks_of_seat_codes(client: TestClient) -> None:
    people = Identities(client)
    tid = pinasca(people)
    post(people.use("Organiser"), f"/tournaments/{tid}/do/tables")
    assert tournament(client, tid).game(1).table_id is not None
    people.guest("Player")
    page = people.use("Player").get(f"/tournaments/{tid}/games/1/code").text
    assert heading(page) == "Seat code: round 1, table 1"
    assert '<label for="code">Seat code</label>' in page
    path = f"/tournaments/{tid}/games/1/code"
    assert "not a seat code of this game" in give(people, "Player", path, code="ZZZZ")
    assert "not a table code of this game" in give(people, "Player", path, code="ZZZZZZ")
    entry = people.guest("Curious").get(f"/tournaments/{tid}/games/1/entry").text
    assert "To score this game, give your seat code." in entry
    # The short form asks for the table card's code: a wrong one is a wrong table code.
    page = give(people, "Player", f"/tournaments/{tid}/enter", table="1", code="ZZZZ")
    assert "not a table code of this game" in page


def test_a_wrong_code_of_the_other_side_is_named_by_its_kind(client: TestClient) -> None:
    people, tid, _ = ns_scorer(client)
    enter_hand(people.use("Scorer"), tid, 1, HAND)
    path = f"/tournaments/{tid}/games/1/entry"
    page = post(people.use("Scorer"), path, do="confirm", hands="1", totals="",
                code="ZZZZZZZZ")
    assert "not a seat code of this game" in page
    page = post(people.use("Scorer"), path, do="confirm", hands="1", totals="", code="ZZZZ")
    assert "not a table code of this game" in page
    assert tournament(client, tid).counted(1) == 0


@pytest.mark.parametrize("path", ["/", "/tournaments"])
def test_the_preferences_are_a_disclosure_open_unless_the_screen_is_narrow(
        client: TestClient, path: str) -> None:
    """The fold itself is the page's script (a narrow screen: tests/browser); without
    scripts the preferences stay open, every control in them."""
    page = client.get(path).text
    box = page.index('<details class="prefs-box" id="prefs-box" open>')
    assert page.index("<summary>Preferences (language, announcements, pause)</summary>") > box
    assert box < page.index('id="pref-lang"') < page.index('id="pref-save"') < \
        page.index("</details>\n  <script>") < page.index('<main id="main"')
    assert page.index('class="skip" href="#main"') < box  # the skip link still comes first


def test_the_hands_table_keeps_side_names_whole(client: TestClient) -> None:
    people, tid, _ = ns_scorer(client)
    page = enter_hand(people.use("Scorer"), tid, 1, HAND)
    assert '<th scope="col" class="side">N-S</th><th scope="col" class="side">E-W</th>' in page
    assert 'Total <span class="side">N-S</span>' in page
    css = client.get("/static/tournament.css").text
    assert ".hands .side { white-space: nowrap; }" in css


def test_the_sides_are_named_in_the_pages_language(client: TestClient) -> None:
    # Italian, Spanish and French say E-O (est-ovest, este-oeste, est-ouest), as their score
    # sheets do: the entry page's hands table and its lines follow the page's language.
    people, tid, _ = ns_scorer(client)
    scorer = people.use("Scorer")
    scorer.post("/preferences", data={"lang": "it", "next": "/"})
    page = enter_hand(scorer, tid, 1, HAND)
    assert '<html lang="it">' in page
    assert "E-O" in page and "E-W" not in page


def test_a_refused_dispute_marks_the_code_only_when_the_code_was_wrong(
        client: TestClient) -> None:
    people, tid, ew = ns_scorer(client)
    enter_hand(people.use("Scorer"), tid, 1, HAND)
    path = f"/tournaments/{tid}/games/1/entry"
    # The right code, but the entries changed since the page was read (it said one hand,
    # the form says two): refused for that; the reason's field is focused, the code is not
    # marked wrong.
    page = post(people.use("Scorer"), path, do="dispute", hands="2", totals="", code=ew,
                reason="we made more")
    assert 'role="alert"' in page
    assert re.search(r'id="dispute-reason"[^>]*autofocus', page)
    assert not re.search(r'id="dispute-code"[^>]*aria-invalid', page)
    # A wrong code: the code's field is focused and marked.
    page = post(people.use("Scorer"), path, do="dispute", hands="1", totals="", code="ZZZZZZ",
                reason="we made more")
    assert re.search(r'id="dispute-code"[^>]*autofocus aria-invalid="true"', page)
    assert "Code of a player of E-W, to dispute" in page


def test_the_short_form_marks_the_code_only_when_the_code_was_wrong(
        client: TestClient) -> None:
    people = Identities(client)
    tid = pinasca(people)
    people.guest("Player")
    page = give(people, "Player", f"/tournaments/{tid}/enter", table="1", code="ZZZZZZ")
    assert re.search(r'id="code"[^>]*aria-invalid="true"', page)
    # Signed out: the refusal is about signing in, not the code.
    anonymous = client
    anonymous.cookies.clear()
    page = post(anonymous, f"/tournaments/{tid}/enter", table="1", code="ZZZZZZ")
    assert not re.search(r'id="code"[^>]*aria-invalid', page)
