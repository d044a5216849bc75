"""One player's table settings, kept in the session (a guest's or an account's): the pace of
the moves they hear, which categories are spoken, the sound cues, the colours, and the order
of the hand.

The server enforces the limits: a bad value is refused with a message and changes nothing,
and a stored value that is no longer valid reads as the default (never an error page).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

PACE_MIN = 0.0  # seconds: 0 hears the moves as fast as the table plays them
PACE_MAX = 3.0
# The pause a player hears between moves until they choose their own (the room's setting
# ``Settings.default_pace``; benchmarks/speech_pace.py measures it: docs/room.md, "Pace").
DEFAULT_PACE = 2.0
CATEGORIES = ("plays", "bids", "tricks", "scores", "chat", "lobby")
VOLUME_MAX = 100
THEMES = ("light", "dark", "contrast")
DECKS = ("two", "four")  # two colours (red, black) or four (hearts red, diamonds blue, ...)
# The orders a hand may be sorted in, named by their suits' letters (Suit: hearts 0, diamonds
# 1, clubs 2, spades 3): the cards' own order (the default), the colours alternating (no two
# red suits side by side), and bridge's order.  Within a suit the ranks keep their order.
SUIT_ORDERS: dict[str, tuple[int, ...]] = {"hdcs": (0, 1, 2, 3), "hcds": (0, 2, 1, 3),
                                           "shdc": (3, 0, 1, 2)}
DEFAULT_SUITS = "hdcs"


class SettingsError(ValueError):
    """A setting out of its limits; ``code`` names the ``error.web.*`` message."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True, slots=True)
class PlayerSettings:
    pace: float = DEFAULT_PACE  # seconds at least between two moves this player hears
    speak: tuple[str, ...] = CATEGORIES  # categories said aloud (all are shown in the log)
    sounds: bool = False
    volume: int = 50  # 0..100
    theme: str = "light"
    deck: str = "two"
    suits: str = DEFAULT_SUITS  # the hand's suit order (SUIT_ORDERS)
    trump_first: bool = False  # the trump suit leads the hand, once it is known

    def to_session(self) -> dict[str, Any]:
        return {"pace": self.pace, "speak": list(self.speak), "sounds": self.sounds,
                "volume": self.volume, "theme": self.theme, "deck": self.deck,
                "suits": self.suits, "trump_first": self.trump_first}

    def to_json(self) -> str:
        data = asdict(self)
        data["speak"] = list(self.speak)
        return json.dumps(data)


def _pace(text: str) -> float:
    try:
        pace = float(text.strip().replace(",", "."))
    except ValueError:
        raise SettingsError("bad_pace") from None
    if not math.isfinite(pace) or not PACE_MIN <= pace <= PACE_MAX:
        raise SettingsError("bad_pace")
    return round(pace, 2)


def _volume(text: str) -> int:
    try:
        volume = int(text.strip())
    except ValueError:
        raise SettingsError("bad_volume") from None
    if not 0 <= volume <= VOLUME_MAX:
        raise SettingsError("bad_volume")
    return volume


def _checked(box: str | None) -> bool:
    return box in ("on", "1", "true")


def from_form(pace: str, speak: list[str], sounds: str | None, volume: str,
              theme: str = "light", deck: str = "two", suits: str = DEFAULT_SUITS,
              trump_first: str | None = None) -> PlayerSettings:
    """The settings a preferences form asks for; raises :class:`SettingsError` if any is out
    of its limits."""
    unknown = [c for c in speak if c not in CATEGORIES]
    if unknown:
        raise SettingsError("bad_category")
    if theme not in THEMES:
        raise SettingsError("bad_theme")
    if deck not in DECKS:
        raise SettingsError("bad_deck")
    if suits not in SUIT_ORDERS:
        raise SettingsError("bad_suit_order")
    return PlayerSettings(_pace(pace), tuple(c for c in CATEGORIES if c in speak),
                          _checked(sounds), _volume(volume), theme, deck, suits,
                          _checked(trump_first))


def from_session(data: Mapping[str, Any] | None,
                 default_pace: float = DEFAULT_PACE) -> PlayerSettings:
    """The stored settings, or the defaults for anything missing or no longer valid (the
    pace: the room's ``default_pace``)."""
    if not isinstance(data, Mapping):
        return PlayerSettings(pace=default_pace)
    try:
        speak = data.get("speak", list(CATEGORIES))
        if not isinstance(speak, list) or not all(isinstance(c, str) for c in speak):
            raise SettingsError("bad_category")
        return from_form(str(data.get("pace", default_pace)), speak,
                         "on" if data.get("sounds") is True else None,
                         str(data.get("volume", 50)), str(data.get("theme", "light")),
                         str(data.get("deck", "two")), str(data.get("suits", DEFAULT_SUITS)),
                         "on" if data.get("trump_first") is True else None)
    except SettingsError:
        return PlayerSettings(pace=default_pace)
