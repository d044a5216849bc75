"""Game records: a whole match as versioned JSON (every deck dealt and every action).

```json
{"format": "belote-record", "version": 1,
 "rules": {"preset": "classic", "flags": {"must_undertrump": false}},
 "first_dealer": 0, "seed": 7, "players": ["heuristic", "random", "heuristic", "random"],
 "deals": [{"deck": "JH 7S ...", "actions": [[1, "pass"], [2, "take"], [1, "KH+belote"]]}],
 "result": {"totals": [1012, 640], "winner": 0}}
```
Decks are always stored, so a live game dealt from a cryptographic source replays exactly;
``seed`` is kept when there was one.  Replaying checks every action with the engine; the
first illegal one stops the replay with its position, and the caller's state is untouched.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from belote.engine.events import Event, HandScored
from belote.engine.state import CHANCE, Game
from belote.errors import IllegalActionError, InvalidNotationError, RecordError
from belote.notation import parse_action, parse_card, to_action, to_card
from belote.rules import Rules, find_preset

FORMAT = "belote-record"
VERSION = 1


def to_record(game: Game, players: list[str] | None = None, seed: int | None = None,
              preset: str | None = None) -> dict[str, Any]:
    """The record of ``game`` so far (a finished match, or one still in progress)."""
    base = find_preset(preset or game.rules.name)
    deals: list[dict[str, Any]] = []
    for who, what in game.log:
        if who == CHANCE:
            deals.append({"deck": " ".join(to_card(c) for c in what), "actions": []})  # type: ignore[attr-defined]
        else:
            deals[-1]["actions"].append([who, to_action(what, game.rules)])  # type: ignore[arg-type]
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules": {"preset": base.name, "flags": game.rules.flags_changed_from(base)},
        "first_dealer": game.first_dealer,
        "players": players or [],
        "deals": deals,
        "result": {"totals": list(game.totals), "winner": game.winner},
    }
    if seed is not None:
        record["seed"] = seed
    return record


def save_record(record: dict[str, Any], path: Path) -> None:
    path.write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def load_record(path: Path) -> dict[str, Any]:
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"{path}: cannot read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path}: not JSON: {exc}") from None
    check_record(data)
    return data


def check_record(data: Any) -> None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"not a belote record (missing \"format\": \"{FORMAT}\")")
    if data.get("version") != VERSION:
        raise RecordError(f"unsupported record version {data.get('version')!r}; "
                          f"this program reads version {VERSION}")
    for key in ("rules", "deals"):
        if key not in data:
            raise RecordError(f"record has no {key!r}")
    if not isinstance(data["deals"], list):
        raise RecordError("'deals' must be a list")


def record_rules(data: dict[str, Any]) -> Rules:
    spec = data["rules"]
    try:
        return find_preset(spec["preset"]).with_flags(**spec.get("flags", {}))
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"bad rules in record: {exc}") from None


@dataclass(frozen=True)
class ReplayStep:
    deal_index: int
    action_index: int | None  # None for the deal itself
    events: list[Event]


def replay_steps(data: dict[str, Any]) -> Iterator[tuple[Game, ReplayStep]]:
    """Replay a record step by step, checking each action.  Raises RecordError naming the
    position (deal and action numbers, from 1) of the first problem."""
    check_record(data)
    rules = record_rules(data)
    game = Game(rules, int(data.get("first_dealer", 0)))
    for d, deal in enumerate(data["deals"], start=1):
        where = f"deal {d}"
        try:
            deck = [parse_card(token) for token in str(deal["deck"]).split()]
            events = game.deal(deck)
        except (KeyError, TypeError) as exc:
            raise RecordError(f"{where}: malformed deal ({exc})") from None
        except (InvalidNotationError, IllegalActionError) as exc:
            raise RecordError(f"{where}: bad deck: {exc}") from None
        yield game, ReplayStep(d, None, events)
        for a, step in enumerate(deal.get("actions", []), start=1):
            here = f"{where}, action {a}"
            try:
                seat, text = step
                events = game.apply(parse_action(str(text), rules), int(seat))
            except (TypeError, ValueError) as exc:
                if isinstance(exc, IllegalActionError):
                    who = f"seat {step[0]} {step[1]!r}"
                    raise RecordError(f"{here} ({who}): illegal: {exc}") from None
                raise RecordError(f"{here}: malformed action {step!r}: {exc}") from None
            yield game, ReplayStep(d, a, events)


@dataclass(frozen=True)
class ReplaySummary:
    hands: list[HandScored]
    totals: tuple[int, ...]  # per side: two teams, or one per player with fewer than four
    winner: int | None
    finished: bool


def replay(data: dict[str, Any]) -> ReplaySummary:
    """Replay a whole record and summarise each scored hand and the match."""
    hands: list[HandScored] = []
    game: Game | None = None
    for current, step in replay_steps(data):
        game = current
        hands.extend(e for e in step.events if isinstance(e, HandScored))
    if game is None:
        raise RecordError("record holds no deal")
    return ReplaySummary(hands, tuple(game.totals), game.winner, game.is_terminal())
