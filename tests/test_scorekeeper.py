"""The scorekeeper for games with real cards (issue: `belote score`); rules from RULES.md and
seeds 000 (italian, valdostana), 001 (pinasca) and 002 (classic)."""

from __future__ import annotations

import io
import string
from pathlib import Path

import pytest
from typer.testing import CliRunner

from belote.cli import app
from belote.cli.score import run_interactive, run_score
from belote.engine.events import ALL_TRUMP, NO_TRUMP
from belote.rules import find_preset
from belote.scorekeeper import (
    MESSAGES,
    CsvError,
    Declared,
    HandEntry,
    ScoreError,
    ScoreSheet,
    hand_total,
    load_csv,
    parse_declared,
    parse_double,
    parse_level,
    parse_optional_team,
    parse_team,
    parse_trump,
    possible_totals,
    write_csv,
)

H, D, C, S = 0, 1, 2, 3
CLASSIC = find_preset("classic")
PINASCA = find_preset("pinasca")
ITALIAN = find_preset("italian")
VALDOSTANA = find_preset("valdostana")
COINCHE = find_preset("coinche")
runner = CliRunner()


def hand(**kw: object) -> HandEntry:
    kw.setdefault("trump", H)
    return HandEntry(**kw)  # type: ignore[arg-type]


def one(rules_name: str, **kw: object) -> tuple[str, tuple[int, int]]:
    sheet = ScoreSheet(find_preset(rules_name))
    result = sheet.add(hand(**kw))
    return result.outcome.outcome, result.scores


def rejects(sheet: ScoreSheet, entry: HandEntry, key: str, field: str) -> ScoreError:
    before = (sheet.hands, sheet.totals, sheet.pot)
    with pytest.raises(ScoreError) as info:
        sheet.add(entry)
    assert info.value.key == key
    assert info.value.field == field
    assert (sheet.hands, sheet.totals, sheet.pot) == before  # nothing changed
    return info.value


# --- Parsing short answers ------------------------------------------------------------------


def test_short_answers_for_teams_trumps_levels_and_doubles() -> None:
    assert [parse_team(t, "taker") for t in ("NS", "n-s", "N", "s", "0", "Nord-Sud")] == [0] * 6
    assert [parse_team(t, "taker") for t in ("EW", "e/w", "E", "w", "1", "Est-Ovest", "EO")] \
        == [1] * 7
    assert parse_optional_team("", "belote") is None
    assert parse_optional_team("no", "capot") is None
    assert [parse_trump(t) for t in ("H", "d", "clubs", "picche", "♠", "cœur")] == \
        [H, D, C, S, S, H]
    assert parse_trump("senza") == NO_TRUMP
    assert parse_trump("tutte") == ALL_TRUMP
    assert parse_level("capot", COINCHE) == 250
    assert parse_level("", VALDOSTANA) == 0
    assert [parse_double(t) for t in ("", "contro", "coinche", "surcontro", "x4")] == \
        [0, 1, 1, 2, 2]
    with pytest.raises(ScoreError) as info:
        parse_team("xyz", "taker")
    assert info.value.field == "taker"
    with pytest.raises(ScoreError):
        parse_trump("bastoni")


def test_declarations_by_name_take_the_preset_table_values() -> None:
    assert parse_declared("tierce+carre_J", PINASCA, "decl_ns") == \
        Declared(220, ("sequence_3", "carre_J"))
    assert parse_declared("cinquante", VALDOSTANA, "decl_ew").points == 50
    assert parse_declared("70", PINASCA, "decl_ns") == Declared(70)
    # Seed 001 lists no carré of 10s; seed 000 (italian) does.
    with pytest.raises(ScoreError) as info:
        parse_declared("carre_10", PINASCA, "decl_ns")
    assert info.value.key == "error.unknown_declaration"
    assert parse_declared("carre_10", ITALIAN, "decl_ns").points == 100
    assert 30 not in possible_totals(PINASCA)
    assert {20, 50, 70, 100, 150, 200} <= possible_totals(PINASCA)


# --- Hand totals from the card tables -------------------------------------------------------


def test_hand_totals_come_from_the_card_tables() -> None:
    assert hand_total(CLASSIC, H) == 162
    assert hand_total(ITALIAN, NO_TRUMP) == 130  # seed 000: 4 x 30 + 10
    assert hand_total(ITALIAN, ALL_TRUMP) == 258  # RULES.md: 4 x 62 + 10


# --- Each validation error ------------------------------------------------------------------


def test_trick_points_must_sum_to_the_hand_total() -> None:
    err = rejects(ScoreSheet(CLASSIC), hand(taker=0, tricks=(100, 60)),
                  "error.tricks_sum", "tricks_ns+tricks_ew")
    assert "162" in str(err) and "160" in str(err)
    # A capot is entered as counted (162) and marked, never as 252.
    rejects(ScoreSheet(CLASSIC), hand(taker=0, tricks=(252, 0), capot=0),
            "error.tricks_sum", "tricks_ns+tricks_ew")
    # Senza before doubling (130), not 162 nor 260.
    rejects(ScoreSheet(ITALIAN), hand(taker=0, trump=NO_TRUMP, tricks=(100, 62)),
            "error.tricks_sum", "tricks_ns+tricks_ew")
    rejects(ScoreSheet(ITALIAN), hand(taker=0, trump=ALL_TRUMP, tricks=(100, 62)),
            "error.tricks_sum", "tricks_ns+tricks_ew")


def test_a_belote_needs_a_trump_suit() -> None:
    rejects(ScoreSheet(ITALIAN), hand(taker=0, trump=NO_TRUMP, tricks=(70, 60), belote=0),
            "error.belote_senza", "belote")
    # In tutte a belote scores (the table decides which suit's).
    assert one("italian", taker=0, trump=ALL_TRUMP, tricks=(158, 100), belote=1)[0] == "made"


def test_senza_and_tutte_only_where_the_preset_calls_them() -> None:
    rejects(ScoreSheet(CLASSIC), hand(taker=0, trump=NO_TRUMP, tricks=(70, 60)),
            "error.senza_not_allowed", "trump")
    rejects(ScoreSheet(PINASCA), hand(taker=0, trump=ALL_TRUMP, tricks=(158, 100)),
            "error.tutte_not_allowed", "trump")


def test_declarations_only_in_presets_that_have_them_and_from_the_table() -> None:
    rejects(ScoreSheet(CLASSIC), hand(taker=0, tricks=(100, 62), declarations=(Declared(20),
                                                                                 Declared())),
            "error.declarations_disabled", "decl_ns")
    rejects(ScoreSheet(PINASCA), hand(taker=0, tricks=(100, 62), declarations=(Declared(),
                                                                                 Declared(30))),
            "error.declarations_value", "decl_ew")
    rejects(ScoreSheet(PINASCA), hand(taker=0, tricks=(100, 62),
                                      declarations=(Declared(50, ("sequence_3",)), Declared())),
            "error.declarations_mismatch", "decl_ns")
    # Seed 001: "ottiene i punti solo la squadra che fa la dichiarazione più alta": with
    # points alone the sheet cannot tell which is best, so it asks for the names.
    rejects(ScoreSheet(PINASCA), hand(taker=0, tricks=(100, 62),
                                      declarations=(Declared(20), Declared(50))),
            "error.declarations_names_needed", "decl_ns")
    # Seed 000 (italian): each team its own, so both may score.
    outcome, scores = one("italian", taker=0, tricks=(100, 62),
                          declarations=(Declared(20), Declared(50)))
    assert (outcome, scores) == ("made", (120, 112))


def test_levels_and_doubles_only_in_an_auction() -> None:
    rejects(ScoreSheet(CLASSIC), hand(taker=0, tricks=(100, 62), level=82),
            "error.level_not_auction", "level")
    rejects(ScoreSheet(CLASSIC), hand(taker=0, tricks=(100, 62), double=1),
            "error.double_not_auction", "double")
    rejects(ScoreSheet(VALDOSTANA), hand(taker=0, tricks=(100, 62)),
            "error.level_needed", "level")
    rejects(ScoreSheet(VALDOSTANA), hand(taker=0, tricks=(100, 62), level=85),
            "error.level_unknown", "level")
    rejects(ScoreSheet(COINCHE), hand(taker=0, tricks=(100, 62), level=82),
            "error.level_unknown", "level")


def test_a_capot_claim_must_leave_the_other_team_no_card_point() -> None:
    rejects(ScoreSheet(CLASSIC), hand(taker=0, tricks=(152, 10), capot=0),
            "error.capot_points", "capot")
    # Seed 000: no cappotto when the other team scored a belote.
    rejects(ScoreSheet(ITALIAN), hand(taker=0, tricks=(162, 0), capot=0, belote=1),
            "error.cappotto_belote", "capot")
    # Classic: a capot is every trick, whoever holds the belote: 252 + 20.
    assert one("classic", taker=0, tricks=(162, 0), capot=0, belote=1) == ("made", (252, 20))


def test_a_hand_number_out_of_order_is_named() -> None:
    sheet = ScoreSheet(CLASSIC)
    sheet.add(hand(taker=0, tricks=(100, 62), number=1))
    rejects(sheet, hand(taker=0, tricks=(100, 62), number=3), "error.hand_number", "hand")


def test_every_message_template_fills_from_its_own_placeholders() -> None:
    # One dict of templates with named placeholders: ready to move to the catalogs.
    for key, text in MESSAGES.items():
        names = {name for _, name, _, _ in string.Formatter().parse(text) if name}
        assert text.format(**dict.fromkeys(names, "x")), key
    assert all(not text.endswith(".") for key, text in MESSAGES.items()
               if key.startswith("error.") and key != "error.bad_answer")


# --- Scores through score_hand ---------------------------------------------------------------


def test_classic_litige_is_carried_to_the_next_hand() -> None:
    # Seed 002: the defenders score now, the takers' points go into the pot won by the team
    # that wins the next hand.
    sheet = ScoreSheet(CLASSIC)
    first = sheet.add(hand(taker=0, tricks=(81, 81)))
    assert first.outcome.outcome == "litige"
    assert first.scores == (0, 81)
    assert (sheet.pot.points, sheet.pot.team) == (81, 0)
    second = sheet.add(hand(taker=1, tricks=(62, 100)))
    assert second.outcome.pot_winner == 1 and second.outcome.pot_won == 81
    assert second.scores == (62, 181)
    assert sheet.totals == (62, 262)
    assert sheet.pot.points == 0


def test_classic_litige_twice_accumulates_in_the_pot() -> None:
    sheet = ScoreSheet(CLASSIC)
    sheet.add(hand(taker=0, tricks=(81, 81)))
    sheet.add(hand(taker=1, tricks=(81, 81)))
    assert (sheet.pot.points, sheet.pot.team) == (162, 1)


def test_pinasca_prigione_same_team_twice_gives_the_old_prison_to_the_opponents() -> None:
    # Seed 001: "Se in prigione finisce la coppia che ci era già finita la mano prima, la
    # prigione della mano precedente viene assegnata agli avversari."
    sheet = ScoreSheet(PINASCA)
    sheet.add(hand(taker=0, tricks=(81, 81)))
    second = sheet.add(hand(taker=0, tricks=(81, 81)))
    assert second.outcome.pot_winner == 1 and second.outcome.pot_won == 81
    assert second.scores == (0, 162)  # E-W: its own 81 now + the old prison
    assert (sheet.pot.points, sheet.pot.team) == (81, 0)  # only one hand stays frozen
    third = sheet.add(hand(taker=0, tricks=(100, 62)))
    assert third.scores == (181, 62)
    assert sheet.totals == (181, 305)


def test_pinasca_prigione_with_the_parts_inverted_goes_to_the_team_not_now_in_prison() -> None:
    # Seed 001: "Nel caso delle parti invertite ... i punti verranno assegnati alla squadra
    # attualmente non in prigione."
    sheet = ScoreSheet(PINASCA)
    sheet.add(hand(taker=0, tricks=(81, 81)))
    second = sheet.add(hand(taker=1, tricks=(81, 81)))
    assert second.outcome.pot_winner == 0 and second.outcome.pot_won == 81
    assert second.scores == (162, 0)
    assert (sheet.pot.points, sheet.pot.team) == (81, 1)


def test_pinasca_failed_hand_gives_the_defenders_every_point_and_declaration() -> None:
    # Seed 001: "quest'ultima si vede assegnare tutti i punti delle prese e i punti di tutte
    # le dichiarazioni ... la squadra che perde non riceve alcun punto".
    outcome, scores = one("pinasca", taker=0, tricks=(60, 102),
                          declarations=(Declared(20), Declared()), belote=0)
    assert (outcome, scores) == ("failed", (0, 202))


def test_italian_senza_is_doubled() -> None:
    # Seed 000: "30x4 ... + 10 per l'ultima mano, il tutto moltiplicato per due": 260.
    sheet = ScoreSheet(ITALIAN)
    result = sheet.add(hand(taker=0, trump=NO_TRUMP, tricks=(70, 60)))
    assert result.outcome.outcome == "made"
    assert result.outcome.card_points == (140, 120)
    assert sum(result.scores) == 260


def test_valdostana_contro_and_surcontro() -> None:
    # Seed 000: contro x2, surcontro x4; the winning line takes both lines' points (reading).
    assert one("valdostana", taker=0, level=82, double=1, tricks=(100, 62)) == ("made", (324, 0))
    assert one("valdostana", taker=0, level=82, double=2, tricks=(100, 62)) == ("made", (648, 0))
    assert one("valdostana", taker=0, level=82, double=1, tricks=(70, 92)) == ("failed", (0, 324))
    # Ties: with a contro the attackers win, with a surcontro the defenders (the last caller
    # loses); a plain contract: litige.
    tie = {"taker": 0, "level": 82, "tricks": (71, 91), "belote": 0}
    assert one("valdostana", double=1, **tie) == ("made", (364, 0))
    assert one("valdostana", double=2, **tie) == ("failed", (0, 648))
    assert one("valdostana", double=0, **tie)[0] == "litige"


def test_coinche_made_and_failed() -> None:
    assert one("coinche", taker=0, level=100, tricks=(110, 52)) == ("made", (210, 52))
    assert one("coinche", taker=0, level=100, double=1, tricks=(110, 52)) == ("made", (310, 52))
    assert one("coinche", taker=0, level=120, tricks=(100, 62)) == ("failed", (0, 280))
    assert one("coinche", taker=0, level=250, tricks=(162, 0), capot=0) == ("made", (502, 0))
    assert one("coinche", taker=0, level=250, tricks=(162, 0)) == ("failed", (0, 410))


# --- Match end and undo -----------------------------------------------------------------------


def test_match_ends_at_the_target_and_both_past_the_higher_wins() -> None:
    rules = CLASSIC.with_flags(target_score=250)
    sheet = ScoreSheet(rules)
    sheet.add(hand(taker=0, tricks=(100, 62)))
    assert sheet.winner is None
    sheet.add(hand(taker=1, tricks=(40, 122)))
    sheet.add(hand(taker=0, tricks=(100, 62)))
    # N-S 240, E-W 246: nobody yet; then both past 250, E-W higher.
    assert sheet.totals == (240, 246) and not sheet.finished
    sheet.add(hand(taker=1, tricks=(80, 82), belote=1))
    assert sheet.totals[0] >= 250 and sheet.totals[1] >= 250
    assert sheet.winner == 1
    rejects(sheet, hand(taker=0, tricks=(100, 62)), "error.match_over", "hand")
    undone = sheet.undo()
    assert undone.number == 4 and sheet.winner is None and sheet.totals == (240, 246)


def test_match_target_reached_exactly_wins_unless_strict() -> None:
    sheet = ScoreSheet(CLASSIC.with_flags(target_score=100))
    sheet.add(hand(taker=0, tricks=(100, 62)))
    assert sheet.winner == 0
    strict = ScoreSheet(CLASSIC.with_flags(target_score=100, target_strict=True))
    strict.add(hand(taker=0, tricks=(100, 62)))
    assert strict.winner is None


def test_undo_takes_back_the_pot_too() -> None:
    sheet = ScoreSheet(CLASSIC)
    sheet.add(hand(taker=0, tricks=(81, 81)))
    sheet.add(hand(taker=0, tricks=(100, 62)))
    assert sheet.pot.points == 0
    sheet.undo()
    assert (sheet.pot.points, sheet.totals) == (81, (0, 81))
    sheet.undo()
    with pytest.raises(ScoreError) as info:
        sheet.undo()
    assert info.value.key == "error.nothing_to_undo"


# --- CSV --------------------------------------------------------------------------------------

PINASCA_CSV = """\
hand,taker,trump,level,double,tricks_ns,tricks_ew,capot,decl_ns,decl_ew,belote
1,NS,hearts,,,100,62,,tierce,,NS
2,EW,S,,,81,81,,,,
3,N,clubs,,,90,72,,,50,
4,EW,d,,,0,162,EW,,carre_J,
"""


def test_csv_round_trip_keeps_hands_and_scores(tmp_path: Path) -> None:
    sheet = load_csv(io.StringIO(PINASCA_CSV), PINASCA)
    assert [h.number for h in sheet.hands] == [1, 2, 3, 4]
    out = io.StringIO()
    write_csv(sheet, out)
    text = out.getvalue()
    assert text.splitlines()[0].startswith("hand,taker,trump,level,double,tricks_ns")
    again = load_csv(io.StringIO(text), PINASCA)
    assert [h.entry for h in again.hands] == [h.entry for h in sheet.hands]
    assert [h.totals for h in again.hands] == [h.totals for h in sheet.hands]
    out2 = io.StringIO()
    write_csv(again, out2)
    assert out2.getvalue() == text
    last = text.splitlines()[-1].split(",")
    header = text.splitlines()[0].split(",")
    row = dict(zip(header, last, strict=True))
    assert row["capot_team"] == "EW" and row["total_ew"] == str(sheet.totals[1])


def test_csv_semicolons_and_missing_optional_columns() -> None:
    text = "taker;trump;tricks_ns;tricks_ew\nNS;H;100;62\n"
    sheet = load_csv(io.StringIO(text), CLASSIC)
    assert sheet.totals == (100, 62)


@pytest.mark.parametrize(("text", "line", "field"), [
    ("taker,trump,tricks_ns,tricks_ew\nNS,H,100,62\nEW,H,100,60\n", 3, "tricks_ns+tricks_ew"),
    ("taker,trump,tricks_ns,tricks_ew\nXX,H,100,62\n", 2, "taker"),
    ("taker,trump,tricks_ns,tricks_ew\nNS,H,abc,62\n", 2, "tricks_ns"),
    ("taker,trump,tricks_ns,tricks_ew,belotte\nNS,H,100,62,\n", 1, "belotte"),
    ("taker,trump,tricks_ns\nNS,H,100\n", 1, "tricks_ew"),
    ("taker,trump,tricks_ns,tricks_ew\nNS,H,100\n", 2, "-"),
    ("", 1, "-"),
    ("taker,trump,tricks_ns,tricks_ew,decl_ns\nNS,H,100,62,30\n", 2, "decl_ns"),
])
def test_csv_errors_name_the_line_and_the_field(text: str, line: int, field: str) -> None:
    rules = PINASCA if "decl" in text else CLASSIC
    with pytest.raises(CsvError) as info:
        load_csv(io.StringIO(text), rules)
    assert (info.value.line, info.value.field) == (line, field)
    assert f"line {line}, field {field}:" in str(info.value)


# --- Interactive ------------------------------------------------------------------------------


def test_interactive_entry_with_undo_and_quit() -> None:
    script = "\n".join([
        "ns", "h", "100", "62", "", "",         # hand 1
        "ew", "s", "81", "81", "", "",           # hand 2: litige
        "u",                                       # undo hand 2
        "e", "spades", "40", "120", "", "",      # hand 2 again: a wrong sum...
        "42", "120", "", "ew",                     # ...asked again from the trick points
        "q",
    ]) + "\n"
    out = io.StringIO()
    sheet = ScoreSheet(CLASSIC)
    run_interactive(sheet, io.StringIO(script), out)
    lines = out.getvalue().splitlines()
    assert "Hand 1. Taker team (NS/EW)?" in lines
    assert "Hand 1: N-S made it; N-S 100, E-W 62. Match: N-S 100, E-W 62." in lines
    assert any(line.startswith("Hand 2 undone.") for line in lines)
    assert any(line.startswith("trick points must sum to 162") for line in lines)
    # After the sum error the trick points are asked again, then the rest of the hand.
    assert "Hand 2: E-W made it; N-S 42, E-W 140. Match: N-S 142, E-W 202." in lines
    assert [h.totals for h in sheet.hands] == [(100, 62), (142, 202)]
    assert lines[-1] == "Match: N-S 142, E-W 202; target 1000."


def test_interactive_bad_answers_are_asked_again_and_change_nothing() -> None:
    script = "maybe\nns\nbastoni\nh\nten\n100\n62\nzz\n\n\n"
    out = io.StringIO()
    sheet = ScoreSheet(CLASSIC)
    run_interactive(sheet, io.StringIO(script), out)
    text = out.getvalue()
    assert "'maybe' is not a team" in text
    assert "'bastoni' is not a trump" in text
    assert "'ten' is not a whole number" in text
    assert "'zz' is not a team or nothing" in text
    assert sheet.totals == (100, 62)


def test_interactive_asks_the_auction_and_declarations_of_the_preset() -> None:
    out = io.StringIO()
    run_interactive(ScoreSheet(VALDOSTANA), io.StringIO("ns\nh\n82\nc\n100\n62\n\n\n\n\nq\n"),
                    out)
    text = out.getvalue()
    assert "Contract level (82 to 802)?" in text
    assert "Declarations N-S" in text
    assert "Hand 1: N-S made it; N-S 324, E-W 0." in text


def test_interactive_skips_the_belote_question_in_senza() -> None:
    out = io.StringIO()
    sheet = ScoreSheet(ITALIAN)
    run_interactive(sheet, io.StringIO("ns\nsenza\n70\n60\n\n\n\nq\n"), out)
    assert sheet.totals == (140, 120)
    assert "Belote" not in out.getvalue().split("Trump")[1]


def test_interactive_after_the_match_only_undo_or_quit() -> None:
    out = io.StringIO()
    sheet = ScoreSheet(CLASSIC.with_flags(target_score=100))
    run_interactive(sheet, io.StringIO("ns\nh\n100\n62\n\n\nns\nu\nq\n"), out)
    text = out.getvalue()
    assert "Match over: N-S wins, 100 to 62." in text
    assert "The match is over. u undoes the last hand, q ends." in text
    assert "Hand 1 undone." in text
    assert sheet.hands == ()


# --- Command line -----------------------------------------------------------------------------


def test_cli_batch_with_export(tmp_path: Path) -> None:
    src = tmp_path / "hands.csv"
    src.write_text(PINASCA_CSV, encoding="utf-8")
    dst = tmp_path / "out.csv"
    result = runner.invoke(app, ["score", "--preset", "pinasca", "--csv-in", str(src),
                                 "--csv-out", str(dst)])
    assert result.exit_code == 0, result.output
    assert "Hand 2: E-W tied;" in result.output
    assert dst.read_text(encoding="utf-8").count("\n") == 5
    again = load_csv(io.StringIO(dst.read_text(encoding="utf-8")), PINASCA)
    assert again.totals == load_csv(io.StringIO(PINASCA_CSV), PINASCA).totals


def test_cli_bad_csv_exits_1_naming_line_and_field(tmp_path: Path) -> None:
    src = tmp_path / "bad.csv"
    src.write_text("taker,trump,tricks_ns,tricks_ew\nNS,H,100,62\nNS,senza,70,60\n",
                   encoding="utf-8")
    result = runner.invoke(app, ["score", "--preset", "classic", "--csv-in", str(src)])
    assert result.exit_code == 1
    assert "line 3, field trump: classic has no senza" in result.output


def test_cli_bad_options_exit_2(tmp_path: Path) -> None:
    assert runner.invoke(app, ["score", "--preset", "nope"]).exit_code == 2
    assert runner.invoke(app, ["score", "--lang", "de"]).exit_code == 2
    missing = tmp_path / "missing.csv"
    assert runner.invoke(app, ["score", "--csv-in", str(missing)]).exit_code == 2
    assert runner.invoke(app, ["score", "--bogus"]).exit_code == 2


def test_cli_interactive_through_the_runner() -> None:
    result = runner.invoke(app, ["score", "--preset", "classic"],
                           input="ns\nh\n100\n62\n\n\nq\n")
    assert result.exit_code == 0
    assert "Hand 1. Taker team (NS/EW)?" in result.output
    assert "Hand 1: N-S made it; N-S 100, E-W 62. Match: N-S 100, E-W 62." in result.output


def test_tournament_game_score_printed_when_a_pinasca_match_ends(tmp_path: Path) -> None:
    rows = ["taker,trump,tricks_ns,tricks_ew,capot"]
    rows += ["NS,H,162,0,NS"] * 6  # 252 a hand: 1512 after six
    src = tmp_path / "win.csv"
    src.write_text("\n".join(rows) + "\n", encoding="utf-8")
    out = io.StringIO()
    code = run_score(preset="pinasca", csv_in=str(src), tournament=True, stdout=out)
    assert code == 0
    text = out.getvalue()
    assert "Match over: N-S wins, 1512 to 0." in text
    # 1512 + 2000 + (1500 - 0)
    assert "N-S 5012, E-W 0." in text


def test_both_teams_declarations_typed_the_sheet_decides_who_scores() -> None:
    """Issue 21: both teams' declarations typed were refused (and the refusal led the scorer
    to the wrong field).  Seed 001, "ottiene i punti solo la squadra che fa la dichiarazione
    più alta": N-S take 100/62 with a terza, E-O hold a quarta; the quarta alone scores, so
    N-S (100) are below E-O (62 + 50) and go down: E-O 162 + 50 = 212."""
    def named(text: str, field: str) -> Declared:
        return parse_declared(text, PINASCA, field)
    seed = hand(taker=0, tricks=(100, 62), declarations=(named("terza", "decl_ns"),
                                                         named("quarta", "decl_ew")))
    result = ScoreSheet(PINASCA).add(seed)
    assert (result.outcome.outcome, result.scores) == ("failed", (0, 212))
    # A carré beats any sequence (seed 001: "carré over sequence"): N-S's poker scores.
    carre = hand(taker=0, tricks=(100, 62), declarations=(named("poker di re", "decl_ns"),
                                                          named("quinta", "decl_ew")))
    assert ScoreSheet(PINASCA).add(carre).scores == (200, 62)
    # Two sequences of one length: the top card decides, which the sheet is not told.
    same = hand(taker=0, tricks=(100, 62), declarations=(named("terza", "decl_ns"),
                                                         named("terza", "decl_ew")))
    rejects(ScoreSheet(PINASCA), same, "error.declarations_undecided", "decl_ns")
    # Valdostana (the line of the best accuso): a cinquanta beats a terzo.
    outcome, scores = one("valdostana", taker=1, tricks=(62, 100), level=82,
                          declarations=(Declared(20, ("sequence_3",)),
                                        Declared(50, ("sequence_4",))))
    assert outcome == "made" and scores[0] == 62
