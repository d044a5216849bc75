"""README.md's Layout and docs/dev/quality.md, checked against the tree.

The Layout block (the fenced block under ``## Layout``) names every directory under ``belote/``
(``__pycache__`` and the catalogs' language folders aside) and every module directly under
``belote/``, and names nothing the tree lacks.  A line starting with ``belote/...`` opens an
entry; in its description a word ending in ``/`` or ``.py`` is a path inside that entry; a
module line (``belote/cards.py notation.py``) names its siblings.  A line that does not start
with ``belote/`` names folders of the repository (words in parentheses: inside the word before).

quality.md: each command of its gates table exists (a script of the tree or a tool of the
test extra), and its coverage block is the one ``scripts/coverage_packages.py`` writes from
the floors (``[tool.belote.coverage-floors]`` in pyproject.toml).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from types import ModuleType

from tests.file_modules import load_file

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "belote"
README = ROOT / "README.md"
QUALITY = ROOT / "docs" / "dev" / "quality.md"
WORD = re.compile(r"[\w.\-/]+")
# Commands that are not named as their package is (the test extra names packages).
CONSOLE_SCRIPTS = {"lint-imports": "import-linter"}


def layout_block() -> list[str]:
    text = README.read_text(encoding="utf-8")
    match = re.search(r"^## Layout\n.*?^```\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    assert match, "README.md has no ```-fenced block under '## Layout'"
    return match.group(1).splitlines()


def tree_names() -> set[str]:
    """What the Layout must name: the directories under belote/, the top-level modules."""
    names = {"belote/"}
    for path in PACKAGE.rglob("*"):
        relative = path.relative_to(ROOT)
        in_language_folder = relative.parts[:3] == ("belote", "i18n", "locale") \
            and len(relative.parts) > 3
        if "__pycache__" in relative.parts or in_language_folder:
            continue
        if path.is_dir():
            names.add(f"{relative.as_posix()}/")
    names.update(f"belote/{p.name}" for p in PACKAGE.glob("*.py")
                 if p.name not in {"__init__.py", "__main__.py"})
    return names


def paths_in_entry(base: str, text: str) -> set[str]:
    """The paths a description names inside ``base``: its words ending in / or .py."""
    return {base + word.strip(".,;:()") for word in WORD.findall(text)
            if word.rstrip(".,;:()").endswith(("/", ".py")) and not word.startswith("belote/")}


def layout_names() -> tuple[set[str], set[str]]:
    """(names under belote/, names of other folders of the repository) in the Layout block."""
    named: set[str] = set()
    others: set[str] = set()
    base = ""
    for line in layout_block():
        head, _, rest = line.partition(" ")
        if head.startswith("belote/"):
            if head.endswith(".py"):  # a line of modules: the siblings follow
                base = head.rsplit("/", 1)[0] + "/"
                named.add(head)
                words = WORD.findall(rest)
                named.update(base + w for w in words if w.endswith(".py"))
                continue
            base = head
            named.add(head)
            named |= paths_in_entry(base, rest)
        elif line.startswith(" ") and base:
            named |= paths_in_entry(base, line)
        elif line.strip():
            base = ""
            outside = re.sub(r"\(.*?\)", "", line)
            for folder, inside in re.findall(r"([\w.\-/]+)\s*(?:\(([^)]*)\))?", line):
                if folder in outside.split():
                    others.add(folder)
                    others.update(folder + w for w in re.findall(r"[\w.\-/]+/", inside))
    # A path named implies its folders (belote/oracles/colver/ names belote/oracles/).
    for name in list(named):
        parts = name.rstrip("/").split("/")
        named.update("/".join(parts[:i]) + "/" for i in range(1, len(parts)))
    return named, others


def test_the_layout_names_every_package_and_module_folder_of_the_tree() -> None:
    named, _ = layout_names()
    unnamed = sorted(tree_names() - named)
    assert not unnamed, (
        "README.md's Layout (the block under '## Layout') does not name these, which the tree "
        f"has: {', '.join(unnamed)}.  Add each to its package's line (a folder as 'name/', a "
        "module under belote/ as 'name.py').")


def test_the_layout_names_nothing_the_tree_lacks() -> None:
    named, others = layout_names()
    stale = sorted(n for n in named | others if not (ROOT / n).exists())
    assert not stale, (
        f"README.md's Layout names what the tree lacks: {', '.join(stale)}.  Remove or rename "
        "them in the block under '## Layout'.")


def load_script(name: str) -> ModuleType:
    return load_file(ROOT / "scripts" / f"{name}.py")


def gates_commands() -> list[str]:
    """The first backticked command of each row of quality.md's gates table."""
    text = QUALITY.read_text(encoding="utf-8")
    table = text.split("| gate |", 1)[1].split("\n\n", 1)[0]
    rows = [line for line in table.splitlines()[2:] if line.startswith("|")]
    return [re.findall(r"`([^`]+)`", row.split("|")[2])[0] for row in rows]


def test_every_command_of_quality_md_exists() -> None:
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    tools = {re.split(r"[<>=\[ ]", dep)[0] for dep in
             extra["project"]["optional-dependencies"]["test"]}
    commands = gates_commands()
    assert len(commands) >= 6
    for command in commands:
        words = [w for w in command.split() if "=" not in w]  # VAR=value set first
        program = words[0]
        if "/" in program:
            assert (ROOT / program).is_file(), f"quality.md runs {program}, not in the tree"
        else:
            program = CONSOLE_SCRIPTS.get(program, program)
            assert program in tools | {"python"}, (
                f"quality.md runs {program!r}, which the test extra does not install")
        for word in words[1:]:
            if word.startswith(("scripts/", "tests/", "./scripts/")) and "::" not in word:
                assert (ROOT / word).exists(), f"quality.md names {word}, not in the tree"


def test_quality_md_shows_the_floors_that_gate_the_run() -> None:
    coverage_packages = load_script("coverage_packages")
    text = QUALITY.read_text(encoding="utf-8")
    written = coverage_packages.doc_block(text)
    assert written is not None, "quality.md lacks the block scripts/coverage_packages.py writes"
    assert coverage_packages.floors_of(written) == coverage_packages.load_floors(), (
        "quality.md's coverage table and the floors of pyproject.toml differ: run "
        "`python scripts/coverage_packages.py --write-doc` after a full ./scripts/test")


def test_every_package_has_a_coverage_floor() -> None:
    coverage_packages = load_script("coverage_packages")
    packages = {"belote"} | {f"belote/{p.name}" for p in PACKAGE.iterdir()
                             if (p / "__init__.py").exists()}
    packages.add(coverage_packages.KERNELS)  # a line of its own (the twin run traces it)
    floors = coverage_packages.load_floors()
    assert set(floors) == packages, (
        "[tool.belote.coverage-floors] in pyproject.toml and the packages of belote/ differ: "
        f"without a floor {sorted(packages - set(floors))}, "
        f"not a package {sorted(set(floors) - packages)}")


def test_the_gate_names_a_package_under_its_floor_without_one_or_not_measured() -> None:
    coverage_packages = load_script("coverage_packages")
    rows = [("belote/engine", 200, 10), ("belote/rules", 100, 5), ("belote/new", 10, 0)]
    problems = coverage_packages.failures(rows, {"belote/engine": 96, "belote/rules": 95,
                                                 "belote/gone": 90})
    assert problems == [
        "belote/engine: 95.0% is under its floor of 96%",
        "belote/new: no floor in [tool.belote.coverage-floors] (pyproject.toml)",
        "belote/gone: has a floor but was not measured",
    ]
