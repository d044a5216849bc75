"""The Starlette application: pages, forms, and the two WebSocket endpoints.

Pages are rendered on the server (Jinja2) and work without scripts for the lobby; the table
page's small script (``static/table.js``) keeps its view in step over a WebSocket.  The
session cookie is signed (HttpOnly, SameSite=Lax, Secure unless turned off for plain-HTTP
tests) and holds the id of a session kept on the server (:mod:`belote.server.auth.sessions`),
plus the language and verbosity preferences.  Requests whose Host header is not one the room
serves are refused (DNS rebinding).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import secrets
from collections import Counter, OrderedDict
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.convertors import Convertor, register_url_convertor
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from belote.ai.plugins import label_failures, prepare_labels
from belote.i18n import LANGUAGES, messages, translate
from belote.i18n.announce import VERBOSITIES
from belote.i18n.flag_problems import refusal_detail
from belote.i18n.sheet import rule_sheet
from belote.rules import PRESETS
from belote.server import protocol as P
from belote.server.auth import (
    AuthError,
    PasswordHasherPool,
    RateLimiter,
    check_name,
    check_password,
    name_key,
    needs_rehash,
)
from belote.server.auth.devices import KnownDevices
from belote.server.auth.sessions import SCOPE_KEY, ServerSessions, Sessions, public_id
from belote.server.composition import build
from belote.server.config import Settings
from belote.server.connection import Connection
from belote.server.heavy import HeavyFailed, HeavyWork
from belote.server.keys import bindings_for_client, help_rows
from belote.server.levels import LEVELS, OWN_LEVELS
from belote.server.limits import BodyLimit, CodeGuesses, KeyedLimiter, Refusal, count_fields
from belote.server.lobby import page_number
from belote.server.persistence import Account, NameTaken, SessionRow
from belote.server.ratings.web import ratings_routes
from belote.server.replay_analysis import (
    AnalysisError,
    AnalysisUnavailable,
    StepError,
    analysis_json,
    count_steps,
    parse_step,
)
from belote.server.room import Room
from belote.server.seats import level_label
from belote.server.settings import (
    CATEGORIES,
    DECKS,
    PACE_MAX,
    THEMES,
    SettingsError,
    from_form,
    from_session,
)
from belote.server.table import Table, TableError
from belote.server.tournament.web import Pages as TournamentPages
from belote.server.tournament.web import tournament_routes
from belote.server.view import error_frame
from belote.text import TextError, clean_text

log = logging.getLogger(__name__)
HERE = Path(__file__).resolve().parent
SESSION_COOKIE = "sala"
MAX_FLAGS_TEXT = 2000  # characters of NAME=VALUE lines in the table form
MAX_TABLE_NAME = 40


class IdConvertor(Convertor[int]):
    """A table id in a path: at most nine digits, so that a huge number is a plain 404 (no
    overflow in the database driver)."""

    regex = "[0-9]{1,9}"

    def convert(self, value: str) -> int:
        return int(value)

    def to_string(self, value: int) -> str:
        return str(value)


register_url_convertor("id", IdConvertor())


class _Session:
    """SessionMiddleware built on first use, once the room has read its signing key."""

    def __init__(self, app: ASGIApp, room: Room, secure: bool) -> None:
        self.app = app
        self.room = room
        self.secure = secure
        self._inner: ASGIApp | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self._inner is None:
            if scope["type"] == "lifespan":
                await self.app(scope, receive, send)
                return
            self._inner = SessionMiddleware(
                self.app, secret_key=self.room.secret, session_cookie=SESSION_COOKIE,
                same_site="lax", https_only=self.secure, max_age=60 * 60 * 24 * 30,
            )
        await self._inner(scope, receive, send)


def language(conn: HTTPConnection) -> str:
    lang = conn.session.get("lang")
    if lang in LANGUAGES:
        return str(lang)
    header = conn.headers.get("accept-language", "")
    for part in header.split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return "en"


def _same_origin(conn: HTTPConnection, allowed: tuple[str, ...]) -> bool:
    origin = conn.headers.get("origin")
    if origin is None:
        return bool(conn.scope["type"] == "http")  # browsers always send Origin on WebSockets
    if origin in allowed:
        return True
    return urlsplit(origin).netloc == conn.headers.get("host", "")


def _local_target(data: FormData) -> str:
    """The form's ``next`` page, if it is a page of this site (never another host)."""
    target = str(data.get("next", "/"))
    return target if target.startswith("/") and not target.startswith("//") else "/"


def _session(conn: HTTPConnection) -> SessionRow | None:
    """The connection's live server session (see :class:`ServerSessions`), or None."""
    row = conn.scope.get(SCOPE_KEY)
    return row if isinstance(row, SessionRow) else None


def _identity(conn: HTTPConnection) -> tuple[str, str] | None:
    """(public id, name) of the signed-in person: the public id owns seats at tables."""
    row = _session(conn)
    return None if row is None else (public_id(row.id), row.name)


def _address(conn: HTTPConnection) -> str:
    # The peer's address; uvicorn replaces it with X-Forwarded-For only for the proxies
    # named by --forwarded-allow-ips.
    return conn.client.host if conn.client else "unknown"


def _when(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def create_app(settings: Settings | None = None) -> Starlette:
    settings = settings or Settings()
    # Replays, analyses and tournament draws: off the event loop, in a niced process.
    heavy = HeavyWork(settings)
    services = build(settings, offload=heavy.run)  # the room, the bus and the features
    room, lobby_feed = services.room, services.lobby
    # Lobby chat lines per person: a burst, then a steady rate (keys are forgotten when idle).
    lobby_chat = KeyedLimiter(settings.chat_burst, settings.chat_per_minute * 60)
    hour, keys = 3600.0, settings.limiter_max_keys
    login_by_name = RateLimiter(settings.login_attempts, settings.login_window, keys)
    login_by_address = RateLimiter(settings.login_address_attempts, settings.login_window, keys)
    signups = RateLimiter(settings.signups_per_hour, hour, keys)
    new_guests = RateLimiter(settings.guests_per_hour, hour, keys)
    passwords = PasswordHasherPool(settings.password_workers)
    sessions = Sessions(room.store, guest_idle=timedelta(hours=settings.guest_idle_hours),
                        account_idle=timedelta(days=settings.session_days))
    devices = KnownDevices(lambda: room.secret, secure=settings.secure_cookies)
    # Requests refused by a limit of this module, by reason (each is logged too).
    refusals: Counter[str] = Counter()
    # Wrong codes: invitation codes per address (guessing one is then hopeless), seat codes
    # per session, per game at an address and per address; one mechanism, counted in
    # ``refusals`` (belote/server/limits.py).
    code_guesses = CodeGuesses("code_guesses", settings.code_guesses_per_minute,
                               settings.code_guesses_per_minute, 60.0, refusals, keys)
    seat_codes = CodeGuesses("seat_code_guesses", settings.seat_code_guesses,
                             settings.seat_code_guesses_per_address, settings.seat_code_window,
                             refusals, keys)
    # Who may see a finished match's replay: (private, owners), read once from its log.
    replay_access: OrderedDict[int, tuple[bool, frozenset[str]]] = OrderedDict()
    def close_sockets(ids: list[str]) -> None:
        room.disconnect({public_id(i) for i in ids})

    sessions.on_end.append(close_sockets)
    env = Environment(loader=FileSystemLoader(HERE / "templates"),
                      autoescape=select_autoescape(["html"]))

    def render(request: Request, template: str, status: int = 200, **values: Any) -> Response:
        lang = language(request)

        def t(key: str, **kw: Any) -> str:
            return translate(lang, key, **kw)

        identity = _identity(request)
        flash = request.session.pop("flash", None)
        detail = request.session.pop("flash_detail", None)
        if flash and detail:
            flash_text: str | None = t("error.web.bad_rules_detail", detail=detail)
        else:
            flash_text = t(f"error.web.{flash}") if flash else None
        html = env.get_template(template).render(
            t=t, level_label=lambda level: level_label(lang, level), lang=lang,
            languages=LANGUAGES, me=identity[1] if identity else None,
            account=getattr(_session(request), "account", None), verbosity=request.session.get(
                "verbosity", "normal"), verbosities=VERBOSITIES, path=request.url.path,
            flash=flash_text,
            settings=from_session(request.session.get("settings"), settings.default_pace),
            categories=CATEGORIES,
            pace_max=PACE_MAX, themes=THEMES, decks=DECKS, **values,
        )
        return HTMLResponse(html, status_code=status)

    def back(request: Request, to: str, error: str | None = None) -> Response:
        if error:
            request.session["flash"] = error
        return RedirectResponse(to, status_code=303)

    async def form(request: Request) -> FormData:
        """The form of a POST from this site.  Its body is capped (BodyLimit: 413) and its
        fields are counted as sent, empty ones too (400), before the form parser sees it:
        what is parsed costs the event loop a few milliseconds at most."""
        if not _same_origin(request, settings.allowed_origins):
            raise HTTPException(403, "cross-origin form")
        body = await request.body()
        if count_fields(body, request.headers.get("content-type", "")) > (
                settings.max_form_fields):
            log.warning("form refused: more than %d fields to %s from %s",
                        settings.max_form_fields, request.url.path, _address(request))
            refusals["too_many_fields"] += 1
            raise Refusal(400, "limits.too_many_fields")
        return await request.form(max_files=0, max_fields=settings.max_form_fields,
                                  max_part_size=settings.max_body_bytes)

    def signed_in(request: Request) -> tuple[str, str]:
        identity = _identity(request)
        if identity is None:
            raise HTTPException(401)
        return identity

    async def start_session(request: Request, name: str, key: str,
                            account: int | None) -> None:
        """A new server session for this browser, ending its previous one (a new id at every
        sign-in); language and verbosity stay.  A guest's name taken meanwhile by another
        live guest: ``AuthError("name_in_use")``."""
        current = _session(request)
        row = await sessions.start(
            name, key, account, user_agent=request.headers.get("user-agent", ""),
            address=_address(request), replacing=current.id if current else None)
        kept: dict[str, Any] = {k: request.session[k] for k in ("lang", "verbosity", "settings")
                                if k in request.session}
        request.session.clear()
        request.session.update(kept, sid=row.id)
        request.scope[SCOPE_KEY] = row

    def refused(request: Request, template: str, status: int, code: str,
                **values: Any) -> Response:
        return render(request, template, status=status, error=translate(
            language(request), f"error.web.{code}"), message=translate(
            language(request), f"error.web.{code}"), **values)

    # ------------------------------------------------------------------ pages
    def lobby_strings(lang: str) -> str:
        """The sentences the live list builds rows with (``static/lobby.js``), as patterns."""
        found = {key: text for key, text in messages(lang).items()
                 if key.startswith(("web.lobby.", "web.seat.", "web.level.", "lobby."))}
        # plug-in levels have no message: their label is the bot's name
        found.update({f"web.level.{level}": level_label(lang, level) for level in LEVELS})
        return json.dumps({"strings": found, "levels": list(LEVELS)}, ensure_ascii=False)

    def lobby_page(request: Request) -> dict[str, Any] | Response:
        try:
            number = page_number(request.query_params.get("page"))
        except ValueError:
            return render(request, "error.html", status=400, message=translate(
                language(request), "lobby.error.bad_page"))
        identity = _identity(request)
        return lobby_feed.page(language(request), identity[0] if identity else None, number)

    async def lobby(request: Request) -> Response:
        page = lobby_page(request)
        if isinstance(page, Response):
            return page
        finished = await room.store.list_tables("finished", limit=20)
        return render(request, "lobby.html", listing=page, tables=page["tables"],
                      presets=list(PRESETS), levels=LEVELS, finished=[r.id for r in finished],
                      lobby_data=lobby_strings(language(request)))

    async def tables_fragment(request: Request) -> Response:
        page = lobby_page(request)
        if isinstance(page, Response):
            return page
        return render(request, "_tables.html", listing=page, tables=page["tables"],
                      levels=LEVELS)

    async def guest(request: Request) -> Response:
        data = await form(request)
        address_key = f"ip:{_address(request)}"
        if new_guests.blocked(address_key):
            return refused(request, "error.html", 429, "guest_limited")
        try:
            name = check_name(str(data.get("name", "")))
        except AuthError as error:
            return back(request, "/", error.code)
        key, current = name_key(name), _session(request)
        holder = await sessions.guest_holding(key)
        if holder is not None and (current is None or holder != current.id):
            if room.connected(public_id(holder)):
                return back(request, "/", "name_in_use")
            # Names are unique among connected guests: one who left (no socket open) does
            # not keep the name from a newcomer; their old session ends.
            log.info("guest name %r passes to a newcomer: its holder is not connected", name)
            await sessions.end(holder)
        if await room.store.account_by_key(key) is not None:
            return back(request, "/", "name_registered")
        new_guests.hit(address_key)
        try:
            await start_session(request, name, key, None)
        except AuthError as error:
            return back(request, "/", error.code)
        # A sign-up may have taken the name between the check and the claim: look again.
        if await room.store.account_by_key(key) is not None:
            await sessions.end(request.session.pop("sid"))
            return back(request, "/", "name_registered")
        return back(request, "/")

    async def login_page(request: Request) -> Response:
        mode = "register" if request.url.path == "/register" else "login"
        return render(request, "login.html", mode=mode)

    async def login(request: Request) -> Response:
        data = await form(request)
        name = " ".join(str(data.get("name", "")).split())
        password = str(data.get("password", ""))[:1024]
        address_key, name_limit_key = f"ip:{_address(request)}", f"name:{name_key(name)}"
        if login_by_address.blocked(address_key):
            return refused(request, "login.html", 429, "rate_limited", mode="login")
        found = await room.store.account_by_key(name_key(name))
        if found is not None and found.name != name:
            # Two old accounts that fold alike (migration 0002): the exact name wins.
            exact = await room.store.user(name)
            if exact is not None:
                found = Account(exact[0], name, exact[1])
        # The owner's own browser is not held back by a block on the name.
        known = found is not None and devices.account(request) == found.id
        if not known and login_by_name.blocked(name_limit_key):
            return refused(request, "login.html", 429, "rate_limited", mode="login")
        # An unknown name is checked against a dummy hash: the answer takes as long.
        if not await passwords.verify(found.password_hash if found else None, password):
            login_by_address.fail(address_key)
            if not known:
                login_by_name.fail(name_limit_key)
            return refused(request, "login.html", 401, "bad_login", mode="login")
        assert found is not None
        login_by_name.clear(name_limit_key)
        if needs_rehash(found.password_hash):
            await room.store.set_password_hash(found.id, await passwords.hash(password))
        await start_session(request, found.name, name_key(found.name), found.id)
        return devices.remember(back(request, "/"), found.id)

    async def register(request: Request) -> Response:
        data = await form(request)
        address_key = f"ip:{_address(request)}"
        if signups.blocked(address_key):
            return refused(request, "login.html", 429, "signup_limited", mode="register")
        try:
            name = check_name(str(data.get("name", "")))
            password = check_password(str(data.get("password", "")))
        except AuthError as error:
            return refused(request, "login.html", 400, error.code, mode="register")
        key, current = name_key(name), _session(request)
        holder = await sessions.guest_holding(key)
        if holder is not None and (current is None or holder != current.id):
            if room.connected(public_id(holder)):
                return refused(request, "login.html", 409, "name_in_use", mode="register")
            await sessions.end(holder)  # a guest who left does not keep the name
            holder = None
        signups.hit(address_key)
        # Hold the name among guests while the account is made, so that no guest takes it
        # between the check above and the insert.
        reserved = sessions.reserve(key) if holder is None else None
        try:
            account = await room.store.add_user(name, await passwords.hash(password), key)
        except NameTaken:
            return refused(request, "login.html", 409, "name_taken", mode="register")
        finally:
            if reserved is not None:
                sessions.unreserve(reserved)
        await start_session(request, name, key, account)
        return devices.remember(back(request, "/"), account)

    async def logout(request: Request) -> Response:
        await form(request)
        current = _session(request)
        if current is not None:
            await sessions.end(current.id)
        request.session.pop("sid", None)  # language, verbosity and settings stay
        return back(request, "/")

    def own_account(request: Request) -> SessionRow:
        current = _session(request)
        if current is None or current.account is None:
            raise HTTPException(401)
        return current

    async def account_page(request: Request) -> Response:
        current = own_account(request)
        assert current.account is not None
        rows = await sessions.of_account(current.account)
        return render(request, "account.html", current=public_id(current.id), sessions=[
            {"id": public_id(r.id), "created": _when(r.created), "seen": _when(r.last_seen),
             "agent": r.user_agent, "address": r.address} for r in rows])

    async def end_session(request: Request) -> Response:
        data = await form(request)
        current = own_account(request)
        assert current.account is not None
        target = str(data.get("session", ""))
        if data.get("others") is not None:
            await sessions.end_others(current.account, current.id)
            return back(request, "/account")
        rows = await sessions.of_account(current.account)
        match = next((r for r in rows if public_id(r.id) == target), None)
        if match is None:
            return back(request, "/account", "no_session")
        await sessions.end(match.id)
        if match.id == current.id:
            request.session.pop("sid", None)
            return back(request, "/")
        return back(request, "/account")

    async def preferences(request: Request) -> Response:
        data = await form(request)
        lang, verbosity = data.get("lang"), data.get("verbosity")
        # The table page saves in place (fetch, ``Accept: application/json``): no reload, so
        # the moves waiting for its pace and the moves it holds are kept (docs/room.md).
        in_place = "application/json" in request.headers.get("accept", "")
        if data.get("settings") == "1":  # the table settings were on the form
            try:
                chosen = from_form(str(data.get("pace", "0")),
                                   [str(c) for c in data.getlist("speak")],
                                   str(data.get("sounds")) if data.get("sounds") else None,
                                   str(data.get("volume", "50")),
                                   str(data.get("theme", "light")), str(data.get("deck", "two")))
            except SettingsError as error:  # nothing changes, the player is told why
                if in_place:
                    return JSONResponse({"error": translate(language(request),
                                                            f"error.web.{error.code}")}, 400)
                return back(request, _local_target(data), error.code)
            request.session["settings"] = chosen.to_session()
        if lang in LANGUAGES:
            request.session["lang"] = lang
        if verbosity in VERBOSITIES:
            request.session["verbosity"] = verbosity
        if in_place:
            return JSONResponse({
                "settings": json.loads(from_session(request.session.get("settings"),
                                                    settings.default_pace).to_json()),
                "lang": language(request),
                "verbosity": request.session.get("verbosity", "normal"),
                "saved": translate(language(request), "web.js.prefs_saved")})
        return back(request, _local_target(data))

    async def create(request: Request) -> Response:
        data = await form(request)
        uid, _ = signed_in(request)
        preset = str(data.get("preset", ""))
        if preset not in PRESETS:
            return back(request, "/", "bad_preset")
        try:
            flags = str(data.get("flags", ""))
            texts = clean_text(flags, MAX_FLAGS_TEXT, multiline=True).splitlines() if (
                flags.strip()) else []
            target = str(data.get("target", "")).strip()
            if target:
                texts.append(f"target_score={clean_text(target, 32)}")
        except TextError:
            return back(request, "/", "bad_rules")
        try:
            name_text = str(data.get("table_name", "")).strip()
            table_name = clean_text(name_text, MAX_TABLE_NAME) if name_text else ""
        except TextError:
            return back(request, "/", "bad_table_name")
        try:
            room.check_creation(uid, _address(request))
            table = await room.create_table(preset, texts, creator=uid, name=table_name,
                                            private=data.get("private") == "on",
                                            pause=data.get("pause") == "on")
        except TableError as error:
            return back(request, "/", error.code)
        except ValueError as error:
            # Which flag, which value, what is allowed (the names are the rule sheet's).
            request.session["flash_detail"] = refusal_detail(error, language(request))[:800]
            return back(request, "/", "bad_rules")
        return back(request, f"/table/{table.id}")

    async def seat_action(request: Request) -> Response:
        data = await form(request)
        uid, name = signed_in(request)
        try:
            table = room.table(int(request.path_params["table_id"]))
            what = request.path_params["what"]
            if not may_enter(request, table):
                raise TableError("private")
            if what == "rematch":
                new = await room.rematch(table, uid, _address(request))
                return back(request, f"/table/{new.id}")
            seat = int(str(data.get("seat", "-1")))
            if what != "stand" and not 0 <= seat < len(table.seats):
                raise TableError("bad_seat")
            if what == "sit":
                account = getattr(_session(request), "account", None)
                await table.call(lambda: table.sit(uid, name, seat, account))
            elif what == "stand":
                await table.call(lambda: table.stand(uid))
            elif what == "bot":
                level = str(data.get("level", "normal"))
                if level not in LEVELS:
                    raise TableError("bad_level")
                await table.call(lambda: table.add_bot(uid, seat, level))
            elif what == "unbot":
                await table.call(lambda: table.remove_bot(uid, seat))
            elif what == "start":
                await table.call(lambda: table.begin(uid))
            else:
                raise HTTPException(404)
        except TableError as error:
            return back(request, _local_target(data), error.code)
        except ValueError:
            return back(request, "/", "bad_seat")
        return back(request, _local_target(data))

    async def table_page(request: Request) -> Response:
        table_id = int(request.path_params["table_id"])
        if table_id not in room.tables:
            row = await room.store.table(table_id)
            if row is not None and row.status == "finished":
                return back(request, f"/replay/{table_id}")
            if row is not None and row.status == "broken":
                return render(request, "error.html", status=410, message=translate(
                    language(request), "error.web.broken"))
            raise HTTPException(404)
        table = room.tables[table_id]
        if not may_enter(request, table):
            return render(request, "error.html", status=403, message=translate(
                language(request), "error.web.private"))
        if table.finished:  # a finished match is read as its replay
            return back(request, f"/replay/{table_id}")
        lang = language(request)
        strings = {key.removeprefix("web.js."): text for key, text in messages(lang).items()
                   if key.startswith("web.js.")}
        return render(request, "table.html", table_id=table_id, levels=LEVELS, table=table,
                      keys=help_rows(lang), bindings=json.dumps(bindings_for_client()),
                      strings=json.dumps(strings, ensure_ascii=False),
                      rules_text=rule_sheet(table.rules, lang))

    def may_enter(conn: HTTPConnection, table: Table) -> bool:
        """A private table lets in its creator, its seated players and whoever came with
        its invitation code (kept in the session); any other table, everyone."""
        if not table.private:
            return True
        identity = _identity(conn)
        uid = identity[0] if identity else None
        invited = conn.session.get("invited", [])
        return (uid is not None and (uid == table.creator or any(
            s.owner == uid for s in table.seats))) or (
            isinstance(invited, list) and table.id in invited)

    async def join(request: Request) -> Response:
        """An invitation: /join/CODE (the link) or the lobby's code form."""
        if request.method == "POST":
            data = await form(request)
            code = str(data.get("code", ""))
        else:
            code = str(request.path_params.get("code", ""))
        wait = code_guesses.refused(_address(request))
        if wait is not None:
            raise Refusal(429, "limits.code_guesses", wait)
        try:
            table = room.table_by_code(code[:16])
        except TableError as error:
            code_guesses.wrong(_address(request))
            return back(request, "/", error.code)
        invited = request.session.get("invited", [])
        invited = [t for t in invited if isinstance(t, int) and t in room.tables][-20:]
        request.session["invited"] = [*invited, table.id]
        return back(request, f"/table/{table.id}")

    async def finished_record(request: Request) -> dict[str, Any] | Response:
        """The record of a FINISHED match, or the refusal to give (404: no such table;
        409: a match still open, whose replay, record and analysis are never served)."""
        table_id = int(request.path_params["table_id"])
        row = await room.store.table(table_id)
        if row is None or row.status == "expired":  # expired: no match was ever played
            raise HTTPException(404)
        status, key = 0, ""
        if row.status != "finished" or row.record is None:
            status, key = (410, "error.web.broken") if row.status == "broken" else (
                409, "replays.error.unfinished")
        elif not await may_replay(request, table_id):
            status, key = 403, "error.web.private"
        if status:
            message = translate(language(request), key)
            if request.url.path.endswith(("/analysis", ".json")):
                return JSONResponse({"error": message}, status_code=status)
            return render(request, "error.html", status=status, message=message)
        assert row.record is not None
        return row.record

    async def may_replay(request: Request, table_id: int) -> bool:
        """A private match stays private once finished: its replay, record and analysis go
        to the players who sat at it and to whoever came with its invitation code."""
        table = room.tables.get(table_id)
        if table is not None:
            return may_enter(request, table)
        access = replay_access.get(table_id)
        if access is None:
            # A table no longer held in memory: its log says, once (it never changes).
            private, found = False, set()
            for entry in await room.store.log(table_id):
                if entry.kind == "setup":
                    private = bool(entry.data.get("private", False))
                elif entry.kind == "seats":
                    found |= {str(s.get("owner")) for s in entry.data.get("seats", [])}
            access = replay_access[table_id] = (private, frozenset(found))
            while len(replay_access) > 10_000:
                replay_access.popitem(last=False)
        private, owners = access
        if not private:
            return True
        identity = _identity(request)
        invited = request.session.get("invited", [])
        return (identity is not None and identity[0] in owners) or (
            isinstance(invited, list) and table_id in invited)

    async def replay_page(request: Request) -> Response:
        table_id = int(request.path_params["table_id"])
        record = await finished_record(request)
        if isinstance(record, Response):
            return record
        lang = language(request)
        try:
            page = await heavy.replay(table_id, record, lang, _address(request))
        except HeavyFailed:
            raise Refusal(503, "limits.heavy_failed", 1.0) from None
        strings = {key.removeprefix("replays."): text for key, text in messages(lang).items()
                   if key.startswith(("replays.edge.", "replays.analysis."))}
        # The deals and the steps come escaped from the heavy-work process (replay.py).
        return render(request, "replay.html", table_id=table_id, deals=Markup(page.deals),
                      result=record["result"], players=record.get("players", []),
                      frames=Markup(page.frames),
                      strings=json.dumps(strings, ensure_ascii=False))

    async def replay_record(request: Request) -> Response:
        """The match record as a JSON file (rules, seats, every deck and action)."""
        table_id = int(request.path_params["table_id"])
        record = await finished_record(request)
        if isinstance(record, Response):
            return record
        try:
            text = await heavy.record(table_id, record, _address(request))
        except HeavyFailed:
            raise Refusal(503, "limits.heavy_failed", 1.0) from None
        return Response(text, media_type="application/json", headers={
                            "content-disposition":
                                f'attachment; filename="belote-table-{table_id}.json"'})

    async def replay_analysis(request: Request) -> Response:
        """GET ?step=K: the expert's analysis of the card played at step K (0: the first
        deal), from that player's information set; JSON."""
        table_id = int(request.path_params["table_id"])
        record = await finished_record(request)
        if isinstance(record, Response):
            return record
        lang = language(request)
        try:
            step = parse_step(request.query_params.get("step"), count_steps(record) - 1)
            analysis = await heavy.analysis(table_id, record, step, _address(request))
        except StepError as error:
            return JSONResponse({"error": translate(
                lang, f"replays.error.{error.code}", **error.values)}, status_code=400)
        except AnalysisUnavailable as error:
            return JSONResponse({"error": translate(lang, "replays.error.no_analysis"),
                                 "reason": str(error)}, status_code=422)
        except (AnalysisError, HeavyFailed) as error:
            log.warning("replay analysis of table %d failed: %s", table_id, error)
            return JSONResponse({"error": translate(lang, "replays.error.too_slow")},
                                status_code=503)
        return JSONResponse(analysis_json(analysis, step, record, lang))

    async def not_found(request: Request, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 500)
        headers = getattr(exc, "headers", None)
        if isinstance(exc, Refusal):
            key = exc.key  # a limit: what it was, and when to come back (Retry-After)
        else:
            key = {400: "limits.bad_form", 401: "error.web.sign_in",
                   403: "error.web.forbidden", 404: "error.web.not_found"}.get(
                status, "error.web.server")
        message = translate(language(request), key)
        if request.url.path.endswith(("/analysis", ".json")):
            return JSONResponse({"error": message}, status_code=status, headers=headers)
        response = render(request, "error.html", status=status, message=message)
        response.headers.update(headers or {})
        return response

    # ------------------------------------------------------------------ websockets
    async def _accept(websocket: WebSocket) -> Connection | None:
        if not _same_origin(websocket, settings.allowed_origins):
            await websocket.close(code=1008)
            return None
        await websocket.accept()
        if not room.open_socket(_address(websocket)):
            await websocket.send_text(error_frame("too_many_sockets", language(websocket), 0))
            await websocket.close(code=1008)
            return None


        # The handshake's session was looked up by ServerSessions: an ended one is None.
        identity = _identity(websocket) or (f"spectator-{secrets.token_urlsafe(8)}", "")
        row = _session(websocket)
        # ``?heartbeat=1``: the client pings from its first moment (the table page does), so
        # a path that stalls before its first ping is noticed too; and it answers the
        # server's beats, so a hidden tab whose timers the browser slowed keeps its seat.
        beats = websocket.query_params.get("heartbeat") == "1"
        return Connection(identity[0], identity[1], language(websocket),
                          str(websocket.session.get("verbosity", "normal")),
                          account=row.account if row else None, heartbeat=beats, beats=beats)

    async def _pump(websocket: WebSocket, conn: Connection,
                    on_message: Callable[[P.Inbound], Any],
                    on_error: Callable[[str], None], version: Callable[[], int]) -> None:
        async def writer() -> None:
            while True:
                frame = await conn.outbox.get()
                if frame is None:  # too far behind: close, the client resyncs on return
                    await websocket.close(code=1013)
                    return
                try:
                    await websocket.send_text(frame)
                except (UnicodeError, TypeError, ValueError):
                    # One frame that cannot be sent must not silence the connection.
                    room.frames_dropped += 1
                    log.exception("frame dropped for %s", conn.name or conn.uid)

        async def beater() -> None:
            # The server's heartbeat: the page answers each beat from its message handler,
            # which a hidden tab runs at once (its timers, and its own pings, may be slowed
            # to one a minute); any frame it sends resets the silence timeout below.
            n = 0
            while not conn.closed:
                await asyncio.sleep(settings.heartbeat_interval)
                n += 1
                conn.send(P.encode_message(P.Beat(n), version()))

        sender = asyncio.create_task(writer())
        beats = asyncio.create_task(beater()) if conn.beats else None
        try:
            while True:
                # A client that sends heartbeats (or answers the server's) and then falls
                # silent is on a stalled path (no close ever comes): it is let go, so that its
                # seat is known to be away.  Any frame from it counts as heard.
                try:
                    async with asyncio.timeout(settings.heartbeat_timeout if conn.heartbeat
                                               else None):
                        message = await websocket.receive()
                except TimeoutError:
                    room.sockets_stalled += 1
                    log.warning("socket of %s stalled: nothing heard for %.0f s; let go "
                                "(%d stalled so far)", conn.name or conn.uid,
                                settings.heartbeat_timeout, room.sockets_stalled)
                    break
                if message["type"] == "websocket.disconnect":
                    if message.get("code", 1000) not in (1000, 1001):
                        room.sockets_dropped += 1
                        log.info("socket of %s dropped (code %s; %d dropped so far)",
                                 conn.name or conn.uid, message.get("code"),
                                 room.sockets_dropped)
                    break
                try:
                    decoded = P.decode(message["text"] if message.get("text") is not None
                                       else message.get("bytes") or b"")
                except P.ProtocolError as error:
                    on_error(error.code)
                    continue
                if isinstance(decoded, P.Ping):  # the heartbeat: answered here, at once
                    conn.heartbeat = True
                    conn.send(P.encode_message(P.Pong(decoded.n), version()))
                    continue
                if isinstance(decoded, P.BeatAnswer):  # the answer to a beat: heard, enough
                    continue
                await on_message(decoded)
        except WebSocketDisconnect:
            pass
        finally:
            conn.gone()
            room.close_socket(_address(websocket))
            sender.cancel()
            if beats is not None:
                beats.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender
            if beats is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await beats

    async def table_socket(websocket: WebSocket) -> None:
        table_id = int(websocket.path_params["table_id"])
        conn = await _accept(websocket)
        if conn is None:
            return
        if table_id not in room.tables or room.tables[table_id].broken is not None:
            code = "broken" if (table_id in room.broken or table_id in room.tables) else (
                "no_table")
            conn.send(error_frame(code, conn.lang, 0))
            room.close_socket(_address(websocket))
            await websocket.send_text(conn.outbox.get_nowait() or "")
            await websocket.close(code=1008)
            return
        table = room.tables[table_id]
        if not may_enter(websocket, table):
            conn.send(error_frame("private", conn.lang, 0))
            room.close_socket(_address(websocket))
            await websocket.send_text(conn.outbox.get_nowait() or "")
            await websocket.close(code=1008)
            return
        await table.join(conn)

        def wire_error(code: str) -> None:
            conn.send(error_frame(code, conn.lang, table.version, family="wire"))

        try:
            await _pump(websocket, conn, lambda m: table.handle(conn, m), wire_error,
                        lambda: table.version)
        finally:
            await table.leave(conn)

    async def lobby_socket(websocket: WebSocket) -> None:
        conn = await _accept(websocket)
        if conn is None:
            return
        try:
            # The page the listener shows: its sync carries that page; diffs cover them all.
            page = page_number(websocket.query_params.get("page"))
        except ValueError:
            page = 1
        room.lobby.add(conn)
        lobby_feed.sync(conn, page)

        def wire_error(code: str) -> None:
            conn.send(error_frame(code, conn.lang, lobby_feed.version, family="wire"))

        async def on_message(message: P.Inbound) -> None:
            if isinstance(message, P.Chat) and conn.name:
                if not lobby_chat.take(conn.uid):
                    conn.send(error_frame("chat_too_fast", conn.lang, lobby_feed.version))
                    return
                lobby_feed.say(conn.name, message.text)
            elif isinstance(message, P.Hello):
                lobby_feed.sync(conn, page)
            else:
                wire_error("not_here" if conn.name else "sign_in")

        try:
            await _pump(websocket, conn, on_message, wire_error, lambda: lobby_feed.version)
        finally:
            room.lobby.discard(conn)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        await services.open()
        await sessions.open()
        await passwords.prepare()
        # The offered plug-ins' labels, made once here, in a thread: a plug-in's import and
        # constructor are third-party code, never run on the loop (a failure is logged and
        # counted; the label falls back to the entry point's name).
        await asyncio.to_thread(prepare_labels,
                                [level for level in LEVELS if level not in OWN_LEVELS])
        _app.state.plugin_label_failures = dict(label_failures)
        # What start-up built lives as long as the server: keep it out of the collector's
        # full passes, which otherwise pause every table (benchmarks/room_load.py).
        gc.freeze()
        try:
            yield
        finally:
            passwords.close()
            heavy.close()
            await services.close()

    routes = [
        Route("/", lobby),
        Route("/fragment/tables", tables_fragment),
        Route("/guest", guest, methods=["POST"]),
        Route("/login", login_page, methods=["GET"]),
        Route("/login", login, methods=["POST"]),
        Route("/register", login_page, methods=["GET"]),
        Route("/register", register, methods=["POST"]),
        Route("/logout", logout, methods=["POST"]),
        Route("/account", account_page, methods=["GET"]),
        Route("/account/end", end_session, methods=["POST"]),
        Route("/preferences", preferences, methods=["POST"]),
        Route("/tables", create, methods=["POST"]),
        Route("/join", join, methods=["POST"]),
        Route("/join/{code}", join),
        Route("/tables/{table_id:id}/{what}", seat_action, methods=["POST"]),
        Route("/table/{table_id:id}", table_page),
        Route("/replay/{table_id:id}", replay_page),
        Route("/replay/{table_id:id}.json", replay_record),
        Route("/replay/{table_id:id}/analysis", replay_analysis),
        WebSocketRoute("/ws/table/{table_id:id}", table_socket),
        WebSocketRoute("/ws/lobby", lobby_socket),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    # --- tournaments (belote/server/tournament/web.py): console, standings, score entry ---
    routes += tournament_routes(services, TournamentPages(render, form, _session, _identity,
                                                      language, seat_codes))
    # --- ratings (belote/server/ratings/web.py): profiles and leaderboards ---
    routes += ratings_routes(services.ratings.store, render, language)
    app = Starlette(
        routes=routes, lifespan=lifespan,
        middleware=[
            # Bodies over the cap are refused (413) before they are read.
            Middleware(BodyLimit, max_bytes=settings.max_body_bytes, counts=refusals),
            Middleware(TrustedHostMiddleware, allowed_hosts=list(settings.allowed_hosts),
                       www_redirect=False),
            Middleware(_Session, room=room, secure=settings.secure_cookies),
            Middleware(ServerSessions, sessions=sessions),
        ],
        exception_handlers={HTTPException: not_found},
    )
    app.state.room = room
    app.state.lobby = services.lobby
    app.state.ratings = services.ratings
    app.state.tournaments = services.tournaments
    app.state.services = services
    app.state.heavy = heavy
    app.state.refused = refusals
    app.state.plugin_label_failures = {}  # made at the start (lifespan)
    return app
