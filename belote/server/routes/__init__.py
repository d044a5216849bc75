"""The room's HTTP pages and WebSocket endpoints, one module per concept; each exports its
``routes``.  Handlers are plain module-level functions: what they share (the room, the
features, the limits, the templates) they read from ``request.app.state`` through
:func:`belote.server.shared.shared`; the request helpers are in :mod:`.common`, the
pages' templates and their context in :mod:`.pages`.
"""

from pathlib import Path

from starlette.routing import BaseRoute, Mount
from starlette.staticfiles import StaticFiles

from belote.server.routes import (
    accounts,
    daily,
    friends,
    leagues,
    lobby,
    mail,
    moderation,
    personal_data,
    phone,
    preferences,
    ratings,
    replays,
    reports,
    saved,
    sockets,
    stats,
    tables,
    tournaments,
)


def all_routes(static: Path) -> list[BaseRoute]:
    """Every route of the room, and its static files (``static``) under /static."""
    return [*lobby.routes, *accounts.routes, *preferences.routes, *tables.routes,
            *replays.routes, *sockets.routes, Mount("/static", StaticFiles(directory=static),
                                                    name="static"),
            *tournaments.routes, *ratings.routes, *stats.routes, *leagues.routes,
            *phone.routes, *mail.routes, *personal_data.routes, *friends.routes,
            *daily.routes, *reports.routes, *moderation.routes, *saved.routes]


__all__ = ["all_routes"]
