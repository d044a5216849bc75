"""The four seats of a table: who sits where (a person, a bot, nobody) and their names."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from belote.ai.plugins import plugin_label
from belote.i18n import has_message, seat_name, translate

# The owner of a seat kept for an account while its table is saved (docs/room.md, "Saved
# games"): a session's public id is URL-safe base64 (no colon), so no connection sits
# there by its id; the account's next connection to the table takes it.
RESERVED = "saved:"


@dataclass(slots=True)
class Seat:
    kind: str = "empty"  # empty | human | bot
    name: str = ""
    owner: str | None = None  # the session id of the human who sits here
    level: str = "normal"  # a bot's level, or the level of the bot standing in
    standin: bool = False  # a bot plays for the absent human
    away_since: float | None = None  # presence: not logged
    # The registered account of the human who sits here (None: a guest).  Logged with the
    # seat, so that a finished match is rated for the accounts that played it even after
    # their sessions ended (belote/server/ratings).
    account: int | None = None

    def to_log(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "name": self.name, "owner": self.owner,
                                "level": self.level, "standin": self.standin}
        if self.account is not None:
            data["account"] = self.account
        return data

    @classmethod
    def from_log(cls, data: dict[str, Any]) -> Seat:
        account = data.get("account")  # absent from logs written before ratings
        return cls(kind=data["kind"], name=data["name"], owner=data["owner"],
                   level=data["level"], standin=data["standin"],
                   account=account if isinstance(account, int) else None)

    @property
    def bot_plays(self) -> bool:
        return self.kind == "bot" or self.standin

    @property
    def reserved(self) -> bool:
        """Kept for its account's person, who has not come back to the saved table yet."""
        return self.kind == "human" and (self.owner or "").startswith(RESERVED)

    def kept_for_account(self) -> Seat:
        """This seat, kept for its account while the table is saved (a person's seat: it
        must have an account)."""
        assert self.kind == "human" and self.account is not None
        return Seat("human", self.name, f"{RESERVED}{self.account}", self.level,
                    account=self.account)


def seat_names(seats: Sequence[Seat], lang: str) -> list[str]:
    """Each seat's full name: the player's nickname, or the bot with its seat and level
    ("West bot (normal)"), as the seat list and the bot's arrival say it."""
    names = []
    for seat_no, seat in enumerate(seats):
        if seat.kind == "human":
            names.append(seat.name)
        elif seat.kind == "bot":
            names.append(translate(lang, "web.bot_name", level=level_label(lang, seat.level),
                                   seat=seat_name(seat_no, lang)))
        else:
            names.append(seat_name(seat_no, lang))
    return names


def short_names(seats: Sequence[Seat], lang: str,
                full: Sequence[str] | None = None) -> list[str]:
    """Each seat's name in the game's sentences: the player's nickname, a bot by its seat
    alone ("West"; its full name introduced it when it sat down and stays in the seat list),
    unless a player's nickname is that seat's name, when the bot keeps its full name
    (``full``: the seats' full names, when the caller has them already)."""
    full = full if full is not None else seat_names(seats, lang)
    taken = {s.name.casefold() for s in seats if s.kind == "human"}
    names = []
    for seat_no, seat in enumerate(seats):
        short = seat_name(seat_no, lang)
        names.append(short if seat.kind == "bot" and short.casefold() not in taken
                     else full[seat_no])
    return names


def level_label(lang: str, level: str) -> str:
    """A bot level as players read it: the catalog's ``web.level.<level>``, else (a bot
    plug-in the room offers, which the catalogs cannot know) the bot's own name."""
    key = f"web.level.{level}"
    return translate(lang, key) if has_message(lang, key) else plugin_label(level)
