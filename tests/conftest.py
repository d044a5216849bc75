"""Shared test configuration.

Hypothesis runs derandomized by default (the same examples every run, no example database
written to the working tree); set ``HYPOTHESIS_PROFILE=explore`` for fresh random examples.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

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
# ``-m "not slow"``.  Coverage traces every test but three soak tests, marked ``no_cover`` in
# their modules (docs/dev/quality.md: traced, they cost 370 s of CPU and no line).
BROWSER = Path(__file__).parent / "browser"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.is_relative_to(BROWSER):
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.slow)
        if "postgres_url" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.postgres)
