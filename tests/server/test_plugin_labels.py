"""The room's labels for the bot plug-ins it offers (review of issue 21, item 14).

Finding: ``plugin_label`` imported and made a plug-in bot in the web process at the first
``GET /`` (on the event loop: third-party code, its import and its constructor), and kept a
failure forever.  The labels are made once at the room's start, in a thread; a class that
says its ``name`` is not made at all; a failure is logged and counted, and the label falls
back to the entry point's name.  The plug-ins here are fake entry points naming classes of
this module (test_plugins_installed.py installs a real one).
"""

from __future__ import annotations

import asyncio
import logging
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest

from belote.ai import plugins
from belote.bot_group import BOT_GROUP
from belote.server import app as app_module
from belote.server.app import create_app
from tests.server.conftest import client_for, make_settings

MADE: list[tuple[str, bool]] = []  # (class, whether an event loop was running in the thread)


def _on_a_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


class NamedBot:
    """Says its name as a class attribute: never made for a label."""

    name = "Named Plug-in"

    def __init__(self, seed: int | None = None) -> None:
        MADE.append(("NamedBot", _on_a_loop()))

    def notify(self, event: Any) -> None:
        pass

    def choose(self, observation: Any) -> int:
        return int(observation.legal_actions[0])


class NamelessBot:
    """Its name is known only once made."""

    def __init__(self, seed: int | None = None) -> None:
        MADE.append(("NamelessBot", _on_a_loop()))
        self.name = "Nameless Plug-in"

    def notify(self, event: Any) -> None:
        pass

    def choose(self, observation: Any) -> int:
        return int(observation.legal_actions[0])


class BrokenBot:
    def __init__(self, seed: int | None = None) -> None:
        MADE.append(("BrokenBot", _on_a_loop()))
        raise RuntimeError("cannot start")


FAKE = {"named": "NamedBot", "nameless": "NamelessBot", "broken": "BrokenBot"}


@pytest.fixture
def fake_plugins(monkeypatch: pytest.MonkeyPatch) -> None:
    found = [EntryPoint(name, f"{__name__}:{cls}", BOT_GROUP) for name, cls in FAKE.items()]
    monkeypatch.setattr(plugins, "entry_points",
                        lambda group: [ep for ep in found if ep.group == group])
    monkeypatch.setattr(app_module, "LEVELS", (*app_module.OWN_LEVELS, *FAKE))
    monkeypatch.setattr(plugins, "_labels", {})
    monkeypatch.setattr(plugins, "label_failures", {})
    monkeypatch.setattr(app_module, "label_failures", plugins.label_failures)
    MADE.clear()


@pytest.mark.usefixtures("fake_plugins")
def test_plugin_labels_are_made_once_at_the_start_off_the_event_loop(
        tmp_path: Path, caplog: Any) -> None:
    app = create_app(make_settings(tmp_path))
    with caplog.at_level(logging.WARNING), client_for(app) as client:
        made_at_start = list(MADE)
        for _ in range(2):
            lobby = client.get("/")
            assert lobby.status_code == 200
        assert "Named Plug-in" in lobby.text and "Nameless Plug-in" in lobby.text
        # no plug-in code ran for the pages: all was done at the start
        assert list(MADE) == made_at_start
    # only the nameless one was made (its class says no name), and never on a loop
    assert made_at_start == [("NamelessBot", False), ("BrokenBot", False)]
    assert plugins.plugin_label("named") == "Named Plug-in"
    assert plugins.plugin_label("broken") == "broken"  # the entry point's name
    assert list(app.state.plugin_label_failures) == ["broken"]
    assert "cannot start" in app.state.plugin_label_failures["broken"]
    assert any("'broken' cannot be labelled" in r.getMessage() for r in caplog.records)


def test_a_plugin_label_asked_before_the_start_makes_nothing(
        fake_plugins: None) -> None:
    assert plugins.plugin_label("nameless") == "nameless"
    assert MADE == []
