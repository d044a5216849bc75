"""Issue 24 items 2 and 4, the core: the tables a round still waits for, the round's close
refused while one is missing and forced by an organiser with a reason, and the round clock."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from belote.tournament.clock import RoundClock
from belote.tournament.events import Event, Tournament
from belote.tournament.formats import draw
from belote.tournament.model import TournamentError
from belote.tournament.standings import entrant_records
from tests.test_tournament_formats import pairs, pinasca

T0 = datetime(2026, 5, 1, 15, 0, tzinfo=UTC)


def at(seconds: float) -> str:
    return (T0 + timedelta(seconds=seconds)).isoformat()


def drawn(t: Tournament) -> Tournament:
    t.do(draw(t, random.Random(0)))
    return t


def result(t: Tournament, game_id: int, totals: list[int]) -> None:
    t.do(Event("result", {"game": game_id, "totals": totals, "source": "entry"}))


# ---------------------------------------------------------------- missing games
def test_missing_games_are_the_open_rounds_games_without_a_result_by_table() -> None:
    t = drawn(pinasca(3))  # 6 pairs: 3 tables
    assert [m.game.table for m in t.missing_games()] == [1, 2, 3]
    assert {m.why for m in t.missing_games()} == {"playing"}
    result(t, t.rounds[0].games[1].id, [1500, 1200])
    assert [m.game.table for m in t.missing_games()] == [1, 3]


def test_a_bye_is_never_missing_and_a_closed_round_misses_nothing() -> None:
    t = drawn(pairs("concours", 3, target=1000))  # 3 pairs: one table and a bye
    assert len(t.rounds[0].games) == 2
    assert [m.game.table for m in t.missing_games()] == [1]
    result(t, t.rounds[0].games[0].id, [1000, 700])
    assert t.missing_games() == []
    t.do(Event("closed", {"round": 1}))
    assert t.missing_games() == []
    assert Tournament().missing_games() == []


def test_the_close_is_refused_while_a_result_is_missing_listing_the_tables() -> None:
    t = drawn(pinasca(3))
    result(t, t.rounds[0].games[1].id, [1500, 1200])
    before = len(t.audit)
    with pytest.raises(TournamentError) as info:
        t.do(Event("closed", {"round": 1}))
    assert info.value.code == "still_playing" and info.value.values == {"tables": "1, 3"}
    assert len(t.audit) == before and not t.rounds[0].closed
    with pytest.raises(TournamentError) as info:  # hence the next draw
        draw(t, random.Random(0))
    assert info.value.code == "round_open"


# ---------------------------------------------------------------- the forced close
def test_an_organiser_forces_the_close_with_a_reason_kept_in_the_audit_log() -> None:
    t = drawn(pinasca(3))
    result(t, t.rounds[0].games[1].id, [1500, 1200])
    missing = [m.game.id for m in t.missing_games()]
    t.do(Event("forced", {"round": 1, "reason": "table 3 left at midnight",
                          "games": [999]}, "org"))  # the games are the tournament's own
    entry = t.audit[-1]
    assert entry.kind == "forced" and entry.by == "org"
    assert entry.data == {"round": 1, "reason": "table 3 left at midnight",
                          "games": missing, "tables": [1, 3]}
    assert t.rounds[0].closed and t.missing_games() == []
    # The missing games stay unplayed: no result, counted for nobody.
    games = {g.id: g for g in t.rounds[0].games}
    assert all(games[g].unplayed and games[g].result is None for g in missing)
    records = entrant_records(t)
    for g in missing:
        for side in games[g].sides:
            assert all(records[e].played == 0 for e in side)
    with pytest.raises(TournamentError) as info:  # and take no late result
        result(t, missing[0], [1500, 1200])
    assert info.value.code == "round_closed"
    t.do(draw(t, random.Random(1)))  # the next round draws
    assert len(t.rounds) == 2
    # A replay of the stored events gives the same tournament.
    again = Tournament.replay([Event(a.kind, a.data, a.by, a.at) for a in t.audit])
    assert [g.unplayed for g in again.games()] == [g.unplayed for g in t.games()]


@pytest.mark.parametrize("reason", ["", "   ", "x" * 501])
def test_a_forced_close_needs_a_reason(reason: str) -> None:
    t = drawn(pinasca(2))
    with pytest.raises(TournamentError) as info:
        t.do(Event("forced", {"round": 1, "reason": reason}))
    assert info.value.code in ("reason_needed", "reason_too_long")
    assert not t.rounds[0].closed and t.audit[-1].kind == "drawn"


def test_nothing_to_force_when_every_result_is_in_nor_in_a_closed_round() -> None:
    t = drawn(pinasca(2))
    for game in t.rounds[0].games:
        result(t, game.id, [1500, 1200])
    with pytest.raises(TournamentError) as info:
        t.do(Event("forced", {"round": 1, "reason": "late"}))
    assert info.value.code == "nothing_missing"
    with pytest.raises(TournamentError) as info:
        t.do(Event("forced", {"round": 2, "reason": "late"}))
    assert info.value.code == "no_open_round"
    t.do(Event("closed", {"round": 1}))
    with pytest.raises(TournamentError) as info:
        t.do(Event("forced", {"round": 1, "reason": "late"}))
    assert info.value.code == "no_open_round"


def test_the_copy_keeps_the_forced_games_and_the_clock() -> None:
    t = drawn(pinasca(2))
    t.do(Event("clock", {"action": "start", "minutes": 40}, "org", at(0)))
    t.do(Event("forced", {"round": 1, "reason": "late"}, "org"))
    copy = t.copy()
    assert copy.clock == t.clock and all(g.unplayed for g in copy.games())


# ---------------------------------------------------------------- the round clock
def test_the_clock_starts_pauses_resumes_and_is_adjusted() -> None:
    t = drawn(pinasca(2))
    assert t.clock is None
    t.do(Event("clock", {"action": "start", "minutes": 40}, "org", at(0)))
    clock = t.clock
    assert clock is not None and clock.round == 1 and clock.running
    assert clock.left(T0 + timedelta(minutes=10)) == 30 * 60
    t.do(Event("clock", {"action": "pause"}, "org", at(600)))
    assert t.clock is not None and not t.clock.running
    assert t.clock.left(T0 + timedelta(hours=5)) == 30 * 60  # paused: time stands still
    t.do(Event("clock", {"action": "adjust", "minutes": 5}, "org", at(900)))
    assert t.clock.left(T0 + timedelta(hours=5)) == 35 * 60
    t.do(Event("clock", {"action": "resume"}, "org", at(1200)))
    assert t.clock.left(T0 + timedelta(seconds=1200 + 60)) == 34 * 60
    t.do(Event("clock", {"action": "adjust", "minutes": -2}, "org", at(1260)))
    assert t.clock.left(T0 + timedelta(seconds=1260)) == 32 * 60
    # Taking away more than is left leaves none: "time", never a negative clock.
    t.do(Event("clock", {"action": "adjust", "minutes": -600}, "org", at(1300)))
    assert t.clock.left(T0 + timedelta(seconds=1300)) == 0
    assert t.clock.left(T0 + timedelta(seconds=9999)) == 0
    entry = t.audit[-1]
    assert entry.kind == "clock" and entry.data == {"round": 1, "action": "adjust",
                                                    "minutes": -600}
    # Start again: the new time, running.
    t.do(Event("clock", {"action": "start", "minutes": 10}, "org", at(1400)))
    assert t.clock.left(T0 + timedelta(seconds=1400)) == 600 and t.clock.running
    again = Tournament.replay([Event(a.kind, a.data, a.by, a.at) for a in t.audit])
    assert again.clock == t.clock


@pytest.mark.parametrize(("data", "code"), [
    ({"action": "start"}, "bad_minutes"),
    ({"action": "start", "minutes": 0}, "bad_minutes"),
    ({"action": "start", "minutes": 601}, "bad_minutes"),
    ({"action": "start", "minutes": "40"}, "bad_minutes"),
    ({"action": "start", "minutes": True}, "bad_minutes"),
    ({"action": "adjust", "minutes": 0}, "bad_minutes"),
    ({"action": "adjust", "minutes": -601}, "bad_minutes"),
    ({"action": "explode"}, "bad_clock"),
    ({"action": "pause"}, "no_clock"),
    ({"action": "resume"}, "no_clock"),
    ({"action": "adjust", "minutes": 5}, "no_clock"),
])
def test_bad_clock_events_are_refused_and_change_nothing(data: dict[str, object],
                                                         code: str) -> None:
    t = drawn(pinasca(2))
    before = len(t.audit)
    with pytest.raises(TournamentError) as info:
        t.do(Event("clock", data, "org", at(0)))
    assert info.value.code == code and len(t.audit) == before and t.clock is None


def test_a_clock_pauses_only_running_and_resumes_only_paused() -> None:
    t = drawn(pinasca(2))
    t.do(Event("clock", {"action": "start", "minutes": 30}, "org", at(0)))
    with pytest.raises(TournamentError) as info:
        t.do(Event("clock", {"action": "resume"}, "org", at(1)))
    assert info.value.code == "clock_running"
    t.do(Event("clock", {"action": "pause"}, "org", at(2)))
    with pytest.raises(TournamentError) as info:
        t.do(Event("clock", {"action": "pause"}, "org", at(3)))
    assert info.value.code == "clock_paused"


def test_the_clock_needs_an_open_round_and_a_time() -> None:
    t = pinasca(2)
    with pytest.raises(TournamentError) as info:
        t.do(Event("clock", {"action": "start", "minutes": 30}, "org", at(0)))
    assert info.value.code == "no_open_round"
    drawn(t)
    for stamp in ("", "yesterday", "2026-05-01T15:00:00"):  # no offset: which zone?
        with pytest.raises(TournamentError) as info:
            t.do(Event("clock", {"action": "start", "minutes": 30}, "org", stamp))
        assert info.value.code == "bad_clock"


def test_a_new_round_has_no_clock_until_started() -> None:
    t = drawn(pinasca(2))
    t.do(Event("clock", {"action": "start", "minutes": 30}, "org", at(0)))
    for game in t.rounds[0].games:
        result(t, game.id, [1500, 1200])
    t.do(Event("closed", {"round": 1}))
    with pytest.raises(TournamentError) as info:  # the round is closed: its clock too
        t.do(Event("clock", {"action": "adjust", "minutes": 5}, "org", at(60)))
    assert info.value.code == "no_open_round"
    drawn(t)
    with pytest.raises(TournamentError) as info:
        t.do(Event("clock", {"action": "pause"}, "org", at(120)))
    assert info.value.code == "no_clock"
    t.do(Event("clock", {"action": "start", "minutes": 20}, "org", at(180)))
    assert t.clock == RoundClock(2, 1200.0, 0.0, T0 + timedelta(seconds=180))
