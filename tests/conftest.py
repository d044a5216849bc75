"""Shared test configuration.

Hypothesis runs derandomized by default (the same examples every run, no example database
written to the working tree); set ``HYPOTHESIS_PROFILE=explore`` for fresh random examples.
"""

from __future__ import annotations

import os
import sys
import tomllib
from importlib.metadata import EntryPoint, EntryPoints
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from belote.ai import plugins

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


# Engine-heavy modules run untraced under coverage (pytest-cov's no_cover): tracing costs up
# to 4x CPU on the engine's hot loops, and the rest of the suite covers the same code.  This
# keeps the whole suite, coverage included, well under CI's 15 minutes.
UNTRACED = frozenset({
    "test_variants_simulation.py", "test_solver.py", "test_kernel_cache.py",
    "test_properties.py", "test_expert.py", "test_perft.py", "test_differential_colver.py",
    "test_arena.py", "test_obligations.py", "test_rules_validation.py",
})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name in UNTRACED:
            item.add_marker(pytest.mark.no_cover)


# The bots this tree declares as ``belote.bots`` entry points (pyproject.toml: colver's agents),
# offered to the plug-in loader when the installed metadata predates them: an editable install
# lists entry points as they were when it was made, until ``pip install -e .`` runs again.
# Installed entry points win; with current metadata nothing is added.  The header of the run
# names what was added, so a stale install is never silent.
DECLARED_BOTS: dict[str, str] = tomllib.loads(
    (Path(__file__).parents[1] / "pyproject.toml").read_text(encoding="utf-8")
)["project"].get("entry-points", {}).get(plugins.GROUP, {})
_installed_entry_points = plugins.entry_points
_added_from_tree: list[str] = []


def _tree_entry_points(**params: str) -> EntryPoints:
    found: EntryPoints = _installed_entry_points(**params)
    if params.get("group") != plugins.GROUP:
        return found
    names = {ep.name for ep in found}
    missing = [EntryPoint(name, value, plugins.GROUP) for name, value in DECLARED_BOTS.items()
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

