"""The repository's scripts and benchmarks (files outside the package, run by path) loaded as
modules, so that their tests call their functions."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_file(path: Path, name: str | None = None) -> ModuleType:
    """The module of the Python file ``path``, registered as ``name`` (default: the file's
    stem) in ``sys.modules``: a dataclass looks its module up there."""
    spec = importlib.util.spec_from_file_location(name or path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
