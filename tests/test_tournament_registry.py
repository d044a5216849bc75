"""Tournament formats as strategies in a registry (belote.tournament.formats): a format of a
test's own runs through registration, draw, results and standings with no other module
touched; no format's name is tested outside the registry; an unknown name is refused."""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from belote.i18n import LANGUAGES, has_message
from belote.tournament.events import Event, Tournament
from belote.tournament.formats import (
    Column,
    Draw,
    TournamentFormat,
    draw,
    find_format,
    format_names,
    register,
    unregister,
)
from belote.tournament.model import Settings, TournamentError
from belote.tournament.records import Line
from belote.tournament.results import judge
from belote.tournament.standings import standings
from belote.tournament.view import TournamentView

ROOT = Path(__file__).resolve().parents[1] / "belote"
FORMATS_DIR = ROOT / "tournament" / "formats"


# ---------------------------------------------------------------- a format of the test's own
class Ladder(TournamentFormat):
    """A toy: pairs, no check-in, the entrants paired in registration order (1-2, 3-4, ...;
    an odd last one sits out), a won game scores 3 and a lost one 0, two rounds whatever the
    settings say, and the standings show the wins and the points."""

    name = "toy_ladder"
    has_check_in = False
    standings_columns = (Column("tournament.web.col.wins", lambda line: _wins(line)),
                         Column("tournament.web.col.points", lambda line: line.total))

    def pair(self, t: TournamentView, rng: random.Random) -> Draw:
        order = sorted(t.entrants)
        if len(order) < 2:
            raise TournamentError("too_few", count=2)
        byes = [order.pop()] if len(order) % 2 else []
        return Draw([((a,), (b,)) for a, b in zip(order[::2], order[1::2], strict=True)], byes)

    def is_complete(self, t: TournamentView) -> bool:
        return len(t.rounds) >= 2

    def check_settings(self, data: Mapping[str, Any]) -> None:
        if data.get("rank_by") == "wins":
            raise TournamentError("bad_rank_by")

    def game_scores(self, settings: Settings, totals: tuple[int, int],
                    winner: int | None) -> tuple[int, int]:
        return (3, 0) if winner == 0 else (0, 3) if winner == 1 else (1, 1)


def _wins(line: Line) -> object:
    return line.record.wins if line.record is not None else ""


@pytest.fixture
def ladder() -> Iterator[TournamentFormat]:
    fmt = register(Ladder())
    try:
        yield fmt
    finally:
        unregister(fmt.name)


def _created(fmt: str, **kw: object) -> Tournament:
    data: dict[str, object] = {"name": "Toy", "format": fmt, "preset": "classic",
                               "target": 1000, "rounds": 5, "rank_by": "points"}
    data.update(kw)
    t = Tournament()
    t.do(Event("created", data, "org"))
    return t


def test_a_format_registered_by_a_test_runs_a_whole_tournament(ladder: TournamentFormat
                                                                ) -> None:
    assert "toy_ladder" in format_names() and find_format("toy_ladder") is ladder
    t = _created("toy_ladder")
    assert t.fmt is ladder
    for n in range(5):  # not checked in: this format has no check-in
        t.do(Event("registered", {"entrants": [{"players": [f"P{n}", f"Q{n}"]}]}))
    for _ in range(2):
        t.do(draw(t, random.Random(1)))
        assert t.current is not None
        assert [g.sides for g in t.current.games] == [((1,), (2,)), ((3,), (4,)), ((5,),)]
        for game in t.current.games:
            if not game.bye:
                t.do(Event("result", {"game": game.id, "totals": [1000, 600],
                                      "source": "entry"}))
        t.do(Event("closed", {"round": t.current.number}))
    assert t.complete and t.state == "finished"  # two rounds, though the settings say 5
    with pytest.raises(TournamentError, match="tournament_over"):
        draw(t, random.Random(1))
    result = t.game(1).result
    assert result is not None and result.scores == (3, 0) and result.totals == (1000, 600)
    lines = standings(t)
    assert [(line.place, line.name, line.total) for line in lines][:2] == [
        (1, "P0 & Q0", 6), (1, "P2 & Q2", 6)]
    assert [column.cell(lines[0]) for column in ladder.standings_columns] == [2, 6]


def test_a_registered_format_answers_the_console_and_the_checks(ladder: TournamentFormat
                                                                 ) -> None:
    assert ladder.entry_prefixes == ("a_",) and list(ladder.player_numbers) == [1, 2]
    with pytest.raises(TournamentError, match="bad_rank_by"):  # its own settings check
        _created("toy_ladder", rank_by="wins")
    t = _created("toy_ladder")
    t.do(Event("registered", {"entrants": [{"players": ["A", "B"]}]}))
    assert ladder.adjustment_subjects(t) == ["A & B"]
    assert judge(t.s, [400, 1000], "entry").scores == (0, 3)
    assert judge(t.s, [400, 1000], "entry").winner == 1


def test_the_four_formats_are_found_from_their_modules_the_default_first() -> None:
    assert format_names() == ["pinasca", "concours", "melee", "double_elimination"]
    modules = {p.stem for p in FORMATS_DIR.glob("*.py") if not p.stem.startswith("_")}
    assert modules == set(format_names())


def test_every_format_has_its_name_in_every_language() -> None:
    for name in format_names():
        for lang in LANGUAGES:
            assert has_message(lang, f"tournament.format.{name}"), (name, lang)


# ---------------------------------------------------------------- names and refusals
def test_an_unknown_format_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(TournamentError) as info:
        _created("swiss")
    assert info.value.code == "bad_format"
    assert info.value.values["formats"] == "pinasca, concours, melee, double_elimination"
    with pytest.raises(TournamentError, match="bad_format"):
        find_format("swiss")
    with pytest.raises(TournamentError, match="bad_format"):
        _created(["pinasca"])  # type: ignore[arg-type]


def test_a_stored_tournament_of_a_format_no_longer_registered_says_so(ladder: TournamentFormat
                                                                      ) -> None:
    t = _created("toy_ladder")
    unregister("toy_ladder")
    with pytest.raises(TournamentError, match="bad_format"):
        standings(t)
    register(ladder)  # for the fixture's unregister


@pytest.mark.parametrize("name", ["", "Swiss", "1st", "a-b", "x" * 25])
def test_a_format_name_must_fit_the_store_and_the_catalog_keys(name: str) -> None:
    fmt = Ladder()
    fmt.name = name
    with pytest.raises(ValueError, match="name"):
        register(fmt)


def test_a_format_cannot_be_registered_twice() -> None:
    with pytest.raises(ValueError, match="twice"):
        register(find_format("concours"))


# ---------------------------------------------------------------- no format name outside
def _python_files() -> list[Path]:
    return [p for p in ROOT.rglob("*.py") if FORMATS_DIR not in p.parents]


def _names_a_format(node: ast.expr) -> bool:
    """``x.format``, ``fmt``, ``format``: what holds a format's name."""
    if isinstance(node, ast.Attribute):
        return node.attr == "format"
    return isinstance(node, ast.Name) and node.id in ("format", "fmt")


def _is_a_format_name(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return node.value in format_names()
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_is_a_format_name(item) for item in node.elts)
    return False


def _format_tests(tree: ast.AST) -> Iterator[int]:
    """The lines that compare a format (``x.format``, ``fmt``) with a literal, or anything
    with a format's name."""
    tests = (ast.Eq, ast.NotEq, ast.In, ast.NotIn)
    literal = ast.Constant | ast.Tuple | ast.List | ast.Set
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(isinstance(op, tests) for op in node.ops):
            operands = [node.left, *node.comparators]
            by_format = (any(_names_a_format(o) for o in operands)
                         and any(isinstance(o, literal) for o in operands))
            if by_format or any(_is_a_format_name(o) for o in operands):
                yield node.lineno


def test_no_python_module_outside_the_registry_tests_a_format_name() -> None:
    found = [f"{p.relative_to(ROOT.parent)}:{line}" for p in _python_files()
             for line in _format_tests(ast.parse(p.read_text(encoding="utf-8")))]
    assert found == []


def test_no_format_name_is_written_as_a_string_outside_the_registry() -> None:
    # "pinasca" is also a preset (belote.rules), so only the names that are formats alone.
    only_formats = set(format_names()) - {"pinasca"}
    found = [f"{p.relative_to(ROOT.parent)}:{node.lineno}"
             for p in _python_files() for node in ast.walk(ast.parse(p.read_text("utf-8")))
             if isinstance(node, ast.Constant) and node.value in only_formats]
    assert found == []


FORMAT_TEST = re.compile(r"\b(format|fmt)\s*(==|!=|\bin\b|\bnot\s+in\b)")


def test_no_template_tests_a_format_name() -> None:
    names = "|".join(format_names())
    quoted_only_formats = re.compile(
        rf"""["']({"|".join(set(format_names()) - {"pinasca"})})["']""")
    compared = re.compile(rf"""\bformat\b[^%}}]*(==|!=)\s*["']({names})["']""")
    found = []
    for path in (ROOT / "server" / "templates").glob("*.html"):
        for number, text in enumerate(path.read_text("utf-8").splitlines(), 1):
            if (FORMAT_TEST.search(text) or quoted_only_formats.search(text)
                    or compared.search(text)):
                found.append(f"{path.name}:{number}")
    assert found == []


def test_the_guards_catch_what_they_guard_against() -> None:
    for source in ('if t.s.format == "pinasca": pass', 'x = fmt != "melee"',
                   'ok = settings.format in ("concours", "melee")',
                   'y = "double_elimination" == name'):
        assert list(_format_tests(ast.parse(source))), source
    assert not list(_format_tests(ast.parse('ok = data.get("format") != FORMAT')))
    for text in ('{% if s.format == "pinasca" %}', '{% if s.format != "melee" %}',
                 '{% if fmt in ["concours"] %}'):
        assert FORMAT_TEST.search(text), text


def test_the_formats_import_nothing_that_imports_them() -> None:
    # The tournament asks its format; a format reads the tournament through TournamentView
    # (belote.tournament.view): no import runs back up, so there is no circle.
    above = {"belote.tournament.events", "belote.tournament.standings",
             "belote.tournament.results", "belote.tournament.text", "belote.tournament.export",
             "belote.tournament.sheets"}
    below = [*FORMATS_DIR.glob("*.py"),
             *(ROOT / "tournament" / f"{m}.py" for m in ("records", "view", "model", "pairing"))]
    for path in below:
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom):
                assert node.module not in above, (path.name, node.module)
