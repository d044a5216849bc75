"""`belote tournament` (issue 24): registration files refused whole with a line and a
reason, negative adjustments, a missing --db, parallel records on one file, the exports with
semicolons, the audit log in words, prizes and a season."""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
from pathlib import Path

from tests.test_tournament_cli import NEIGHBOURHOODS, run

PAIRS = "name,player1,player2\n" + "".join(f"Pair {n},P{n},Q{n}\n" for n in range(4))


def concours(tmp_path: Path, text: str = PAIRS, name: str = "c.db") -> Path:
    db = tmp_path / name
    assert run(db, "create", "--name", "Concours", "--format", "concours", "--preset",
               "classic", "--target", "1000", "--rounds", "1")[0] == 0
    path = tmp_path / f"{name}.csv"
    path.write_text(text, encoding="utf-8")
    code, out = run(db, "register", str(path))
    assert code == 0, out
    return db


def registered(db: Path) -> int:
    code, out = run(db, "standings")
    assert code == 0
    return len(out.splitlines()) - 1


def test_a_file_with_a_duplicate_name_registers_nobody(tmp_path: Path) -> None:
    """Issue 24: "a CSV with a duplicate name stores part of the file then refuses"."""
    db = tmp_path / "t.db"
    assert run(db, "create", "--name", "Pinasca")[0] == 0
    path = tmp_path / "dup.csv"
    path.write_text(NEIGHBOURHOODS + "Lupi A,Zeno,Ugo,Volpi2\nLupi B2,Ada,Eva,Volpi2\n",
                    encoding="utf-8")
    code, out = run(db, "register", str(path))
    assert code == 1 and "Line 8:" in out and "Lupi A" in out, out
    assert "No line of the file was registered." in out
    assert registered(db) == 0


def test_semicolons_and_latin_1_with_the_encoding_given(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    assert run(db, "create", "--name", "C", "--format", "concours", "--preset", "classic",
               "--target", "1000", "--rounds", "1")[0] == 0
    path = tmp_path / "excel.csv"
    path.write_bytes("name;player1;player2\nPunto;Nicolò;Zoë\nVirgola;A;B\n".encode("cp1252"))
    code, out = run(db, "register", str(path))
    assert code == 1 and "Line 2:" in out and "0xF2" in out and "cp1252" in out, out
    assert "continuation" not in out and registered(db) == 0
    code, out = run(db, "register", str(path), "--encoding", "cp1252")
    assert code == 0, out
    code, out = run(db, "export", "--what", "standings")
    assert "Nicolò & Zoë" in out


def test_an_extra_column_is_a_clear_refusal(tmp_path: Path) -> None:
    """Issue 24: "an extra column raises AttributeError"."""
    db = tmp_path / "t.db"
    assert run(db, "create", "--name", "C", "--format", "concours", "--preset", "classic",
               "--target", "1000", "--rounds", "1")[0] == 0
    path = tmp_path / "extra.csv"
    path.write_text("name,player1,player2\nA,B,C\nD,E,F,G\n", encoding="utf-8")
    code, out = run(db, "register", str(path))
    assert code == 1 and "Line 3: the line has 4 cells, the header 3 columns" in out, out
    assert "Traceback" not in out and registered(db) == 0


def test_a_negative_adjustment_is_typed_naturally(tmp_path: Path) -> None:
    """Issue 24: "`belote tournament adjust Centro -1` fails"."""
    db = tmp_path / "t.db"
    entrants = tmp_path / "n.csv"
    entrants.write_text(NEIGHBOURHOODS, encoding="utf-8")
    run(db, "create", "--name", "P")
    run(db, "register", str(entrants))
    code, out = run(db, "adjust", "Lupi", "-1", "--reason", "Maledizione del Framasun")
    assert code == 0, out
    code, out = run(db, "export", "--what", "points")
    assert "-1" in out and "Maledizione del Framasun" in out


def test_a_mistyped_db_is_refused_and_no_file_is_made(tmp_path: Path) -> None:
    """Issue 24: "A mistyped `--db` silently creates an empty file"."""
    missing = tmp_path / "pinsaca.db"
    code, out = run(missing, "standings")
    assert code == 2 and "There is no file" in out and not missing.exists()
    assert run(missing, "create", "--name", "New")[0] == 0 and missing.exists()


def test_exports_with_semicolons_a_bom_and_the_log_in_words(tmp_path: Path) -> None:
    db = concours(tmp_path)
    run(db, "draw", "--seed", "1")
    run(db, "record", "1", "--totals", "1000", "700")
    out_file = tmp_path / "out.csv"
    code, _ = run(db, "export", str(out_file), "--sep", "semicolon", "--bom", "--lang", "it")
    assert code == 0
    text = out_file.read_text(encoding="utf-8")
    assert text.startswith("\ufeffturno;tavolo;")
    assert "inserito dall'organizzatore" in text
    code, out = run(db, "export", "--what", "standings", "--sep", "semicolon")
    assert code == 0 and out.startswith("place;name;players;")
    assert run(db, "export", "--sep", "tab")[0] == 2
    code, out = run(db, "log", "--lang", "fr")
    assert code == 0 and "l'organisateur (en ligne de commande) a tiré la manche 1" in out
    assert "=" not in out and "T1" not in out.replace("Tournoi", "")


def test_the_prize_list_from_the_command_line(tmp_path: Path) -> None:
    db = concours(tmp_path)
    run(db, "draw", "--seed", "1")
    for game in (1, 2):
        run(db, "record", str(game), "--totals", "1000", str(600 + 100 * game))
    run(db, "close")
    code, out = run(db, "prizes", "--place", "1=Un prosciutto", "--category",
                    "mixed=Una bottiglia", "--eligible", "mixed=Pair 3", "--eligible",
                    "mixed=Pair 0")
    # The two winners tie for the 1st place and share it; Pair 3, a winner, already holds
    # a prize: the mixed pairs' goes to the next of its category (not cumulative).
    assert code == 0 and "place 1: Un prosciutto: Pair 2, Pair 3" in out, out
    assert "Best mixed pair: Una bottiglia: Pair 0" in out
    code, out = run(db, "prizes", "--category", "mixed=x", "--eligible", "mixed=Nobody")
    assert code == 1 and "Nobody" in out
    code, out = run(db, "export", "--what", "prizes")
    assert "Un prosciutto" in out  # the refused list changed nothing


def test_a_season_across_two_files_worth_of_tournaments(tmp_path: Path) -> None:
    db = concours(tmp_path)
    for tid in (1, 2):
        if tid == 2:
            assert run(db, "create", "--name", "Second", "--format", "concours", "--preset",
                       "classic", "--target", "1000", "--rounds", "1")[0] == 0
            path = tmp_path / "two.csv"
            path.write_text(PAIRS.replace("P0,", "p0 ,"), encoding="utf-8")
            assert run(db, "register", str(path), "--id", "2")[0] == 0
        run(db, "draw", "--seed", "1", "--id", str(tid))
        run(db, "record", "1", "--totals", "1000", "700", "--id", str(tid))
        run(db, "record", "2", "--totals", "1000", "700", "--id", str(tid))
        assert run(db, "close", "--id", str(tid))[0] == 0
    code, out = run(db, "season", "create", "--name", "Grand Prix", "--points", "25,20,16,13")
    assert code == 0 and "Season 1" in out
    for tid in ("1", "2"):
        assert run(db, "season", "add", "1", tid)[0] == 0
    code, out = run(db, "season", "show", "1")
    assert code == 0 and out.splitlines()[0] == "Grand Prix"
    assert "in 2 tournaments (name:p0)" in out  # "P0" and "p0 " are read as one name
    code, out = run(db, "season", "merge", "1", "name:q1", "name:q0")
    assert code == 0
    code, out = run(db, "season", "show", "1")
    assert "(name:q1)" not in out
    assert run(db, "season", "merge", "1", "name:q0", "name:q1")[0] == 1  # a circle


def test_parallel_records_on_one_file_never_print_a_traceback(tmp_path: Path) -> None:
    """Issue 24: "Parallel `record` runs: one of six gets a 566-line traceback"."""
    db = tmp_path / "t.db"
    entrants = tmp_path / "n.csv"
    entrants.write_text(NEIGHBOURHOODS + "Gufi A,Ugo,Vera,Gufi\nGufi B,Walter,Xena,Gufi\n",
                        encoding="utf-8")
    run(db, "create", "--name", "P")
    run(db, "register", str(entrants))
    run(db, "draw", "--seed", "1")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    games = ["1", "2", "3", "4", "1", "2"]  # two runs on each of games 1 and 2
    runs = [subprocess.Popen(
        [sys.executable, "-m", "belote", "tournament", "record", game, "--totals", "1500",
         "1200", "--db", str(db)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True, env=env) for game in games]
    outputs = []
    for process in runs:
        with process:
            out, _ = process.communicate(timeout=120)
            outputs.append((process.returncode, out))
    assert all("Traceback" not in out for _, out in outputs), outputs
    assert sorted(code for code, _ in outputs) == [0, 0, 0, 0, 1, 1], outputs
    assert sum("already has its result" in out for _, out in outputs) == 2
    rows = list(csv.reader(io.StringIO(run(db, "export")[1])))
    assert sum(1 for row in rows[1:] if row[6]) == 4
