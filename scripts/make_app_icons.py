"""Draw the room's app icons (the web app manifest's): a playing card with a heart on the
green felt, as PNG files, with nothing but the standard library (zlib), so that the same
script gives the same bytes on any machine.

    python scripts/make_app_icons.py [FOLDER]   (default: belote/server/static/icons)

Writes ``icon-192.png`` and ``icon-512.png`` (purpose "any": a rounded felt, transparent
corners) and ``icon-maskable-512.png`` (purpose "maskable": the felt to the edges, the card
inside the safe zone that every mask keeps, the centred circle of radius 40 % of the size).
Each pixel is the mean of 4x4 samples (smooth edges).  The committed icons are this script's
output: run it again after changing it, and commit both.
"""

from __future__ import annotations

import struct
import sys
import zlib
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "belote" / "server" / "static" / "icons"
# The room's colours (belote/server/static/sala.css): the felt, a card, its edge, hearts.
FELT = (0x1D, 0x5E, 0x3A)
CARD = (0xFF, 0xFF, 0xFF)
EDGE = (0x33, 0x33, 0x33)
RED = (0xB0, 0x00, 0x00)
SAMPLES = 4  # per side: 16 samples a pixel
Colour = tuple[int, int, int, int]


def rounded_box(x: float, y: float, cx: float, cy: float, half_w: float, half_h: float,
                radius: float) -> bool:
    """Whether (x, y) lies in the box centred on (cx, cy) with rounded corners."""
    dx = max(abs(x - cx) - (half_w - radius), 0.0)
    dy = max(abs(y - cy) - (half_h - radius), 0.0)
    return abs(x - cx) <= half_w and abs(y - cy) <= half_h and dx * dx + dy * dy <= radius ** 2


def heart(x: float, y: float, cx: float, cy: float, size: float) -> bool:
    """Whether (x, y) lies in a heart of width about ``size`` centred on (cx, cy): the
    curve (u² + v² - 1)³ <= u² v³."""
    u = (x - cx) / (size / 2.3)
    v = -(y - cy) / (size / 2.3) + 0.15
    return (u * u + v * v - 1) ** 3 - u * u * v ** 3 <= 0


def painter(size: int, maskable: bool) -> Callable[[float, float], Colour]:
    """The colour at a point of the icon (in pixels, 0 to ``size``)."""
    c = size / 2
    scale = 0.62 if maskable else 0.80  # the card within the safe zone of a maskable icon
    card_h = size * scale * 0.78
    card_w = card_h * 0.70
    edge = max(size / 96, 1.0)

    def paint(x: float, y: float) -> Colour:
        if not maskable and not rounded_box(x, y, c, c, c, c, size * 0.18):
            return (0, 0, 0, 0)
        if rounded_box(x, y, c, c, card_w / 2, card_h / 2, card_w * 0.12):
            if not rounded_box(x, y, c, c, card_w / 2 - edge, card_h / 2 - edge,
                               card_w * 0.12 - edge):
                return (*EDGE, 255)
            if heart(x, y, c, c, card_w * 0.72):
                return (*RED, 255)
            return (*CARD, 255)
        return (*FELT, 255)

    return paint


def pixels(size: int, maskable: bool) -> list[bytes]:
    """The icon's rows, RGBA, each the mean of SAMPLES x SAMPLES points per pixel."""
    paint = painter(size, maskable)
    offsets = [(i + 0.5) / SAMPLES for i in range(SAMPLES)]
    rows = []
    for py in range(size):
        row = bytearray()
        for px in range(size):
            total = [0, 0, 0, 0]
            for oy in offsets:
                for ox in offsets:
                    r, g, b, a = paint(px + ox, py + oy)
                    total[0] += r * a
                    total[1] += g * a
                    total[2] += b * a
                    total[3] += a
            alpha = total[3]
            if alpha == 0:
                row += b"\0\0\0\0"
                continue
            # Colours weighted by their coverage (no dark fringe at a transparent edge).
            row += bytes((round(total[0] / alpha), round(total[1] / alpha),
                          round(total[2] / alpha), round(alpha / SAMPLES ** 2)))
        rows.append(bytes(row))
    return rows


def png(size: int, rows: list[bytes]) -> bytes:
    """A PNG file: 8-bit RGBA, no filter, zlib level 9 (deterministic)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    raw = b"".join(b"\0" + row for row in rows)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


ICONS = {"icon-192.png": (192, False), "icon-512.png": (512, False),
         "icon-maskable-512.png": (512, True)}


def main(folder: Path = FOLDER) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, (size, maskable) in ICONS.items():
        (folder / name).write_bytes(png(size, pixels(size, maskable)))
        print(f"{folder / name}: {size}x{size}{' maskable' if maskable else ''}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else FOLDER)
