"""`belote score`: the scorekeeper of a table playing with real cards.

Batch from a CSV (``--csv-in``) or line by line: one question per line, short answers, ``u``
undoes the last hand, ``q`` ends, ``?`` helps.  After each hand one line gives the hand's
score and the match totals.  ``--csv-out`` exports the hands with the computed scores.
Exit codes: 0 done, 1 a bad CSV, 2 bad options.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

import typer

from belote.engine.events import NO_TRUMP
from belote.i18n import LANGUAGES
from belote.i18n.parse import normalize
from belote.rules import Rules, find_preset
from belote.scorekeeper import (
    CsvError,
    Declared,
    HandEntry,
    ScoreError,
    ScoreSheet,
    describe_hand,
    describe_match,
    load_csv,
    message,
    parse_declared,
    parse_double,
    parse_level,
    parse_optional_team,
    parse_points,
    parse_team,
    parse_trump,
    write_csv,
)
from belote.tournament.pinasca import WIN_BONUS, game_scores


def _steps(rules: Rules, answers: dict[str, Any]) -> list[str]:
    """The questions of one hand, in order, for the preset (and the trump answered)."""
    steps = ["taker", "trump"]
    if rules.auction is not None:
        steps += ["level", "double"]
    steps += ["tricks_ns", "tricks_ew", "capot"]
    if rules.declarations is not None:
        steps += ["decl_ns", "decl_ew"]
    if rules.belote_enabled and answers.get("trump") != NO_TRUMP:
        steps.append("belote")
    return steps


def _parsers(rules: Rules) -> dict[str, Callable[[str], Any]]:
    return {
        "taker": lambda text: parse_team(text, "taker"),
        "trump": lambda text: parse_trump(text, "trump"),
        "level": lambda text: parse_level(text, rules, "level"),
        "double": lambda text: parse_double(text, "double"),
        "tricks_ns": lambda text: parse_points(text, "tricks_ns"),
        "tricks_ew": lambda text: parse_points(text, "tricks_ew"),
        "capot": lambda text: parse_optional_team(text, "capot"),
        "decl_ns": lambda text: parse_declared(text, rules, "decl_ns"),
        "decl_ew": lambda text: parse_declared(text, rules, "decl_ew"),
        "belote": lambda text: parse_optional_team(text, "belote"),
    }


def _question(rules: Rules, step: str, number: int) -> str:
    if step == "trump":
        choices = "H, D, C, S" + (", senza" if rules.allow_senza else "") + (
            ", tutte" if rules.allow_tutte else "")
        return message("ask.trump", choices=choices)
    if step == "level":
        assert rules.auction is not None
        levels = rules.auction.levels
        capot = rules.auction.capot_level
        plain = [lv for lv in levels if lv != capot]
        text = f"{plain[0]} to {plain[-1]}" + (", capot" if capot else "")
        return message("ask.level", levels=text)
    return message(f"ask.{step}", number=number)


def _entry(answers: dict[str, Any]) -> HandEntry:
    return HandEntry(
        taker=answers["taker"],
        trump=answers["trump"],
        level=answers.get("level", 0),
        double=answers.get("double", 0),
        tricks=(answers["tricks_ns"], answers["tricks_ew"]),
        capot=answers.get("capot"),
        declarations=(answers.get("decl_ns", Declared()), answers.get("decl_ew", Declared())),
        belote=answers.get("belote"),
    )


def run_interactive(sheet: ScoreSheet, stdin: TextIO, stdout: TextIO) -> None:
    """Ask each hand one question per line until ``q`` or the end of input."""
    rules = sheet.rules
    parsers = _parsers(rules)

    def say(text: str) -> None:
        print(text, file=stdout, flush=True)

    answers: dict[str, Any] = {}
    step = 0
    say(message("ask.help"))
    while True:
        steps = _steps(rules, answers)
        if not sheet.finished and step >= len(steps):
            try:
                result = sheet.add(_entry(answers))
            except ScoreError as exc:
                # Ask again from the first question of the field at fault.
                field = exc.field.split("+")[0]
                say(message("error.bad_answer", message=exc))
                step = steps.index(field) if field in steps else 0
                continue
            say(describe_hand(result))
            if sheet.finished:
                say(describe_match(sheet))
            answers, step = {}, 0
            continue
        if sheet.finished:
            say(message("ask.after_match"))
        else:
            say(_question(rules, steps[step], sheet.next_number))
        line = stdin.readline()
        if not line:  # end of input: as "q"
            break
        text = line.strip()
        command = normalize(text)
        if command == "q":
            break
        if command == "?":
            say(message("ask.help"))
            continue
        if command == "u":
            try:
                undone = sheet.undo()
            except ScoreError as exc:
                say(message("error.bad_answer", message=exc))
            else:
                totals = sheet.totals
                say(message("report.undone", number=undone.number, total_ns=totals[0],
                            total_ew=totals[1]))
            answers, step = {}, 0
            continue
        if sheet.finished:
            continue
        name = steps[step]
        try:
            answers[name] = parsers[name](text)
        except ScoreError as exc:
            say(message("error.bad_answer", message=exc))
            continue
        step += 1
    say(message("report.end", count=len(sheet.hands)))
    say(describe_match(sheet))


def run_score(preset: str = "classic", csv_in: str | None = None, csv_out: str | None = None,
              lang: str = "en", tournament: bool = False, stdin: TextIO | None = None,
              stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Run the scorekeeper; returns the exit code (0 done, 1 bad CSV, 2 bad options)."""
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    if lang not in LANGUAGES:
        print(f"error: unknown language {lang!r}; available: {', '.join(LANGUAGES)}", file=err)
        return 2
    try:
        rules = find_preset(preset)
    except ValueError as exc:
        print(f"error: {exc}", file=err)
        return 2
    if csv_in is not None:
        try:
            with open(csv_in, encoding="utf-8-sig", newline="") as stream:
                sheet = load_csv(stream, rules)
        except OSError as exc:
            print(f"error: cannot read {csv_in}: {exc.strerror or exc}", file=err)
            return 2
        except UnicodeDecodeError as exc:
            print(f"error: {csv_in}: not UTF-8 text ({exc.reason})", file=err)
            return 1
        except CsvError as exc:
            print(f"error: {csv_in}: {exc}", file=err)
            return 1
        for result in sheet.hands:
            print(describe_hand(result), file=out)
        print(describe_match(sheet), file=out)
    else:
        sheet = ScoreSheet(rules)
        run_interactive(sheet, stdin or sys.stdin, out)
    if tournament and sheet.winner is not None:
        w = sheet.winner
        won, lost = game_scores(sheet.totals[w], sheet.totals[1 - w], target=rules.target_score)
        ns, ew = (won, lost) if w == 0 else (lost, won)
        print(message("report.game_scores", target=rules.target_score, bonus=WIN_BONUS,
                      ns=ns, ew=ew), file=out)
    if csv_out is not None:
        try:
            with open(csv_out, "w", encoding="utf-8", newline="") as stream:
                write_csv(sheet, stream)
        except OSError as exc:
            print(f"error: cannot write {csv_out}: {exc.strerror or exc}", file=err)
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
