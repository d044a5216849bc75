"""Bots as plug-ins (belote.ai.plugins): ``module:Class`` sits wherever a bot name does."""

from __future__ import annotations

import io
import tomllib
from collections.abc import Callable
from importlib.metadata import EntryPoint, EntryPoints
from pathlib import Path

import pytest
from typer.testing import CliRunner

from belote import bot_group
from belote.ai import make_bot, plugins
from belote.bot_group import BOT_GROUP, room_plugin_names
from belote.cli import app
from belote.cli.play import run_terminal_game
from belote.oracles.colver.agents import REGISTERED

PLUGIN = "examples.first_legal_bot:FirstLegalBot"
runner = CliRunner()
ROOT = Path(__file__).resolve().parents[1]


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


# ------------------------------------------------------------- colver's agents, registered
# Issue 22 (item 3): colver's agents are belote.bots entry points of this package, so that
# belote.ai imports nothing from belote.oracles.  These tests give the loader exactly the
# entry points pyproject.toml declares (whatever the installed metadata says).

def _declared(extra: dict[str, str] | None = None) -> Callable[..., EntryPoints]:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    bots = {**declared["project"]["entry-points"][BOT_GROUP], **(extra or {})}

    def entry_points(**params: str) -> EntryPoints:
        assert params == {"group": BOT_GROUP}
        return EntryPoints(EntryPoint(n, v, BOT_GROUP) for n, v in bots.items())
    return entry_points


def test_colver_agents_are_entry_points_that_make_bot_resolves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plugins, "entry_points", _declared())
    assert set(plugins.entry_point_names()) == set(REGISTERED) == {
        "colver-heuristic", "colver-isdd", "colver-bid", "expert-w20-cbid",
        "expert-w20-learned"}
    for name, cls in REGISTERED.items():
        assert cls.name == name  # the label, read without making the bot
    pytest.importorskip("colver")
    for name, cls in REGISTERED.items():
        bot = make_bot(name, 3)
        assert type(bot) is cls and bot.name == name


def test_without_its_entry_point_a_colver_agent_is_an_unknown_bot(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plugins, "entry_points", lambda **params: EntryPoints(()))
    with pytest.raises(ValueError, match="unknown bot 'colver-heuristic'"):
        make_bot("colver-heuristic", 1)


def test_the_room_offers_other_packages_plugins_not_colvers_agents(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # colver's agents need the arena's side channel (the whole deal): never a room level.
    declared = _declared({"tiny": "belote_tiny_bot:TinyBot"})
    monkeypatch.setattr(bot_group, "entry_points", declared)  # what the room reads
    monkeypatch.setattr(plugins, "entry_points", declared)  # what the bot layer loads
    assert room_plugin_names() == ("tiny",)
    assert "colver-heuristic" in plugins.entry_point_names()
