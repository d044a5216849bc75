"""docs/tournaments.md's "A tournament day, step by step" and its pictures agree.

The pictures are made by scripts/tournament_day_screenshots.py (too slow for the suite: a
live room and Chromium for the whole day); this checks, without running it, that the docs
link exactly the pictures the script writes (its ``SHOTS``, read from its source), in its
order, each with an alt text, each present in docs/img and none left over, and that the
page's links to its own sections lead to a heading.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "tournaments.md"
IMG = ROOT / "docs" / "img"
SCRIPT = ROOT / "scripts" / "tournament_day_screenshots.py"
DAY_IMAGE = re.compile(r"!\[([^\]]*)\]\(img/(day-[^)]+)\.png\)")
ANCHOR = re.compile(r"\]\(#([^)]+)\)")
MAX_BYTES = 2_000_000  # the day's pictures together


def script_shots() -> list[str]:
    """The script's ``SHOTS`` tuple, read from its source (importing it needs Playwright)."""
    for node in ast.parse(SCRIPT.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
                isinstance(target, ast.Name) and target.id == "SHOTS" for target in node.targets):
            return list(ast.literal_eval(node.value))
    raise AssertionError(f"{SCRIPT} has no SHOTS")


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces -."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_the_docs_show_the_script_s_pictures_in_its_order() -> None:
    linked = DAY_IMAGE.findall(DOC.read_text(encoding="utf-8"))
    assert [name for _alt, name in linked] == script_shots()
    for alt, name in linked:
        assert len(alt.split()) >= 3, f"{name}.png needs an alt text that says what it shows"


def test_every_picture_of_the_day_is_in_docs_img_and_none_is_left_over() -> None:
    shots = script_shots()
    on_disk = sorted(path.stem for path in IMG.glob("day-*.png"))
    assert on_disk == sorted(shots), "rerun scripts/tournament_day_screenshots.py"
    size = sum((IMG / f"{name}.png").stat().st_size for name in shots)
    assert size < MAX_BYTES, f"the day's pictures weigh {size} bytes"


def test_the_links_to_sections_lead_to_a_heading() -> None:
    text = DOC.read_text(encoding="utf-8")
    headings = {slug(line.lstrip("#")) for line in text.splitlines() if line.startswith("#")}
    missing = sorted(set(ANCHOR.findall(text)) - headings)
    assert not missing, f"links to no heading of {DOC.name}: {missing}"
