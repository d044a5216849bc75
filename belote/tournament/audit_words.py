"""The audit log in words: one sentence per stored change, in the reader's language, dated
in the reader's local time ("1 giugno 2024 alle 18:05: Anna ha registrato la partita 3 ...").

The console and ``belote tournament log`` read it; neither shows a code word ("drawn
round=2") nor an ISO timestamp.  Seat codes never appear: no sentence has a placeholder for
them, and the data of a kind this module does not know is passed to its message only as
numbers and short text, never the ``codes``.

Each sentence speaks of the tournament as it was when the change was made: the log is
replayed, and each entry is put in words before it is applied (so a sentence written before
an ``undrawn`` names the tables of the draw it undid, not of the one that reused its game
numbers, a hand's number follows the hands a rejection dropped, and an entrant removed later
keeps its name).

A new event kind gets its sentence by adding ``tournament.audit.<kind>`` to the catalogs:
its placeholders are the event's data fields that are numbers or text, plus ``by`` (who,
in words), ``game``/``table``/``a``/``b`` when the data names a game.  A kind with no
message is still listed ("a change the log cannot put in words: <kind>"), never dropped.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Any

from babel.dates import format_date, format_time

from belote.i18n import has_message, join_list, translate
from belote.i18n.plural import plural_form
from belote.tournament.events import Tournament
from belote.tournament.model import AuditEntry, Event, TournamentError

# Who made a change, as the room and the CLI log them, in words.
SPECIAL_AUTHORS = {"": "tournament.audit.by.nobody", "offline": "tournament.audit.by.offline",
                   "table": "tournament.audit.by.table"}
HIDDEN = frozenset({"codes"})  # never put into words


@dataclass(frozen=True, slots=True)
class Sentence:
    number: int
    when: str
    text: str


def when_text(lang: str, at: str, zone: tzinfo | None = None) -> str:
    """A stored time (ISO, UTC) as the reader's local date and time, in their language;
    ``zone``: the reader's time zone (default: this machine's)."""
    if not at:
        return translate(lang, "tournament.audit.no_time")
    moment = datetime.fromisoformat(at)
    local = moment.astimezone(zone) if zone is not None else moment.astimezone()
    return translate(lang, "tournament.audit.when",
                     date=format_date(local, "long", locale=lang),
                     time=format_time(local, "short", locale=lang))


def who_text(lang: str, by: str) -> str:
    key = SPECIAL_AUTHORS.get(by)
    return translate(lang, key) if key else by


def _name(t: Tournament, entrant_id: Any) -> str:
    entrant = None
    if isinstance(entrant_id, int):
        entrant = t.entrants.get(entrant_id) or t.removed.get(entrant_id)
    return entrant.name if entrant is not None else f"#{entrant_id}"


def _game_values(t: Tournament, game_id: Any) -> dict[str, Any]:
    try:
        game = t.game(game_id)
    except TournamentError:
        return {"game": game_id, "table": "?", "a": "?", "b": "?"}
    names = [" & ".join(_name(t, e) for e in side) for side in game.sides] + ["", ""]
    return {"game": game.id, "table": game.table, "a": names[0], "b": names[1]}


def _values(lang: str, t: Tournament, entry: AuditEntry) -> tuple[str, dict[str, Any]]:
    """The message key of an entry and its placeholders; ``t``: the tournament just before
    the entry was applied."""
    kind, data = entry.kind, entry.data
    values: dict[str, Any] = {k: v for k, v in data.items()
                              if k not in HIDDEN and isinstance(v, (int, str))}
    if "game" in data:
        values.update(_game_values(t, data["game"]))
    values["by"] = who_text(lang, entry.by)
    key = f"tournament.audit.{kind}"
    if kind == "created":
        values["format"] = translate(lang, f"tournament.format.{data.get('format')}")
    elif kind == "registered":
        names = [str(e.get("name", "")) for e in data.get("entrants") or []]
        values.update(names=join_list(names, lang), count=len(names))
    elif kind == "checked_in":
        values["entrant"] = _name(t, data.get("entrant"))
    elif kind == "bound":
        entrant = t.entrants.get(data.get("entrant", 0))
        position = data.get("player", 0)
        values.update(entrant=_name(t, data.get("entrant")), player=(
            entrant.players[position] if entrant is not None
            and 0 <= position < len(entrant.players) else "?"))
        if not data.get("account"):
            key = "tournament.audit.unbound"
    elif kind == "drawn":
        games = data.get("games") or []
        byes = [" & ".join(_name(t, e) for e in g["sides"][0])
                for g in games if len(g["sides"]) == 1]
        values.update(tables=len(games) - len(byes), byes=join_list(byes, lang))
        if byes:
            key = "tournament.audit.drawn_bye"
    elif kind == "lineup":
        lineup = data.get("lineup") or [[], []]
        values.update(a=" & ".join(lineup[0]), b=" & ".join(lineup[1]))
    elif kind in ("result", "corrected"):
        totals = list(data.get("totals") or [0, 0])
        values.update(total_a=totals[0], total_b=totals[1])
        if kind == "result":
            values["source"] = translate(lang, f"tournament.source.{data.get('source')}")
        else:
            was = list(data.get("was") or [0, 0])
            values.update(was_a=was[0], was_b=was[1])
    elif kind == "adjusted":
        values["points"] = f"{int(data.get('points', 0)):+d}"
    elif kind in ("hand", "unhand"):
        # The hands entered before it (a rejection or a forced close dropped the pending
        # ones): a new hand follows them, an undo takes back the last.
        entered = len(t.hands.get(data.get("game", 0), []))
        values["hand"] = entered + 1 if kind == "hand" else entered
    elif kind == "standins":
        try:
            lineup = t.game(data.get("game")).lineup
            players = [lineup[a][b] for a, b in data.get("seats") or []]
        except (TournamentError, IndexError):
            players = []
        values["players"] = join_list(players, lang)
    elif kind == "prizes":
        values["count"] = len(data.get("prizes") or [])
    else:
        key = _day_values(lang, t, kind, data, values) or key
    if not has_message(lang, key):
        return "tournament.audit.other", {**values, "kind": kind}
    return key, values


def _totals(values: dict[str, Any], data: dict[str, Any]) -> None:
    totals = list(data.get("totals") or [0, 0])
    values.update(total_a=totals[0], total_b=totals[1])


def _day_values(lang: str, t: Tournament, kind: str, data: dict[str, Any],
                values: dict[str, Any]) -> str | None:
    """The placeholders of the tournament day's kinds (confirmation, the round's end, the
    entrants, undo, best-of-3), and the key where it depends on the data (None: the kind's
    own)."""
    if kind in ("withdrawn", "reinstated", "reserve", "promoted"):
        values["entrant"] = _name(t, data.get("entrant"))
        if kind == "withdrawn" and data.get("reason"):
            return "tournament.audit.withdrawn_why"
    elif kind == "removed":
        values["names"] = join_list([str(n) for n in data.get("names") or []], lang)
    elif kind == "late_entry":
        values["names"] = join_list([str(e.get("name", "")) for e in data.get("entrants") or []],
                                    lang)
    elif kind in ("totals", "leg"):
        _totals(values, data)
    elif kind == "leg_fixed":
        _totals(values, data)
        was = list(data.get("was") or [0, 0])
        values.update(was_a=was[0], was_b=was[1])
    elif kind in ("confirmed", "disputed"):
        side = data.get("side")
        values["side"] = values.get("b" if side == 1 else "a", "?")
        if kind == "disputed" and data.get("reason"):
            return "tournament.audit.disputed_why"
    elif kind == "resolved":
        return "tournament.audit." + ("resolved_accepted" if data.get("accept")
                                      else "resolved_rejected")
    elif kind == "forced":
        values["tables"] = join_list([str(n) for n in data.get("tables") or []], lang)
    elif kind == "clock":
        return f"tournament.audit.clock_{data.get('action')}"
    elif kind == "configured":
        values["settings"] = join_list([_setting(lang, k, v) for k, v in data.items()
                                        if k != "reason"], lang)
        if data.get("reason"):
            return "tournament.audit.configured_why"
    return None


def _setting(lang: str, name: str, value: Any) -> str:
    """One changed setting in words."""
    if name == "tiebreaks":
        names = [translate(lang, f"tournament.tiebreak.{v}") for v in value or []]
        shown = join_list(names, lang) if names else translate(lang, "tournament.audit.none")
        return translate(lang, "tournament.audit.set.tiebreaks", value=shown)
    if name == "check_in":
        word = "auto" if value is None else "on" if value else "off"
        return translate(lang, f"tournament.audit.set.check_in_{word}")
    if name == "late_rule":
        return translate(lang, f"tournament.audit.set.late_{value}")
    if name == "best_of":
        return translate(lang, "tournament.audit.set.best_of", value=value)
    if name == "lot_seed":
        return translate(lang, "tournament.audit.set.lot_seed")
    return name


# Sentences that count something: the value that decides their plural form.
COUNTED = {"tournament.audit.drawn": "tables", "tournament.audit.drawn_bye": "tables",
           "tournament.audit.created": "rounds", "tournament.audit.prizes": "count"}


def sentences(lang: str, t: Tournament, zone: tzinfo | None = None) -> Iterator[Sentence]:
    """Every change of ``t``, first to last, in words: its log replayed, each entry put in
    words as the tournament stood when it was made."""
    then = Tournament()
    for entry in t.audit:
        key, values = _values(lang, then, entry)
        counted = COUNTED.get(key)
        if counted is not None and plural_form(lang, int(values.get(counted, 0))) == "one" \
                and has_message(lang, f"{key}.one"):
            key = f"{key}.one"  # "1 table", "1 round": the singular where the language has one
        yield Sentence(entry.number, when_text(lang, entry.at, zone),
                       translate(lang, key, **values))
        then.apply(Event(entry.kind, entry.data, entry.by, entry.at))


def log_lines(lang: str, t: Tournament, zone: tzinfo | None = None) -> list[str]:
    """The audit log as lines to print: number, date and time, sentence."""
    return [translate(lang, "tournament.audit.line", number=s.number, when=s.when,
                      text=s.text) for s in sentences(lang, t, zone)]
