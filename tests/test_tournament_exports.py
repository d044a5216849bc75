"""Issue 24, items 6, 7, 9 and 10 (the core): the exports (origin of every result, the
correction's reason, neighbourhoods, ranking points, stand-in bots, commas or semicolons, a
BOM), the audit log in words, prizes, the season ranking, and registration files read whole
(semicolons, Latin-1 refused with its line, an extra column named)."""

from __future__ import annotations

import csv
import io
import random
import re
from datetime import UTC
from typing import Any

import pytest

from belote.tournament.audit_words import log_lines, sentences
from belote.tournament.codes import issue_codes
from belote.tournament.events import Event, Tournament
from belote.tournament.export import (
    csv_text,
    write_prizes,
    write_ranking_points,
    write_results,
    write_standings,
)
from belote.tournament.formats import draw, find_format
from belote.tournament.model import TournamentError
from belote.tournament.prizes import awards
from belote.tournament.registration import LineError, decode, read_registrations
from belote.tournament.season import Season, check_season, identity, ranking
from belote.tournament.text import error_text


def pinasca(clubs: int = 2) -> Tournament:
    t = Tournament()
    t.do(Event("created", {"name": "Pinasca", "format": "pinasca", "preset": "pinasca",
                           "target": 1500, "rounds": 1}, "org", "2024-06-01T16:05:00+00:00"))
    for n in range(clubs):
        t.do(Event("registered", {"entrants": [
            {"name": f"Club{n} A", "players": [f"A{n}", f"B{n}"], "club": f"Club{n}"},
            {"name": f"Club{n} B", "players": [f"C{n}", f"D{n}"], "club": f"Club{n}"}]},
            "org", "2024-06-01T16:06:00+00:00"))
    return t


def concours(pairs: int, names: list[tuple[str, str]] | None = None,
             accounts: dict[int, str] | None = None) -> Tournament:
    t = Tournament()
    t.do(Event("created", {"name": "Concours", "format": "concours", "preset": "classic",
                           "target": 1000, "rounds": 1}))
    for n in range(pairs):
        a, b = names[n] if names else (f"P{n}", f"Q{n}")
        t.do(Event("registered", {"entrants": [{"name": f"Pair {n}", "players": [a, b],
                                                "checked_in": True}]}))
    for entrant, account in (accounts or {}).items():
        t.do(Event("bound", {"entrant": entrant, "player": 0, "account": account}))
    return t


def play_round(t: Tournament, totals: dict[int, list[int]] | None = None,
               seed: int = 0) -> None:
    t.do(draw(t, random.Random(seed)))
    assert t.current is not None
    for game in t.current.games:
        if game.bye:
            continue
        game_totals = (totals or {}).get(game.table, [1500 if t.s.target == 1500 else 1000,
                                                      700])
        t.do(Event("result", {"game": game.id, "totals": game_totals, "source": "console"}))
    t.do(Event("closed", {"round": t.current.number}))


def rows(text: str, delimiter: str = ",") -> list[list[str]]:
    return list(csv.reader(io.StringIO(text), delimiter=delimiter))


# ---------------------------------------------------------------- item 7: exports
def test_every_result_says_its_origin_and_a_correction_its_reason() -> None:
    """Issue 24: "the export calls typed results "organiser's correction" and has no
    neighbourhood column, no ranking points, no correction reason"."""
    t = pinasca(2)
    t.do(draw(t, random.Random(1)))
    first, second = t.rounds[0].games
    t.do(Event("result", {"game": first.id, "totals": [1500, 1200], "source": "console"}))
    t.do(Event("result", {"game": second.id, "totals": [1500, 1100], "source": "online"}))
    t.do(Event("corrected", {"game": second.id, "totals": [1500, 1300],
                             "reason": "hand 9 misread"}, "org"))
    out = io.StringIO()
    write_results(t, out, "en")
    header, *lines = rows(out.getvalue())
    assert header[11:] == ["source", "neighbourhood A", "neighbourhood B",
                           "correction's reason", "origin corrected", "stand-in bots"]
    typed, corrected = lines
    assert typed[11] == "typed by the organiser" and typed[14] == ""
    assert corrected[11] == "organiser's correction"
    assert corrected[14:16] == ["hand 9 misread", "online table"]
    assert {typed[12], typed[13]} <= {"Club0", "Club1"} and typed[12] != typed[13]


def test_a_log_stored_before_console_existed_reads_its_typed_results_as_typed() -> None:
    t = pinasca(2)
    t.do(draw(t, random.Random(1)))
    game = t.rounds[0].games[0]
    # What the console stored before issue 24: a typed result's source was "organiser".
    t.apply(Event("result", {"game": game.id, "totals": [1500, 1200], "source": "organiser"}))
    assert game.result is not None and game.result.source == "console"


def test_semicolons_and_a_byte_order_mark_for_an_italian_spreadsheet() -> None:
    t = pinasca(2)
    play_round(t)
    text = csv_text(write_results, t, "it", ";", bom=True)
    assert text.startswith("\ufeffturno;tavolo;")
    table = rows(text.removeprefix("\ufeff"), ";")
    assert all(len(line) == len(table[0]) for line in table)
    assert table[1][11] == "inserito dall'organizzatore"
    assert not csv_text(write_results, t, "it", ",").startswith("\ufeff")


def test_standings_and_ranking_points_with_the_adjustments_and_their_reasons() -> None:
    t = pinasca(3)
    play_round(t)
    t.do(Event("adjusted", {"subject": "Club1", "points": -1,
                            "reason": "Maledizione del Framasun"}, "org"))
    out = io.StringIO()
    write_standings(t, out, "en")
    header, *lines = rows(out.getvalue())
    assert header[:4] == ["place", "name", "players", "neighbourhood"]
    assert header[10:12] == ["ranking points", "adjustments"]
    club1 = next(line for line in lines if line[1] == "Club1")
    assert club1[3] == "Club1" and "A1 & B1" in club1[2] and club1[11] == "-1"
    out = io.StringIO()
    write_ranking_points(t, out, "en")
    points = rows(out.getvalue())
    adjustment = [line for line in points if line[1] == "Club1"][1]  # after its place line
    assert adjustment[2:] == ["", "", "-1", "Maledizione del Framasun", ""]


def test_stand_in_bots_are_marked_seat_by_seat() -> None:
    t = pinasca(2)
    t.do(draw(t, random.Random(1)))
    game = t.rounds[0].games[0]
    t.do(Event("standins", {"game": game.id, "seats": [[1, 0], [0, 1]]}, "table"))
    with pytest.raises(TournamentError):
        t.do(Event("standins", {"game": game.id, "seats": [[2, 0]]}))
    out = io.StringIO()
    write_results(t, out, "en")
    line = rows(out.getvalue())[1]
    assert line[16] == f"a bot for {game.lineup[0][1]}, a bot for {game.lineup[1][0]}"
    assert "a bot played for" in " ".join(log_lines("en", t, UTC))


# ---------------------------------------------------------------- item 7: the audit log
def test_the_audit_log_is_in_words_in_local_time_and_never_shows_a_code() -> None:
    """Issue 24: "The audit log speaks in code words ("drawn round=2", ISO timestamps)"."""
    t = pinasca(2)
    drawn = draw(t, random.Random(0))
    t.do(Event("drawn", issue_codes(t.game, "drawn", drawn.data), "org"))  # as the room
    for game in t.rounds[0].games:
        t.do(Event("result", {"game": game.id, "totals": [1500, 900], "source": "entry"}))
    t.do(Event("closed", {"round": 1}))
    t.do(Event("adjusted", {"subject": "Club0", "points": 1,
                            "reason": "Potere della Girandola"}, "org"))
    codes = [c for g in t.games() for side in g.codes for c in side]
    assert codes
    for lang in ("it", "es", "fr", "en"):
        text = "\n".join(log_lines(lang, t, UTC))
        assert not re.search(r"\d{4}-\d\d-\d\dT", text), text  # no ISO timestamp
        assert "=" not in text and "round=" not in text
        assert not any(code in text for code in codes)
    italian = log_lines("it", t, UTC)
    assert italian[0] == ("1. 1 giugno 2024 alle 16:05: org ha creato il torneo «Pinasca» "
                          "(Pinasca (quartieri), 1 turno).")
    assert "sorteggiato il turno 1" in "\n".join(italian)
    assert any("+1. Motivo: Potere della Girandola" in line for line in italian)


def test_a_kind_the_log_cannot_word_is_listed_never_dropped() -> None:
    t = pinasca(2)
    t.audit.append(type(t.audit[0])(3, "new_kind", {"codes": ["SECRET"], "n": 1}, "org", ""))
    said = list(sentences("en", t))
    assert len(said) == 4 and "new_kind" in said[-1].text and "SECRET" not in said[-1].text
    assert said[-1].when == "time not recorded"


# ---------------------------------------------------------------- item 6: prizes
def test_prizes_by_place_shared_by_a_tie_and_categories_one_prize_each() -> None:
    t = concours(4)
    play_round(t, seed=3)
    order = [line.name for line in find_format("concours").standings(t)]
    eligible = [t.entrants[1].id, t.entrants[3].id]
    t.do(Event("prizes", {"prizes": [
        {"place": 1, "prize": "Un prosciutto"}, {"place": 2, "prize": "Due salami"},
        {"category": "mixed", "prize": "Una bottiglia", "eligible": eligible},
        {"category": "best_pair", "prize": "Coppa"}]}, "org"))
    found = awards(t, t.prizes)
    # Two winners tie on a 1000-700 round: equal records share 1st, and the 2nd prize.
    firsts = [line.name for line in find_format("concours").standings(t) if line.place == 1]
    assert found[0].winners == tuple(firsts) and found[1].winners == tuple(firsts)
    best_marked = next(name for name in order if name in ("Pair 0", "Pair 2"))
    assert found[2].winners == (best_marked,) or best_marked in firsts
    assert found[3].winners and found[3].winners[0] not in firsts  # not cumulative
    out = io.StringIO()
    write_prizes(t, out, "it")
    table = rows(out.getvalue())
    assert table[0] == ["premio per", "premio", "vincitore"]
    assert table[1][:2] == ["1° posto", "Un prosciutto"]
    assert table[3][0] == "Miglior coppia mista"


def test_best_neighbourhood_and_refused_prize_lists_change_nothing() -> None:
    t = pinasca(2)
    play_round(t, seed=2)
    t.do(Event("prizes", {"prizes": [{"category": "best_neighbourhood", "prize": "Coppa"}],
                          "cumulative": True}))
    top = find_format("pinasca").standings(t)[0].name
    assert awards(t, t.prizes)[0].winners == (top,)
    before = t.prizes
    for bad, code in (({"category": "tallest", "prize": "x"}, "no_category"),
                      ({"place": 0, "prize": "x"}, "bad_prize_place"),
                      ({"place": 1, "prize": " "}, "prize_empty"),
                      ({"category": "mixed", "prize": "x", "eligible": [99]}, "bad_eligible")):
        with pytest.raises(TournamentError) as info:
            t.do(Event("prizes", {"prizes": [bad]}))
        assert info.value.code == code
        assert error_text("en", info.value)
    assert t.prizes == before


# ---------------------------------------------------------------- item 9: a season
def finished(pairs: int, names: list[tuple[str, str]], accounts: dict[int, str] | None = None,
             seed: int = 0) -> Tournament:
    t = concours(pairs, names, accounts)
    play_round(t, seed=seed)
    assert t.state == "finished"
    return t


def test_a_season_ranks_players_by_points_per_place_with_accounts_and_merges() -> None:
    one = finished(2, [("Mario Rossi", "Anna"), ("Luca", "Zeno")], {1: "mario"})
    two = finished(2, [("M. Rossi", "anna "), ("Luca", "Zeno")], {1: "mario"}, seed=1)
    three = finished(2, [("Rossi M.", "Anna"), ("Luca", "Zeno")], seed=2)
    season = Season("Grand Prix", points=(25, 20), others=1)
    lines = ranking(season, [(1, one), (2, two), (3, three)])
    by = {line.identity: line for line in lines}
    # The bound account is one player whatever the name written; "anna " is Anna.
    assert len(by["account:mario"].results) == 2
    assert len(by[identity("Anna", "")].results) == 3
    # "Rossi M." is someone else until merged.
    assert identity("Rossi M.", "") in by
    merged = Season("Grand Prix", points=(25, 20), others=1,
                    merges=((identity("Rossi M.", ""), "account:mario"),))
    by = {line.identity: line for line in ranking(merged, [(1, one), (2, two), (3, three)])}
    assert identity("Rossi M.", "") not in by and len(by["account:mario"].results) == 3
    total = sum(r.points for r in by["account:mario"].results)
    assert by["account:mario"].points == total


def test_equal_season_points_go_to_countback_and_an_unfinished_event_is_not_counted() -> None:
    one = finished(2, [("A", "B"), ("C", "D")])
    running = concours(2, [("A", "B"), ("C", "D")])
    lines = ranking(Season("S", points=(10, 10)), [(1, one), (2, running)])
    assert all(len(line.results) == 1 for line in lines)
    winners = [line for line in lines if line.results[0].place == 1]
    assert winners and all(line.place == 1 for line in winners)
    others = [line for line in lines if line.results[0].place == 2]
    assert all(line.place == len(winners) + 1 for line in others)  # countback: fewer 1sts


def test_a_season_refuses_bad_tables_and_circles_of_merges() -> None:
    good = {"name": "GP", "points": [25, 20], "tournaments": [1, 2, 2]}
    assert check_season(good)["tournaments"] == [1, 2]
    for bad in ({**good, "points": []}, {**good, "points": [-1]},
                {**good, "merges": {"name:a": "name:b", "name:b": "name:a"}},
                {**good, "merges": {"name:a": "someone"}}, {**good, "name": ""}):
        with pytest.raises(TournamentError):
            check_season(bad)


# ---------------------------------------------------------------- item 10: registration files
def test_semicolons_are_read_and_an_extra_column_is_named_with_its_line() -> None:
    fmt = find_format("concours")
    found = read_registrations("name;player1;player2\nLupi;Nicolò;Ada\n\nOrsi;B;C\n", fmt)
    assert [(r.line, r.entrants[0]["players"]) for r in found] == [
        (2, ["Nicolò", "Ada"]), (4, ["B", "C"])]
    with pytest.raises(LineError) as info:
        read_registrations("name,player1,player2\nLupi,A,B\nOrsi,C,D,E\n", fmt)
    assert info.value.line == 3
    assert error_text("en", info.value).startswith("Line 3: the line has 4 cells")
    with pytest.raises(LineError) as info:
        read_registrations("name,player1,player2,team\nLupi,A,B,x\n", fmt)
    assert "team" in error_text("it", info.value)


def test_latin_1_is_refused_with_its_line_unless_the_encoding_is_given() -> None:
    raw = "name,player1,player2\nLupi,Anna,Bruno\nOrsi,Nicolò,Zoë\n".encode("cp1252")
    with pytest.raises(LineError) as info:
        decode(raw)
    text = error_text("en", info.value)
    assert info.value.line == 3 and "0xF2" in text and "continuation" not in text
    assert "Nicolò" in decode(raw, "cp1252")
    assert decode("\ufeffname\n".encode()) == "name\n"  # a BOM is dropped
    with pytest.raises(TournamentError):
        decode(raw, "ebcdic")


def test_fixtures_shared_helpers_are_sane() -> None:
    t = pinasca(2)
    data: Any = t.prizes.to_data()
    assert data == {"prizes": [], "cumulative": False}
