"""The wire protocol: typed messages in a ``{"t": type, "d": data, "v": version}`` codec.

Inbound messages are closed set of frozen dataclasses; :func:`decode` turns a text frame into
one or raises :class:`ProtocolError` with a code the client can translate (``error.*``
messages).  Every outbound frame carries the table's version, so a client knows what it has
seen and a reconnecting client is sent the whole current view (``sync``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from belote.engine.actions import ACTION_END
from belote.i18n.table_info import INFO_QUESTIONS
from belote.server.levels import LEVELS
from belote.text import TextError, clean_text

MAX_FRAME = 4096  # bytes; anything larger is refused before parsing
MAX_CHAT = 300  # characters
MAX_BID_TEXT = 60  # characters of a typed bid


class ProtocolError(Exception):
    """A frame the server cannot accept; ``code`` names the ``error.wire.*`` message."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail


@dataclass(frozen=True, slots=True)
class Hello:
    """Join (or rejoin) the table; the answer is a ``sync`` frame with the whole view."""

    since: int = 0


@dataclass(frozen=True, slots=True)
class Act:
    """Play or bid ``action``; ``version`` is the table version the client saw when it chose
    (an action chosen on an older state of the game is refused as stale)."""

    action: int
    version: int | None = None
    move: int = 0  # the client's id of this move (0: none), see :class:`Done`


@dataclass(frozen=True, slots=True)
class BidText:
    """A bid typed in the command box ("82 cuori", "passo"), read by the table's rules, or
    during the card play a card ("JH", "fante di cuori"); ``version`` as for :class:`Act`
    (a typed move is read on the game it was typed on)."""

    text: str
    move: int = 0
    version: int | None = None


@dataclass(frozen=True, slots=True)
class NextHand:
    """During a pause between hands: this player is ready for the next one."""


@dataclass(frozen=True, slots=True)
class Sit:
    seat: int


@dataclass(frozen=True, slots=True)
class Stand:
    pass


@dataclass(frozen=True, slots=True)
class AddBot:
    seat: int
    level: str


@dataclass(frozen=True, slots=True)
class RemoveBot:
    seat: int


@dataclass(frozen=True, slots=True)
class Start:
    pass


@dataclass(frozen=True, slots=True)
class Chat:
    text: str


@dataclass(frozen=True, slots=True)
class Ping:
    """The client's heartbeat (every few seconds): answered at once with a ``pong`` carrying
    the same ``n``.  A table socket that has sent one and then stays silent longer than the
    room's heartbeat timeout is closed as stalled (docs/room.md, "Stalled connections")."""

    n: int = 0


@dataclass(frozen=True, slots=True)
class BeatAnswer:
    """The page's answer to the server's :class:`Beat`, sent from its message handler at
    once (a hidden tab's timers may be slowed to one a minute; its event handlers are not)."""

    n: int = 0


@dataclass(frozen=True, slots=True)
class AskInfo:
    """An information key pressed (T, O, P, W, Y, U): the answer, for this connection's seat
    and language, comes back as an :class:`InfoAnswer`; it is made only when asked."""

    key: str


@dataclass(frozen=True, slots=True)
class SaveAsk:
    """A seated player asks to save the match and resume it later (docs/room.md, "Saved
    games"): the others seated are asked (:class:`SaveAnswer`)."""


@dataclass(frozen=True, slots=True)
class SaveAnswer:
    """A player asked to save the match agrees (``yes``) or refuses."""

    yes: bool


def _save_answer(data: dict[str, Any]) -> SaveAnswer:
    yes = data.get("yes")
    if not isinstance(yes, bool):
        raise ProtocolError("bad_field", "yes")
    return SaveAnswer(yes)


Inbound = (Hello | Act | BidText | NextHand | Sit | Stand | AddBot | RemoveBot | Start | Chat
           | Ping | BeatAnswer | AskInfo | SaveAsk | SaveAnswer)
# What a seat's owner or the table's host asks, by a frame or by a form.
SeatCommand = Sit | Stand | AddBot | RemoveBot | Start


# ---------------------------------------------------------------- outbound
@dataclass(frozen=True, slots=True)
class Sync:
    """The whole view, and the sentences to review (on joining, or ``hello``): those after
    version ``since`` (what a ``hello`` said it had), or with ``since`` 0 all the table
    keeps, the match's whole history (the client's history starts again from them)."""

    events: list[dict[str, Any]]
    view: dict[str, Any]
    since: int = 0


@dataclass(frozen=True, slots=True)
class Update:
    """The sentences of one change, and the new view."""

    events: list[dict[str, Any]]
    view: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Error:
    """A refusal: ``code`` for programs, ``text`` for people (in their language); ``move``:
    the id of the move refused, if the client gave one."""

    code: str
    text: str
    detail: str = ""
    move: int = 0


@dataclass(frozen=True, slots=True)
class Pong:
    n: int = 0


@dataclass(frozen=True, slots=True)
class Beat:
    """The server's heartbeat to a socket opened with ``?heartbeat=1``, every
    ``heartbeat_interval`` seconds; the page answers it with a ``beat`` of the same ``n``.
    Any frame the client sends counts against the room's heartbeat timeout."""

    n: int = 0


@dataclass(frozen=True, slots=True)
class Done:
    """The move the client numbered ``move`` is played (``already``: it had been, before this
    copy of it came; a move sent again after a lost connection is played at most once).
    A move is always answered: ``done``, or an ``error`` naming it."""

    move: int
    already: bool = False


@dataclass(frozen=True, slots=True)
class InfoAnswer:
    """The answer to one :class:`AskInfo`: the key asked and its sentence."""

    key: str
    text: str


@dataclass(frozen=True, slots=True)
class LobbySync:
    """On joining the lobby: its recent chat and one page of the list of tables."""

    chat: list[str]
    tables: list[dict[str, Any]]
    page: int
    pages: int
    total: int
    size: int


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One lobby chat line, as a sentence."""

    text: str


@dataclass(frozen=True, slots=True)
class TablesDiff:
    """Tables added, changed or removed since the last frame (``changes``: each with ``op``,
    ``id`` and, unless removed, the table's summary), the list's new length, and what to
    announce of it."""

    changes: list[dict[str, Any]]
    total: int
    say: list[str]


Outbound = (Sync | Update | Error | Pong | Beat | Done | InfoAnswer | LobbySync | ChatLine
            | TablesDiff)

_OUTBOUND_TYPES: dict[type[Any], str] = {
    Sync: "sync", Update: "update", Error: "error", Pong: "pong", Beat: "beat", Done: "done",
    InfoAnswer: "info", LobbySync: "sync", ChatLine: "chat", TablesDiff: "tables",
}


def _int(data: dict[str, Any], key: str, low: int, high: int) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ProtocolError("bad_field", key)
    return value


def _seat(data: dict[str, Any]) -> int:
    return _int(data, "seat", 0, 3)


def _bid_text(data: dict[str, Any]) -> str:
    text = data.get("text")
    if not isinstance(text, str):
        raise ProtocolError("bad_field", "text")
    try:
        return clean_text(text, MAX_BID_TEXT)
    except TextError as error:
        raise ProtocolError("bad_field", "text") from error


def _chat(data: dict[str, Any]) -> Chat:
    text = data.get("text")
    if not isinstance(text, str):
        raise ProtocolError("bad_field", "text")
    try:
        return Chat(clean_text(text, MAX_CHAT))
    except TextError as error:
        raise ProtocolError("bad_chat" if error.code in ("empty", "too_long") else "bad_text",
                            error.code) from None


def _info(data: dict[str, Any]) -> AskInfo:
    key = data.get("key")
    if not isinstance(key, str) or key not in INFO_QUESTIONS:
        raise ProtocolError("bad_field", "key")
    return AskInfo(key)


# The level of a bot that names none, in a frame or a form alike (a form posted by a plain
# client, with the seat alone; the room's own pages always send the level they show).
DEFAULT_LEVEL = "normal"


def _level(data: dict[str, Any]) -> str:
    level = data.get("level", DEFAULT_LEVEL)
    if not isinstance(level, str) or level not in LEVELS:
        raise ProtocolError("bad_field", "level")
    return level


MAX_VERSION = 2**62
MAX_MOVE = 2**31 - 1  # a move id, a heartbeat's number


def _optional(data: dict[str, Any], key: str, high: int) -> int:
    return _int(data, key, 0, high) if key in data else 0


_DECODERS: dict[str, Any] = {
    "hello": lambda d: Hello(_int(d, "since", 0, MAX_VERSION) if "since" in d else 0),
    # Every id of the engine's action space (cards, bids, table talk, contracts, cuts): the
    # engine's ACTION_END is the one home of the range; the rules decide what is legal.
    "act": lambda d: Act(_int(d, "a", 0, ACTION_END - 1), move=_optional(d, "m", MAX_MOVE)),
    "bid": lambda d: BidText(_bid_text(d), _optional(d, "m", MAX_MOVE)),
    "next": lambda d: NextHand(),
    "sit": lambda d: Sit(_seat(d)),
    "stand": lambda d: Stand(),
    "bot": lambda d: AddBot(_seat(d), _level(d)),
    "unbot": lambda d: RemoveBot(_seat(d)),
    "start": lambda d: Start(),
    "chat": _chat,
    "ping": lambda d: Ping(_optional(d, "n", MAX_MOVE)),
    "beat": lambda d: BeatAnswer(_optional(d, "n", MAX_MOVE)),
    "info": _info,
    "save": lambda d: SaveAsk(),
    "save_vote": _save_answer,
}


def decode(text: str | bytes) -> Inbound:
    """One inbound frame as a message; raises :class:`ProtocolError` for anything else."""
    if isinstance(text, bytes):
        raise ProtocolError("binary")
    if len(text.encode("utf-8")) > MAX_FRAME:
        raise ProtocolError("too_large")
    try:
        frame = json.loads(text)
    except RecursionError:  # deeply nested arrays or objects
        raise ProtocolError("too_deep") from None
    except ValueError:
        raise ProtocolError("not_json") from None
    if not isinstance(frame, dict) or not isinstance(frame.get("t"), str):
        raise ProtocolError("no_type")
    data = frame.get("d", {})
    if not isinstance(data, dict):
        raise ProtocolError("bad_field", "d")
    decoder = _DECODERS.get(frame["t"])
    if decoder is None:
        raise ProtocolError("unknown_type", frame["t"][:32])
    message: Inbound = decoder(data)
    if isinstance(message, Act) and "v" in frame:
        message = Act(message.action, _int(frame, "v", 0, MAX_VERSION), message.move)
    elif isinstance(message, BidText) and "v" in frame:
        message = BidText(message.text, message.move, _int(frame, "v", 0, MAX_VERSION))
    return message


# The frame types a form may send (its URL names the type): the seat commands.
FORM_TYPES = ("sit", "stand", "bot", "unbot", "start")
# A form's number, as a frame's JSON number would be written: ASCII digits only (no sign,
# space, underscore or other script's digits, all of which int() takes).
_FORM_NUMBER = re.compile(r"[0-9]{1,2}")


def _form_number(text: object) -> object:
    """A form field's text as the number a frame would carry, if it is one (otherwise left
    as it is, for the field's check to refuse, as it refuses a frame's string)."""
    if isinstance(text, str) and _FORM_NUMBER.fullmatch(text):
        return int(text)
    return text


def decode_form(kind: str, form: Mapping[str, object]) -> SeatCommand:
    """A seat form as the message a frame of type ``kind`` with the same fields decodes
    to; raises :class:`ProtocolError` as :func:`decode` does (``unknown_type``, or
    ``bad_field`` naming the field)."""
    if kind not in FORM_TYPES:
        raise ProtocolError("unknown_type", kind[:32])
    data: dict[str, Any] = {}
    if "level" in form:  # (left out, it is left out of the frame too: one default)
        data["level"] = form["level"]
    if "seat" in form:
        data["seat"] = _form_number(form["seat"])
    message: SeatCommand = _DECODERS[kind](data)
    return message


def encode(kind: str, data: dict[str, Any], version: int) -> str:
    """An outbound frame, always valid UTF-8.

    A text that cannot be encoded (a lone surrogate stored before texts were checked) is sent
    escaped rather than breaking the frame, and with it the connection's send task.
    """
    frame = {"t": kind, "d": data, "v": version}
    text = json.dumps(frame, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(frame, ensure_ascii=True, separators=(",", ":"))
    return text


def encode_message(message: Outbound, version: int) -> str:
    """A typed outbound message as a frame."""
    data = {f: getattr(message, f) for f in message.__dataclass_fields__}
    if isinstance(message, Error):
        for optional in ("detail", "move"):
            if not data[optional]:
                del data[optional]
    return encode(_OUTBOUND_TYPES[type(message)], data, version)
