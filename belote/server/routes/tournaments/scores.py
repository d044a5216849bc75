"""The score entry of a table playing with real cards: one question at a time (as
``belote score``), each answer checked as it is typed, the other team's trick points
derived, or the final totals typed from a paper sheet.  What a player enters is pending
until a player of the other side confirms it (on their own phone, or on this one with their
code) or disputes it; the organiser's queue resolves disputes and what is left unconfirmed
(:mod:`belote.tournament.claims`).  An organiser's entry counts at once.  The scorer's undo
takes back only their side's pending hand and stops at the recorded result: only an
organiser corrects it (with a reason)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from belote.i18n import translate
from belote.i18n.names import join_list
from belote.scorekeeper import (
    Declared,
    HandEntry,
    ScoreError,
    ScoreSheet,
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
from belote.server.routes.tournaments.codes import (
    CODE_REFUSALS,
    code_kind,
    side_held,
    side_names,
    typed_side,
    wrong_code,
)
from belote.server.routes.tournaments.common import (
    ANSWER,
    CODE,
    REASON,
    WHOLE,
    back_to,
    form_choice,
    form_int,
    form_text,
    form_value,
    game_or_404,
    is_organiser,
    not_organiser,
    render,
    say,
    service,
    tournament,
    who,
)
from belote.tournament.claims import Claim
from belote.tournament.events import Tournament
from belote.tournament.model import Game, TournamentError
from belote.tournament.sheets import tournament_rules
from belote.tournament.text import error_text

REFUSED = "tournament_entry_refused"  # the session's key of the form a refusal came from
REFOCUSED = ("totals", "confirm", "dispute")  # forms whose refusal focuses them again
TOTAL_DIGITS = 9  # characters of a refused total given back
# What the entry page's buttons send (``do``); none: the next answer.
DOS = ("next", "back", "undo", "totals", "confirm", "dispute")
DECISIONS = ("accept", "reject")  # the organiser's queue
MAX_HAND = 999  # a hand's number as the entry form sends it


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


async def scorer(request: Request, tid: int, t: Tournament,
                 game: Game) -> tuple[bool, int | None]:
    """Whether this person may score ``game``, and for which side: a player of the game,
    known by the side or seat code they gave or the account bound to them (a name typed at
    sign-in is no proof of who one is), enters for their side; an organiser with no code,
    for none (it counts at once)."""
    if session(request) is None:
        return False, None
    side = side_held(request, tid, t, game)
    if side is not None:
        return True, side
    return await is_organiser(request, tid), None


async def may_score(request: Request, tid: int, t: Tournament, game: Game) -> bool:
    return (await scorer(request, tid, t, game))[0]


def hands_in_words(lang: str, numbers: list[int] | tuple[int, ...]) -> str:
    """Hand numbers as a sentence says them: "hand 1", "hands 1 and 2", "hands 1 to 3",
    "hands 1, 2 and 4" (a run of three or more is said by its ends)."""
    if len(numbers) == 1:
        return translate(lang, "tournament.web.pending_hand", hand=numbers[0])
    if len(numbers) > 2 and list(numbers) == list(range(numbers[0], numbers[-1] + 1)):
        return translate(lang, "tournament.web.pending_hand_range", first=numbers[0],
                         last=numbers[-1])
    return translate(lang, "tournament.web.pending_hands",
                     hands=join_list((str(n) for n in numbers[:-1]), lang), last=numbers[-1])


def _pending_text(lang: str, claim: Claim, numbers: list[int]) -> str:
    """What awaits the other side, or what it disputed, in words."""
    parts = []
    if numbers:
        parts.append(hands_in_words(lang, numbers))
    if claim.totals is not None:
        parts.append(translate(lang, "tournament.web.pending_totals", ns=claim.totals[0],
                               ew=claim.totals[1]))
    # Disputed: said from no side's point of view (both sides read it), and no more the
    # call to confirm.
    key = "tournament.web.disputed_pending" if claim.disputed else "tournament.web.pending"
    return translate(lang, key, side=side_names(lang)[claim.side],
                     other=side_names(lang)[1 - claim.side],
                     what="; ".join(parts), reason=claim.dispute or "—")


def _totals_text(lang: str, sheet: ScoreSheet, counted: int, claim: Claim | None) -> str:
    """The match's totals as they count (the confirmed hands'), and apart what would change
    them once confirmed: a figure that counts unconfirmed hands would be read as the score."""
    entered = sheet.totals
    hands_wait = counted < len(sheet.hands)
    if not hands_wait and (claim is None or claim.totals is None):
        return translate(lang, "tournament.web.totals", ns=entered[0], ew=entered[1])
    # The totals run hand by hand: the last confirmed hand's are the confirmed ones.
    confirmed = sheet.hands[counted - 1].totals if counted else (0, 0)
    said = [translate(lang, "tournament.web.totals_confirmed", ns=confirmed[0],
                      ew=confirmed[1])]
    if hands_wait:
        said.append(translate(lang, "tournament.web.totals_with_unconfirmed", ns=entered[0],
                              ew=entered[1]))
    if claim is not None and claim.totals is not None:
        said.append(translate(lang, "tournament.web.totals_typed_unconfirmed",
                              ns=claim.totals[0], ew=claim.totals[1]))
    return " ".join(said)


async def entry_page(request: Request) -> Response:
    tid, t = await tournament(request)
    game = game_or_404(t, request)
    lang = language(request)
    texts: dict[str, str] = entry_state(request, tid, game)["answers"]
    values = parsed(t, texts)
    rules = tournament_rules(t.s)
    sheet = t.entered_sheet(game.id)
    counted = t.counted(game.id)
    may_enter, side = await scorer(request, tid, t, game)
    claim = t.claims.get(game.id) if game.result is None else None
    numbers = [h.number for h in sheet.hands[counted:]]
    blocked = claim is not None and (claim.disputed or side != claim.side
                                     or claim.totals is not None)
    asked = steps(rules, values.get("trump"))
    step = asked[len(texts)] if len(texts) < len(asked) else None
    prefill = ""
    hint = None
    if step == "tricks_ew":
        other = derived(t, values)
        if other is not None:
            prefill = str(other)
            hint = translate(lang, "tournament.web.derived", points=other)
    number = entry_state(request, tid, game).get("number") or sheet.next_number
    # A best-of-3 match is entered game by game, as final totals (not hand by hand): the
    # page says which game of the match they are for.
    match = t.s.best_of > 1
    wins = [sum(1 for leg in game.legs if leg.winner == n) for n in (0, 1)]
    return await render(request, "tournament_entry.html", tid=tid, tour=t, game=game,
                        sheet=sheet,
                        step=None if blocked or sheet.finished or match else step,
                        leg=len(game.legs) + 1 if match else None, leg_wins=wins,
                        answered=len(texts), number=number,
                        question=question(rules, step, number, lang) if step else "",
                        prefill=prefill, hint=hint, may_enter=may_enter, side=side,
                        sides=side_names(lang), claim=claim, code_kind=code_kind(game),
                        match_totals=_totals_text(lang, sheet, counted, claim),
                        pending=_pending_text(lang, claim, numbers) if claim else "",
                        # the same phone confirms with a code of the other side
                        needs_code=claim is not None and side in (None, claim.side),
                        refused_form=_refused_form(request, tid, game),
                        may_undo=may_enter and bool(sheet.hands) and (
                            side is None or (claim is not None and claim.side == side
                                             and bool(numbers) and not claim.disputed)),
                        hands=[(h.number, h.scores, h.totals, h.number > counted)
                               for h in sheet.hands])


async def _answer(request: Request, tid: int, t: Tournament, game: Game,
                  texts: dict[str, str], data: FormData, number: int,
                  side: int | None) -> dict[str, str]:
    """The next question's answer taken; the hand recorded once all are answered.  Returns
    the answers kept (none once recorded; those before the first field at fault when the
    hand is refused)."""
    values = parsed(t, texts)
    rules = tournament_rules(t.s)
    asked = steps(rules, values.get("trump"))
    step = asked[len(texts)]
    text = form_text(data, "answer", ANSWER)
    values[step] = parsers(t, values)[step](text)
    texts[step] = text
    asked = steps(rules, values.get("trump"))
    if len(texts) < len(asked):
        return texts
    row = entry_row(_entry(values, number), rules)
    try:
        await service(request).change(tid, "hand", {"game": game.id, "row": row,
                                                    "side": side}, who(request))
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
    may_enter, side = await scorer(request, tid, t, game)
    if not may_enter:
        raise HTTPException(403)
    state = entry_state(request, tid, game)
    texts: dict[str, str] = dict(state["answers"])
    what = ""
    try:
        what = form_choice(data, "do", DOS, default="next")
        if not texts:
            # The hand this scorer means: a second entry of it (another phone's) is
            # refused, or stored once when identical.
            state["number"] = _hand_number(data, t.entered_sheet(game.id).next_number)
        if what == "back":
            if texts:
                texts.popitem()
        elif what == "undo":
            texts = {}
            await service(request).change(tid, "unhand", {"game": game.id, "side": side},
                                          who(request))
        elif what == "totals":
            if side is None:  # the organiser's own form is the console's
                raise HTTPException(403)
            await service(request).change(tid, "totals", {
                "game": game.id, "side": side,
                "totals": [form_int(data, "total_ns"), form_int(data, "total_ew")]},
                who(request))
            say(request, translate(lang, "tournament.web.totals_pending",
                                   other=side_names(lang)[1 - side]))
        elif what in ("confirm", "dispute"):
            await _confirm(request, tid, t, game, side, data, what)
        else:
            texts = await _answer(request, tid, t, game, texts, data,
                                  int(state["number"]), side)
    except ScoreError as error:
        say(request, refusal_text(error, lang), True)
    except TournamentError as error:
        if error.code == "hand_entered_same":
            say(request, error_text(lang, error))  # done already: not a refusal
        else:
            say(request, error_text(lang, error), True)
        if error.code.startswith("hand_entered"):
            texts = {}
        if what in REFOCUSED:  # back to that form's field, the totals as typed
            request.session[REFUSED] = {
                "key": f"{tid}/{game.id}", "form": what,
                "code": error.code in CODE_REFUSALS,  # the code's field, else the form's
                "totals": [str(data.get(f"total_{s}", ""))[:TOTAL_DIGITS] for s in ("ns", "ew")]}
    if not texts and what != "back":
        state.pop("number", None)
    state["answers"] = texts
    request.session["tournament_entry"] = state
    return back_to(here)


def _refused_form(request: Request, tid: int, game: Game) -> dict[str, Any] | None:
    """The form of this game a refusal came from (said once): the page focuses its field,
    which the refusal describes, so that a slip is corrected where it was made; refused
    totals come back as typed (``totals``)."""
    kept = request.session.pop(REFUSED, None)
    if not isinstance(kept, dict) or kept.get("key") != f"{tid}/{game.id}" or \
            kept.get("form") not in REFOCUSED:
        return None
    typed = kept.get("totals")
    if not isinstance(typed, list) or len(typed) != 2 or \
            not all(isinstance(x, str) for x in typed):
        typed = ["", ""]
    return {"form": kept["form"], "totals": typed, "code": kept.get("code") is True}


def _hand_number(data: FormData, expected: int) -> int:
    """The hand the entry form was for (its hidden field; none: the next to enter)."""
    text = form_value(data, "hand").strip()
    if not text:
        return expected
    if not WHOLE.fullmatch(text) or not 0 < int(text) <= MAX_HAND:
        raise TournamentError("bad_form")
    return int(text)


async def _confirm(request: Request, tid: int, t: Tournament, game: Game, side: int | None,
                   data: FormData, what: str) -> None:
    """The other side confirms or disputes what stands: on their own phone (their side
    is this browser's), or on the scorer's, with a code of theirs typed (checked and
    counted as any code, never kept in this browser)."""
    lang = language(request)
    claim = t.claims.get(game.id)
    typed = form_text(data, "code", CODE)
    if claim is not None and side in (None, claim.side):
        if not typed:
            raise TournamentError("code_of_other_side",
                                  other=side_names(lang)[1 - claim.side])
        side = await typed_side(request, tid, game, typed)
        if side is None:
            raise wrong_code(game, typed)
    seen = _seen_totals(form_value(data, "totals").strip())
    change = {"game": game.id, "side": side, "hands": form_int(data, "hands"),
              "totals": seen, "reason": form_text(data, "reason", REASON)}
    if what == "confirm":
        change.pop("reason")
        await service(request).change(tid, "confirmed", change, who(request))
        say(request, translate(lang, "tournament.web.confirmed_done"))
    else:
        await service(request).change(tid, "disputed", change, who(request))
        say(request, translate(lang, "tournament.web.disputed_done"))


def _seen_totals(text: str) -> list[int] | None:
    """The pending totals the confirming player saw (the page's hidden "a-b"); a field
    that is not two whole numbers is refused (``bad_form``), never a server error."""
    if not text:
        return None
    parts = text.split("-")
    if len(parts) != 2 or not all(WHOLE.fullmatch(p) and p.isdecimal() for p in parts):
        raise TournamentError("bad_form")
    return [int(p) for p in parts]


async def resolve(request: Request) -> Response:
    """An organiser decides a line of the queue: accept (it counts) or reject (the
    pending entries are dropped), with a reason."""
    tid, t = await tournament(request)
    data = await read_form(request)
    game = game_or_404(t, request)
    lang = language(request)
    if not await is_organiser(request, tid):
        return not_organiser(request, tid)
    try:
        await service(request).change(tid, "resolved", {
            "game": game.id, "accept": form_choice(data, "decision", DECISIONS) == "accept",
            "reason": form_text(data, "reason", REASON)}, who(request))
    except TournamentError as error:
        say(request, error_text(lang, error), True)
    else:
        say(request, translate(lang, "tournament.web.changed"))
    return back_to(f"/tournaments/{tid}?at=queue#queue-heading")


async def entry_check(request: Request) -> Response:
    """One field's check as it is typed (the page's script): the refusal, or nothing."""
    tid, t = await tournament(request)
    game = game_or_404(t, request)
    if not await may_score(request, tid, t, game):
        return JSONResponse({"ok": False, "text": ""}, status_code=403)
    state = entry_state(request, tid, game)
    value = request.query_params.get("value", "")
    if len(value) > ANSWER:  # refused unread, as the form's answer is
        return JSONResponse({"ok": False, "text": translate(
            language(request), "tournament.error.text_too_long", limit=ANSWER)})
    try:
        values = parsed(t, state["answers"])
        rules = tournament_rules(t.s)
        asked = steps(rules, values.get("trump"))
        step = asked[len(state["answers"])]
        parsers(t, values)[step](value)
    except ScoreError as error:
        return JSONResponse({"ok": False, "text": refusal_text(error, language(request))})
    except (IndexError, TournamentError):
        return JSONResponse({"ok": False, "text": ""})
    return JSONResponse({"ok": True, "text": translate(language(request),
                                                       "tournament.web.ok")})


def _entry(values: dict[str, Any], number: int | None = None) -> HandEntry:
    return fold_belote(HandEntry(
        taker=values["taker"], trump=values["trump"], level=values.get("level", 0),
        double=values.get("double", 0), tricks=(values["tricks_ns"], values["tricks_ew"]),
        capot=values.get("capot"),
        declarations=(values.get("decl_ns", Declared()), values.get("decl_ew", Declared())),
        belote=values.get("belote"), number=number))
