"""`belote simulate`: bot matches with win rates, confidence intervals and points per hand."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from belote.i18n import LANGUAGES, translate
from belote.rules import find_preset
from belote.sim.simulate import seat_bots, simulate


def simulate_command(
    games: int = typer.Option(100, "--games", "-n", min=1, help="Number of matches."),
    preset: str = typer.Option("classic", "--preset", help="Rules preset."),
    bots: str = typer.Option("heuristic,random", "--bots",
                             help="Two bots (team N-S, team E-W) or four (one per seat)."),
    seed: int = typer.Option(0, "--seed", help="Deck seed of the first match."),
    save: Path | None = typer.Option(None, "--save", help="Write each match's record here."),
    lang: str = typer.Option("en", "--lang", help="Language of the output: it, es, fr or en."),
) -> None:
    """Play bot matches and report team win rates (95% CI) and average points per hand."""
    console = Console(stderr=True)
    if lang not in LANGUAGES:
        raise typer.BadParameter(f"choose one of {' '.join(LANGUAGES)}", param_hint="--lang")

    def t(key: str, **values: object) -> str:
        return translate(lang, key, **values)
    try:
        rules = find_preset(preset)
        seats = seat_bots(bots)
        from belote.ai import make_bot

        for name in set(seats):
            make_bot(name)
        if not rules.partners:  # its report is per team: 3 or 2 players have none
            raise ValueError(t("cli.seats_web.teams_only", command="simulate", preset=preset,
                               players=rules.players))
    except ValueError as exc:
        console.print(t("cli.error", error=exc))
        raise typer.Exit(2) from None
    with Progress(TextColumn(t("cli.simulating")), BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=console) as progress:
        task = progress.add_task("games", total=games)
        result = simulate(rules, seats, games, seed, save,
                          lambda done: progress.update(task, completed=done))
    table = Table(title=t("cli.simulate.title", games=games, preset=preset))
    for column in ("team", "seats", "bots", "wins", "win_rate", "points_per_hand"):
        table.add_column(t(f"cli.col.{column}"))
    for team, label in enumerate((t("cli.team.0"), t("cli.team.1"))):
        rate, low, high = result.win_rate(team)
        mean, half = result.points_per_hand(team)
        table.add_row(label, f"{team}, {team + 2}", f"{seats[team]}, {seats[team + 2]}",
                      str(result.wins[team]), f"{rate:.1%} [{low:.1%}, {high:.1%}]",
                      f"{mean:.1f} ± {half:.1f}")
    Console().print(table)
    if save is not None:
        console.print(t("cli.records_written", path=save))
