"""The scorekeeper in four languages: words typed in any of them, CSV headers in any of them,
every question, refusal, report and exported header in the user's language."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from belote.cli.score import run_interactive, run_score
from belote.engine.events import ALL_TRUMP, NO_TRUMP
from belote.i18n import LANGUAGES, has_message, messages
from belote.rules import find_preset
from belote.scorekeeper import (
    COLUMNS,
    RESULT_COLUMNS,
    CsvError,
    Declared,
    HandEntry,
    Reason,
    ScoreError,
    ScoreSheet,
    describe_hand,
    load_csv,
    parse_declared,
    parse_double,
    parse_level,
    parse_optional_team,
    parse_row,
    parse_team,
    parse_trump,
    refusal_text,
    vocabulary,
    write_csv,
)

H, D, C, S = 0, 1, 2, 3
CLASSIC = find_preset("classic")
PINASCA = find_preset("pinasca")
ITALIAN = find_preset("italian")
COINCHE = find_preset("coinche")


# --- Catalogs -------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_reason_has_a_sentence_in_each_language(lang: str) -> None:
    for reason in Reason:
        assert has_message(lang, f"score.error.{reason.value}"), reason
    for code in (*COLUMNS, *RESULT_COLUMNS):
        assert has_message(lang, f"score.column.{code}"), code


@pytest.mark.parametrize("lang", ("it", "es", "fr"))
def test_sentences_are_translated_not_copied_from_english(lang: str) -> None:
    english = messages("en")
    same = [k for k in english if k.startswith(("score.error.", "score.ask.", "score.report."))
            and messages(lang)[k] == english[k]]
    # Only templates with no words of their own ("{message}.", ", capot {team}") may match.
    assert all(english[k] in ("{message}.", ", capot {team}") for k in same), same


def test_every_word_table_builds_without_a_word_meaning_two_things() -> None:
    # _merge raises on a word with two meanings; build them all.
    assert vocabulary.team_words()["eo"] == 1
    assert vocabulary.trump_words()["sansatout"] == NO_TRUMP
    assert vocabulary.double_words()["surcoinche"] == 2
    assert vocabulary.declaration_words()["pokerdifanti"] == "carre_J"
    assert vocabulary.column_codes()["briscola"] == "trump"
    assert "si" in vocabulary.yes_words() and "nessuno" in vocabulary.none_words()


# --- Words in any language ------------------------------------------------------------------


def test_teams_suits_modes_and_doubles_in_italian_spanish_and_french() -> None:
    assert [parse_team(t, "taker") for t in ("Nord-Sud", "Norte-Sur", "nord", "sud")] == [0] * 4
    assert [parse_team(t, "taker") for t in ("EO", "E-O", "Est-Ouest", "Oeste", "ovest")] \
        == [1] * 5
    assert [parse_trump(t) for t in ("cuori", "quadri", "fiori", "picche")] == [H, D, C, S]
    assert [parse_trump(t) for t in ("corazón", "diamantes", "trébol", "picas")] == [H, D, C, S]
    assert [parse_trump(t) for t in ("Cœur", "carreaux", "trèfle", "pique")] == [H, D, C, S]
    assert [parse_trump(t) for t in ("senza", "sin triunfo", "sans atout")] == [NO_TRUMP] * 3
    assert [parse_trump(t) for t in ("tutte", "todo triunfo", "tout atout")] == [ALL_TRUMP] * 3
    assert [parse_double(t) for t in ("contro", "contra", "coinche", "contre")] == [1] * 4
    assert [parse_double(t) for t in ("surcontro", "recontra", "surcoinche")] == [2] * 3
    assert [parse_level(t, COINCHE) for t in ("cappotto", "capote", "capot")] == [250] * 3
    with pytest.raises(ScoreError):
        parse_level("8.2", COINCHE)
    assert [parse_optional_team(t, "belote") for t in ("nessuno", "ninguno", "aucune")] \
        == [None] * 3
    # "yes" to the capot question names the takers; elsewhere it is no team.
    assert [parse_optional_team(t, "capot", yes_team=1) for t in ("sì", "sí", "oui")] == [1] * 3
    with pytest.raises(ScoreError) as info:
        parse_optional_team("oui", "belote")
    assert info.value.reason is Reason.BAD_FLAG


def test_declarations_by_their_names_in_each_language() -> None:
    assert parse_declared("terza + poker di fanti", PINASCA, "decl_ns").names == \
        ("sequence_3", "carre_J")
    assert parse_declared("tercera, cincuenta", PINASCA, "decl_ns").points == 70
    assert parse_declared("tierce et carré de valets", PINASCA, "decl_ns").points == 220
    assert parse_declared("quarta", PINASCA, "decl_ew") == Declared(50, ("sequence_4",))
    with pytest.raises(ScoreError) as info:
        parse_declared("terza+poker di dieci", PINASCA, "decl_ns")  # no carré of 10s (seed 001)
    assert info.value.reason is Reason.UNKNOWN_DECLARATION


def test_a_belote_said_among_the_declarations_goes_to_that_team() -> None:
    row = {"taker": "NS", "trump": "cuori", "tricks_ns": "100", "tricks_ew": "62",
           "decl_ew": "belote e rebelote"}
    entry = parse_row(row, PINASCA)
    assert entry.belote == 1 and entry.declarations == (Declared(), Declared())
    with pytest.raises(ScoreError) as info:
        parse_row({**row, "belote": "NS"}, PINASCA)
    assert info.value.reason is Reason.BELOTE_TWICE


# --- A hand entered in each language --------------------------------------------------------

SCRIPTS = {
    # taker, trump, tricks N-S, E-W, capot, declarations N-S, E-W, belote
    "it": "nord-sud\ncuori\n100\n62\nno\nterza\nnessuna\nnord\nq\n",
    "es": "norte-sur\ncorazones\n100\n62\nno\ntercera\nninguno\nnorte\nq\n",
    "fr": "nord-sud\ncœur\n100\n62\nnon\ntierce\naucune\nnord\nq\n",
}
EXPECTED = {
    "it": "Smazzata 1: N-S ha fatto il contratto; N-S 140, E-O 62. Partita: N-S 140, E-O 62.",
    "es": "Mano 1: N-S cumple el contrato; N-S 140, E-O 62. Partida: N-S 140, E-O 62.",
    "fr": "Donne 1 : N-S a fait son contrat ; N-S 140, E-O 62. Partie : N-S 140, E-O 62.",
}


@pytest.mark.parametrize("lang", ("it", "es", "fr"))
def test_a_hand_entered_in_words_of_the_language_is_scored_and_told_in_it(lang: str) -> None:
    out = io.StringIO()
    sheet = ScoreSheet(PINASCA)
    run_interactive(sheet, io.StringIO(SCRIPTS[lang]), out, lang)
    lines = out.getvalue().splitlines()
    assert EXPECTED[lang] in lines
    assert sheet.totals == (140, 62)
    english = set(messages("en").values())
    assert not english & set(lines)


@pytest.mark.parametrize(("lang", "answer", "expected"), [
    ("it", "bastoni", "'bastoni' non è una briscola: scrivi cuori, quadri, fiori, picche."),
    ("es", "bastos", "'bastos' no es un triunfo: escribe corazones, diamantes, tréboles, "
                     "picas, sin triunfo, todo triunfo."),
    ("fr", "bâton", "'bâton' n'est pas un atout : écrivez cœur, carreau, trèfle, pique, "
                    "sans atout, tout atout."),
])
def test_a_refused_answer_is_told_in_the_language_and_asked_again(
        lang: str, answer: str, expected: str) -> None:
    out = io.StringIO()
    sheet = ScoreSheet(CLASSIC)
    run_interactive(sheet, io.StringIO(f"ns\n{answer}\nq\n"), out, lang)
    lines = out.getvalue().splitlines()
    if lang == "it":
        expected = expected.replace("picche.", "picche, senza, tutte.")
    assert expected in lines
    assert sheet.hands == ()


def test_a_hand_refusal_names_the_italian_tie_and_trick_words() -> None:
    sheet = ScoreSheet(PINASCA)
    with pytest.raises(ScoreError) as info:
        sheet.add(HandEntry(taker=0, trump=H, tricks=(100, 60)))
    assert refusal_text(info.value, "it") == (
        "i punti delle prese devono sommare 162 a cuori (come contati, con i 10 dell'ultima "
        "presa, senza premio di cappotto); invece N-S 100 + E-O 60 = 160")
    assert sheet.hands == ()
    tie = sheet.add(HandEntry(taker=1, trump=S, tricks=(81, 81)))
    assert "prigione" in describe_hand(tie, "it")
    assert "litige" in describe_hand(tie, "fr")
    assert "empata" in describe_hand(tie, "es")


# --- CSV headers in each language -----------------------------------------------------------

CSV_BY_LANGUAGE = {
    "it": "smazzata;presa_da;briscola;prese_ns;prese_eo;cappotto;dich_ns;dich_eo;belote\n"
          "1;NS;cuori;100;62;;terza;;Nord\n"
          "2;EO;picche;81;81;;;;\n"
          "3;Nord;fiori;90;72;;;quarta;\n"
          "4;Est-Ovest;quadri;0;162;sì;;poker di fanti;\n",
    "es": "mano,tomador,triunfo,bazas_ns,bazas_eo,capote,cantos_ns,cantos_eo,belote\n"
          "1,NS,corazones,100,62,,tercera,,Norte\n"
          "2,EO,picas,81,81,,,,\n"
          "3,Norte,tréboles,90,72,,,cincuenta,\n"
          "4,Este-Oeste,diamantes,0,162,sí,,póker de sotas,\n",
    "fr": "donne;preneur;atout;plis_ns;plis_eo;capot;annonces_ns;annonces_eo;belote\n"
          "1;NS;cœur;100;62;;tierce;;Nord\n"
          "2;EO;pique;81;81;;;;\n"
          "3;Nord;trèfle;90;72;;;cinquante;\n"
          "4;Est-Ouest;carreau;0;162;oui;;carré de valets;\n",
}
ENGLISH_CSV = """\
hand,taker,trump,tricks_ns,tricks_ew,capot,decl_ns,decl_ew,belote
1,NS,hearts,100,62,,tierce,,NS
2,EW,S,81,81,,,,
3,N,clubs,90,72,,,cinquante,
4,EW,d,0,162,EW,,carre_J,
"""


@pytest.mark.parametrize("lang", ("it", "es", "fr"))
def test_csv_with_headers_and_words_of_the_language_scores_as_the_english_one(
        lang: str) -> None:
    sheet = load_csv(io.StringIO(CSV_BY_LANGUAGE[lang]), PINASCA)
    english = load_csv(io.StringIO(ENGLISH_CSV), PINASCA)
    assert [h.entry for h in sheet.hands] == [h.entry for h in english.hands]
    assert sheet.totals == english.totals == (221, 807)


@pytest.mark.parametrize("lang", ("it", "es", "fr"))
def test_csv_out_writes_the_language_headers_and_reads_back(lang: str) -> None:
    sheet = load_csv(io.StringIO(ENGLISH_CSV), PINASCA)
    out = io.StringIO()
    write_csv(sheet, out, lang=lang)
    header = out.getvalue().splitlines()[0].split(",")
    assert header == [vocabulary.column_header(c, lang) for c in (*COLUMNS, *RESULT_COLUMNS)]
    assert header[2] == {"it": "briscola", "es": "triunfo", "fr": "atout"}[lang]
    again = load_csv(io.StringIO(out.getvalue()), PINASCA)
    assert [h.entry for h in again.hands] == [h.entry for h in sheet.hands]


@pytest.mark.parametrize(("lang", "expected"), [
    ("it", "riga 3, campo briscola: classica non ha smazzate a senza (senza briscola)"),
    ("es", "línea 3, campo triunfo: clásica no tiene manos sin triunfo"),
    ("fr", "ligne 3, champ atout : classique n'a pas de donnes à sans atout"),
])
def test_a_csv_refusal_names_the_file_column_in_the_user_language(
        lang: str, expected: str) -> None:
    header = {"it": "presa_da;briscola;prese_ns;prese_eo",
              "es": "tomador;triunfo;bazas_ns;bazas_eo",
              "fr": "preneur;atout;plis_ns;plis_eo"}[lang]
    text = f"{header}\nNS;cuori;100;62\nNS;senza;70;60\n"
    with pytest.raises(CsvError) as info:
        load_csv(io.StringIO(text), CLASSIC)
    assert (info.value.line, info.value.field) == (3, "trump")
    assert refusal_text(info.value, lang) == expected


def test_a_csv_header_named_twice_in_two_languages_is_refused() -> None:
    with pytest.raises(CsvError) as info:
        load_csv(io.StringIO("taker,trump,briscola,tricks_ns,tricks_ew\n"), CLASSIC)
    assert info.value.refusal.reason is Reason.CSV_DUPLICATE_COLUMN
    assert refusal_text(info.value, "it") == \
        "riga 1, campo briscola: la colonna 'briscola' compare due volte"


# --- Command line ---------------------------------------------------------------------------


def test_belote_score_lang_it_speaks_italian_throughout(tmp_path: Path) -> None:
    src = tmp_path / "tavolo7.csv"
    src.write_text(CSV_BY_LANGUAGE["it"], encoding="utf-8")
    dst = tmp_path / "uscita.csv"
    out, err = io.StringIO(), io.StringIO()
    code = run_score(preset="pinasca", csv_in=str(src), csv_out=str(dst), lang="it",
                     stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    lines = out.getvalue().splitlines()
    assert lines[1] == ("Smazzata 2: E-O è in prigione (parità); N-S 81, E-O 0, 81 punti in "
                        "prigione per la prossima smazzata (di E-O). Partita: N-S 221, E-O 62.")
    assert lines[-1] == "Partita: N-S 221, E-O 807; traguardo 1500."
    assert dst.read_text(encoding="utf-8").startswith("smazzata,presa_da,briscola,")
    bad = io.StringIO()
    assert run_score(preset="nessuno", lang="it", stderr=bad) == 2
    assert bad.getvalue().startswith("errore: regole sconosciute 'nessuno'")
