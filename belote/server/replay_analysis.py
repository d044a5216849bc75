"""The replay's analysis endpoint: one card of a FINISHED match, analysed on demand.

The work (:func:`analyse_step`, over :func:`belote.ai.analysis.analyse_play`) runs in the
heavy-work process (:mod:`belote.server.heavy`), never on the event loop nor in a thread of
the server (the kernels hold the interpreter while they search a world); one world's search
is bounded (:data:`belote.ai.analysis.WORLD_SECONDS`) and the whole analysis stops starting
worlds after ``DEADLINE_SECONDS``.  The answers are cached there: a finished match never
changes, so an answer never goes stale.

Only finished matches are analysed (the caller checks): the analysis of a card draws
worlds from the player's information set only, but a match still being played must not
be examined at all.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from belote.ai.analysis import (
    DEFAULT_WORLDS,
    AnalysisError,
    AnalysisUnavailable,
    PlayAnalysis,
    analyse_play,
)
from belote.engine import actions as A
from belote.engine.search import Solver
from belote.engine.state import Game, Phase
from belote.i18n import translate
from belote.i18n.names import card_name, seat_name
from belote.notation import parse_action, to_card
from belote.records import record_rules, replay_steps
from belote.rules.base import Rules

log = logging.getLogger(__name__)

DEADLINE_SECONDS = 4.0  # no world is started after this (one is always solved)


class StepError(ValueError):
    """A step that is not a number of this replay, or not a card: ``code`` names the
    message (``replays.error.<code>``), ``values`` fill it."""

    def __init__(self, code: str, **values: Any) -> None:
        super().__init__(code)
        self.code = code
        self.values = values

    def __reduce__(self) -> tuple[Any, ...]:
        # raised in the heavy-work process: its values travel back with it
        return (_step_error, (self.code, self.values))


def _step_error(code: str, values: dict[str, Any]) -> StepError:
    return StepError(code, **values)


def parse_step(text: str | None, last: int) -> int:
    """The step asked for (0 .. ``last``); StepError otherwise."""
    if text is None or not text.isascii() or not text.isdigit() or len(text) > 6:
        raise StepError("bad_step", last=last)
    step = int(text)
    if step > last:
        raise StepError("bad_step", last=last)
    return step


def count_steps(record: dict[str, Any]) -> int:
    """Steps of the replay: each deal, and each action."""
    return sum(1 + len(deal.get("actions", [])) for deal in record["deals"])


def position_before(record: dict[str, Any], step: int) -> tuple[Game, int]:
    """The game just before ``step`` and the action played at it (a card; StepError for
    anything else)."""
    before: Game | None = None
    for index, (game, _replayed) in enumerate(replay_steps(record)):
        if index == step - 1:
            before = game.clone()
        if index == step:
            break
    deal, action_index = _locate(record, step)
    if before is None or action_index is None or before.phase != Phase.PLAYING:
        raise StepError("not_a_card", step=step)
    action = parse_action(str(deal["actions"][action_index][1]), record_rules(record))
    if not A.is_play(action):
        raise StepError("not_a_card", step=step)
    return before, action


def _locate(record: dict[str, Any], step: int) -> tuple[dict[str, Any], int | None]:
    """The deal holding ``step`` and the action's index in it (None: the deal itself)."""
    for deal in record["deals"]:
        size = 1 + len(deal.get("actions", []))
        if step < size:
            return deal, (step - 1 if step else None)
        step -= size
    raise StepError("bad_step", last=count_steps(record) - 1)


_SOLVERS: dict[Rules, Solver] = {}  # per process (or thread) doing the analyses


def analyse_step(record: dict[str, Any], step: int, worlds: int = DEFAULT_WORLDS,
                 seconds: float = DEADLINE_SECONDS) -> PlayAnalysis:
    """The analysis of the card played at ``step`` (what the heavy-work process runs): no
    world is started after ``seconds``, counted from when the work starts, not from the
    queue; StepError when the step is not a card."""
    deadline = time.monotonic() + seconds
    before, action = position_before(record, step)  # a replay of the match so far
    analysis = analyse_play(before, action, worlds, seed=step, deadline=deadline,
                            solvers=_SOLVERS)
    if analysis.skipped:
        log.info("replay analysis: %d world(s) left out of step %d (search too long)",
                 analysis.skipped, step)
    return analysis


def analysis_json(analysis: PlayAnalysis, step: int, record: dict[str, Any],
                  lang: str) -> dict[str, Any]:
    """The endpoint's answer: the numbers, and the sentence the page announces."""
    players = record.get("players") or []
    names = ([str(p) for p in players] if len(players) == record_rules(record).players
             else None)
    player = seat_name(analysis.seat, lang, names)
    played = card_name(analysis.played, lang, definite=True)
    best = card_name(analysis.best, lang, definite=True)
    cost = round(analysis.cost, 1)
    if analysis.played == analysis.best or cost <= 0:
        text = translate(lang, "replays.analysis.same", player=player, played=played,
                         worlds=analysis.worlds)
    else:
        text = translate(lang, "replays.analysis.cost", player=player, played=played,
                         best=best, cost=_number(cost, lang), worlds=analysis.worlds)
    if analysis.method == "playouts":
        text += " " + translate(lang, "replays.analysis.playouts")
    ranked = sorted(analysis.values.items(), key=lambda kv: (-kv[1], kv[0]))
    return {
        "step": step,
        "seat": analysis.seat,
        "player": player,
        "played": to_card(analysis.played),
        "best": to_card(analysis.best),
        "cost": cost,
        "worlds": analysis.worlds,
        "method": analysis.method,
        "values": [{"card": to_card(c), "name": card_name(c, lang),
                    "value": round(v, 1),
                    "text": translate(lang, "replays.analysis.value", card=card_name(c, lang),
                                      value=_number(round(v, 1), lang))} for c, v in ranked],
        "text": text,
    }


def _number(value: float, lang: str) -> str:
    """A point figure as written in ``lang`` (a decimal comma outside English)."""
    text = str(int(value)) if value == int(value) else f"{value:.1f}"
    return text if lang == "en" else text.replace(".", ",")


__all__ = ["AnalysisError", "AnalysisUnavailable", "StepError", "analyse_step", "analysis_json",
           "count_steps", "parse_step", "position_before"]
