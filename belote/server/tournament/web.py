"""The tournament pages: the organiser's console, the public standings (live, with a
projector mode), each entrant's history, printable score sheets, the CSV export, and the
score entry of a table playing with real cards.

Roles: only the tournament's organisers (signed-in accounts: the creator and the
co-organisers it adds) change a tournament, print the table cards (with the seat codes) and
download the results CSV; anyone may read the standings, histories and blank score sheets.
A player is identified by their seat code (:mod:`belote.tournament.codes`), never by a name
typed at sign-in: the code, given at the table (a QR code on the table card), lets that
person score the game with real cards or take that seat at its online table.  Wrong codes
are counted per browser session, per game at an address and per address (the app's
:class:`~belote.server.limits.CodeGuesses`, configured in ``Settings``): a person's own
mistakes hold them back, and other people's at the same venue do not, short of a flood.
The scorer's undo stops at the recorded result: only an organiser corrects it (with a
reason).  Every change goes through the tournament's event log, which is its audit log.
Forms work without scripts; two small scripts only add the live standings and the check of
each field as it is typed.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from belote.i18n import translate
from belote.rules import PRESETS
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
from belote.server.limits import CodeGuesses
from belote.server.persistence import SessionRow
from belote.text import TextError, clean_text
from belote.tournament.codes import fresh_codes, seat_of, seat_of_account, shown
from belote.tournament.events import Tournament
from belote.tournament.export import write_results
from belote.tournament.formats import format_names
from belote.tournament.model import Game, TournamentError
from belote.tournament.sheets import tournament_rules
from belote.tournament.standings import entrant_records, standings
from belote.tournament.text import error_text, game_line

Handler = Callable[[Request], Awaitable[Response]]
SESSION_CODES = 8  # seat codes one browser remembers (the latest kept)
ACCOUNT_NAME = 64  # characters of an account name typed by an organiser (names have 24)
SEATS = (("seat.north", "seat.south"), ("seat.east", "seat.west"))  # side 0: N-S, 1: E-W


@dataclass(frozen=True)
class Pages:
    """What the app lends the tournament pages (``app.py``'s helpers)."""

    render: Callable[..., Response]
    form: Callable[[Request], Awaitable[FormData]]
    session: Callable[[Request], SessionRow | None]
    identity: Callable[[Request], tuple[str, str] | None]
    language: Callable[[Request], str]
    seat_codes: CodeGuesses  # the limit on wrong seat codes (Settings.seat_code_*)


def _int(data: FormData, name: str) -> int:
    try:
        return int(str(data.get(name, "")).strip())
    except ValueError:
        raise TournamentError("bad_form") from None


def _optional_int(data: FormData, name: str) -> int | None:
    return None if not str(data.get(name, "")).strip() else _int(data, name)


def tournament_routes(room: Any, pages: Pages) -> list[Route]:
    troom = room.tournaments
    service = troom.service

    def lang_of(request: Request) -> str:
        return pages.language(request)

    def say(request: Request, text: str, error: bool = False) -> None:
        request.session["tournament_flash"] = [text, error]

    def back_to(request: Request, to: str) -> Response:
        return RedirectResponse(to, status_code=303)

    async def render(request: Request, template: str, status: int = 200,
                     **values: Any) -> Response:
        """The page, rendered in a worker thread: a big tournament's console (every entrant,
        game and audit line) would hold the event loop for tens of milliseconds."""
        flash = request.session.pop("tournament_flash", None)
        return await asyncio.to_thread(pages.render, request, template, status=status,
                                       notice=flash, **values)

    async def tournament(request: Request) -> tuple[int, Tournament]:
        tid = int(request.path_params["tid"])
        try:
            return tid, await service.get(tid)
        except TournamentError:
            raise HTTPException(404) from None

    async def is_organiser(request: Request, tid: int) -> bool:
        row = pages.session(request)
        if row is None or row.account is None:
            return False
        return row.name_key in await service.store.organisers(tid)

    def who(request: Request) -> str:
        row = pages.session(request)
        return row.name if row is not None else ""

    def address(request: Request) -> str:
        return request.client.host if request.client else "unknown"

    def seat_held(request: Request, tid: int, t: Tournament,
                  game: Game) -> tuple[int, int] | None:
        """The seat of ``game`` that this person holds: by the seat code this browser gave
        (still that seat's), or by the account an organiser bound to the seat's player."""
        codes = request.session.get("tournament_codes")
        code = codes.get(f"{tid}/{game.id}") if isinstance(codes, dict) else None
        if isinstance(code, str) and game.codes:
            found = seat_of(game, code)
            if found is not None:
                return found
        row = pages.session(request)
        if row is None or row.account is None:
            return None
        return seat_of_account(game, t.entrants, row.name_key)

    # ------------------------------------------------------------------ list and create
    async def index(request: Request) -> Response:
        row = pages.session(request)
        return await render(request, "tournament_list.html", rows=await service.store.list(),
                      formats=format_names(), presets=list(PRESETS),
                      may_create=row is not None and row.account is not None)

    async def create(request: Request) -> Response:
        data = await pages.form(request)
        row = pages.session(request)
        lang = lang_of(request)
        if row is None or row.account is None:
            say(request, translate(lang, "tournament.error.account_needed"), True)
            return back_to(request, "/tournaments")
        try:
            settings = {
                "name": str(data.get("name", "")), "format": str(data.get("format", "")),
                "preset": str(data.get("preset", "")), "target": _int(data, "target"),
                "rounds": _int(data, "rounds"), "deals": _optional_int(data, "deals"),
                "rank_by": str(data.get("rank_by", "wins")),
                "bye_points": _optional_int(data, "bye_points") or 0,
                "standins": data.get("standins") == "on"}
            tid = await service.create(settings, row.name_key)
        except TournamentError as error:
            say(request, error_text(lang, error), True)
            return back_to(request, "/tournaments")
        return back_to(request, f"/tournaments/{tid}")

    # ------------------------------------------------------------------ the console
    async def console(request: Request) -> Response:
        tid, t = await tournament(request)
        if not await is_organiser(request, tid):
            return back_to(request, f"/tournaments/{tid}/standings")
        lang = lang_of(request)
        playing = [g for g in t.current.games if g.playing] if t.current else []
        audit = list(reversed(t.audit))
        lines = await asyncio.to_thread(standings, t)
        return await render(request, "tournament_console.html", tid=tid, tour=t, s=t.s,
                      playing=playing, audit=audit, lines=lines, clubs=sorted(t.clubs()),
                      line=lambda g: game_line(lang, t, g), detail=_detail)

    actions: dict[str, Callable[[Request, int, Tournament, FormData], Awaitable[str]]] = {}

    def action(name: str) -> Callable[[Any], Any]:
        def register(fn: Any) -> Any:
            actions[name] = fn
            return fn
        return register

    @action("register")
    async def do_register(request: Request, tid: int, t: Tournament, data: FormData) -> str:
        def entrant(prefix: str) -> dict[str, Any]:
            players = [str(data.get(f"{prefix}player{n}", "")) for n in t.fmt.player_numbers]
            return {"name": str(data.get(f"{prefix}name", "")), "players": players,
                    "club": str(data.get("club", "")) or None, "checked_in": False}
        group = [entrant(prefix) for prefix in t.fmt.entry_prefixes]
        await service.change(tid, "registered", {"entrants": group}, who(request))
        return "tournament.web.changed"

    @action("checkin")
    async def do_checkin(request: Request, tid: int, t: Tournament, data: FormData) -> str:
        await service.change(tid, "checked_in", {"entrant": _int(data, "entrant")},
                             who(request))
        return "tournament.web.changed"

    @action("bind")
    async def do_bind(request: Request, tid: int, t: Tournament, data: FormData) -> str:
        """Bind a registered player to an account (its name; empty: unbind): signed in with
        it, the player scores and takes their seats with no code."""
        from belote.server.auth.names import name_key

        name = _account_name(data, "account")
        key = name_key(name) if name else ""
        if key and await room.store.account_by_key(key) is None:
            raise TournamentError("no_account", name=name)
        await service.change(tid, "bound", {"entrant": _int(data, "entrant"),
                                            "player": _int(data, "player"),
                                            "account": key}, who(request))
        return "tournament.web.changed"

    @action("draw")
    async def do_draw(request: Request, tid: int, t: Tournament, data: FormData) -> str:
        await service.draw(tid, who(request))
        return "tournament.web.changed"

    @action("tables")
    async def do_tables(request: Request, tid: int, t: Tournament, data: FormData) -> str:
        await troom.open_tables(tid, who(request))
        return "tournament.web.changed"

    @action("result")
    async def do_result(request: Request, tid: int, t: Tournament, data: FormData) -> str:
        totals = [_int(data, "total_a"), _int(data, "total_b")]
        await service.record(tid, _int(data, "game"), totals, "organiser", who(request))
        return "tournament.web.changed"

    @action("correct")
    async def do_correct(request: Request, tid: int, t: Tournament, data: FormData) -> str:
        await service.change(tid, "corrected", {
            "game": _int(data, "game"), "totals": [_int(data, "total_a"), _int(data, "total_b")],
            "reason": str(data.get("reason", ""))}, who(request))
        return "tournament.web.changed"

    @action("adjust")
    async def do_adjust(request: Request, tid: int, t: Tournament, data: FormData) -> str:
        await service.change(tid, "adjusted", {
            "subject": str(data.get("subject", "")), "points": _int(data, "points"),
            "reason": str(data.get("reason", ""))}, who(request))
        return "tournament.web.changed"

    @action("lineup")
    async def do_lineup(request: Request, tid: int, t: Tournament, data: FormData) -> str:
        """Seed 001: "Dopo ogni partita si possono sostituire ... i componenti della
        squadra": the players seated at a game, until its result (a new one, a new code)."""
        lineup = [[str(data.get(f"{side}{n}", "")) for n in (1, 2)] for side in ("a", "b")]
        await service.change(tid, "lineup", {"game": _int(data, "game"), "lineup": lineup},
                             who(request))
        return "tournament.web.changed"

    @action("close")
    async def do_close(request: Request, tid: int, t: Tournament, data: FormData) -> str:
        number = t.current.number if t.current else 0
        await service.change(tid, "closed", {"round": number}, who(request))
        return "tournament.web.changed"

    @action("organiser")
    async def do_organiser(request: Request, tid: int, t: Tournament, data: FormData) -> str:
        from belote.server.auth.names import name_key

        name = _account_name(data, "name")
        key = name_key(name)
        if not name or await room.store.account_by_key(key) is None:
            raise TournamentError("no_subject", subject=name)
        await service.store.add_organiser(tid, key)
        return "tournament.web.changed"

    async def change(request: Request) -> Response:
        tid, t = await tournament(request)
        data = await pages.form(request)
        lang = lang_of(request)
        fn = actions.get(request.path_params["action"])
        if fn is None:
            raise HTTPException(404)
        if not await is_organiser(request, tid):
            say(request, translate(lang, "tournament.error.not_organiser"), True)
            return back_to(request, f"/tournaments/{tid}/standings")
        try:
            done = await fn(request, tid, t, data)
        except TournamentError as error:
            say(request, error_text(lang, error), True)
        else:
            say(request, translate(lang, done))
        return back_to(request, f"/tournaments/{tid}")

    # ------------------------------------------------------------------ public pages
    async def standings_page(request: Request) -> Response:
        tid, t = await tournament(request)
        projector = request.query_params.get("projector") == "1"
        template = ("tournament_standings_table.html" if request.query_params.get("fragment")
                    else "tournament_standings.html")
        lines = await asyncio.to_thread(standings, t)
        return await render(request, template, tid=tid, tour=t, s=t.s, lines=lines,
                      projector=projector, organiser=await is_organiser(request, tid))

    async def history(request: Request) -> Response:
        tid, t = await tournament(request)
        entrant = t.entrants.get(int(request.path_params["eid"]))
        if entrant is None:
            raise HTTPException(404)
        lang = lang_of(request)
        games = [g for g in t.games() if any(entrant.id in side for side in g.sides)]
        rec = (await asyncio.to_thread(entrant_records, t))[entrant.id]
        return await render(request, "tournament_history.html", tid=tid, tour=t, entrant=entrant,
                      games=games, rec=rec, line=lambda g: game_line(lang, t, g))

    async def sheets(request: Request) -> Response:
        tid, t = await tournament(request)
        games = [g for g in (t.current.games if t.current else []) if not g.bye]
        return await render(request, "tournament_sheets.html", tid=tid, tour=t, games=games,
                      rows=range(1, 21))

    async def export(request: Request) -> Response:
        """Every result with the line-ups: the organisers' export (the standings are public,
        this file is not)."""
        tid, t = await tournament(request)
        if not await is_organiser(request, tid):
            say(request, translate(lang_of(request), "tournament.error.not_organiser"), True)
            return back_to(request, f"/tournaments/{tid}/standings")
        out = io.StringIO()
        await asyncio.to_thread(write_results, t, out, lang_of(request))
        return Response(out.getvalue(), media_type="text/csv; charset=utf-8", headers={
            "content-disposition": f'attachment; filename="tournament-{tid}.csv"',
            "cache-control": "private, no-store"})

    async def claim(request: Request) -> Response:
        """The holder of a seat code takes that seat at the game's online table."""
        tid, t = await tournament(request)
        await pages.form(request)
        identity = pages.identity(request)
        if identity is None:
            raise HTTPException(401)
        game = game_or_404(t, request)
        seat = seat_held(request, tid, t, game)
        if seat is None:
            say(request, translate(lang_of(request), "tournament.error.code_needed"), True)
            return back_to(request, f"/tournaments/{tid}/games/{game.id}/code")
        try:
            row = pages.session(request)
            table_id = await troom.claim(tid, game.id, seat, identity[0],
                                         row.account if row else None)
        except TournamentError as error:
            say(request, error_text(lang_of(request), error), True)
            return back_to(request, f"/tournaments/{tid}/standings")
        return back_to(request, f"/table/{table_id}")

    def game_or_404(t: Tournament, request: Request) -> Game:
        try:
            return t.game(int(request.path_params["gid"]))
        except TournamentError:
            raise HTTPException(404) from None

    # ------------------------------------------------------------------ seat codes
    async def code_page(request: Request) -> Response:
        tid, t = await tournament(request)
        game = game_or_404(t, request)
        # Table cards printed before the code moved to the fragment carry ``?c=``.
        typed = str(request.query_params.get("c", ""))[:32]
        return await render(request, "tournament_code.html", tid=tid, tour=t, game=game,
                      typed=typed, seat=seat_held(request, tid, t, game), seats=SEATS)

    async def code_post(request: Request) -> Response:
        tid, t = await tournament(request)
        data = await pages.form(request)
        game = game_or_404(t, request)
        lang = lang_of(request)
        here = f"/tournaments/{tid}/games/{game.id}/code"
        row = pages.session(request)
        if row is None:  # the code is kept with who gave it
            say(request, translate(lang, "tournament.web.code_sign_in"), True)
            return back_to(request, here)
        # A person's own wrong codes, and those typed for this game at this address, hold
        # back only them; the address's ceiling (a flood) holds back everyone there.
        client = address(request)
        narrow = (f"session:{row.id}", f"game:{tid}/{game.id}@{client}")
        if pages.seat_codes.refused(client, *narrow) is not None:
            say(request, translate(lang, "tournament.error.code_guesses"), True)
            return back_to(request, here)
        seat = seat_of(game, str(data.get("code", ""))[:32]) if game.codes else None
        if seat is None:
            pages.seat_codes.wrong(client, *narrow)
            say(request, translate(lang, "tournament.error.bad_code"), True)
            return back_to(request, here)
        codes = request.session.get("tournament_codes")
        codes = dict(codes) if isinstance(codes, dict) else {}
        codes.pop(f"{tid}/{game.id}", None)
        codes[f"{tid}/{game.id}"] = game.codes[seat[0]][seat[1]]
        request.session["tournament_codes"] = dict(list(codes.items())[-SESSION_CODES:])
        say(request, translate(lang, "tournament.web.code_ok", player=game.lineup[seat[0]][
            seat[1]], table=game.table, round=game.round))
        if game.table_id is not None and game.playing:
            return back_to(request, here)  # the page offers the seat at the online table
        return back_to(request, f"/tournaments/{tid}/games/{game.id}/entry")

    async def cards(request: Request) -> Response:
        """The table cards to print: each seat's player, code and QR code (organisers)."""
        tid, t = await tournament(request)
        if not await is_organiser(request, tid):
            say(request, translate(lang_of(request), "tournament.error.not_organiser"), True)
            return back_to(request, f"/tournaments/{tid}/standings")
        games = [g for g in (t.current.games if t.current else []) if not g.bye]
        for game in games:
            if not game.codes and game.playing:  # drawn before games had codes
                with contextlib.suppress(TournamentError):  # its round closed meanwhile
                    await service.change(tid, "codes", {
                        "game": game.id, "codes": fresh_codes(game.lineup)}, who(request))
        t = await service.get(tid)
        games = [g for g in (t.current.games if t.current else []) if not g.bye]
        base = str(request.base_url).rstrip("/")
        slips = await asyncio.to_thread(_slips, tid, games, base)
        return await render(request, "tournament_cards.html", tid=tid, tour=t, games=games,
                      slips=slips, seats=SEATS)

    # ------------------------------------------------------------------ score entry
    def entry_state(request: Request, tid: int, game: Game) -> dict[str, Any]:
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

    async def entry_page(request: Request) -> Response:
        tid, t = await tournament(request)
        game = game_or_404(t, request)
        lang = lang_of(request)
        state = entry_state(request, tid, game)
        texts: dict[str, str] = state["answers"]
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
                      prefill=prefill, hint=hint, may_enter=await may_enter(request, tid, t, game),
                      hands=[(h.number, h.scores, h.totals) for h in sheet.hands])

    async def may_enter(request: Request, tid: int, t: Tournament, game: Game) -> bool:
        """The table's scorer: an organiser, or one of the game's seated players, known by
        the seat code they gave or the account bound to them (a name typed at sign-in is no
        proof of who one is)."""
        if pages.session(request) is None:
            return False
        return (seat_held(request, tid, t, game) is not None
                or await is_organiser(request, tid))

    async def entry_post(request: Request) -> Response:
        tid, t = await tournament(request)
        data = await pages.form(request)
        lang = lang_of(request)
        game = game_or_404(t, request)
        here = f"/tournaments/{tid}/games/{game.id}/entry"
        if not await may_enter(request, tid, t, game):
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
                await service.change(tid, "unhand", {"game": game.id}, who(request))
            else:
                values = parsed(t, texts)
                rules = tournament_rules(t.s)
                asked = steps(rules, values.get("trump"))
                step = asked[len(texts)]
                text = str(data.get("answer", "")).strip()
                values[step] = parsers(t, values)[step](text)
                texts[step] = text
                asked = steps(rules, values.get("trump"))
                if len(texts) >= len(asked):
                    row = entry_row(_entry(values), rules)
                    try:
                        await service.change(tid, "hand", {"game": game.id, "row": row},
                                             who(request))
                        texts = {}
                    except ScoreError as error:
                        # As `belote score`: asked again from the first field at fault.
                        say(request, refusal_text(error, lang), True)
                        field = error.field.split("+")[0]
                        keep = asked.index(field) if field in asked else 0
                        texts = {k: texts[k] for k in asked[:keep]}
        except ScoreError as error:
            say(request, refusal_text(error, lang), True)
        except TournamentError as error:
            say(request, error_text(lang, error), True)
        state["answers"] = texts
        request.session["tournament_entry"] = state
        return back_to(request, here)

    async def entry_check(request: Request) -> Response:
        """One field's check as it is typed (the page's script): the refusal, or nothing."""
        tid, t = await tournament(request)
        game = game_or_404(t, request)
        if not await may_enter(request, tid, t, game):
            return JSONResponse({"ok": False, "text": ""}, status_code=403)
        state = entry_state(request, tid, game)
        try:
            values = parsed(t, state["answers"])
            rules = tournament_rules(t.s)
            asked = steps(rules, values.get("trump"))
            step = asked[len(state["answers"])]
            parsers(t, values)[step](request.query_params.get("value", ""))
        except ScoreError as error:
            return JSONResponse({"ok": False, "text": refusal_text(error, lang_of(request))})
        except (IndexError, TournamentError):
            return JSONResponse({"ok": False, "text": ""})
        return JSONResponse({"ok": True, "text": translate(lang_of(request),
                                                           "tournament.web.ok")})

    return [
        Route("/tournaments", index, methods=["GET"]),
        Route("/tournaments", create, methods=["POST"]),
        Route("/tournaments/{tid:id}", console, methods=["GET"]),
        Route("/tournaments/{tid:id}/do/{action}", change, methods=["POST"]),
        Route("/tournaments/{tid:id}/standings", standings_page, methods=["GET"]),
        Route("/tournaments/{tid:id}/entrants/{eid:id}", history, methods=["GET"]),
        Route("/tournaments/{tid:id}/sheets", sheets, methods=["GET"]),
        Route("/tournaments/{tid:id}/cards", cards, methods=["GET"]),
        Route("/tournaments/{tid:id}/games/{gid:id}/code", code_page, methods=["GET"]),
        Route("/tournaments/{tid:id}/games/{gid:id}/code", code_post, methods=["POST"]),
        Route("/tournaments/{tid:id}/results.csv", export, methods=["GET"]),
        Route("/tournaments/{tid:id}/games/{gid:id}/claim", claim, methods=["POST"]),
        Route("/tournaments/{tid:id}/games/{gid:id}/entry", entry_page, methods=["GET"]),
        Route("/tournaments/{tid:id}/games/{gid:id}/entry", entry_post, methods=["POST"]),
        Route("/tournaments/{tid:id}/games/{gid:id}/check", entry_check, methods=["GET"]),
    ]


def _account_name(data: FormData, field: str) -> str:
    """An account name typed by an organiser, through the chat's text checks before it is
    looked up ("" when empty): a NUL or an override never reaches the database."""
    text = str(data.get(field, "")).strip()
    if not text:
        return ""
    try:
        return clean_text(text, ACCOUNT_NAME)
    except TextError:
        raise TournamentError("bad_text") from None


def _entry(values: dict[str, Any]) -> HandEntry:
    return fold_belote(HandEntry(
        taker=values["taker"], trump=values["trump"], level=values.get("level", 0),
        double=values.get("double", 0), tricks=(values["tricks_ns"], values["tricks_ew"]),
        capot=values.get("capot"),
        declarations=(values.get("decl_ns", Declared()), values.get("decl_ew", Declared())),
        belote=values.get("belote")))


def _detail(data: dict[str, Any]) -> str:
    """An audit entry's data, short: the fields an organiser looks for (never the codes)."""
    keys = ("round", "game", "lineup", "totals", "was", "subject", "points", "reason",
            "entrant", "player", "account", "table_id")
    return ", ".join(f"{k}={data[k]}" for k in keys if k in data)


def _slips(tid: int, games: list[Game], base: str) -> dict[int, list[tuple[int, int, str,
                                                                          str, str]]]:
    """Per game, each seat's (side, seat, player, code as printed, QR code as inline SVG):
    the QR code opens the seat-code page with the code filled in (from the URL's fragment,
    by the page's script; without scripts the code is typed)."""
    import segno  # the server extra (README: dependencies)

    out: dict[int, list[tuple[int, int, str, str, str]]] = {}
    for game in games:
        rows = []
        for side_no, side in enumerate(game.lineup):
            for seat_no, player in enumerate(side):
                code = game.codes[side_no][seat_no] if game.codes else ""
                # In the fragment: never sent to the server (its access log) nor in a
                # Referer; the code page's script fills the field from it.
                url = f"{base}/tournaments/{tid}/games/{game.id}/code#c={code}"
                svg = segno.make(url, error="m").svg_inline(scale=3, omitsize=False)
                rows.append((side_no, seat_no, player, shown(code) if code else "", svg))
        out[game.id] = rows
    return out


__all__ = ["Pages", "tournament_routes"]
