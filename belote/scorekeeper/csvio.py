"""The score sheet as CSV: read with headers and values in any catalog language, written with
the headers and words of one language (named ``csvio`` so as not to shadow :mod:`csv`)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from typing import TextIO

from belote.rules.base import Rules
from belote.scorekeeper.entry import (
    fold_belote,
    parse_declared,
    parse_double,
    parse_level,
    parse_optional_team,
    parse_points,
    parse_team,
    parse_trump,
)
from belote.scorekeeper.hand import Declared, HandEntry
from belote.scorekeeper.sheet import HandResult, ScoreSheet
from belote.scorekeeper.validation import CsvError, Reason, ScoreError
from belote.scorekeeper.vocabulary import (
    COLUMNS,
    RESULT_COLUMNS,
    capot_word,
    column_codes,
    column_header,
    declarations_text,
    double_word,
    key,
    message,
    team_code,
    trump_word,
)

REQUIRED_COLUMNS: tuple[str, ...] = ("taker", "trump", "tricks_ns", "tricks_ew")


def parse_row(row: dict[str, str], rules: Rules) -> HandEntry:
    """A :class:`HandEntry` from one CSV row (column code -> text); a :class:`ScoreError`
    names the field at fault."""
    def get(name: str) -> str:
        return (row.get(name) or "").strip()

    number_text = get("hand")
    number: int | None = None
    if number_text:
        if not number_text.isdigit():
            raise ScoreError(Reason.BAD_HAND_NUMBER, "hand", value=number_text)
        number = int(number_text)
    taker = parse_team(get("taker"), "taker")
    return fold_belote(HandEntry(
        taker=taker,
        trump=parse_trump(get("trump"), "trump"),
        level=parse_level(get("level"), rules, "level"),
        double=parse_double(get("double"), "double"),
        tricks=(parse_points(get("tricks_ns"), "tricks_ns"),
                parse_points(get("tricks_ew"), "tricks_ew")),
        capot=parse_optional_team(get("capot"), "capot", yes_team=taker),
        declarations=(parse_declared(get("decl_ns"), rules, "decl_ns"),
                      parse_declared(get("decl_ew"), rules, "decl_ew")),
        belote=parse_optional_team(get("belote"), "belote"),
        number=number,
    ))


def _rows(stream: TextIO) -> Iterator[tuple[int, list[str]]]:
    text = stream.read()
    first = text.split("\n", 1)[0]
    # Spreadsheets set to Italian, Spanish or French write semicolons.
    delimiter = ";" if ";" in first and "," not in first else ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    for row in reader:
        yield reader.line_num, row


def _header(line: int, row: list[str]) -> tuple[list[str], dict[str, str]]:
    """The column codes of a header line, and how the file names each."""
    codes: list[str] = []
    named: dict[str, str] = {}
    for cell in row:
        text = cell.strip()
        code = column_codes().get(key(text))
        if code is None:
            raise CsvError(line, text.lower(), ScoreError(
                Reason.CSV_UNKNOWN_COLUMN, text.lower(), column=text, columns=COLUMNS),
                named=text)
        if code in named:
            raise CsvError(line, code, ScoreError(
                Reason.CSV_DUPLICATE_COLUMN, code, column=text), named=text)
        codes.append(code)
        named[code] = text
    for code in REQUIRED_COLUMNS:
        if code not in named:
            raise CsvError(line, code, ScoreError(Reason.CSV_MISSING_COLUMN, code,
                                                  column=code))
    return codes, named


def load_csv(stream: TextIO, rules: Rules) -> ScoreSheet:
    """A score sheet from CSV text (a header line, then one hand per line).

    Headers and values may be in any catalog language.  Raises :class:`CsvError` with the
    line and the field at the first problem.
    """
    sheet = ScoreSheet(rules)
    header: list[str] | None = None
    named: dict[str, str] = {}
    for line, row in _rows(stream):
        if not any(cell.strip() for cell in row):
            continue
        if header is None:
            header, named = _header(line, row)
            continue
        if len(row) != len(header):
            raise CsvError(line, "-", ScoreError(Reason.CSV_ROW_LENGTH, "-", count=len(row),
                                                 expected=len(header)), named="-")
        try:
            sheet.add(parse_row(dict(zip(header, row, strict=True)), rules))
        except ScoreError as exc:
            file_field = "+".join(named.get(part, part) for part in exc.field.split("+"))
            raise CsvError(line, exc.field, exc, named=file_field) from None
    if header is None:
        raise CsvError(1, "-", ScoreError(Reason.CSV_EMPTY, "-", columns=COLUMNS), named="-")
    return sheet


def format_level(level: int, rules: Rules, lang: str = "en") -> str:
    if not level:
        return ""
    if rules.auction is not None and level == rules.auction.capot_level:
        return capot_word(lang)
    return str(level)


def declared_text(declared: Declared, lang: str = "en") -> str:
    """A team's declarations as a CSV cell: names in ``lang`` joined by "+", else points."""
    if declared.names:
        return declarations_text(declared.names, lang, "+")
    return str(declared.points) if declared.points else ""


def entry_row(entry: HandEntry, rules: Rules, lang: str = "en") -> dict[str, str]:
    """The input columns of a hand, as :func:`parse_row` reads them back."""
    return {
        "hand": "" if entry.number is None else str(entry.number),
        "taker": team_code(entry.taker, lang),
        "trump": trump_word(entry.trump, lang),
        "level": format_level(entry.level, rules, lang),
        "double": double_word(entry.double, lang),
        "tricks_ns": str(entry.tricks[0]),
        "tricks_ew": str(entry.tricks[1]),
        "capot": team_code(entry.capot, lang),
        "decl_ns": declared_text(entry.declarations[0], lang),
        "decl_ew": declared_text(entry.declarations[1], lang),
        "belote": team_code(entry.belote, lang),
    }


def result_row(result: HandResult, rules: Rules, lang: str = "en") -> dict[str, str]:
    out = result.outcome
    row = entry_row(result.entry, rules, lang)
    row["hand"] = str(result.number)
    row.update({
        "outcome": message(f"csv.outcome.{out.outcome}", lang),
        "capot_team": team_code(out.capot_team, lang),
        "points_ns": str(out.card_points[0]),
        "points_ew": str(out.card_points[1]),
        "score_ns": str(out.scores[0]),
        "score_ew": str(out.scores[1]),
        "pot": str(out.pot.points),
        "pot_team": team_code(out.pot.team if out.pot.points else None, lang),
        "pot_won_by": team_code(out.pot_winner, lang),
        "pot_won": str(out.pot_won),
        "total_ns": str(result.totals[0]),
        "total_ew": str(result.totals[1]),
        "winner": team_code(result.winner, lang),
    })
    return row


def write_csv(sheet: ScoreSheet | Iterable[HandResult], stream: TextIO,
              rules: Rules | None = None, lang: str = "en") -> None:
    """Export the hands with their computed scores and running totals, with the headers and
    words of ``lang``."""
    if isinstance(sheet, ScoreSheet):
        rules, results = sheet.rules, sheet.hands
    else:
        results = tuple(sheet)
    if rules is None:
        raise ValueError("rules are needed to export bare results")
    codes = (*COLUMNS, *RESULT_COLUMNS)
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow([column_header(code, lang) for code in codes])
    for result in results:
        row = result_row(result, rules, lang)
        writer.writerow([row[code] for code in codes])
