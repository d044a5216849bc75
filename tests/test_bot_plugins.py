"""Bots as plug-ins (belote.ai.plugins): ``module:Class`` sits wherever a bot name does."""

from __future__ import annotations

import io

import pytest
from typer.testing import CliRunner

from belote.ai import make_bot
from belote.cli import app
from belote.cli.play import run_terminal_game

PLUGIN = "examples.first_legal_bot:FirstLegalBot"
runner = CliRunner()


def test_make_bot_loads_a_module_class_plugin_with_its_seed() -> None:
    bot = make_bot(PLUGIN, 7)
    assert bot.name == "first-legal"
    assert bot.seed == 7  # type: ignore[attr-defined]


def test_arena_accepts_a_plugin() -> None:
    result = runner.invoke(app, ["arena", PLUGIN, "random", "--preset", "classic",
                                 "--deals", "2", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "2 duplicate pairs" in result.output


def test_simulate_accepts_a_plugin() -> None:
    result = runner.invoke(app, ["simulate", "--games", "1", "--preset", "classic",
                                 "--bots", f"{PLUGIN},random"])
    assert result.exit_code == 0, result.output


def test_play_accepts_a_plugin_at_the_bot_seats() -> None:
    out = io.StringIO()
    assert run_terminal_game(bots=PLUGIN, seed=1, stdin=io.StringIO("q\n"), stdout=out) == 0


@pytest.mark.parametrize("name, message", [
    ("examples.no_such_module:Bot", "cannot import"),
    ("examples.first_legal_bot:Nope", "has no 'Nope'"),
    ("examples.first_legal_bot:", "module:Class"),
    ("collections:OrderedDict", "could not be made"),
    ("string:Formatter", "choose"),
    ("examples:__doc__", "not a class"),
])
def test_bad_plugins_get_a_clear_error(name: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_bot(name)


def test_arena_refuses_a_bad_plugin_before_any_play() -> None:
    result = runner.invoke(app, ["arena", "examples.no_such_module:Bot", "random",
                                 "--deals", "2"])
    assert result.exit_code != 0
