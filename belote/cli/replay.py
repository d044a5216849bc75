"""`belote replay FILE`: replay a record, print each hand's score and the match score."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import typer

from belote.errors import RecordError
from belote.i18n import LANGUAGES, translate
from belote.records import ReplaySummary, load_record, record_rules, replay


def replay_command(
    file: Path = typer.Argument(..., help="A game record (JSON)."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    lang: str = typer.Option("en", "--lang", help="Language of the output: it, es, fr or en."),
) -> None:
    """Replay a game record, checking every action, and print the scores."""
    if lang not in LANGUAGES:
        raise typer.BadParameter(f"choose one of {' '.join(LANGUAGES)}", param_hint="--lang")

    def t(key: str, **values: object) -> str:
        return translate(lang, key, **values)
    teams = (t("cli.team.0"), t("cli.team.1"))
    try:
        data = load_record(file)
        summary = replay(data)
        players = record_rules(data).players
    except RecordError as exc:
        typer.echo(t("cli.error_in_file", file=file, error=exc), err=True)
        raise typer.Exit(1) from None
    if as_json:
        typer.echo(json.dumps({
            "hands": [
                {"hand": h.hand_no, "deal": h.deal_no, "taker": h.taker, "outcome": h.outcome,
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
    if players != 4:
        _print_seats(summary, t)
        return
    for i, h in enumerate(summary.hands, start=1):
        pot = t("cli.replay.pot", pot=h.pot) if h.pot else ""
        capot = t("cli.replay.capot", team=teams[h.capot_team]) if h.capot_team is not None \
            else ""
        typer.echo(t("cli.replay.hand", number=i, taker=h.taker, taker_team=teams[h.taker % 2],
                     outcome=h.outcome, capot=capot, ns=h.scores[0], ew=h.scores[1], pot=pot,
                     total_ns=h.totals[0], total_ew=h.totals[1]))
    state = t("cli.replay.winner", team=teams[summary.winner]) if summary.winner is not None \
        else t("cli.replay.unfinished")
    typer.echo(t("cli.replay.match", ns=summary.totals[0], ew=summary.totals[1], state=state))


def _print_seats(summary: ReplaySummary, t: Callable[..., str]) -> None:
    """The replay's lines for 3 or 2 players (seed 000): each side is one seat."""

    def sides(values: tuple[int, ...]) -> str:
        return ", ".join(t("cli.replay.side_points", side=t("cli.replay.seat", seat=s),
                           points=v) for s, v in enumerate(values))

    for i, h in enumerate(summary.hands, start=1):
        pot = t("cli.replay.pot", pot=h.pot) if h.pot else ""
        capot = (t("cli.replay.capot", team=t("cli.replay.seat", seat=h.capot_team))
                 if h.capot_team is not None else "")
        typer.echo(t("cli.replay.hand.seats", number=i, taker=h.taker, outcome=h.outcome,
                     capot=capot, scores=sides(h.scores), pot=pot, totals=sides(h.totals)))
    state = (t("cli.replay.winner", team=t("cli.replay.seat", seat=summary.winner))
             if summary.winner is not None else t("cli.replay.unfinished"))
    typer.echo(t("cli.replay.match.seats", totals=sides(summary.totals), state=state))

