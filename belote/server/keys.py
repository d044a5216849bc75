"""The table's keyboard: one binding table drives both the key handler and the F1 list.

The seed's room (seed 002, "Resumen de los atajos de teclado") gives Enter, C, A, F, S and
Space; we add the hand's arrows, L (the last trick), H (the hand), F1 (this list), the
information keys (T turned card and bids, O contract, P points, W last trick's winner, Y your
team, U hand by suit), N (next playable card), B (what you may bid), D (declare), G (the bid
box), the history of announcements (comma back, period forward, R repeat; less-than and
greater-than change its category: all, cards played, bids, tricks, scores, chat; on a US
keyboard they are Shift+comma and Shift+period, on the Italian, Spanish and French ones the
key beside the left Shift) and V (the pace of the moves heard, and the announcements'
length: the table settings' fields).  The web
client receives this table as JSON and dispatches on it, and the help dialog is rendered from
it, so the two can never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from belote.i18n import translate


@dataclass(frozen=True, slots=True)
class Binding:
    keys: tuple[str, ...]  # KeyboardEvent.key values
    command: str
    scope: str = "table"  # table: anywhere on the table; hand: while the hand has focus


BINDINGS: tuple[Binding, ...] = (
    Binding(("Enter",), "play"),
    Binding(("c", "C"), "table"),
    Binding(("a", "A"), "trump"),
    Binding(("f", "F"), "lead"),
    Binding(("s", "S"), "scores"),
    Binding((" ",), "belote"),
    Binding(("l", "L"), "last_trick"),
    Binding(("h", "H"), "hand"),
    Binding(("t", "T"), "bidding"),
    Binding(("o", "O"), "contract"),
    Binding(("p", "P"), "points"),
    Binding(("w", "W"), "winner"),
    Binding(("y", "Y"), "team"),
    Binding(("u", "U"), "summary"),
    Binding(("n", "N"), "next_playable"),
    Binding(("b", "B"), "choices"),
    Binding(("d", "D"), "declare"),
    Binding(("g", "G"), "bid_box"),
    Binding((",",), "history_back"),
    Binding((".",), "history_forward"),
    Binding(("<",), "history_category_back"),
    Binding((">",), "history_category_forward"),
    Binding(("r", "R"), "repeat"),
    Binding(("v", "V"), "pace"),
    Binding(("F1",), "help"),
    Binding(("ArrowRight", "ArrowLeft"), "move", "hand"),
    Binding(("ArrowDown", "ArrowUp"), "suit", "hand"),
    Binding(("Home", "End"), "ends", "hand"),
)


def key_label(key: str, lang: str) -> str:
    names = {" ": "space", "Enter": "enter", "F1": "f1", "ArrowRight": "right",
             "ArrowLeft": "left", "ArrowDown": "down", "ArrowUp": "up", "Home": "home",
             "End": "end", ",": "comma", ".": "period", "<": "less", ">": "greater"}
    if key in names:
        return translate(lang, f"web.key.{names[key]}")
    return key.upper()


def bindings_for_client() -> list[dict[str, Any]]:
    return [{"keys": list(b.keys), "command": b.command, "scope": b.scope} for b in BINDINGS]


def help_rows(lang: str) -> list[tuple[str, str]]:
    """(keys, what they do) for the F1 list, in ``lang``."""
    rows = []
    for binding in BINDINGS:
        labels: list[str] = []
        for key in binding.keys:
            label = key_label(key, lang)
            if label not in labels:
                labels.append(label)
        rows.append((" / ".join(labels), translate(lang, f"web.keys.{binding.command}")))
    return rows
