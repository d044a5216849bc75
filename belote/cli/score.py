"""`belote score`: the scorekeeper of a table playing with real cards.

Batch from a CSV (``--csv-in``) or line by line: one question per line, short answers, ``u``
undoes the last hand, ``q`` ends, ``?`` helps.  After each hand one line gives the hand's
score and the match totals.  ``--csv-out`` exports the hands with the computed scores.
``--lang`` picks the language of every question, refusal, report and exported header; the
answers and CSV files may use the words of any of the four languages.
Exit codes: 0 done, 1 a bad CSV, 2 bad options.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

import typer

from belote.i18n import LANGUAGES, translate
from belote.i18n.parse import normalize
from belote.rules import PRESETS, Rules
from belote.scorekeeper import (
    CsvError,
    Declared,
    HandEntry,
    ScoreError,
    ScoreSheet,
    describe_end,
    describe_game_scores,
    describe_hand,
    describe_match,
    describe_undone,
    fold_belote,
    load_csv,
    message,
    parse_declared,
    parse_double,
    parse_level,
    parse_optional_team,
    parse_points,
    parse_team,
    parse_trump,
    question,
    refusal_text,
    steps,
    write_csv,
)


def _parsers(rules: Rules, answers: dict[str, Any]) -> dict[str, Callable[[str], Any]]:
    return {
        "taker": lambda text: parse_team(text, "taker"),
        "trump": lambda text: parse_trump(text, "trump"),
        "level": lambda text: parse_level(text, rules, "level"),
        "double": lambda text: parse_double(text, "double"),
        "tricks_ns": lambda text: parse_points(text, "tricks_ns"),
        "tricks_ew": lambda text: parse_points(text, "tricks_ew"),
        # "yes" to the capot question: the takers took every trick.
        "capot": lambda text: parse_optional_team(text, "capot", yes_team=answers.get("taker")),
        "decl_ns": lambda text: parse_declared(text, rules, "decl_ns"),
        "decl_ew": lambda text: parse_declared(text, rules, "decl_ew"),
        "belote": lambda text: parse_optional_team(text, "belote"),
    }


def _entry(answers: dict[str, Any]) -> HandEntry:
    return fold_belote(HandEntry(
        taker=answers["taker"],
        trump=answers["trump"],
        level=answers.get("level", 0),
        double=answers.get("double", 0),
        tricks=(answers["tricks_ns"], answers["tricks_ew"]),
        capot=answers.get("capot"),
        declarations=(answers.get("decl_ns", Declared()), answers.get("decl_ew", Declared())),
        belote=answers.get("belote"),
    ))


def run_interactive(sheet: ScoreSheet, stdin: TextIO, stdout: TextIO, lang: str = "en") -> None:
    """Ask each hand one question per line, in ``lang``, until ``q`` or the end of input."""
    rules = sheet.rules
    answers: dict[str, Any] = {}
    parsers = _parsers(rules, answers)

    def say(text: str) -> None:
        print(text, file=stdout, flush=True)

    def refuse(exc: ScoreError) -> None:
        say(message("error.bad_answer", lang, message=refusal_text(exc, lang)))

    step = 0
    say(message("ask.help", lang))
    while True:
        asked = steps(rules, answers.get("trump"))
        if not sheet.finished and step >= len(asked):
            try:
                result = sheet.add(_entry(answers))
            except ScoreError as exc:
                # Ask again from the first question of the field at fault.
                field = exc.field.split("+")[0]
                refuse(exc)
                step = asked.index(field) if field in asked else 0
                continue
            say(describe_hand(result, lang))
            if sheet.finished:
                say(describe_match(sheet, lang))
            answers.clear()
            step = 0
            continue
        if sheet.finished:
            say(message("ask.after_match", lang))
        else:
            say(question(rules, asked[step], sheet.next_number, lang))
        line = stdin.readline()
        if not line:  # end of input: as "q"
            break
        text = line.strip()
        command = normalize(text)
        if command == "q":
            break
        if command == "?":
            say(message("ask.help", lang))
            continue
        if command == "u":
            try:
                undone = sheet.undo()
            except ScoreError as exc:
                refuse(exc)
            else:
                say(describe_undone(undone, sheet, lang))
            answers.clear()
            step = 0
            continue
        if sheet.finished:
            continue
        name = asked[step]
        try:
            answers[name] = parsers[name](text)
        except ScoreError as exc:
            refuse(exc)
            continue
        step += 1
    say(describe_end(sheet, lang))
    say(describe_match(sheet, lang))


def run_score(preset: str = "classic", csv_in: str | None = None, csv_out: str | None = None,
              lang: str = "en", tournament: bool = False, stdin: TextIO | None = None,
              stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Run the scorekeeper; returns the exit code (0 done, 1 bad CSV, 2 bad options)."""
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    if lang not in LANGUAGES:
        # The language is unknown, so the sentence is English.
        print(translate("en", "error.unknown_language", language=repr(lang)), file=err)
        return 2
    if preset not in PRESETS:
        print(message("cli.unknown_preset", lang, preset=preset, presets=", ".join(PRESETS)),
              file=err)
        return 2
    rules = PRESETS[preset]
    if csv_in is not None:
        try:
            with open(csv_in, encoding="utf-8-sig", newline="") as stream:
                sheet = load_csv(stream, rules)
        except OSError as exc:
            print(message("cli.cannot_read", lang, path=csv_in, reason=exc.strerror or exc),
                  file=err)
            return 2
        except UnicodeDecodeError as exc:
            print(message("cli.not_utf8", lang, path=csv_in, reason=exc.reason), file=err)
            return 1
        except CsvError as exc:
            print(message("cli.bad_csv", lang, path=csv_in, message=refusal_text(exc, lang)),
                  file=err)
            return 1
        for result in sheet.hands:
            print(describe_hand(result, lang), file=out)
        print(describe_match(sheet, lang), file=out)
    else:
        sheet = ScoreSheet(rules)
        run_interactive(sheet, stdin or sys.stdin, out, lang)
    if tournament:
        line = describe_game_scores(sheet, lang)
        if line is not None:
            print(line, file=out)
    if csv_out is not None:
        try:
            with open(csv_out, "w", encoding="utf-8", newline="") as stream:
                write_csv(sheet, stream, lang=lang)
        except OSError as exc:
            print(message("cli.cannot_write", lang, path=csv_out, reason=exc.strerror or exc),
                  file=err)
            return 2
    return 0


def score_command(
    preset: str = typer.Option("classic", "--preset", help="Rules preset of the match."),
    csv_in: Path | None = typer.Option(
        None, "--csv-in", help="Score the hands of this CSV file (else ask line by line)."),
    csv_out: Path | None = typer.Option(
        None, "--csv-out", help="Export the hands with their scores and running totals."),
    lang: str = typer.Option("en", "--lang", help="Language: it, es, fr or en."),
    tournament: bool = typer.Option(
        False, "--tournament", help="At the end, print the Pinasca tournament game score."),
) -> None:
    """Keep the score of a match played with real cards: check each hand, total the match."""
    raise typer.Exit(run_score(preset=preset, csv_in=None if csv_in is None else str(csv_in),
                               csv_out=None if csv_out is None else str(csv_out), lang=lang,
                               tournament=tournament))
