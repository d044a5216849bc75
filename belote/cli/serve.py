"""`belote serve`: start La Sala, the web game room."""

from __future__ import annotations

import logging

import typer

from belote.server.config import DEFAULT_DB


def serve_command(
    host: str = typer.Option("127.0.0.1", help="Address to listen on."),
    port: int = typer.Option(8000, help="Port to listen on."),
    db: str = typer.Option(DEFAULT_DB, help="sqlite:///FILE or postgresql://USER@HOST/DB."),
    takeover: float = typer.Option(30.0, help="Seconds before a bot plays for an absent player."),
    bot_delay: float = typer.Option(0.8, help="Seconds a bot waits before it plays."),
    bot_workers: int | None = typer.Option(
        None, min=0, show_default="one per CPU",
        help="Processes for the bots' thinking (0: a thread of the server)."),
    insecure_cookies: bool = typer.Option(
        False, help="Send the session cookie without the Secure flag (plain HTTP off loopback)."),
    origin: list[str] = typer.Option([], help="Another origin allowed to open WebSockets."),
) -> None:
    """Start La Sala at http://HOST:PORT (SQLite by default)."""
    import uvicorn

    from belote.server.app import create_app
    from belote.server.config import Settings
    from belote.server.persistence import async_url

    try:
        async_url(db)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--db") from None
    settings = Settings(db_url=db, host=host, port=port, takeover_seconds=takeover,
                        bot_delay=bot_delay, bot_workers=bot_workers,
                        secure_cookies=not insecure_cookies, allowed_origins=tuple(origin))
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    typer.echo(f"La Sala: http://{host}:{port}  (database {db})")
    uvicorn.run(create_app(settings), host=host, port=port, log_level="info",
                ws_max_size=64 * 1024, ws_ping_interval=20, ws_ping_timeout=20)
