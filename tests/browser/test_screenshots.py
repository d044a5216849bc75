"""scripts/screenshots.py keeps working: it writes the docs' pictures (the table's layout too)."""

from __future__ import annotations

import struct
from pathlib import Path
from types import ModuleType

from playwright.sync_api import Browser

from tests.file_modules import load_file

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "screenshots.py"


def load_script() -> ModuleType:
    return load_file(SCRIPT)


def png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    width, height = struct.unpack(">II", header[16:24])
    return width, height


def test_the_screenshot_script_writes_the_lobby_and_a_table(
        browser: Browser, base_url: str, tmp_path: Path) -> None:
    paths = load_script().take_screenshots(browser, base_url, tmp_path)
    assert [p.name for p in paths] == ["lobby.png", "table.png", "table-phone.png",
                                       "table-dark.png", "table-contrast.png",
                                       "table-zoom400.png", "table-auction.png"]
    for path in paths:
        width, height = png_size(path)
        assert width >= 640 and height >= 640, (path, width, height)


def test_the_screenshot_script_writes_the_tables_layout_at_both_sizes(
        browser: Browser, base_url: str, tmp_path: Path) -> None:
    script = load_script()
    paths = script.take_layout_screenshots(browser, base_url, tmp_path, ("valdostana3",))
    assert [p.name for p in paths] == [
        f"table-valdostana3-{phase}-{size}.png" for phase in ("auction", "play")
        for size in ("1280x800", "390x844")]
    for path in paths:
        assert png_size(path) in ((1280, 800), (390, 844)), path
