"""The package's layers hold (issue 22, item 7): the import-linter contracts of pyproject.toml.

rules -> engine -> ai/i18n/rl -> sim/scorekeeper/tournament -> server/cli, no arrow up, no
circle between the packages nor among the room's modules (docs/dev/quality.md, "Layers").
``scripts/test`` runs ``lint-imports`` too; here the suite checks them (about a second, in a
process of its own: grimp reads the imports, nothing is imported).
"""

from __future__ import annotations

import itertools
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
    "importlinter"]


def test_the_import_contracts_hold() -> None:
    # A process of its own: import-linter sets up logging as a command does, which would
    # silence the loggers of the tests that run after it in this process.
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports; "
         "sys.exit(lint_imports(config_filename=sys.argv[1], no_cache=True, no_logo=True))",
         str(ROOT / "pyproject.toml")], capture_output=True, text=True, cwd=ROOT, timeout=120)
    report = done.stdout + done.stderr
    assert done.returncode == 0, report
    assert f"Contracts: {len(CONFIG['contracts'])} kept, 0 broken." in report


def test_the_layers_are_the_issues_order() -> None:
    # Issue 22: "rules -> engine -> ai/i18n/rl -> sim/scorekeeper/tournament -> server/cli".
    (layers,) = (c["layers"] for c in CONFIG["contracts"] if c["type"] == "layers")
    height = {name.strip(): len(layers) - i for i, layer in enumerate(layers)
              for name in layer.split("|")}
    order = [("rules",), ("engine",), ("ai", "i18n", "rl"), ("sim", "scorekeeper", "tournament"),
             ("server", "cli")]
    for lower, upper in itertools.pairwise(order):
        assert max(height[p] for p in lower) < min(height[p] for p in upper), (lower, upper)
