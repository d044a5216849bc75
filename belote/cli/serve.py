"""`belote serve`: start La Sala, the web game room."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import typer

from belote.server.config import DEFAULT_DB, SMTP_SECURITY
from belote.server.settings import DEFAULT_PACE, PACE_MAX


def smtp_password_from(path: Path | None) -> str:
    """The SMTP password: the file's first line, else BELOTE_SMTP_PASSWORD, else none."""
    if path is not None:
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except OSError as error:
            raise typer.BadParameter(f"cannot read it: {error.strerror}",
                                     param_hint="--smtp-password-file") from None
        return lines[0].strip() if lines else ""
    return os.environ.get("BELOTE_SMTP_PASSWORD", "")


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
    daily_entry_hours: float = typer.Option(
        0.0, min=0.0, help="Hours an account must exist before it may enter the daily "
        "duplicate (0, the default: at once; docs/room.md, \"Playing twice\")."),
    processes: int = typer.Option(
        1, min=1, help="Room processes, on ports PORT to PORT+N-1 (needs --db postgresql://; "
        "any process answers any page and socket; put nginx in front, docs/room.md)."),
    cluster: bool = typer.Option(
        False, help="Run as one of several processes of one room on this --db (what "
        "--processes starts; for processes on several machines)."),
    relay_address: str = typer.Option(
        "", help="host:port the room's other processes reach this one at (default: "
        "--host and --port; 127.0.0.1 for 0.0.0.0)."),
    smtp_host: str = typer.Option(
        "", envvar="BELOTE_SMTP_HOST", help="SMTP server that sends the account mails "
        "(address verification, password reset); empty: the room sends no mail."),
    smtp_port: int = typer.Option(587, envvar="BELOTE_SMTP_PORT", min=1, max=65535,
                                  help="The SMTP server's port."),
    smtp_security: str = typer.Option(
        "starttls", envvar="BELOTE_SMTP_SECURITY",
        help="none (a relay on this machine), starttls (port 587) or tls (port 465)."),
    smtp_user: str = typer.Option("", envvar="BELOTE_SMTP_USER",
                                  help="SMTP login (empty: none)."),
    smtp_password_file: Path | None = typer.Option(
        None, envvar="BELOTE_SMTP_PASSWORD_FILE", help="File holding the SMTP password "
        "(or set BELOTE_SMTP_PASSWORD; never on the command line)."),
    smtp_from: str = typer.Option("", envvar="BELOTE_SMTP_FROM",
                                  help='From address, e.g. "La Sala <sala@example.org>".'),
    public_url: str = typer.Option(
        "", envvar="BELOTE_PUBLIC_URL", help="The room's address as people reach it "
        "(https://sala.example.org): the links in mails."),
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
    if smtp_security not in SMTP_SECURITY:
        raise typer.BadParameter(f"one of {', '.join(SMTP_SECURITY)}",
                                 param_hint="--smtp-security")
    smtp_password = smtp_password_from(smtp_password_file)
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
                        cluster=cluster, relay_address=relay_address,
                        smtp_host=smtp_host, smtp_port=smtp_port,
                        smtp_security=smtp_security, smtp_user=smtp_user,
                        smtp_password=smtp_password, smtp_from=smtp_from,
                        public_url=public_url, daily_deals=daily_deals,
                        daily_entry_account_hours=daily_entry_hours)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    typer.echo(f"La Sala: http://{host}:{port}  (database {db})")
    if not settings.mail_ready:
        typer.echo("No e-mail: give --smtp-host, --smtp-from and --public-url to verify "
                   "addresses and reset passwords by mail (docs/room.md).")
    # Forwarded headers only from the named proxies: by default uvicorn would believe them
    # from 127.0.0.1, and anyone on the machine could pick their address (and rate limit).
    uvicorn.run(create_app(settings), host=host, port=port, log_level="info",
                ws_max_size=64 * 1024, ws_ping_interval=20, ws_ping_timeout=20,
                proxy_headers=bool(settings.forwarded_allow_ips),
                forwarded_allow_ips=list(settings.forwarded_allow_ips) or None)
