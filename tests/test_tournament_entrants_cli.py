"""`belote tournament` on the day: withdraw, reinstate, remove, reserve, promote, late,
undo, tiebreaks, configure (issue 24, items 5 and 8)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from belote.cli import app

runner = CliRunner()
PAIRS = """name,player1,player2
Lupi,Anna,Bruno
Orsi,Carla,Dino
Volpi,Elio,Fede
Gufi,Gino,Ivo
Gufi bis,Gino,Ivo
"""


def run(db: Path, *args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["tournament", *args, "--db", str(db)])
    return result.exit_code, result.output


def concours(tmp_path: Path) -> Path:
    db = tmp_path / "t.db"
    entrants = tmp_path / "pairs.csv"
    entrants.write_text(PAIRS, encoding="utf-8")
    assert run(db, "create", "--name", "Concours", "--format", "concours", "--rounds",
               "3")[0] == 0
    assert run(db, "register", str(entrants))[0] == 0
    return db


def test_a_day_of_entrants_offline(tmp_path: Path) -> None:
    db = concours(tmp_path)
    code, out = run(db, "remove", "Gufi bis")  # the duplicate entry
    assert code == 0 and "Removed: Gufi bis." in out
    code, out = run(db, "reserve", "4")
    assert code == 0 and "Gufi is a reserve." in out
    assert run(db, "draw", "--seed", "1")[0] == 0
    code, out = run(db, "standings")
    assert "Gufi" not in out  # a reserve never drawn has no place (records.took_part)
    code, out = run(db, "undo", "draw", "--reason", "a pair was late")
    assert code == 0 and "The draw of round 1 is undone." in out
    code, out = run(db, "draw", "--seed", "2")
    assert code == 0 and out.count("Game ") == 2  # 3 pairs: 1 table, 1 bye
    for game in (1,):
        run(db, "record", str(game), "--totals", "1500", "1200")
    assert run(db, "close")[0] == 0
    code, out = run(db, "undo", "close", "--reason", "wrong totals")
    assert code == 0 and "Round 1 is reopened." in out
    assert run(db, "close")[0] == 0
    code, out = run(db, "withdraw", "Orsi", "--reason", "went home")
    assert code == 0 and "Orsi withdrawn: not drawn from round 2 on." in out
    code, out = run(db, "promote", "Gufi")
    assert code == 0 and "Gufi promoted: drawn from round 2 on." in out
    code, out = run(db, "late", "Lia", "Mara", "--name", "Cervi")
    assert code == 0 and "Cervi entered late: drawn from round 2 on." in out
    code, out = run(db, "draw", "--seed", "3")
    assert code == 0 and "Orsi" not in out and "Gufi" in out and "Cervi" in out
    code, out = run(db, "reinstate", "Orsi")
    assert code == 0 and "Orsi reinstated" in out
    code, out = run(db, "standings")
    assert code == 0 and "Gufi" in out  # promoted and drawn: a line of its own


def test_tiebreaks_and_settings_offline(tmp_path: Path) -> None:
    db = concours(tmp_path)
    code, out = run(db, "tiebreaks")
    assert code == 0 and "Buchholz" in out
    code, out = run(db, "tiebreaks", "head_to_head", "lot")
    assert code == 0 and "Head-to-head among those tied, Drawing lots" in out
    code, out = run(db, "tiebreaks", "none")
    assert code == 0 and "No tie-break" in out
    code, out = run(db, "tiebreaks", "coin")
    assert code == 1 and "Not valid tie-breaks" in out
    assert run(db, "configure", "--check-in", "off", "--late-rule", "bye",
               "--best-of", "3")[0] == 0
    code, out = run(db, "configure", "--late-rule", "half")
    assert code == 1 and "zero, bye" in out


def test_refusals_say_why_and_change_nothing(tmp_path: Path) -> None:
    db = concours(tmp_path)
    code, out = run(db, "withdraw", "Nobody")
    assert code == 1
    code, out = run(db, "undo", "draw", "--reason", "x")
    assert code == 1
    code, out = run(db, "undo", "everything", "--reason", "x")
    assert code == 2
    assert run(db, "draw", "--seed", "1")[0] == 0
    code, out = run(db, "remove", "Lupi")
    assert code == 1 and "withdraw it instead" in out
    code, out = run(db, "reinstate", "Lupi")
    assert code == 1 and "has not withdrawn" in out
