"""A tournament as CSV files, headers in the reader's language: every result (one line per
game, byes included), the standings, the ranking points and the prize list.

A spreadsheet runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` (or a tab or a
carriage return, which some read past) as a formula: every text cell that does is written
with a leading ``'`` (OWASP "CSV Injection"), so an entrant named ``=HYPERLINK(...)`` is shown,
never run.  Numbers are written as numbers.

The separator is a comma or a semicolon (:data:`DELIMITERS`: an Italian, French or Spanish
spreadsheet opens a comma file as one column, its decimal comma taking the comma), and a
UTF-8 byte order mark may lead the file (:func:`csv_text`: Excel reads a file without one
as the machine's old code page, and "Nicolò" comes out "NicolÃ²").

Every result says where it came from (``source``: an online table, the score entry page,
the scorekeeper's CSV, typed at the console, an organiser's correction with its reason and
the origin it replaced; a game left unplayed by a forced close says so, with the close's
reason, where a game still awaiting its result has no source) and which seats a bot played
for an absent player (``standins``).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable
from typing import TextIO

from belote.i18n import join_list, translate
from belote.tournament.events import Tournament
from belote.tournament.model import Entrant, Game
from belote.tournament.prizes import awards
from belote.tournament.records import Line
from belote.tournament.standings import entrant_records, standings, taking_part

COLUMNS = ("round", "table", "side_a", "side_b", "lineup_a", "lineup_b", "total_a", "total_b",
           "score_a", "score_b", "winner", "source",
           # Issue 24: after the columns the earlier files had, so their readers still work.
           "club_a", "club_b", "reason", "replaced", "standins")
STANDINGS_COLUMNS = ("place", "name", "players", "club", "played", "wins", "draws", "losses",
                     "byes", "points", "ranking_points", "adjustments", "standins")
POINTS_COLUMNS = ("place", "name", "total", "place_points", "adjustment", "reason",
                  "ranking_points")
PRIZE_COLUMNS = ("prize_for", "prize", "winner")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
DELIMITERS = {"comma": ",", "semicolon": ";"}
BOM = "\ufeff"
Writer = Callable[[Tournament, TextIO, str, str], None]


def safe_cell(value: object) -> object:
    """``value`` as a spreadsheet shows it and never runs: text starting like a formula gets
    a leading ``'``; numbers are left alone."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def write_rows(stream: TextIO, rows: Iterable[Iterable[object]], delimiter: str = ",") -> None:
    """CSV rows with every text cell neutralised (:func:`safe_cell`)."""
    writer = csv.writer(stream, lineterminator="\n", delimiter=delimiter)
    for row in rows:
        writer.writerow([safe_cell(cell) for cell in row])


def csv_text(write: Writer, t: Tournament, lang: str = "en", delimiter: str = ",",
             bom: bool = False) -> str:
    """One export as text (``write``: :func:`write_results`, :func:`write_standings` ...),
    led by a byte order mark if ``bom``."""
    out = io.StringIO()
    write(t, out, lang, delimiter)
    return (BOM if bom else "") + out.getvalue()


def _header(lang: str, columns: Iterable[str]) -> list[object]:
    return [translate(lang, f"tournament.column.{c}") for c in columns]


def source_text(lang: str, source: str) -> str:
    return translate(lang, f"tournament.source.{source}")


def standin_entrants(game: Game) -> set[int]:
    """The entrants one of whose seats a bot played at ``game`` (a mêlée side holds two
    entrants, one per seat; a pair side one)."""
    out = set()
    for side, position in game.standins:
        entrants = game.sides[side]
        out.add(entrants[position] if len(entrants) > 1 else entrants[0])
    return out


def standins_text(lang: str, game: Game) -> str:
    """The seats a bot played, in words ("a bot for Anna")."""
    return join_list((translate(lang, "tournament.export.standin",
                                player=game.lineup[side][position])
                      for side, position in game.standins), lang)


def write_results(t: Tournament, stream: TextIO, lang: str = "en", delimiter: str = ",") -> None:
    rows: list[list[object]] = [_header(lang, COLUMNS)]
    for game in t.games():
        sides = [*(t.side_name(side) for side in game.sides), ""]
        clubs = [*(_clubs(t, side) for side in game.sides), ""]
        lineups = [*(" & ".join(side) for side in game.lineup), "", ""]
        result = game.result
        totals: list[object] = [*result.totals, ""] if result else ["", ""]
        scores: list[object] = [*result.scores, ""] if result else ["", ""]
        winner = "" if result is None or result.winner is None else sides[result.winner]
        source = "" if result is None else source_text(lang, result.source)
        reason = "" if result is None else result.reason
        if game.unplayed:  # not awaiting a result: its round was closed without one
            source, reason = translate(lang, "tournament.source.unplayed"), game.unplayed_reason
        replaced = ("" if result is None or result.replaced is None
                    else source_text(lang, result.replaced))
        rows.append([game.round, game.table or translate(lang, "tournament.bye"),
                     sides[0], sides[1], lineups[0], lineups[1], totals[0], totals[1],
                     scores[0], scores[1], winner, source, clubs[0], clubs[1],
                     reason, replaced,
                     standins_text(lang, game)])
    write_rows(stream, rows, delimiter)


def _clubs(t: Tournament, side: tuple[int, ...]) -> str:
    return " & ".join(sorted({t.entrants[e].club or "" for e in side} - {""}))


def line_entrants(t: Tournament, line: Line) -> list[Entrant]:
    """The entrants a standings line stands for: a Pinasca neighbourhood's pairs that were
    drawn (:func:`taking_part`: a pair that never came scores no season points through its
    neighbourhood), or the entrant of that name (names are unique in a tournament)."""
    clubs = t.clubs()
    if line.record is None and line.name in clubs:
        present = taking_part(t)
        return [pair for pair in clubs[line.name] if pair.id in present]
    return [e for e in t.entrants.values() if e.name == line.name]


def standin_games(t: Tournament) -> dict[int, int]:
    """Per entrant, the games at which a bot played one of its seats."""
    counts: dict[int, int] = {}
    for game in t.games():
        for entrant in standin_entrants(game):
            counts[entrant] = counts.get(entrant, 0) + 1
    return counts


def write_standings(t: Tournament, stream: TextIO, lang: str = "en",
                    delimiter: str = ",") -> None:
    """The standings, one line per place: its entrants' players and neighbourhood, the
    record (a neighbourhood's: its pairs' together), the ranking points and adjustments,
    and the games a bot stood in."""
    records = entrant_records(t)
    bots = standin_games(t)
    rows: list[list[object]] = [_header(lang, STANDINGS_COLUMNS)]
    for line in standings(t):
        entrants = line_entrants(t, line)
        recs = [records[e.id] for e in entrants if e.id in records]
        players = join_list((" & ".join(e.players) for e in entrants), lang)
        adjustments = sum(a.points for a in t.adjustments if a.subject == line.name)
        rows.append([line.place, line.name, players, _clubs(t, tuple(e.id for e in entrants)),
                     *(sum(getattr(r, f) for r in recs)
                       for f in ("played", "wins", "draws", "losses", "byes")),
                     line.total, "" if line.points is None else line.points,
                     adjustments or "", sum(bots.get(e.id, 0) for e in entrants) or ""])
    write_rows(stream, rows, delimiter)


def write_ranking_points(t: Tournament, stream: TextIO, lang: str = "en",
                         delimiter: str = ",") -> None:
    """Each line's ranking points and how they were made: the place's points, then one line
    per adjustment with its reason (seed 001's "Girandola", "Framasun"), then the sum.  A
    format without ranking points (a concours) gives its points and adjustments."""
    rows: list[list[object]] = [_header(lang, POINTS_COLUMNS)]
    for line in standings(t):
        adjustments = [a for a in t.adjustments if a.subject == line.name]
        base: object = ("" if line.points is None
                        else line.points - sum(a.points for a in adjustments))
        rows.append([line.place, line.name, line.total, base, "", "",
                     "" if line.points is None else line.points])
        for adj in adjustments:
            rows.append([line.place, line.name, "", "", adj.points, adj.reason, ""])
    write_rows(stream, rows, delimiter)


def prize_label(lang: str, place: int | None, category: str | None) -> str:
    if place is not None:
        return translate(lang, "tournament.prize.place", place=place)
    return translate(lang, f"tournament.prize.category.{category}")


def write_prizes(t: Tournament, stream: TextIO, lang: str = "en", delimiter: str = ",") -> None:
    """The prize list and who takes each prize as the standings stand."""
    rows: list[list[object]] = [_header(lang, PRIZE_COLUMNS)]
    for award in awards(t, t.prizes):
        prize = award.prize
        rows.append([prize_label(lang, prize.place, prize.category), prize.prize,
                     join_list(award.winners, lang)])
    write_rows(stream, rows, delimiter)


EXPORTS: dict[str, Writer] = {
    "results": write_results, "standings": write_standings,
    "points": write_ranking_points, "prizes": write_prizes,
}
