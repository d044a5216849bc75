"""The score entry of a table playing with real cards: one question at a time (as
``belote score``), each answer checked as it is typed, the other team's trick points
derived.  The scorer's undo stops at the recorded result: only an organiser corrects it
(with a reason)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from belote.i18n import translate
from belote.scorekeeper import (
    Declared,
    HandEntry,
    ScoreError,
    entry_row,
    fold_belote,
    hand_total,
    parse_declared,
    parse_double,
    parse_level,
    parse_optional_team,
    parse_points,
    parse_team,
    parse_trump,
    question,
    refusal_text,
    steps,
)
from belote.server.routes.common import language, read_form, session
from belote.server.routes.tournaments.common import (
    back_to,
    game_or_404,
    is_organiser,
    render,
    say,
    seat_held,
    service,
    tournament,
    who,
)
from belote.tournament.events import Tournament
from belote.tournament.model import Game, TournamentError
from belote.tournament.sheets import tournament_rules
from belote.tournament.text import error_text


def entry_state(request: Request, tid: int, game: Game) -> dict[str, Any]:
    """The answers given so far for this game's next hand (kept in the session)."""
    state = request.session.get("tournament_entry")
    if not isinstance(state, dict) or state.get("key") != f"{tid}/{game.id}":
        state = {"key": f"{tid}/{game.id}", "answers": {}}
    return state


def parsers(t: Tournament, answers: dict[str, Any]) -> dict[str, Callable[[str], Any]]:
    rules = tournament_rules(t.s)
    taker = answers.get("taker")
    return {
        "taker": lambda x: parse_team(x, "taker"),
        "trump": lambda x: parse_trump(x, "trump"),
        "level": lambda x: parse_level(x, rules, "level"),
        "double": lambda x: parse_double(x, "double"),
        "tricks_ns": lambda x: parse_points(x, "tricks_ns"),
        "tricks_ew": lambda x: parse_points(x, "tricks_ew"),
        "capot": lambda x: parse_optional_team(x, "capot", yes_team=taker),
        "decl_ns": lambda x: parse_declared(x, rules, "decl_ns"),
        "decl_ew": lambda x: parse_declared(x, rules, "decl_ew"),
        "belote": lambda x: parse_optional_team(x, "belote"),
    }


def parsed(t: Tournament, texts: dict[str, str]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for name, text in texts.items():
        values[name] = parsers(t, values)[name](text)
    return values


def derived(t: Tournament, values: dict[str, Any]) -> int | None:
    """The other team's trick points: every card point of the hand less the first's."""
    if "tricks_ns" not in values or "trump" not in values:
        return None
    total = hand_total(tournament_rules(t.s), values["trump"])
    return max(0, total - int(values["tricks_ns"]))


async def may_score(request: Request, tid: int, t: Tournament, game: Game) -> bool:
    """The table's scorer: an organiser, or one of the game's seated players, known by
    the seat code they gave or the account bound to them (a name typed at sign-in is no
    proof of who one is)."""
    if session(request) is None:
        return False
    return (seat_held(request, tid, t, game) is not None
            or await is_organiser(request, tid))


async def entry_page(request: Request) -> Response:
    tid, t = await tournament(request)
    game = game_or_404(t, request)
    lang = language(request)
    texts: dict[str, str] = entry_state(request, tid, game)["answers"]
    values = parsed(t, texts)
    rules = tournament_rules(t.s)
    sheet = t.sheet(game.id)
    asked = steps(rules, values.get("trump"))
    step = asked[len(texts)] if len(texts) < len(asked) else None
    prefill = ""
    hint = None
    if step == "tricks_ew":
        other = derived(t, values)
        if other is not None:
            prefill = str(other)
            hint = translate(lang, "tournament.web.derived", points=other)
    return await render(request, "tournament_entry.html", tid=tid, tour=t, game=game,
                        sheet=sheet, step=step, answered=len(texts),
                        question=question(rules, step, sheet.next_number, lang) if step else "",
                        prefill=prefill, hint=hint,
                        may_enter=await may_score(request, tid, t, game),
                        hands=[(h.number, h.scores, h.totals) for h in sheet.hands])


async def _answer(request: Request, tid: int, t: Tournament, game: Game,
                  texts: dict[str, str], data: FormData) -> dict[str, str]:
    """The next question's answer taken; the hand recorded once all are answered.  Returns
    the answers kept (none once recorded; those before the first field at fault when the
    hand is refused)."""
    values = parsed(t, texts)
    rules = tournament_rules(t.s)
    asked = steps(rules, values.get("trump"))
    step = asked[len(texts)]
    text = str(data.get("answer", "")).strip()
    values[step] = parsers(t, values)[step](text)
    texts[step] = text
    asked = steps(rules, values.get("trump"))
    if len(texts) < len(asked):
        return texts
    row = entry_row(_entry(values), rules)
    try:
        await service(request).change(tid, "hand", {"game": game.id, "row": row},
                                      who(request))
    except ScoreError as error:
        # As `belote score`: asked again from the first field at fault.
        say(request, refusal_text(error, language(request)), True)
        field = error.field.split("+")[0]
        keep = asked.index(field) if field in asked else 0
        return {k: texts[k] for k in asked[:keep]}
    return {}


async def entry_post(request: Request) -> Response:
    tid, t = await tournament(request)
    data = await read_form(request)
    lang = language(request)
    game = game_or_404(t, request)
    here = f"/tournaments/{tid}/games/{game.id}/entry"
    if not await may_score(request, tid, t, game):
        raise HTTPException(403)
    state = entry_state(request, tid, game)
    texts: dict[str, str] = dict(state["answers"])
    what = str(data.get("do", "next"))
    try:
        if what == "back":
            if texts:
                texts.popitem()
        elif what == "undo":
            texts = {}
            await service(request).change(tid, "unhand", {"game": game.id}, who(request))
        else:
            texts = await _answer(request, tid, t, game, texts, data)
    except ScoreError as error:
        say(request, refusal_text(error, lang), True)
    except TournamentError as error:
        say(request, error_text(lang, error), True)
    state["answers"] = texts
    request.session["tournament_entry"] = state
    return back_to(here)


async def entry_check(request: Request) -> Response:
    """One field's check as it is typed (the page's script): the refusal, or nothing."""
    tid, t = await tournament(request)
    game = game_or_404(t, request)
    if not await may_score(request, tid, t, game):
        return JSONResponse({"ok": False, "text": ""}, status_code=403)
    state = entry_state(request, tid, game)
    try:
        values = parsed(t, state["answers"])
        rules = tournament_rules(t.s)
        asked = steps(rules, values.get("trump"))
        step = asked[len(state["answers"])]
        parsers(t, values)[step](request.query_params.get("value", ""))
    except ScoreError as error:
        return JSONResponse({"ok": False, "text": refusal_text(error, language(request))})
    except (IndexError, TournamentError):
        return JSONResponse({"ok": False, "text": ""})
    return JSONResponse({"ok": True, "text": translate(language(request),
                                                       "tournament.web.ok")})


def _entry(values: dict[str, Any]) -> HandEntry:
    return fold_belote(HandEntry(
        taker=values["taker"], trump=values["trump"], level=values.get("level", 0),
        double=values.get("double", 0), tricks=(values["tricks_ns"], values["tricks_ew"]),
        capot=values.get("capot"),
        declarations=(values.get("decl_ns", Declared()), values.get("decl_ew", Declared())),
        belote=values.get("belote")))
