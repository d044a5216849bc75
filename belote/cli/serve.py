"""`belote serve`: start La Sala, the web game room."""

from __future__ import annotations

import logging

import typer

from belote.server.config import DEFAULT_DB
from belote.server.settings import DEFAULT_PACE, PACE_MAX


def serve_command(
    host: str = typer.Option("127.0.0.1", help="Address to listen on."),
    port: int = typer.Option(8000, help="Port to listen on."),
    db: str = typer.Option(DEFAULT_DB, help="sqlite:///FILE or postgresql://USER@HOST/DB."),
    takeover: float = typer.Option(30.0, help="Seconds before a bot plays for an absent player."),
    bot_delay: float = typer.Option(0.8, help="Seconds a bot waits before it plays."),
    pace: float = typer.Option(
        DEFAULT_PACE, min=0.0, max=PACE_MAX,
        help="Seconds at least between two moves a player hears, until they choose their own."),
    bot_workers: int | None = typer.Option(
        None, min=0, show_default="one per CPU",
        help="Processes for the bots' thinking (0: a thread of the server)."),
    insecure_cookies: bool = typer.Option(
        False, help="Send the session cookie without the Secure flag (plain HTTP off loopback)."),
    origin: list[str] = typer.Option([], help="Another origin allowed to open WebSockets."),
    chat_per_minute: float = typer.Option(
        20.0, min=0.1, help="Chat lines one person may send a minute, after a burst of 5."),
    chat_lines_per_table: int = typer.Option(
        1000, min=1, help="Chat lines one table keeps; further lines are refused."),
    waiting_tables_per_user: int = typer.Option(
        3, min=1, help="Tables not yet started that one person may have created."),
    tables_per_hour: float = typer.Option(
        30.0, min=0.1, help="Tables that one address may create an hour, after a burst of 10."),
    sockets_per_address: int = typer.Option(
        32, min=1, help="WebSockets one address may hold open at once."),
    waiting_expiry: float = typer.Option(
        600.0, help="Seconds a table not yet started may wait with none of its seated "
                    "players connected before it is closed."),
    allowed_host: list[str] = typer.Option(
        [], help="A Host header the room answers (repeatable; default: the --host address, "
        "localhost and 127.0.0.1). Needed behind a domain name or with --host 0.0.0.0."),
    forwarded_allow_ips: list[str] = typer.Option(
        [], help="A proxy address whose X-Forwarded-For/-Proto headers are believed "
        "(repeatable; default: none, the peer's address is the client's)."),
    signups_per_hour: int = typer.Option(10, min=1, help="New accounts per address per hour."),
    guests_per_hour: int = typer.Option(60, min=1, help="New guests per address per hour."),
    daily_deals: int = typer.Option(
        8, min=1, max=30, help="Deals of the daily duplicate each day (every process of "
        "one room must say the same)."),
    processes: int = typer.Option(
        1, min=1, help="Room processes, on ports PORT to PORT+N-1 (needs --db postgresql://; "
        "any process answers any page and socket; put nginx in front, docs/room.md)."),
    cluster: bool = typer.Option(
        False, help="Run as one of several processes of one room on this --db (what "
        "--processes starts; for processes on several machines)."),
    relay_address: str = typer.Option(
        "", help="host:port the room's other processes reach this one at (default: "
        "--host and --port; 127.0.0.1 for 0.0.0.0)."),
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
    if (processes > 1 or cluster) and not db.startswith(("postgresql", "postgres")):
        raise typer.BadParameter("several processes share one PostgreSQL database: give "
                                 "--db postgresql://USER@HOST/DB", param_hint="--processes")
    if processes > 1 and relay_address:
        raise typer.BadParameter("each process of --processes is reached at its own port: "
                                 "--relay-address names one process (with --cluster)",
                                 param_hint="--relay-address")
    if processes > 1:
        import sys

        from belote.server.cluster.supervisor import Supervisor
        logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
        typer.echo(f"La Sala: {processes} processes on http://{host}:{port} to "
                   f"{port + processes - 1}  (database {db})")
        raise typer.Exit(Supervisor(sys.argv[2:], host, port, processes).run())
    if not waiting_expiry > 0:
        raise typer.BadParameter("must be a positive number of seconds",
                                 param_hint="--waiting-expiry")
    settings = Settings(db_url=db, host=host, port=port, takeover_seconds=takeover,
                        bot_delay=bot_delay, bot_workers=bot_workers, default_pace=pace,
                        secure_cookies=not insecure_cookies, allowed_origins=tuple(origin),
                        chat_per_minute=chat_per_minute,
                        chat_lines_per_table=chat_lines_per_table,
                        waiting_tables_per_user=waiting_tables_per_user,
                        tables_per_address_per_hour=tables_per_hour,
                        sockets_per_address=sockets_per_address,
                        waiting_table_expiry=waiting_expiry,
                        allowed_hosts=tuple(allowed_host),
                        forwarded_allow_ips=tuple(forwarded_allow_ips),
                        signups_per_hour=signups_per_hour, guests_per_hour=guests_per_hour,
                        daily_deals=daily_deals, cluster=cluster,
                        relay_address=relay_address)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    typer.echo(f"La Sala: http://{host}:{port}  (database {db})")
    # Forwarded headers only from the named proxies: by default uvicorn would believe them
    # from 127.0.0.1, and anyone on the machine could pick their address (and rate limit).
    uvicorn.run(create_app(settings), host=host, port=port, log_level="info",
                ws_max_size=64 * 1024, ws_ping_interval=20, ws_ping_timeout=20,
                proxy_headers=bool(settings.forwarded_allow_ips),
                forwarded_allow_ips=list(settings.forwarded_allow_ips) or None)
