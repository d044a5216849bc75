"""`belote arena` and `belote simulate` compare two partnerships: a preset of three or two
players (no partnerships) is refused with a translated error, not a traceback, and nothing is
written."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from belote.cli import app

runner = CliRunner()


@pytest.mark.parametrize("preset", ["valdostana3", "valdostana2"])
def test_simulate_refuses_a_preset_without_partnerships_and_writes_nothing(
        preset: str, tmp_path: Path) -> None:
    saved = tmp_path / "records"
    result = runner.invoke(app, ["simulate", "--games", "1", "--preset", preset,
                                 "--save", str(saved)])
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)  # a message, not a traceback
    text = " ".join(result.output.split())
    assert "needs four players" in text and f"belote play --preset {preset}" in text
    assert not saved.exists()


@pytest.mark.parametrize(("lang", "words"), [("it", "quattro giocatori"),
                                              ("es", "cuatro jugadores"),
                                              ("fr", "quatre joueurs"),
                                              ("en", "four players")])
def test_arena_refuses_a_three_player_preset_in_the_chosen_language(lang: str,
                                                                     words: str) -> None:
    result = runner.invoke(app, ["arena", "heuristic", "random", "--preset", "valdostana3",
                                 "--deals", "1", "--lang", lang])
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)
    assert words in " ".join(result.output.split())
