"""Registrations from a CSV file (``name,player1,player2,club``), read whole before anything
is stored: a file refused at any line changes nothing (the caller checks every group, then
stores them in one transaction: :meth:`belote.server.tournament.service.Tournaments.change_all`).

=================================  ============================================================
what a spreadsheet writes          what is read
=================================  ============================================================
UTF-8, with or without a BOM       read
Latin-1 / Windows-1252 (an old     refused with the line and the byte, unless the encoding is
Excel's "CSV")                     given (``--encoding cp1252``): a guess could be wrong
commas or semicolons (an Italian,  the separator is the one of ``,`` ``;`` or a tab that the
French or Spanish Excel)           header line holds most
a column the file may not have     ``name``, ``player1``, ``player2``, ``club`` (any case);
                                   another is refused, naming it
a line longer than the header      refused with its line number
an empty line                      skipped
=================================  ============================================================
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any

from belote.tournament.formats import TournamentFormat
from belote.tournament.model import TournamentError

KNOWN = ("name", "player1", "player2", "club")
SEPARATORS = (",", ";", "\t")
ENCODINGS = ("utf-8", "cp1252", "latin-1")


class LineError(TournamentError):
    """A refusal at one line of a file: the line's number and why (``inner``)."""

    def __init__(self, line: int, inner: TournamentError) -> None:
        super().__init__("at_line", line=line)
        self.line = line
        self.inner = inner


@dataclass(frozen=True, slots=True)
class Registration:
    """Entrants registered together (one entrant, or a Pinasca neighbourhood's two pairs),
    and the file's line of the first."""

    line: int
    entrants: list[dict[str, Any]]


def decode(raw: bytes, encoding: str | None = None) -> str:
    """The file's text: UTF-8 (a BOM dropped) unless ``encoding`` is given; bytes that are
    not text are refused with their line."""
    if encoding is not None and encoding.lower().replace("_", "-") not in ENCODINGS:
        raise TournamentError("csv_encoding_name", known=", ".join(ENCODINGS))
    codec = "utf-8-sig" if encoding is None or encoding.lower() == "utf-8" else encoding
    try:
        return raw.decode(codec)
    except UnicodeDecodeError as error:
        line = raw[:error.start].count(b"\n") + 1
        raise LineError(line, TournamentError(
            "csv_not_utf8", byte=f"{raw[error.start]:02X}")) from None


def separator(text: str) -> str:
    """The separator the header line holds most (a comma when it holds none)."""
    header = next((line for line in text.splitlines() if line.strip()), "")
    counts = {sep: header.count(sep) for sep in SEPARATORS}
    best = max(SEPARATORS, key=lambda sep: counts[sep])
    return best if counts[best] else ","


def read_registrations(text: str, fmt: TournamentFormat) -> list[Registration]:
    """Every registration of the file, in order; raises :class:`LineError` (or a
    ``TournamentError`` for the header) at the first line it cannot read."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=separator(text))
    header: list[str] | None = None
    entrants: list[tuple[int, dict[str, Any]]] = []
    for row in reader:
        line = reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        if header is None:
            header = [cell.strip().lower() for cell in row]
            for column in header:
                if column not in KNOWN:
                    raise LineError(line, TournamentError(
                        "csv_column", column=column or '""', known=", ".join(KNOWN)))
            continue
        if len(row) > len(header):
            raise LineError(line, TournamentError("csv_extra", count=len(row),
                                                  columns=len(header)))
        cells = dict(zip(header, (cell.strip() for cell in row), strict=False))
        players = [cells[k] for k in ("player1", "player2") if cells.get(k)]
        if fmt.players_per_entrant == 1 and not players:
            players = [cells.get("name", "")]
        entrants.append((line, {"name": cells.get("name") or " & ".join(players),
                                "players": players, "club": cells.get("club") or None,
                                "checked_in": True}))
    if header is None or not entrants:
        raise TournamentError("csv_empty")
    if fmt.group_size == 1:
        return [Registration(line, [e]) for line, e in entrants]
    clubs: dict[str, Registration] = {}
    for line, e in entrants:
        clubs.setdefault(str(e["club"] or ""), Registration(line, [])).entrants.append(e)
    return list(clubs.values())
