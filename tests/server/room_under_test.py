"""One body of checks, two rooms: the room in this test's process, and two real processes.

The suites that guard the room's promises (hidden information, abuse, security, durability)
run their checks against :class:`OneProcess` (the app under Starlette's test client, on a
SQLite file: fast, and the app's insides at hand) and against :class:`TwoProcesses` (two
``belote serve --cluster`` processes on one PostgreSQL database, issue 26, item 7): there the
people reach the room through either process (``via``), so that a table's pages and sockets
are relayed from the process that does not run it to the one that does.  Tables are created
through process 0, which runs them; ``via=1`` goes through the relay.

A check takes the ``sala`` fixture (both rooms; the two-process one is ``slow``) and speaks
to the room only through :class:`Sala`'s methods, the sockets they open and
:mod:`tests.server.helpers` (``send``, ``receive``, ``until``).  The two processes are
started once per test session (``two_processes``) and shared: names are made unique per
test, and a check that kills a process starts it again.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

import httpx
import pytest
from sqlalchemy import text
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from belote.rules import Rules, find_preset
from belote.server.app import create_app
from belote.server.config import Settings
from belote.server.persistence import LogEntry, Store
from tests.server.cluster_room import ClusterRoom
from tests.server.conftest import ORIGIN, client_for, make_settings
from tests.server.helpers import FRAME_TIMEOUT, Identities
from tests.server.helpers import create_table as create_table_over
from tests.server.postgres import fresh_database

REFUSED = 1008  # the room's close code for a socket it refuses (another origin, a limit)
# The shared processes serve every check of a session from 127.0.0.1: the per-address
# limits on guests and tables are the limit checks' own business (test_abuse.py).
GENEROUS = ["--guests-per-hour", "100000", "--tables-per-hour", "1000000",
            "--waiting-tables-per-user", "100000", "--signups-per-hour", "100000"]


class Sala(Protocol):
    """The room under test, as its visitors reach it."""

    def guest(self, who: str, via: int = 0) -> None:
        """Sign ``who`` in as a guest."""

    def http(self, who: str, via: int = 0) -> Any:
        """``who``'s HTTP client (``get``, ``post``: paths of the room; redirects followed
        unless told otherwise), through process ``via``."""

    def create_table(self, who: str, preset: str = "classic", target: int | None = 300,
                     flags: str = "", via: int = 0) -> int: ...

    def connect(self, who: str, table_id: int, via: int = 0,
                origin: str | None = None) -> Any:
        """``who``'s socket to the table (a context manager; ``origin``: another one than
        the room's).  A refusal before the socket is accepted raises
        ``WebSocketDisconnect``."""

    def log(self, table_id: int) -> list[LogEntry]:
        """The table's stored log."""

    def rules(self, table_id: int) -> Rules:
        """The table's rules, as its row stores them."""

    def execute(self, sql: str, **values: Any) -> None:
        """Change the room's database behind its back (what a faulty server may do)."""

    def status(self, table_id: int) -> str:
        """The table's stored status."""

    def crash(self, table_id: int) -> None:
        """The process running the table goes away and the table comes back from its log:
        the one process starts again on its file; of two, the one running it is killed
        (SIGKILL) and the other takes the table over."""

    def logged(self) -> str:
        """What the room's processes logged (at WARNING and above, at least)."""


class OneProcess:
    """The app in this process (Starlette's test client), on a SQLite file."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.records = Records()
        self._open()

    def _open(self) -> None:
        self.app = create_app(self.settings)
        self.client = client_for(self.app).__enter__()
        people = Identities(self.client)
        if hasattr(self, "people"):
            people._jars = self.people._jars  # the same people, signed in as before
        self.people = people

    def close(self) -> None:
        self.client.__exit__(None, None, None)

    def guest(self, who: str, via: int = 0) -> None:
        self.people.guest(who)

    def http(self, who: str, via: int = 0) -> TestClient:
        return self.people.use(who)

    def create_table(self, who: str, preset: str = "classic", target: int | None = 300,
                     flags: str = "", via: int = 0) -> int:
        return create_table_over(self.people.use(who), preset, target, flags)

    def connect(self, who: str, table_id: int, via: int = 0,
                origin: str | None = None) -> Any:
        return self.people.use(who).websocket_connect(
            f"wss://testserver/ws/table/{table_id}", headers={"origin": origin or ORIGIN})

    def log(self, table_id: int) -> list[LogEntry]:
        return read_db(self.settings.db_url, lambda s: s.log(table_id))

    def rules(self, table_id: int) -> Rules:
        return stored_rules(self.settings.db_url, table_id)

    def execute(self, sql: str, **values: Any) -> None:
        write_db(self.settings.db_url, sql, values)

    def status(self, table_id: int) -> str:
        return stored_status(self.settings.db_url, table_id)

    def crash(self, table_id: int) -> None:
        """The room stops and starts again on its file."""
        self.close()
        self._open()

    def logged(self) -> str:
        return self.records.text()


class Records(logging.Handler):
    """What the room's loggers said at WARNING and above, while the room runs here."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []
        logging.getLogger("belote.server").addHandler(self)

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.levelname} {record.name}: {record.getMessage()}")

    def text(self) -> str:
        return "\n".join(self.lines)

    def close(self) -> None:
        logging.getLogger("belote.server").removeHandler(self)
        super().close()


class Door:
    """One person's HTTP client, knocking at one process (the cookies are the person's,
    whichever process set them: cookies are per host, not per port)."""

    def __init__(self, client: httpx.Client, base: str) -> None:
        self.client = client
        self.base = base

    @property
    def cookies(self) -> httpx.Cookies:
        return self.client.cookies

    def request(self, method: str, path: str, headers: dict[str, str] | None = None,
                **options: Any) -> httpx.Response:
        sent = httpx.Headers({"Origin": self.base})
        sent.update(headers or {})
        return self.client.request(method, self.base + path, headers=sent, **options)

    def get(self, path: str, **options: Any) -> httpx.Response:
        return self.request("GET", path, **options)

    def post(self, path: str, **options: Any) -> httpx.Response:
        return self.request("POST", path, **options)


class LiveSocket:
    """A real WebSocket with the test client's interface (``send_text``, ``send_bytes``,
    ``receive_text``; a close raises ``WebSocketDisconnect`` with its code), and
    ``receive_frame``, which :func:`tests.server.helpers.receive` calls."""

    def __init__(self, conn: ClientConnection) -> None:
        self.conn = conn

    def send_text(self, text: str) -> None:
        self.conn.send(text)

    def send_bytes(self, data: bytes) -> None:
        self.conn.send(data)

    def receive_text(self, timeout: float = FRAME_TIMEOUT) -> str:
        try:
            data = self.conn.recv(timeout=timeout)
        except TimeoutError:
            raise AssertionError(f"no frame within {timeout} s") from None
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else 1006
            raise WebSocketDisconnect(code, closed.rcvd.reason if closed.rcvd else "") from None
        return data if isinstance(data, str) else data.decode()

    def receive_frame(self, timeout: float = FRAME_TIMEOUT) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.receive_text(timeout))
        return frame

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> LiveSocket:
        self.conn.__enter__()  # websockets wants its sockets used as context managers
        return self

    def __exit__(self, *exc: Any) -> None:
        self.conn.__exit__(*exc)


class TwoProcesses:
    """Two real processes of one room (``cluster``), shared by the checks of a session."""

    names = itertools.count(1)

    def __init__(self, cluster: ClusterRoom) -> None:
        self.cluster = cluster
        self.clients: dict[str, httpx.Client] = {}
        self.named: dict[str, str] = {}

    def base(self, via: int) -> str:
        return self.cluster.processes[via].base

    def _client(self, who: str) -> httpx.Client:
        if who not in self.clients:
            self.clients[who] = httpx.Client(timeout=20, follow_redirects=True)
        return self.clients[who]

    def guest(self, who: str, via: int = 0) -> None:
        # Guest names are the room's, held while their session lives: the shared room has
        # seen this name in an earlier check.
        name = self.named[who] = f"{who}{next(self.names)}"
        door = self.http(who, via)
        answer = door.post("/guest", data={"name": name}, follow_redirects=False)
        assert answer.status_code == 303, answer.text
        assert f"Signed in as {name}" in door.get("/").text, f"{name}: not signed in"

    def http(self, who: str, via: int = 0) -> Door:
        return Door(self._client(who), self.base(via))

    def create_table(self, who: str, preset: str = "classic", target: int | None = 300,
                     flags: str = "", via: int = 0) -> int:
        data = {"preset": preset, "flags": flags,
                "target": "" if target is None else str(target)}
        answer = self.http(who, via).post("/tables", data=data, follow_redirects=False)
        assert answer.status_code == 303, answer.text
        table_id = int(answer.headers["location"].rsplit("/", 1)[1])
        # The process asked runs it: through any other, its pages and sockets are relayed.
        page = self.http(who, 1 - via).get(f"/table/{table_id}")
        owner = self.cluster.processes[via]
        assert page.headers.get("x-belote-owner") == f"127.0.0.1:{owner.port}", page.headers
        return table_id

    def connect(self, who: str, table_id: int, via: int = 0,
                origin: str | None = None) -> LiveSocket:
        process = self.cluster.processes[via]
        cookies = "; ".join(f"{k}={v}" for k, v in self._client(who).cookies.items())
        headers = {"Origin": origin or process.base, **({"Cookie": cookies} if cookies else {})}
        try:
            conn = ws_connect(f"ws://127.0.0.1:{process.port}/ws/table/{table_id}",
                              additional_headers=headers, open_timeout=20)
        except InvalidStatus as refused:
            # A socket the room closes before accepting it reaches a real client as an
            # HTTP 403 (ASGI): the test client reports the close code instead.
            if refused.response.status_code == 403:
                raise WebSocketDisconnect(REFUSED, "refused at the handshake") from None
            raise
        return LiveSocket(conn)

    def log(self, table_id: int) -> list[LogEntry]:
        return read_db(self.cluster.db, lambda s: s.log(table_id))

    def rules(self, table_id: int) -> Rules:
        return stored_rules(self.cluster.db, table_id)

    def execute(self, sql: str, **values: Any) -> None:
        write_db(self.cluster.db, sql, values)

    def status(self, table_id: int) -> str:
        return stored_status(self.cluster.db, table_id)

    def crash(self, table_id: int) -> None:
        owner = self.http("crash", 1).get(f"/table/{table_id}").headers.get(
            "x-belote-owner", f"127.0.0.1:{self.cluster.processes[1].port}")
        victim = next(p for p in self.cluster.processes if owner.endswith(f":{p.port}"))
        victim.kill()  # started again after the check (the fixture)

    def logged(self) -> str:
        return self.cluster.logs()

    def close(self) -> None:
        for client in self.clients.values():
            client.close()


def read_db(db_url: str, query: Callable[[Store], Any]) -> Any:
    """``await query(store)`` on the room's database, through a store of its own."""
    async def run() -> Any:
        store = Store(db_url)
        try:
            return await query(store)
        finally:
            await store.close()
    return asyncio.run(run())


def write_db(db_url: str, sql: str, values: dict[str, Any]) -> None:
    async def run(store: Store) -> None:
        async with store.engine.begin() as conn:
            await conn.execute(text(sql), values)
    read_db(db_url, run)


def stored_status(db_url: str, table_id: int) -> str:
    row = read_db(db_url, lambda s: s.table(table_id))
    assert row is not None, f"no table {table_id}"
    return str(row.status)


def stored_rules(db_url: str, table_id: int) -> Rules:
    """The table's rules, as its row stores them (the preset and the flags changed)."""
    row = read_db(db_url, lambda s: s.table(table_id))
    assert row is not None, f"no table {table_id}"
    rules: Rules = find_preset(row.preset).with_flags(**row.flags)
    return rules


def two_processes_for(postgres_url: str, folder: Path) -> Iterator[ClusterRoom]:
    """Two processes of one room on a fresh database of the session's PostgreSQL (the
    session fixture ``two_processes`` of tests/server/conftest.py)."""
    room = ClusterRoom(fresh_database(postgres_url), folder, 2, GENEROUS)
    room.start()
    try:
        yield room
    finally:
        room.stop()


def ensure_running(cluster: ClusterRoom) -> None:
    """Every process up (a check that killed one and failed may have left it down)."""
    for process in cluster.processes:
        if process.popen is None or process.popen.poll() is not None:
            process.start()


BOTH = [pytest.param("one process", id="one_process"),
        pytest.param("two processes", id="two_processes", marks=[
            pytest.mark.slow, pytest.mark.postgres, pytest.mark.xdist_group("two_processes")])]


@pytest.fixture(params=BOTH)
def sala(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Sala]:
    """The room under test: in this process, then as two processes (``slow``)."""
    if request.param == "one process":
        alone = OneProcess(make_settings(tmp_path))
        try:
            yield alone
        finally:
            alone.close()
            alone.records.close()
        return
    cluster: ClusterRoom = request.getfixturevalue("two_processes")
    ensure_running(cluster)
    room = TwoProcesses(cluster)
    failed = request.session.testsfailed
    try:
        yield room
    finally:
        room.close()
        if request.session.testsfailed > failed:  # shown with the failure
            print(f"--- the processes' logs ---\n{cluster.logs()}")
        with contextlib.suppress(Exception):
            ensure_running(cluster)
