"""Settings of a running room, with the defaults `belote serve` uses."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_DB = "sqlite:///belote-sala.db"


@dataclass(frozen=True, slots=True)
class Settings:
    db_url: str = DEFAULT_DB
    host: str = "127.0.0.1"
    port: int = 8000
    # Seconds a seated player may be gone during a match before a bot plays for them.
    takeover_seconds: float = 30.0
    # Pause before a bot acts, so that people can follow the game by ear.
    bot_delay: float = 0.8
    # Bot processes; None: one per CPU; 0 thinks in a thread of the server process (tests).
    bot_workers: int | None = None
    bot_timeout: float = 5.0
    # Origins allowed to open a WebSocket besides the server's own (Host header).
    allowed_origins: tuple[str, ...] = ()
    # Cookies carry the Secure flag (browsers keep them on https and on loopback).
    secure_cookies: bool = True
    login_attempts: int = 5
    login_window: float = 60.0
    secret_file: Path | None = None
    lobby_chat_history: int = field(default=50)
