"""`belote replay FILE`: replay a record, print each hand's score and the match score."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from belote.errors import RecordError
from belote.records import load_record, replay

TEAMS = ("N-S", "E-W")


def replay_command(
    file: Path = typer.Argument(..., help="A game record (JSON)."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
) -> None:
    """Replay a game record, checking every action, and print the scores."""
    try:
        summary = replay(load_record(file))
    except RecordError as exc:
        typer.echo(f"error: {file}: {exc}", err=True)
        raise typer.Exit(1) from None
    if as_json:
        typer.echo(json.dumps({
            "hands": [
                {"hand": i, "deal": h.hand_no, "taker": h.taker, "outcome": h.outcome,
                 "capot_team": h.capot_team, "card_points": list(h.card_points),
                 "belote": list(h.belote), "scores": list(h.scores), "pot": h.pot,
                 "totals": list(h.totals)}
                for i, h in enumerate(summary.hands, start=1)
            ],
            "totals": list(summary.totals),
            "winner": summary.winner,
            "finished": summary.finished,
        }))
        return
    for i, h in enumerate(summary.hands, start=1):
        pot = f", pot {h.pot}" if h.pot else ""
        capot = f", capot {TEAMS[h.capot_team]}" if h.capot_team is not None else ""
        typer.echo(f"hand {i}: taker seat {h.taker} ({TEAMS[h.taker % 2]}) {h.outcome}{capot}: "
                   f"N-S {h.scores[0]}, E-W {h.scores[1]}{pot}; "
                   f"match N-S {h.totals[0]}, E-W {h.totals[1]}")
    state = "winner " + TEAMS[summary.winner] if summary.winner is not None else "unfinished"
    typer.echo(f"match: N-S {summary.totals[0]}, E-W {summary.totals[1]} ({state})")
