"""Loading a bot plug-in (belote.ai.plugins) as the ``belote`` console script does: a
``module:Class`` in the current directory is found even where ``sys.path`` lacks it, and a
class that is no bot gets a clear error."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from belote.ai import plugins

BOT = '''
class Bot:
    name = "from-here"

    def __init__(self, seed):
        self.seed = seed

    def notify(self, event):
        pass

    def choose(self, observation):
        return observation.legal_actions[0]


class Nameless(Bot):
    name = None
'''


@pytest.fixture
def console_script_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The current directory is ``tmp_path`` and, as under the console script, it is not on
    ``sys.path`` (``python -m`` would put it there)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    yield tmp_path
    for name in ("my_table_bot", "nowhere_bot", "broken_bot"):
        sys.modules.pop(name, None)  # the module of a folder about to go


def test_a_module_in_the_current_directory_is_loaded_as_python_m_would(
        console_script_in: Path) -> None:
    (console_script_in / "my_table_bot.py").write_text(BOT, encoding="utf-8")
    bot = plugins.load_plugin("my_table_bot:Bot", 9)
    assert bot.name == "from-here" and bot.seed == 9  # type: ignore[attr-defined]
    assert sys.path[-1] == str(console_script_in)  # looked in last, after installed code


def test_a_module_found_nowhere_says_where_it_was_looked_for(console_script_in: Path) -> None:
    with pytest.raises(ValueError, match="also looked in") as error:
        plugins.load_plugin("nowhere_bot:Bot")
    assert str(console_script_in) in str(error.value)


def test_a_bot_without_a_name_is_refused(console_script_in: Path) -> None:
    (console_script_in / "my_table_bot.py").write_text(BOT, encoding="utf-8")
    with pytest.raises(ValueError, match="has no name"):
        plugins.load_plugin("my_table_bot:Nameless", 1)


def test_an_entry_point_nobody_declared_is_no_plugin() -> None:
    with pytest.raises(ValueError, match="no bot plug-in 'surely-no-such-bot'"):
        plugins.load_plugin("surely-no-such-bot")


def test_a_plugin_whose_own_import_fails_gets_a_clear_error(console_script_in: Path) -> None:
    (console_script_in / "broken_bot.py").write_text("from os import no_such_name\n" + BOT,
                                                     encoding="utf-8")
    sys.path.append(str(console_script_in))
    with pytest.raises(ValueError, match=r"cannot import bot module 'broken_bot'.*no_such_name"):
        plugins.load_plugin("broken_bot:Bot")
