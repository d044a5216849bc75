"""Shared test configuration.

Hypothesis runs derandomized by default (the same examples every run, no example database
written to the working tree); set ``HYPOTHESIS_PROFILE=explore`` for fresh random examples.
"""

from __future__ import annotations

import os
import sys
import tomllib
from collections.abc import Iterator
from importlib.metadata import EntryPoint, EntryPoints
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from belote.ai import plugins
from belote.bot_group import BOT_GROUP

# tests/helpers.py is imported as ``helpers`` by the test modules.
sys.path.insert(0, str(Path(__file__).parent))

settings.register_profile(
    "ci",
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "explore",
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_configure(config: pytest.Config) -> None:
    # When a property fails, Hypothesis imports libcst to write a patch file; under
    # ``filterwarnings = error`` libcst's own DeprecationWarning would hide the failure.
    config.addinivalue_line(
        "filterwarnings", "ignore:mypy_extensions.TypedDict is deprecated:DeprecationWarning"
    )


# Markers (registered in pyproject.toml).  Every browser test is ``browser`` and ``slow`` (a live
# room and Chromium); every test on the throwaway PostgreSQL cluster is ``postgres``.  Other
# slow tests carry ``@pytest.mark.slow`` in their modules.  ``./scripts/test --fast`` runs
# ``-m "not slow"``.  Coverage traces every test but three soak tests and seven long checks,
# marked ``no_cover`` in their modules (docs/dev/quality.md: traced, minutes of CPU, no line).
BROWSER = Path(__file__).parent / "browser"


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """``no_cover`` tests run untraced under pytest-xdist too.

    pytest-cov pauses its own measure around them; but in an xdist worker it has started
    two (one when its plugin loads, one per worker), and pausing the second resumes the
    first, which went on tracing: the soak tests ran four times slower in the full suite
    (valdostana3's simulation 109 s against 28 s).  Every measure still running after
    pytest-cov's pause is paused here, and resumed in the same order after the test."""
    if item.get_closest_marker("no_cover") is None or "coverage" not in sys.modules:
        return (yield)
    from coverage import Coverage

    paused: list[Coverage] = []
    while (current := Coverage.current()) is not None:
        current.stop()
        paused.append(current)
    try:
        return (yield)
    finally:
        for measure in reversed(paused):
            measure.start()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.is_relative_to(BROWSER):
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.slow)
        if "postgres_url" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.postgres)
    _slow_modules_first(items)


def _slow_modules_first(items: list[pytest.Item]) -> None:
    """The modules with a slow test run first, whole (their module fixtures set up once), in
    their own order: the long engine and bot runs, then the browser's; then the rest.
    pytest-xdist hands tests out in this order: a minute-long test started last would keep
    one core busy after the other has run out of work."""
    slow = {item.path for item in items if item.get_closest_marker("slow") is not None}
    # stable: the order within each group stays
    items.sort(key=lambda item: (item.path not in slow, item.path.is_relative_to(BROWSER)))


# The bots this tree declares as ``belote.bots`` entry points (pyproject.toml: colver's agents),
# offered to the plug-in loader when the installed metadata predates them: an editable install
# lists entry points as they were when it was made, until ``pip install -e .`` runs again.
# Installed entry points win; with current metadata nothing is added.  The header of the run
# names what was added, so a stale install is never silent.
DECLARED_BOTS: dict[str, str] = tomllib.loads(
    (Path(__file__).parents[1] / "pyproject.toml").read_text(encoding="utf-8")
)["project"].get("entry-points", {}).get(BOT_GROUP, {})
_installed_entry_points = plugins.entry_points
_added_from_tree: list[str] = []


def _tree_entry_points(**params: str) -> EntryPoints:
    found: EntryPoints = _installed_entry_points(**params)
    if params.get("group") != BOT_GROUP:
        return found
    names = {ep.name for ep in found}
    missing = [EntryPoint(name, value, BOT_GROUP) for name, value in DECLARED_BOTS.items()
               if name not in names]
    for ep in missing:
        if ep.name not in _added_from_tree:
            _added_from_tree.append(ep.name)
    return EntryPoints((*found, *missing)) if missing else found


plugins.entry_points = _tree_entry_points  # type: ignore[assignment]


def pytest_report_header(config: pytest.Config) -> str | None:
    plugins.entry_point_names()  # fills _added_from_tree
    if not _added_from_tree:
        return None
    return ("belote.bots entry points taken from pyproject.toml (the installed metadata "
            f"predates them; pip install -e . to refresh): {', '.join(_added_from_tree)}")

