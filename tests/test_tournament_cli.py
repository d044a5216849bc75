"""`belote tournament`: the offline core on a local SQLite file."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from typer.testing import CliRunner

from belote.cli import app
from belote.scorekeeper import HandEntry, ScoreSheet, write_csv
from belote.tournament.model import Settings
from belote.tournament.sheets import tournament_rules

runner = CliRunner()
NEIGHBOURHOODS = """name,player1,player2,club
Lupi A,Anna,Bruno,Lupi
Lupi B,Carla,Dino,Lupi
Orsi A,Elio,Fede,Orsi
Orsi B,Gino,Ivo,Orsi
Volpi A,Lia,Mara,Volpi
Volpi B,Nino,Olga,Volpi
"""


def run(db: Path, *args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["tournament", *args, "--db", str(db)])
    return result.exit_code, result.output


def setup(tmp_path: Path) -> Path:
    db = tmp_path / "t.db"
    entrants = tmp_path / "entrants.csv"
    entrants.write_text(NEIGHBOURHOODS, encoding="utf-8")
    assert run(db, "create", "--name", "Pinasca 2024")[0] == 0
    code, out = run(db, "register", str(entrants))
    assert code == 0 and "6" in out
    return db


def finished_sheet_csv(tmp_path: Path) -> Path:
    sheet = ScoreSheet(tournament_rules(Settings("x", "pinasca")))
    while not sheet.finished:
        sheet.add(HandEntry(taker=0, trump=0, tricks=(152, 10)))
    path = tmp_path / "sheet.csv"
    with path.open("w", encoding="utf-8") as stream:
        write_csv(sheet, stream, lang="it")  # the scorekeeper's CSV, in Italian
    return path


def test_a_whole_pinasca_round_offline_from_creation_to_export(tmp_path: Path) -> None:
    db = setup(tmp_path)
    code, out = run(db, "draw", "--seed", "3")
    assert code == 0 and out.count("Game ") == 3
    assert run(db, "record", "1", "--csv", str(finished_sheet_csv(tmp_path)))[0] == 0
    assert run(db, "record", "2", "--totals", "1500", "1200")[0] == 0
    code, out = run(db, "record", "3", "--totals", "1620", "1200")
    assert code == 0 and "3920" in out
    assert run(db, "close")[0] == 0
    code, out = run(db, "adjust", "Lupi", "1", "--reason", "Potere della Girandola")
    assert code == 0
    code, out = run(db, "standings")
    assert code == 0 and "ranking points" in out
    export = tmp_path / "results.csv"
    assert run(db, "export", str(export), "--lang", "fr")[0] == 0
    rows = list(csv.reader(io.StringIO(export.read_text(encoding="utf-8"))))
    assert rows[0][0] == "manche" and len(rows) == 4
    assert rows[2][6:10] == ["1500", "1200", "3800", "1200"]
    # Issue 24: totals typed in are the organiser's, never "score entry" nor a correction.
    assert {row[11] for row in rows[1:]} == {"CSV de la feuille", "saisi par l'organisateur"}


def test_refusals_change_nothing_and_exit_1(tmp_path: Path) -> None:
    db = setup(tmp_path)
    run(db, "draw", "--seed", "1")
    code, out = run(db, "record", "1", "--totals", "1400", "1200")
    assert code == 1 and "1500" in out
    code, out = run(db, "close")
    assert code == 1 and "still playing" in out
    run(db, "record", "1", "--totals", "1500", "1200")
    code, out = run(db, "correct", "1", "--totals", "1500", "1300", "--reason", " ")
    assert code == 1 and "reason" in out
    code, out = run(db, "export")
    assert ",1500,1200,3800,1200," in out  # unchanged


def test_record_needs_totals_or_a_csv(tmp_path: Path) -> None:
    db = setup(tmp_path)
    run(db, "draw")
    assert run(db, "record", "1")[0] == 2


def test_unfinished_sheet_csv_is_refused(tmp_path: Path) -> None:
    db = setup(tmp_path)
    run(db, "draw")
    sheet = ScoreSheet(tournament_rules(Settings("x", "pinasca")))
    sheet.add(HandEntry(taker=0, trump=0, tricks=(100, 62)))
    path = tmp_path / "short.csv"
    with path.open("w", encoding="utf-8") as stream:
        write_csv(sheet, stream)
    code, out = run(db, "record", "1", "--csv", str(path))
    assert code == 1 and "not finished" in out


def test_concours_registers_pairs_from_csv(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    entrants = tmp_path / "pairs.csv"
    entrants.write_text("player1,player2\n" + "".join(f"P{n},Q{n}\n" for n in range(5)),
                        encoding="utf-8")
    assert run(db, "create", "--name", "Concours", "--format", "concours", "--preset",
               "classic", "--target", "1000", "--rounds", "2", "--bye-points", "500")[0] == 0
    assert run(db, "register", str(entrants))[0] == 0
    code, out = run(db, "draw")
    assert code == 0 and "bye (500 points)" in out


def concours_file(tmp_path: Path, deals: int) -> Path:
    db = tmp_path / "c.db"
    entrants = tmp_path / "pairs.csv"
    entrants.write_text("name,player1,player2\n" + "".join(
        f"Pair {n},P{n},Q{n}\n" for n in range(4)), encoding="utf-8")
    assert run(db, "create", "--name", "4 parties de 12 donnes", "--format", "concours",
               "--preset", "classic", "--deals", str(deals), "--rounds", "4")[0] == 0
    assert run(db, "register", str(entrants))[0] == 0
    assert run(db, "draw", "--seed", "2")[0] == 0
    return db


def deals_sheet(tmp_path: Path, hands: int, deals: int, name: str) -> Path:
    sheet = ScoreSheet(tournament_rules(Settings("x", "concours", preset="classic",
                                                 deals=deals)))
    for n in range(hands):
        sheet.add(HandEntry(taker=n % 2, trump=0, tricks=(100, 62)))
    path = tmp_path / name
    with path.open("w", encoding="utf-8") as stream:
        write_csv(sheet, stream, lang="fr")
    return path


def test_a_fixed_deals_concours_records_the_scorekeepers_csv(tmp_path: Path) -> None:
    """Issue 21: "`belote tournament record --csv` raises (the sheet's target 10**6 is over
    the rules' 100000 cap)" for a concours of "4 parties de 12 donnes"."""
    db = concours_file(tmp_path, deals=12)
    # A sheet of 11 deals is not finished: refused, nothing recorded.
    code, out = run(db, "record", "1", "--csv", str(deals_sheet(tmp_path, 11, 12, "a.csv")))
    assert code == 1 and "not finished" in out
    code, out = run(db, "export")
    assert code == 0 and ",Source" not in out and "saisie" not in out
    code, out = run(db, "record", "1", "--csv", str(deals_sheet(tmp_path, 12, 12, "b.csv")))
    assert code == 0, out
    rows = list(csv.reader(io.StringIO(run(db, "export")[1])))
    played = [row for row in rows[1:] if row[6]]
    # Twelve deals, each taker's 100 made: 6 x (100 + 62) ... as the sheet scored them.
    assert len(played) == 1 and int(played[0][6]) + int(played[0][7]) == 12 * 162


def test_lineup_command_substitutes_players_until_the_result(tmp_path: Path) -> None:
    """Issue 21: the seed's substitution ("Dopo ogni partita si possono sostituire ...")
    had no CLI command."""
    db = setup(tmp_path)
    run(db, "draw", "--seed", "3")
    code, out = run(db, "lineup", "1", "Anna", "Zeno", "Carla", "Dino")
    assert code == 0 and "Anna & Zeno" in out, out
    code, out = run(db, "lineup", "1", "Anna", "Zeno", "Carla")
    assert code == 2
    code, out = run(db, "lineup", "1", "Anna", "Ze\u202eno", "Carla", "Dino")
    assert code == 1 and "control characters" in out
    run(db, "record", "1", "--totals", "1500", "1200")
    code, out = run(db, "lineup", "1", "Anna", "Bruno", "Carla", "Dino")
    assert code == 1 and "already has its result" in out
    rows = list(csv.reader(io.StringIO(run(db, "export")[1])))
    assert rows[1][4] == "Anna & Zeno"  # kept: the line-up actually seated
    code, out = run(db, "codes")
    assert code == 0 and out.count("Game 1,") == 4 and "Zeno" in out


def test_export_neutralises_formulas(tmp_path: Path) -> None:
    """Issue 21: "tournament CSV export writes =/+/-/@ names raw (formula injection)"."""
    db = tmp_path / "f.db"
    entrants = tmp_path / "pairs.csv"
    entrants.write_text('name,player1,player2\n"=HYPERLINK(""x"")",A,B\n+1,C,D\n-1,E,F\n'
                        "@SUM(A1),G,H\n", encoding="utf-8")
    assert run(db, "create", "--name", "F", "--format", "concours", "--preset", "classic",
               "--target", "1000", "--rounds", "1")[0] == 0
    assert run(db, "register", str(entrants))[0] == 0
    assert run(db, "draw")[0] == 0
    rows = list(csv.reader(io.StringIO(run(db, "export")[1])))
    cells = [cell for row in rows[1:] for cell in row[2:4]]
    assert sorted(cells) == sorted(["'=HYPERLINK(\"x\")", "'+1", "'-1", "'@SUM(A1)"])
