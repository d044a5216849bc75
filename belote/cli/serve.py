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
    bot_workers: int = typer.Option(1, help="Processes for the bots' thinking (0: a thread)."),
    insecure_cookies: bool = typer.Option(
        False, help="Send the session cookie without the Secure flag (plain HTTP off loopback)."),
    origin: list[str] = typer.Option([], help="Another origin allowed to open WebSockets."),
    allowed_host: list[str] = typer.Option(
        [], help="A Host header the room answers (repeatable; default: the --host address, "
        "localhost and 127.0.0.1). Needed behind a domain name or with --host 0.0.0.0."),
    forwarded_allow_ips: list[str] = typer.Option(
        [], help="A proxy address whose X-Forwarded-For/-Proto headers are believed "
        "(repeatable; default: none, the peer's address is the client's)."),
    signups_per_hour: int = typer.Option(10, min=1, help="New accounts per address per hour."),
    guests_per_hour: int = typer.Option(60, min=1, help="New guests per address per hour."),
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
                        secure_cookies=not insecure_cookies, allowed_origins=tuple(origin),
                        allowed_hosts=tuple(allowed_host),
                        forwarded_allow_ips=tuple(forwarded_allow_ips),
                        signups_per_hour=signups_per_hour, guests_per_hour=guests_per_hour)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    typer.echo(f"La Sala: http://{host}:{port}  (database {db})")
    # Forwarded headers only from the named proxies: by default uvicorn would believe them
    # from 127.0.0.1, and anyone on the machine could pick their address (and rate limit).
    uvicorn.run(create_app(settings), host=host, port=port, log_level="info",
                ws_max_size=64 * 1024, ws_ping_interval=20, ws_ping_timeout=20,
                proxy_headers=bool(settings.forwarded_allow_ips),
                forwarded_allow_ips=list(settings.forwarded_allow_ips) or None)
