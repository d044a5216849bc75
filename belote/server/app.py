"""The Starlette application: the room's parts put together.

:func:`create_app` builds the shared objects (the room and its features come from the
composition root, :mod:`belote.server.composition`; the limits, the sessions and the
templates are built here), puts each on ``app.state`` under one name
(:mod:`belote.server.shared`), and wires the routes (:mod:`belote.server.routes`, one
module per concept), the middleware and the start and the end of the server (the lifespan).

The session cookie is signed (HttpOnly, SameSite=Lax, Secure unless turned off for
plain-HTTP tests) and holds the id of a session kept on the server
(:mod:`belote.server.auth.sessions`); the preferences live in a cookie of the device and with
the account (:mod:`belote.server.settings_sources`).  Requests
whose Host header is not one the room serves are refused (DNS rebinding).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

from belote.ai.plugins import label_failures, prepare_labels
from belote.server.auth import PasswordHasherPool
from belote.server.auth.devices import KnownDevices
from belote.server.auth.sessions import ENDED_NEWS, ServerSessions, Sessions, public_id
from belote.server.cluster.relay import OwnerRouting, ProcessHeader, Relay, RelayedClient
from belote.server.collector import Collector
from belote.server.composition import build
from belote.server.config import Settings
from belote.server.heavy import HeavyWork
from belote.server.levels import LEVELS, OWN_LEVELS
from belote.server.limits import BodyLimit
from belote.server.mail.sender import Mailer
from belote.server.mail.service import AccountMail
from belote.server.moderation.service import Moderation
from belote.server.moderation.store import ModerationStore
from belote.server.room import Room
from belote.server.routes import all_routes
from belote.server.routes.pages import http_error, make_templates
from belote.server.settings_sources import ApplySettings, SettingsSources
from belote.server.shared import Limits, Shared

HERE = Path(__file__).resolve().parent
SESSION_COOKIE = "sala"
SESSION_AGE = 60 * 60 * 24 * 30  # seconds the session cookie is kept


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
                same_site="lax", https_only=self.secure, max_age=SESSION_AGE,
            )
        await self._inner(scope, receive, send)


def compose(settings: Settings) -> Shared:
    """Every shared object, built once (the room and its features by the composition root)."""
    # Replays, analyses and tournament draws: off the event loop, in a niced process.
    heavy = HeavyWork(settings)
    services = build(settings, offload=heavy.run)  # the room, the bus and the features
    heavy.share_limits(services.store.rate_limits)  # per address, the same in every process
    room = services.room
    sessions = Sessions(services.store,
                        guest_idle=timedelta(hours=settings.guest_idle_hours),
                        account_idle=timedelta(days=settings.session_days))

    def close_sockets(ids: list[str]) -> None:  # a session ended: its sockets close
        services.disconnect({public_id(i) for i in ids})

    sessions.on_end.append(close_sockets)
    if services.node is not None:  # an account's sessions ended: forgotten in every process
        sessions.relay = services.node.tell_all
        services.node.on_news(ENDED_NEWS, sessions.heard_ended)
    # Reports and sanctions: in the database, enforced in every process (its news).
    moderation = Moderation(ModerationStore(services.store.engine), sessions, room,
                            services.lobby, services.store.rate_limits, services.node)
    refused: Counter[str] = Counter()
    return Shared(
        settings=settings, services=services, heavy=heavy, sessions=sessions,
        passwords=PasswordHasherPool(settings.password_workers, settings.password_cost),
        devices=KnownDevices(lambda: room.secret, secure=settings.secure_cookies),
        saved_settings=SettingsSources(services.store, lambda: room.secret,
                                       secure=settings.secure_cookies,
                                       default_pace=settings.default_pace),
        limits=Limits.build(settings, services.store.rate_limits, refused), refused=refused,
        templates=make_templates(HERE / "templates"), levels=tuple(LEVELS),
        relay=Relay(room), mail=AccountMail(settings, services.store, Mailer(settings)),
        moderation=moderation)


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    """Open the room and its parts; close them at the end."""
    state = app.state.shared
    assert isinstance(state, Shared)
    await state.services.open()
    await state.sessions.open()
    await state.passwords.prepare()
    # The offered plug-ins' labels, made once here, in a thread: a plug-in's import and
    # constructor are third-party code, never run on the loop (a failure is logged and
    # counted; the label falls back to the entry point's name).
    await asyncio.to_thread(prepare_labels,
                            [level for level in LEVELS if level not in OWN_LEVELS])
    state.plugin_label_failures.clear()
    state.plugin_label_failures.update(label_failures)
    # What start-up built lives as long as the server, and so do tables for their match:
    # kept out of the collector's automatic full passes (belote/server/collector.py).
    collector = Collector(state.settings.gc_freeze_seconds, state.settings.gc_full_seconds)
    collector.start()
    try:
        yield
    finally:
        await collector.stop()
        await state.mail.settle()  # reset mails being sent
        await state.relay.close()
        state.passwords.close()
        state.heavy.close()
        await state.services.close()


def _middleware(state: Shared) -> list[Middleware]:
    settings = state.settings
    return [
        # A request another of the room's processes relayed: its client's own address and
        # Host (belote/server/cluster/relay.py); every answer names the process.
        Middleware(RelayedClient, room=state.room),
        Middleware(ProcessHeader, name=settings.address),
        # Bodies over the cap are refused (413) before they are read.
        Middleware(BodyLimit, max_bytes=settings.max_body_bytes, counts=state.refused),
        Middleware(TrustedHostMiddleware, allowed_hosts=list(settings.allowed_hosts),
                   www_redirect=False),
        # A table another process runs: its pages and socket go there.
        Middleware(OwnerRouting, relay=state.relay),
        Middleware(_Session, room=state.room, secure=settings.secure_cookies),
        Middleware(ServerSessions, sessions=state.sessions),
        # The preferences in force (the device's, the account's): after the session is known.
        Middleware(ApplySettings, sources=state.saved_settings),
    ]


def create_app(settings: Settings | None = None) -> Starlette:
    state = compose(settings or Settings())
    app = Starlette(routes=all_routes(HERE / "static"), middleware=_middleware(state),
                    lifespan=lifespan,
                    exception_handlers={HTTPException: http_error})
    state.publish(app.state)
    return app
