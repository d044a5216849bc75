"""Every result as CSV (one line per game, byes included), headers in the reader's language."""

from __future__ import annotations

import csv
from typing import TextIO

from belote.i18n import translate
from belote.tournament.events import Tournament

COLUMNS = ("round", "table", "side_a", "side_b", "lineup_a", "lineup_b", "total_a", "total_b",
           "score_a", "score_b", "winner", "source")


def write_results(t: Tournament, stream: TextIO, lang: str = "en") -> None:
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow([translate(lang, f"tournament.column.{c}") for c in COLUMNS])
    for game in t.games():
        sides = [*(t.side_name(side) for side in game.sides), ""]
        lineups = [*(" & ".join(side) for side in game.lineup), "", ""]
        result = game.result
        totals: list[object] = [*result.totals, ""] if result else ["", ""]
        scores: list[object] = [*result.scores, ""] if result else ["", ""]
        winner = "" if result is None or result.winner is None else sides[result.winner]
        source = "" if result is None else translate(lang, f"tournament.source.{result.source}")
        writer.writerow([game.round, game.table or translate(lang, "tournament.bye"),
                         sides[0], sides[1], lineups[0], lineups[1], totals[0], totals[1],
                         scores[0], scores[1], winner, source])
