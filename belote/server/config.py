"""Settings of a running room, with the defaults `belote serve` uses."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from belote.server.settings import DEFAULT_PACE

DEFAULT_DB = "sqlite:///belote-sala.db"
# How the room speaks to its SMTP server: in clear (a relay on the same machine), upgraded
# to TLS after the greeting (STARTTLS, port 587), or TLS from the start (port 465).
SMTP_SECURITY = ("none", "starttls", "tls")
# argon2id's cost of a password hash (belote/server/auth/passwords.py).
PasswordCost = Literal["strong", "test"]


@dataclass(frozen=True, slots=True)
class Settings:
    db_url: str = DEFAULT_DB
    host: str = "127.0.0.1"
    port: int = 8000
    # Seconds a seated player may be gone during a match before a bot plays for them.
    takeover_seconds: float = 30.0
    # Pause before a bot acts, so that people can follow the game by ear.
    bot_delay: float = 0.8
    # Seconds at least between two moves a player hears, until they choose their own pace
    # (the table page holds the next move's sentence; 0: as fast as the table plays).
    default_pace: float = DEFAULT_PACE
    # Bot processes; None: one per CPU; 0 thinks in a thread of the server process (tests).
    bot_workers: int | None = None
    bot_timeout: float = 5.0
    # Seconds of silence after which a socket whose client sends heartbeats (the table page
    # pings every 2.5 s, and answers the server's beats) is let go as stalled: its seat is
    # away, and the takeover follows.
    heartbeat_timeout: float = 15.0
    # Seconds between the server's beats to a heartbeat socket (``?heartbeat=1``).  The page
    # answers each from its message handler, which browsers do not slow down in a hidden tab
    # (its timers, and so its own pings, may come once a minute there).
    heartbeat_interval: float = 5.0
    # The garbage collector (belote/server/collector.py): what has lived this long is moved
    # out of its automatic full passes, which otherwise held the loop for a second at a
    # thousand tables; a full pass of our own, timed and logged, every gc_full_seconds.
    gc_freeze_seconds: float = 10.0
    gc_full_seconds: float = 900.0
    # Origins allowed to open a WebSocket besides the server's own (Host header).
    allowed_origins: tuple[str, ...] = ()
    # Cookies carry the Secure flag (browsers keep them on https and on loopback).
    secure_cookies: bool = True
    # Failed logins: per name within the window (a name's block ends when its failures leave
    # the window; a known device of the account is not held back by it), and per address.
    login_attempts: int = 5
    login_window: float = 60.0
    login_address_attempts: int = 20
    # New accounts and new guests per client address per hour.
    signups_per_hour: int = 10
    guests_per_hour: int = 60
    # Keys a rate limiter remembers at most (the longest idle are forgotten first).
    limiter_max_keys: int = 10_000
    # Threads that hash and verify passwords (argon2: ~64 MiB each while working).
    password_workers: int = 2
    # argon2id's cost (belote/server/auth/passwords.py): "strong" in every room; "test" (a
    # weak hash, fast) is for the test suite only, never for people's passwords.
    password_cost: PasswordCost = "strong"
    # Sessions unused this long end; a guest's sooner, which frees its name.
    session_days: float = 30.0
    guest_idle_hours: float = 12.0
    # Host headers served (DNS rebinding): empty means the --host address, localhost and
    # 127.0.0.1.
    allowed_hosts: tuple[str, ...] = ()
    # Addresses of proxies whose X-Forwarded-For/-Proto are believed; empty: none.
    forwarded_allow_ips: tuple[str, ...] = ()
    secret_file: Path | None = None
    lobby_chat_history: int = field(default=50)
    # Limits on what one person or one address may do (docs/room.md lists them all).
    chat_burst: int = 5  # chat lines at once, then...
    chat_per_minute: float = 20.0  # ...this many a minute on average (table and lobby)
    chat_lines_per_table: int = 1000  # chat lines a table keeps
    waiting_tables_per_user: int = 3  # tables not yet started that one person has created
    saved_tables_per_account: int = 10  # saved games one account may keep (docs/room.md)
    tables_per_address_burst: int = 10  # tables created from one address at once, then...
    tables_per_address_per_hour: float = 30.0  # ...this many an hour
    sockets_per_address: int = 32  # WebSockets open at once from one address
    # Request bodies: over this many bytes, refused (413) before they are read; a form with
    # more fields than this, empty ones counted, is refused (400).  Parsing what is let in
    # stays within a few milliseconds of the event loop.
    max_body_bytes: int = 64 * 1024
    max_form_fields: int = 64
    # Failed invitation codes one address may try within a minute (then 429).
    code_guesses_per_minute: int = 10
    # Wrong tournament seat codes within the window (belote/server/routes/tournaments/codes.py): per
    # browser session and per game from one address, and in all from one address (a club's
    # players share one; only a flood reaches it).  Codes have ~40 bits: guessing is hopeless.
    seat_code_guesses: int = 20
    seat_code_guesses_per_address: int = 200
    seat_code_window: float = 600.0
    # Replays and card analyses of finished matches (belote/server/heavy.py): processes that
    # compute them (0: a thread of the server, for tests), jobs in or waiting for them at
    # most (then 429 "busy"), the answers kept (MiB), and what one address may have computed
    # (cached answers are free): a burst, then so many an hour.
    heavy_workers: int = 1
    heavy_queue: int = 8
    heavy_timeout: float = 30.0  # seconds without an answer: the process is hung, replaced
    heavy_cache_mib: int = 64
    analyses_burst: int = 10
    analyses_per_hour: float = 360.0
    replays_burst: int = 10
    replays_per_hour: float = 120.0
    # Seconds a table not yet started may wait with none of its seated humans connected
    # (at the table or in the lobby) before it is closed as "expired".
    waiting_table_expiry: float = 600.0
    # Seconds over which the lobby gathers table changes into one frame per listener.
    lobby_coalesce: float = 0.15
    # Tables on one page of the lobby (the page without scripts, and the live list).
    lobby_page_size: int = 50
    # Seconds between two looks over the tables (expiry, watcher counts).
    lobby_sweep: float = 2.0

    # Friends, invitations and blocks (belote/server/friends): per sender account, friend
    # requests and invitations an hour; requests one account may leave unanswered at once;
    # players one account may block (Belot.bg keeps 100); player searches per address and,
    # apart, per account (a burst, then an hour's worth); seconds an invitation link stays good.
    friend_requests_per_hour: int = 20
    invitations_per_hour: int = 30
    pending_requests: int = 50
    blocks_max: int = 100
    searches_burst: int = 30
    searches_per_hour: float = 600.0
    invitation_seconds: int = 2 * 3600
    # Every form of the friends page (request, accept, decline, cancel, remove, block,
    # unblock, invite) draws on one allowance per account: a burst, then an hour's worth.
    # Friends one account may have (a request or an answer past it is refused).
    friends_actions_burst: int = 30
    friends_actions_per_hour: float = 300.0
    max_friends: int = 500
    # Personal sockets (/ws/me, one per page of a signed-in account) open at once from one
    # address: counted apart from ``sockets_per_address`` so that they never take a table's
    # or the lobby's place (docs/room.md, "Friends").
    personal_sockets_per_address: int = 16
    # Deals of the daily duplicate each day (1 to 30; belote/server/daily, docs/room.md).
    daily_deals: int = 8
    # Hours an account must exist before it may enter the daily duplicate (0: at once, the
    # default: a newcomer plays it on the first day).  A room troubled by second accounts
    # sets it (24: an account made after seeing the day's deals cannot replay them that
    # day; docs/room.md, "Playing twice").
    daily_entry_account_hours: float = 0.0
    # Views of a closed day's pages (its ranking, its deals' results) per address: a burst,
    # then so many an hour (each view shows 100 lines at most).
    daily_pages_burst: int = 60
    daily_pages_per_hour: float = 1200.0

    # One of several processes of one room (``belote serve --processes N``, or N ``belote
    # serve --cluster`` on one or several machines): PostgreSQL holds the tables' leases and
    # carries the messages between processes (belote/server/cluster).
    cluster: bool = False
    # host:port the other processes reach this one at (relayed sockets and pages); empty:
    # the --host address (127.0.0.1 for 0.0.0.0) and the --port.
    relay_address: str = ""

    # E-mail (belote/server/mail; docs/room.md, "E-mail and your account"): the SMTP server
    # that sends the account's mails (an address's verification, a password's reset).  No
    # host, no sender or no public URL: the room sends no mail, and its pages say so.
    smtp_host: str = ""
    smtp_port: int = 587
    smtp_security: str = "starttls"  # SMTP_SECURITY: none | starttls | tls (port 465)
    smtp_user: str = ""  # empty: no login
    # From BELOTE_SMTP_PASSWORD or --smtp-password-file, never the command line (ps shows
    # it); left out of the settings' repr, so that no log line can carry it.
    smtp_password: str = field(default="", repr=False)
    smtp_from: str = ""  # the From address, e.g. "La Sala <sala@example.org>"
    smtp_timeout: float = 10.0  # seconds for each network step of one mail
    # The room's address as people reach it (https://sala.example.org): the links in mails.
    # Never taken from a request's Host header, which a sender of the form chooses.
    public_url: str = ""
    # Mails one account, one e-mail address, and one client address may have sent an hour
    # (verification links and password resets together).
    mails_per_account_per_hour: int = 5
    mails_per_address_per_hour: int = 5
    mail_requests_per_ip_per_hour: int = 20
    # Hours a verification link and a password reset link stay valid.
    verify_link_hours: float = 24.0
    reset_link_hours: float = 1.0
    # Data exports (a JSON file of the account) one account may download an hour.
    exports_per_hour: int = 10

    @property
    def mail_ready(self) -> bool:
        """Whether the room can send mail: a server, a sender and links to give."""
        return bool(self.smtp_host and self.smtp_from and self.public_url)

    @property
    def address(self) -> str:
        """This process's name in the room: the address the others reach it at."""
        if self.relay_address:
            return self.relay_address
        host = "127.0.0.1" if self.host in ("0.0.0.0", "::", "") else self.host
        return f"{host}:{self.port}"

    def __post_init__(self) -> None:
        if self.smtp_security not in SMTP_SECURITY:
            raise ValueError(f"smtp_security must be one of {', '.join(SMTP_SECURITY)}, "
                             f"not {self.smtp_security!r}")
        if not self.allowed_hosts:
            hosts = dict.fromkeys((self.host, "localhost", "127.0.0.1"))
            object.__setattr__(self, "allowed_hosts", tuple(hosts))
