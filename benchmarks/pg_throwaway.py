"""A throwaway PostgreSQL server for the benchmarks, from Debian's packages.

The same way as the tests' (``tests/server/postgres.py``, which the benchmarks do not import:
it is pytest's): ``initdb`` in a temporary folder with trust authentication, started with
``pg_ctl`` on 127.0.0.1 and a free port, at PostgreSQL's default durability (fsync and
synchronous commit on: what a real room runs); as root the cluster belongs to the
``postgres`` system user (PostgreSQL refuses to run as root).  :func:`fresh_database` makes an
empty database for one run, :func:`drop_database` removes it.

Without the server binaries it stops with a message naming ``scripts/system-deps.sh``.
"""

from __future__ import annotations

import contextlib
import glob
import os
import re
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

SERVER_USER = "postgres"
MISSING = ("PostgreSQL server binaries (initdb, pg_ctl) not found under "
           "/usr/lib/postgresql/*/bin: run scripts/system-deps.sh first, or give --db "
           "postgresql://USER@HOST/DB (a role that may create databases)")
# Enough connections for several room processes (a pool, a listener, a sender and a lease
# connection each) and the benchmark's own.
SETTINGS = "max_connections = 200\nshared_buffers = 128MB\n"


def _bin_dir() -> Path:
    found = []
    for initdb in glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        bin_dir = Path(initdb).parent
        if (bin_dir / "pg_ctl").exists():
            version = tuple(int(n) for n in re.findall(r"\d+", bin_dir.parent.name))
            found.append((version, bin_dir))
    if not found:
        raise SystemExit(MISSING)
    return max(found)[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
    return {**env, "LC_ALL": "C", "LANG": "C"}


@dataclass
class Server:
    bin_dir: Path
    folder: Path
    port: int = 0

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def run(self, tool: str, *args: str) -> None:
        command = [str(self.bin_dir / tool), *args]
        if os.geteuid() == 0:
            command = ["runuser", "-u", SERVER_USER, "--", *command]
        done = subprocess.run(command, cwd=self.folder, env=_env(), capture_output=True,
                              text=True, timeout=120, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{tool} failed ({done.returncode}): {done.stdout}{done.stderr}")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SERVER_USER}@127.0.0.1:{self.port}/{database}"

    @property
    def pid(self) -> int:
        """The postmaster's process id (its backends are its children)."""
        return int((self.data / "postmaster.pid").read_text().split()[0])


def _reap_stale(bin_dir: Path, base: str) -> None:
    """Stop and delete the servers of earlier runs killed before they cleaned up (their
    benchmark process is gone)."""
    for owner in Path(base).glob("belote-bench-pg-*/owner"):
        try:
            os.kill(int(owner.read_text()), 0)
            continue  # its run is still going
        except ProcessLookupError:
            pass
        except (OSError, ValueError):
            continue
        stale = Server(bin_dir, owner.parent)
        with contextlib.suppress(Exception):
            if (stale.data / "postmaster.pid").exists():
                stale.run("pg_ctl", "-D", str(stale.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(stale.folder, ignore_errors=True)


@contextlib.contextmanager
def running_postgres() -> Iterator[Server]:
    """A started throwaway server, stopped and deleted on leaving."""
    bin_dir = _bin_dir()
    base = "/tmp" if os.geteuid() == 0 else tempfile.gettempdir()  # the server user reaches it
    _reap_stale(bin_dir, base)
    server = Server(bin_dir, Path(tempfile.mkdtemp(prefix="belote-bench-pg-", dir=base)))
    (server.folder / "owner").write_text(str(os.getpid()))
    try:
        if os.geteuid() == 0:
            shutil.chown(server.folder, SERVER_USER, SERVER_USER)
        server.run("initdb", "-D", str(server.data), "-U", SERVER_USER, "-A", "trust",
                   "-E", "UTF8", "--locale=C", "--no-sync")
        with (server.data / "postgresql.conf").open("a") as conf:
            conf.write(f"\nlisten_addresses = '127.0.0.1'\n"
                       f"unix_socket_directories = '{server.folder}'\n{SETTINGS}")
        server.port = _free_port()
        server.run("pg_ctl", "-D", str(server.data), "-l", str(server.folder / "server.log"),
                   "-w", "-t", "60", "-o", f"-p {server.port}", "start")
        yield server
    finally:
        with contextlib.suppress(Exception):
            if (server.data / "postmaster.pid").exists():
                server.run("pg_ctl", "-D", str(server.data), "-m", "fast", "-w", "stop")
        shutil.rmtree(server.folder, ignore_errors=True)


async def fresh_database(url: str) -> str:
    """A new, empty database on the server of ``url`` (its role may create databases)."""
    import asyncpg

    from belote.server.cluster.wire import pg_dsn
    name = f"belote_bench_{uuid.uuid4().hex[:10]}"
    conn = await asyncpg.connect(pg_dsn(url))
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


async def drop_database(url: str, maintenance_url: str) -> None:
    """Remove the database of ``url`` (made by :func:`fresh_database`), connected to
    ``maintenance_url``'s."""
    import asyncpg

    from belote.server.cluster.wire import pg_dsn
    name = urlsplit(url).path.lstrip("/")
    conn = await asyncpg.connect(pg_dsn(maintenance_url))
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()
