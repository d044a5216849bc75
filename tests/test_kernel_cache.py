"""numba stays out of the way: it is not imported to play, and its disk cache is reused.

* Importing the package, the rules and the engine and playing complete hands does not import
  numba (``belote.engine._kernels`` is loaded only by the solver's first call).
* After one process has called the solver (compiling the kernels into a fresh cache folder),
  a second process loads every kernel it calls from that cache: no compilation, and the
  loaded code gives the same answers (the solver's search is iterative because numba's cache
  did not reload recursive functions reliably: the reloaded code crashed on a null function
  pointer).

Each check runs in a fresh interpreter (``subprocess``), with ``NUMBA_CACHE_DIR`` pointing at
a temporary folder so that the result does not depend on what is cached in the tree.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PLAY_WITHOUT_NUMBA = """
import sys
import belote, belote.engine, belote.rules, belote.engine.state
import belote.engine.search  # the wrappers import the kernels lazily
from belote.engine import CHANCE, Game, seeded_deck_source
from belote.rules import PRESETS

hands = 0
for name, rules in PRESETS.items():
    game = Game(rules, first_dealer=0)
    deck = seeded_deck_source(7)
    while not game.is_terminal() and hands < 40:
        if game.current_player() == CHANCE:
            game.deal(deck())
            hands += 1
        else:
            game.apply(game.legal_actions()[0])
    hands = 0
print("numba" in sys.modules, "belote.engine._kernels" in sys.modules)
"""

SOLVE_AND_REPORT = """
import json
import numpy as np
from belote.engine.search import Position, Solver, random_playouts
from belote.rules import find_preset
from belote.engine import _kernels as k

rules = find_preset("classic")
solver = Solver(rules)
values = solver.solve(Position((0x0F0F, 0xF0F0, 0x0F0F0000, 0xF0F00000), (), 1, 2))
values2 = solver.solve(Position((0x0F0E, 0xF0F0, 0x0F0F0000, 0xF0F00000), (0,), 0, 4))
trick = np.array([3, 0, 0, 0], dtype=np.int64)
mask = int(k.legal_mask(0xFF0F, trick, 1, 0, 15))
checksum = random_playouts(rules, 50, seed=3)
stats = {}
for name in dir(k):
    f = getattr(k, name)
    if hasattr(f, "stats") and getattr(f, "signatures", None):
        s = f.stats
        stats[name] = [len(s.cache_hits), len(s.cache_misses), s.cache_path]
print(json.dumps({"values": sorted(values.items()), "values2": sorted(values2.items()),
                  "mask": mask, "checksum": checksum, "stats": stats}))
"""


def run_python(code: str, env: dict[str, str] | None = None) -> str:
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


def test_playing_does_not_import_numba() -> None:
    assert run_python(PLAY_WITHOUT_NUMBA) == "False False"


@pytest.mark.slow
def test_second_process_loads_the_kernels_from_the_cache(tmp_path: Path) -> None:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    first = json.loads(run_python(SOLVE_AND_REPORT, env))
    second = json.loads(run_python(SOLVE_AND_REPORT, env))

    # the first process compiled (nothing was cached in the fresh folder) ...
    for name in ("solve_root", "legal_mask", "random_hands"):
        hits, misses, path = first["stats"][name]
        # (a kernel called both from Python and from another kernel may compile twice)
        assert hits == 0 and misses >= 1, (name, first["stats"][name])
        assert path.startswith(str(tmp_path))
    assert any(tmp_path.rglob("*.nbi")) and any(tmp_path.rglob("*.nbc"))

    # ... the second compiled nothing: every kernel it called came from the cache
    assert second["stats"], "no dispatcher was called"
    for name, (hits, misses, _path) in second["stats"].items():
        assert misses == 0, f"{name} was compiled again"
        assert hits >= 1, f"{name} was not loaded from the cache"
    assert {"solve_root", "legal_mask", "random_hands"} <= set(second["stats"])

    # and the code loaded from the cache computes what the freshly compiled code did
    for key in ("values", "values2", "mask", "checksum"):
        assert second[key] == first[key], key
    assert first["values"] and first["values2"]
