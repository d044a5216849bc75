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
