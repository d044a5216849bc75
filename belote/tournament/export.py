"""Every result as CSV (one line per game, byes included), headers in the reader's language.

A spreadsheet runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` (or a tab or a
carriage return, which some read past) as a formula: every text cell that does is written
with a leading ``'`` (OWASP "CSV Injection"), so an entrant named ``=HYPERLINK(...)`` is shown,
never run.  Numbers are written as numbers.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import TextIO

from belote.i18n import translate
from belote.tournament.events import Tournament

COLUMNS = ("round", "table", "side_a", "side_b", "lineup_a", "lineup_b", "total_a", "total_b",
           "score_a", "score_b", "winner", "source")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> object:
    """``value`` as a spreadsheet shows it and never runs: text starting like a formula gets
    a leading ``'``; numbers are left alone."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def write_rows(stream: TextIO, rows: Iterable[Iterable[object]]) -> None:
    """CSV rows with every text cell neutralised (:func:`safe_cell`)."""
    writer = csv.writer(stream, lineterminator="\n")
    for row in rows:
        writer.writerow([safe_cell(cell) for cell in row])


def write_results(t: Tournament, stream: TextIO, lang: str = "en") -> None:
    rows: list[list[object]] = [[translate(lang, f"tournament.column.{c}") for c in COLUMNS]]
    for game in t.games():
        sides = [*(t.side_name(side) for side in game.sides), ""]
        lineups = [*(" & ".join(side) for side in game.lineup), "", ""]
        result = game.result
        totals: list[object] = [*result.totals, ""] if result else ["", ""]
        scores: list[object] = [*result.scores, ""] if result else ["", ""]
        winner = "" if result is None or result.winner is None else sides[result.winner]
        source = "" if result is None else translate(lang, f"tournament.source.{result.source}")
        rows.append([game.round, game.table or translate(lang, "tournament.bye"),
                     sides[0], sides[1], lineups[0], lineups[1], totals[0], totals[1],
                     scores[0], scores[1], winner, source])
    write_rows(stream, rows)
