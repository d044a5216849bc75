"""Summarise the coverage data file (``.coverage``) per package of ``belote``.

``coverage report`` lists files; this prints one line per package folder (``belote/engine``,
``belote/rules``, ``belote/server`` ...; top-level modules under ``belote``) with statements,
missed statements and percent, then the total.  Reports only; it fails nobody.

    python scripts/coverage_packages.py [DATA_FILE]
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

import coverage


def package_of(path: Path, root: Path) -> str:
    parts = path.relative_to(root).parts
    # belote/engine/bidding/x.py counts under belote/engine; belote/x.py under belote.
    return "/".join(parts[:2]) if len(parts) > 2 else parts[0]


def summary(data_file: str) -> list[tuple[str, int, int]]:
    cov = coverage.Coverage(data_file=data_file)
    cov.load()
    root = Path.cwd()
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for name in cov.get_data().measured_files():
        path = Path(name).resolve()
        try:
            package = package_of(path, root)
        except ValueError:  # a file outside the checkout
            continue
        if not package.startswith("belote") or path.suffix != ".py":
            continue  # templates show up too (Jinja2 compiles them to code)
        _, statements, _, missing, _ = cov.analysis2(name)
        totals[package][0] += len(statements)
        totals[package][1] += len(missing)
    return sorted((package, n, miss) for package, (n, miss) in totals.items())


def percent(statements: int, missed: int) -> str:
    return f"{100 * (statements - missed) / statements:5.1f}%" if statements else "  n/a"


def main() -> None:
    data_file = sys.argv[1] if len(sys.argv) > 1 else ".coverage"
    if not Path(data_file).exists():
        print(f"no coverage data in {data_file}", file=sys.stderr)
        raise SystemExit(1)
    rows = summary(data_file)
    width = max([len("package"), *(len(row[0]) for row in rows)])
    print(f"{'package':<{width}}  {'stmts':>6}  {'miss':>6}  {'cover':>6}")
    for package, statements, missed in rows:
        print(f"{package:<{width}}  {statements:>6}  {missed:>6}  {percent(statements, missed):>6}")
    all_statements = sum(row[1] for row in rows)
    all_missed = sum(row[2] for row in rows)
    print(f"{'total':<{width}}  {all_statements:>6}  {all_missed:>6}  "
          f"{percent(all_statements, all_missed):>6}")


if __name__ == "__main__":
    main()
