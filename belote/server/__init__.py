"""La Sala: the online game room (Starlette, WebSockets, SQLite or PostgreSQL).

The server only wraps the core: every rule is applied by :class:`belote.engine.state.Game`,
one asyncio task per table (:mod:`belote.server.table`) owns a game, stores each change before
it is broadcast, and sends each connection only its seat's observation.
"""
