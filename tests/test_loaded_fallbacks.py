"""The loaded-room benchmark reads the room's own logs right (issue 27, item 4): every card
decision with a choice is found by replaying each table's log, the stand-in's moves are the
ones the log marks, and each card's regret is its true-deal value against the best card.
No timed assertion: the benchmark's load is not run here."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from types import ModuleType

import pytest

from belote.ai.base import DECLINE
from belote.ai.heuristic import HeuristicBot
from belote.engine import CHANCE, Game, seeded_deck_source
from belote.engine import actions as A
from belote.engine.state import Phase
from belote.rules import PRESETS
from tests.file_modules import load_file

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def _benchmark() -> ModuleType:
    return load_file(BENCHMARKS / "loaded_fallbacks.py", "_bench_loaded_fallbacks")


def _room_database(path: Path, every: int) -> tuple[int, int]:
    """A database shaped like the room's (tables, table_log) holding one hand of classic
    played by normal bots, every ``every``-th card with a choice marked as the stand-in's;
    returns (card decisions with a choice, those marked)."""
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE tables (id INTEGER PRIMARY KEY, preset TEXT, flags TEXT)")
    conn.execute("CREATE TABLE table_log (table_id INTEGER, version INTEGER, kind TEXT, "
                 "data TEXT)")
    conn.execute("INSERT INTO tables VALUES (7, 'classic', '{}')")
    rows: list[tuple[str, dict[str, object]]] = [("seats", {"seats": []}),
                                                 ("start", {"first_dealer": 1})]
    game = Game(PRESETS["classic"], 1)
    bots = [HeuristicBot(seat) for seat in range(4)]
    deals = seeded_deck_source(3)
    choices = marked = 0
    while game.hands_scored == 0:
        mover = game.current_player()
        if mover == CHANCE:
            deck = deals()
            rows.append(("deal", {"deck": deck}))
            game.deal(deck)
            continue
        obs = game.observation(mover)
        action = bots[mover].choose(obs)
        act: dict[str, object] = {"seat": mover, "action": action}
        if obs.phase == Phase.PLAYING and A.is_play(action) and \
                len({a & 31 for a in obs.legal_actions if A.is_play(a)}) > 1:
            choices += 1
            if choices % every == 0:
                act["quick"] = "late"
                marked += 1
        rows.append(("act", act))
        game.apply(action, mover)
        for seat in game.seats_with_open_window():
            if bots[seat].choose(game.observation(seat)) != DECLINE:
                rows.append(("act", {"seat": seat, "action": A.ANNOUNCE_BELOTE}))
                game.apply(A.ANNOUNCE_BELOTE, seat)
    conn.executemany("INSERT INTO table_log VALUES (7, ?, ?, ?)",
                     [(n, kind, json.dumps(data)) for n, (kind, data) in enumerate(rows)])
    conn.commit()
    conn.close()
    return choices, marked


def test_the_positions_are_the_logs_card_decisions_and_the_stand_ins_its_marked_moves(
        tmp_path: Path) -> None:
    bench = _benchmark()
    db = tmp_path / "room.sqlite"
    choices, marked = _room_database(db, every=4)
    seen = list(bench.positions(db))
    assert len(seen) == choices > 8
    assert [p.stand_in for p in seen].count("late") == marked > 0
    judge = bench.Judge()
    for position in seen:
        assert position.table == 7
        assert all(A.is_play(a) for a in position.obs.legal_actions)
        points, score = judge.regrets(position)
        plays = {a & 31 for a in position.obs.legal_actions}
        assert set(points) == set(score) == plays
        assert min(points.values()) == 0 and min(score.values()) == 0
        assert all(v >= 0 for v in (*points.values(), *score.values()))
        assert position.played in plays


def test_the_report_runs_on_a_room_database_and_pairs_the_candidates(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = _benchmark()
    db = tmp_path / "room.sqlite"
    choices, marked = _room_database(db, every=3)
    bench.main(["--db", str(db), "--own", "4", "--reference", "2"])
    out = capsys.readouterr().out
    assert f"{choices} card decisions with a choice at 1 tables; {marked} played by " \
           "the stand-in" in out
    assert f"the stand-in's positions: {marked} positions" in out
    assert "a sample of them, with the expert asked again: 2 positions" in out
    assert "expert, no world (playouts)" in out
    assert "the expert's own positions under load: 4 positions" in out
    assert "a part of them, with the expert asked again: 2 positions" in out
    assert "normal (heuristic) - quick (network) (paired" in out
    assert "card points per 100 card decisions of the room" in out


def test_a_mean_and_its_interval() -> None:
    bench = _benchmark()
    mean, half = bench.mean_ci([1.0, 3.0])
    assert mean == 2.0 and half == pytest.approx(1.96 * 2 ** 0.5 / 2 ** 0.5)
    assert bench.mean_ci([4.0])[0] == 4.0
