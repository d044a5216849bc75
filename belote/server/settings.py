"""One player's settings: the table settings (the pace of the moves they hear, which
categories are spoken, the sound cues, the colours, the order of the hand, self-voicing and
its rate) and, with them, the language and the length of the announcements
(:class:`Preferences`).

Where they are kept (a device's cookie, the account's row) and which apply is
:mod:`belote.server.settings_sources`; this module is the values alone, without I/O.

The server enforces the limits: a bad value is refused with a message and changes nothing,
and a stored value that is no longer valid reads as the default (never an error page).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any, Literal

from belote.i18n import LANGUAGES
from belote.i18n.announce import VERBOSITIES

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
# Self-voicing (the page speaks its live announcements through the browser's speech
# synthesis, for low-vision players without a screen reader): its rate, in percent of the
# voice's normal rate, in steps of VOICE_RATE_STEP.
VOICE_RATE_MIN, VOICE_RATE_MAX, VOICE_RATE_STEP = 50, 200, 25
# The version of the stored form of :class:`Preferences` (a device's cookie, an account's
# row): a value of another version reads as nothing stored (the defaults, never an error).
FORMAT = 1
# Where the settings in force come from: the device's own (chosen for it alone, or a guest's),
# the account's, or nobody chose any (the room's defaults).
Source = Literal["device", "account", "defaults"]


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
    # Off by default: with a screen reader, self-voicing would say everything twice.
    voice: bool = False
    voice_rate: int = 100  # percent of the voice's normal rate

    def to_session(self) -> dict[str, Any]:
        return {"pace": self.pace, "speak": list(self.speak), "sounds": self.sounds,
                "volume": self.volume, "theme": self.theme, "deck": self.deck,
                "suits": self.suits, "trump_first": self.trump_first,
                "voice": self.voice, "voice_rate": self.voice_rate}

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


def _voice_rate(text: str) -> int:
    try:
        rate = int(text.strip())
    except ValueError:
        raise SettingsError("bad_voice_rate") from None
    if not VOICE_RATE_MIN <= rate <= VOICE_RATE_MAX or rate % VOICE_RATE_STEP:
        raise SettingsError("bad_voice_rate")
    return rate


def _checked(box: str | None) -> bool:
    return box in ("on", "1", "true")


def from_form(pace: str, speak: list[str], sounds: str | None, volume: str,
              theme: str = "light", deck: str = "two", suits: str = DEFAULT_SUITS,
              trump_first: str | None = None, voice: str | None = None,
              voice_rate: str = "100") -> PlayerSettings:
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
                          _checked(trump_first), _checked(voice), _voice_rate(voice_rate))


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
                         "on" if data.get("trump_first") is True else None,
                         "on" if data.get("voice") is True else None,
                         str(data.get("voice_rate", 100)))
    except SettingsError:
        return PlayerSettings(pace=default_pace)


@dataclass(frozen=True, slots=True)
class Preferences:
    """Everything a player chooses on the preferences form."""

    lang: str | None = None  # None: the browser's first language that the room speaks
    verbosity: str = "normal"  # VERBOSITIES: the length of the announcements
    table: PlayerSettings = PlayerSettings()

    def to_data(self) -> dict[str, Any]:
        """The stored form (versioned: :data:`FORMAT`); :func:`preferences_from_data` reads
        it back.  Only known keys with checked values: its size is bounded."""
        return {"v": FORMAT, "lang": self.lang, "verbosity": self.verbosity,
                "table": self.table.to_session()}


def defaults(default_pace: float = DEFAULT_PACE) -> Preferences:
    """The preferences of someone who chose nothing (the pace: the room's ``default_pace``)."""
    return Preferences(table=PlayerSettings(pace=default_pace))


def preferences_from_data(data: object, default_pace: float = DEFAULT_PACE
                          ) -> Preferences | None:
    """The stored preferences, or None for anything not of this :data:`FORMAT` (nothing
    stored, a value of an older release).  Within a current one, a value no longer valid
    reads as its default, as :func:`from_session` reads the table settings."""
    if not isinstance(data, Mapping) or data.get("v") != FORMAT:
        return None
    lang, verbosity = data.get("lang"), data.get("verbosity")
    return Preferences(lang if lang in LANGUAGES else None,
                       verbosity if verbosity in VERBOSITIES else "normal",
                       from_session(data.get("table"), default_pace))


def in_force(device: Preferences | None, device_own: bool, account: Preferences | None,
             default_pace: float = DEFAULT_PACE) -> tuple[Preferences, Source]:
    """The preferences that apply, and where they come from.  First the device's own (chosen
    for this device only), then the signed-in account's, then what this device last used
    without them (a guest's, a visitor's), then the defaults: signing in never mixes the
    device's values into the account's or the other way round."""
    if device is not None and device_own:
        return device, "device"
    if account is not None:
        return account, "account"
    if device is not None:
        return device, "device"
    return defaults(default_pace), "defaults"
