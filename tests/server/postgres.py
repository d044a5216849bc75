"""A throwaway PostgreSQL server for the room's tests, started from Debian's packages.

The session fixture :func:`postgres_url` makes a cluster in a temporary folder (``initdb`` with
trust authentication), starts it with ``pg_ctl`` on 127.0.0.1 and a free port, creates the
database ``belote`` and yields ``postgresql://postgres@127.0.0.1:PORT/belote``; at the end it
stops the server and deletes the folder.  PostgreSQL refuses to run as root, so as root the
cluster belongs to the ``postgres`` system user (made by the Debian package).  Without the
server binaries the tests fail, naming ``scripts/system-deps.sh``: they never skip.
"""

from __future__ import annotations

import contextlib
import glob
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

SERVER_USER = "postgres"  # the cluster's superuser, and its owner when we run as root
MISSING = ("PostgreSQL server binaries (initdb, pg_ctl) not found under "
           "/usr/lib/postgresql/*/bin: run scripts/system-deps.sh (installs Debian's "
           "postgresql package) first")


def find_bin_dir() -> Path:
    """The newest ``/usr/lib/postgresql/VERSION/bin`` holding initdb and pg_ctl."""
    found = []
    for initdb in glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        bin_dir = Path(initdb).parent
        version = bin_dir.parent.name
        if (bin_dir / "pg_ctl").exists() and (bin_dir / "postgres").exists():
            found.append((tuple(int(n) for n in re.findall(r"\d+", version)), bin_dir))
    if not found:
        pytest.fail(MISSING, pytrace=False)
    return max(found)[1]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _clean_env() -> dict[str, str]:
    """The environment without a developer's PG* settings (PGHOST, PGOPTIONS, ...)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
    return {**env, "LC_ALL": "C", "LANG": "C"}


def _shared_temp() -> str:
    """The temporary folder, or /tmp where the server user could not reach into it."""
    folder = Path(tempfile.gettempdir()).resolve()
    for part in (folder, *folder.parents):
        if not part.stat().st_mode & 0o001:
            return "/tmp"
    return str(folder)


class PostgresServer:
    """One cluster in ``folder``; :meth:`start` runs it, :meth:`stop` stops it and deletes it."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin_dir = bin_dir
        self.as_root = os.geteuid() == 0
        self.folder = Path(tempfile.mkdtemp(prefix="belote-pg-", dir=_shared_temp()))
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        self.port = 0
        (self.folder / "owner").write_text(str(os.getpid()))
        if self.as_root:
            try:
                shutil.chown(self.folder, SERVER_USER, SERVER_USER)
            except LookupError:
                self.remove()
                pytest.fail(f"no {SERVER_USER!r} system user to run PostgreSQL as (root may "
                            "not): run scripts/system-deps.sh", pytrace=False)

    def _run(self, tool: str, *args: str, timeout: float = 60) -> None:
        command = [str(self.bin_dir / tool), *args]
        if self.as_root:
            command = ["runuser", "-u", SERVER_USER, "--", *command]
        # cwd: the server user may not be allowed into the test run's working directory.
        done = subprocess.run(command, cwd=self.folder, env=_clean_env(), capture_output=True,
                              text=True, timeout=timeout, check=False)
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""
            raise RuntimeError(f"{tool} failed ({done.returncode}):\n{done.stdout}"
                               f"\n{done.stderr}\n{log}")

    def start(self, settings: str = "") -> None:
        """initdb and start; ``settings``: postgresql.conf lines added after ours.

        The cluster runs with production durability (fsync, synchronous commit and full
        page writes at PostgreSQL's defaults), so that the tests see what a real server
        keeps after a crash; ``initdb --no-sync`` only skips syncing the fresh template."""
        self._run("initdb", "-D", str(self.data), "-U", SERVER_USER, "-A", "trust",
                  "-E", "UTF8", "--locale=C", "--no-sync")
        with (self.data / "postgresql.conf").open("a") as conf:
            conf.write(f"\nlisten_addresses = '127.0.0.1'\n"
                       f"unix_socket_directories = '{self.folder}'\n"
                       "max_connections = 50\nshared_buffers = 32MB\n" + settings)
        self._start()

    def _start(self) -> None:
        last: Exception | None = None
        for _attempt in range(5):  # another process may take the free port meanwhile
            self.port = _free_port()
            try:
                self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w",
                          "-t", "30", "-o", f"-p {self.port}", "start")
                break
            except RuntimeError as error:
                last = error
                with contextlib.suppress(Exception):
                    self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "stop")
        else:
            raise RuntimeError(f"PostgreSQL did not start: {last}")

    def kill(self) -> None:
        """SIGKILL the server and every process of it at once (no shutdown code runs, what
        only its shared memory held is lost), as a crash would."""
        postmaster = int((self.data / "postmaster.pid").read_text().split()[0])
        children = subprocess.run(["pgrep", "-P", str(postmaster)], capture_output=True,
                                  text=True, check=False).stdout.split()
        for pid in [postmaster, *(int(c) for c in children)]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and Path(f"/proc/{postmaster}").exists():
            time.sleep(0.05)

    def start_again(self) -> None:
        """Start the killed server again on its port: it recovers from its WAL."""
        (self.data / "postmaster.pid").unlink(missing_ok=True)
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60",
                  "-o", f"-p {self.port}", "start", timeout=90)

    def restart(self) -> None:
        """Stop the server (ending every connection) and start it again on the same port."""
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-m", "fast", "-w",
                  "-t", "30", "-o", f"-p {self.port}", "restart")

    def url(self, database: str) -> str:
        return f"postgresql://{SERVER_USER}@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", SERVER_USER, name)
        return self.url(name)

    def stop(self) -> None:
        try:
            if (self.data / "postmaster.pid").exists():
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            self.remove()

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)

    @classmethod
    def reap_stale(cls, bin_dir: Path) -> None:
        """Stop and delete the clusters of earlier test runs that were killed before cleaning
        up (their owning process is gone)."""
        for owner in Path(_shared_temp()).glob("belote-pg-*/owner"):
            try:
                pid = int(owner.read_text())
                os.kill(pid, 0)
                continue  # its test run is still going
            except ProcessLookupError:
                pass
            except (OSError, ValueError):
                continue
            stale = cls.__new__(cls)
            stale.bin_dir, stale.as_root = bin_dir, os.geteuid() == 0
            stale.folder, stale.data = owner.parent, owner.parent / "data"
            stale.log = owner.parent / "server.log"
            with contextlib.suppress(Exception):
                stale.stop()


@contextlib.contextmanager
def running_postgres(settings: str = "") -> Iterator[PostgresServer]:
    """A started throwaway server (``settings``: extra postgresql.conf lines), stopped and
    deleted on leaving."""
    bin_dir = find_bin_dir()
    PostgresServer.reap_stale(bin_dir)
    server = PostgresServer(bin_dir)
    try:
        server.start(settings)
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """``postgresql://postgres@127.0.0.1:PORT/belote`` on a server of this test session."""
    with running_postgres() as server:
        yield server.create_database("belote")


def fresh_database(postgres_url: str) -> str:
    """A new, empty database on the server of ``postgres_url``; its URL."""
    parts = urlsplit(postgres_url)
    name = f"belote_{uuid.uuid4().hex[:12]}"
    done = subprocess.run(
        [str(find_bin_dir() / "createdb"), "-h", str(parts.hostname), "-p", str(parts.port),
         "-U", str(parts.username), name],
        env=_clean_env(), capture_output=True, text=True, timeout=30, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"createdb failed: {done.stdout}{done.stderr}")
    return urlunsplit(parts._replace(path=f"/{name}"))
