"""The `belote` command line: play, simulate, replay."""

from __future__ import annotations

import typer

from belote.cli.replay import replay_command
from belote.cli.simulate import simulate_command

app = typer.Typer(
    name="belote",
    help="Belote: play against bots, simulate bot matches, replay game records.",
    no_args_is_help=True,
    add_completion=False,
)
app.command("simulate")(simulate_command)
app.command("replay")(replay_command)
from belote.cli.rules_sheet import rules_command  # noqa: E402  (belote rules, the rule sheet)

app.command("rules")(rules_command)
from belote.cli.score import score_command  # noqa: E402  (belote score, the scorekeeper)

app.command("score")(score_command)
from belote.cli.arena import arena_command  # noqa: E402  (belote arena, duplicate deals)

app.command("arena")(arena_command)
from belote.cli.serve import serve_command  # noqa: E402  (belote serve, La Sala)

app.command("serve")(serve_command)
from belote.cli.tournament import app as tournament_app  # noqa: E402  (belote tournament)

app.add_typer(tournament_app, name="tournament")
from belote.cli.moderator import app as moderator_app  # noqa: E402  (belote moderator)

app.add_typer(moderator_app, name="moderator")


@app.command("play")
def play_command(
    lang: str = typer.Option("en", "--lang", help="Language: it, es, fr or en."),
    preset: str = typer.Option("classic", "--preset", help="Rules preset."),
    bots: str = typer.Option(
        "normal", "--bots",
        help="Bot level for the three other seats (easy, normal, quick, expert), or three levels: "
             "partner (North), East, West."),
    seed: int | None = typer.Option(None, "--seed", help="Deal from a seed (else random)."),
    save: str | None = typer.Option(None, "--save", help="Write the game record to this file."),
    name: str = typer.Option("", "--name", help="Your name at the table."),
) -> None:
    """Play a match against three bots in a line-by-line, screen-reader friendly session."""
    from belote.cli.play import run_terminal_game

    raise typer.Exit(run_terminal_game(lang=lang, preset=preset, bots=bots, seed=seed,
                                       save=save, name=name))


def main() -> None:
    app()
