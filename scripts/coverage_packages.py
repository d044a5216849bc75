"""Coverage per package of ``belote``, gated by a floor per package.

``coverage report`` lists files; this prints one line per package folder (``belote/engine``,
``belote/rules``, ``belote/server`` ...; top-level modules under ``belote`` count as
``belote``) with statements, missed statements, percent and the package's floor.  The numba
kernels (``belote/engine/_kernels.py``) are a line of their own: only the run under
``NUMBA_DISABLE_JIT=1`` traces their bodies, so they would hide in the engine's figure.

The floors are written in one place, ``[tool.belote.coverage-floors]`` in pyproject.toml
(docs/dev/quality.md says how they are set).  With ``--check`` the script exits 1 when a
package is under its floor or has none, naming it: ``./scripts/test`` runs it so.
``--write-doc`` rewrites the coverage table of docs/dev/quality.md (floors and the figures
just measured) between its ``<!-- coverage-table -->`` markers.

    python scripts/coverage_packages.py [DATA_FILE] [--check] [--write-doc]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tomllib
from collections import defaultdict
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = ROOT / "pyproject.toml"
QUALITY = ROOT / "docs" / "dev" / "quality.md"
KERNELS = "belote/engine/_kernels.py"
BEGIN, END = "<!-- coverage-table: begin -->", "<!-- coverage-table: end -->"
ROW = re.compile(r"^\| `([^`]+)` \| (\d+) \|", re.MULTILINE)


def load_floors(pyproject: Path = PYPROJECT) -> dict[str, int]:
    """``{package: floor percent}`` from ``[tool.belote.coverage-floors]``."""
    config = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    floors = config["tool"]["belote"]["coverage-floors"]
    return {str(name): int(floor) for name, floor in floors.items()}


def package_of(path: Path, root: Path) -> str:
    parts = path.relative_to(root).parts
    if "/".join(parts) == KERNELS:
        return KERNELS
    # belote/engine/bidding/x.py counts under belote/engine; belote/x.py under belote.
    return "/".join(parts[:2]) if len(parts) > 2 else parts[0]


def summary(data_file: str) -> list[tuple[str, int, int]]:
    """``(package, statements, missed)`` per package, sorted by name."""
    import coverage  # the test extra's; imported here so that the doc helpers need none

    cov = coverage.Coverage(data_file=data_file)
    cov.load()
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for name in cov.get_data().measured_files():
        path = Path(name).resolve()
        try:
            package = package_of(path, ROOT)
        except ValueError:  # a file outside the checkout
            continue
        if not package.startswith("belote") or path.suffix != ".py":
            continue  # templates show up too (Jinja2 compiles them to code)
        _, statements, _, missing, _ = cov.analysis2(name)
        totals[package][0] += len(statements)
        totals[package][1] += len(missing)
    return sorted((package, n, miss) for package, (n, miss) in totals.items())


def percent(statements: int, missed: int) -> float:
    return 100 * (statements - missed) / statements if statements else 100.0


def failures(rows: list[tuple[str, int, int]], floors: dict[str, int]) -> list[str]:
    """What fails the gate: a package under its floor, measured without one, or not measured."""
    problems = []
    measured = {package for package, _, _ in rows}
    for package, statements, missed in rows:
        if package not in floors:
            problems.append(f"{package}: no floor in [tool.belote.coverage-floors] "
                            "(pyproject.toml)")
        elif percent(statements, missed) < floors[package]:
            problems.append(f"{package}: {percent(statements, missed):.1f}% is under its "
                            f"floor of {floors[package]}%")
    problems += [f"{package}: has a floor but was not measured"
                 for package in sorted(set(floors) - measured)]
    return problems


def print_table(rows: list[tuple[str, int, int]], floors: dict[str, int]) -> None:
    width = max([len("package"), *(len(row[0]) for row in rows)])
    print(f"{'package':<{width}}  {'stmts':>6}  {'miss':>6}  {'cover':>6}  {'floor':>5}")
    for package, statements, missed in rows:
        floor = f"{floors[package]}%" if package in floors else "none"
        print(f"{package:<{width}}  {statements:>6}  {missed:>6}  "
              f"{percent(statements, missed):5.1f}%  {floor:>5}")
    all_statements = sum(row[1] for row in rows)
    all_missed = sum(row[2] for row in rows)
    print(f"{'total':<{width}}  {all_statements:>6}  {all_missed:>6}  "
          f"{percent(all_statements, all_missed):5.1f}%")


def doc_block(text: str) -> str | None:
    """The generated block of quality.md (between the markers), or None."""
    match = re.search(re.escape(BEGIN) + r"\n(.*?)" + re.escape(END), text, re.DOTALL)
    return match.group(1) if match else None


def floors_of(block: str) -> dict[str, int]:
    """The floors a generated block shows, ``{package: floor}``."""
    return {package: int(floor) for package, floor in ROW.findall(block)}


def render_doc_block(rows: list[tuple[str, int, int]], floors: dict[str, int]) -> str:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                            capture_output=True, check=False).stdout.strip() or "unknown"
    measured = {package: percent(n, miss) for package, n, miss in rows}
    lines = [f"Written by `scripts/coverage_packages.py --write-doc` on {date.today()} "
             f"(commit {commit}) from the data of a full run (`./scripts/test` with no arguments "
             "leaves it in `.coverage`).", "",
             "| package | floor % | measured % |", "|---|---|---|"]
    for package in sorted(floors):
        figure = f"{measured[package]:.1f}" if package in measured else "not measured"
        lines.append(f"| `{package}` | {floors[package]} | {figure} |")
    return "\n".join(lines) + "\n"


def write_doc(rows: list[tuple[str, int, int]], floors: dict[str, int]) -> None:
    text = QUALITY.read_text(encoding="utf-8")
    if doc_block(text) is None:
        raise SystemExit(f"{QUALITY} lacks the markers {BEGIN} ... {END}")
    block = render_doc_block(rows, floors)
    new = re.sub(re.escape(BEGIN) + r"\n.*?" + re.escape(END),
                 lambda _: f"{BEGIN}\n{block}{END}", text, flags=re.DOTALL)
    QUALITY.write_text(new, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data_file", nargs="?", default=".coverage")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 when a package is under its floor (or has none)")
    parser.add_argument("--write-doc", action="store_true",
                        help="rewrite the coverage table of docs/dev/quality.md")
    args = parser.parse_args(argv)
    if not Path(args.data_file).exists():
        print(f"no coverage data in {args.data_file}", file=sys.stderr)
        return 1
    rows = summary(args.data_file)
    floors = load_floors()
    print_table(rows, floors)
    if args.write_doc:
        write_doc(rows, floors)
    if not args.check:
        return 0
    problems = failures(rows, floors)
    if problems:
        print("coverage gate failed (floors: [tool.belote.coverage-floors] in pyproject.toml):"
              "\n  " + "\n  ".join(problems), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
