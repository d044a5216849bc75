"""La Sala behind a real nginx, as docs/room.md sets it up (issue 26, item 5).

`belote serve` runs in a child process on the session's PostgreSQL, trusting X-Forwarded-For
from 127.0.0.1 only; Debian's nginx runs the sample configuration deploy/nginx/belote.conf in
front of it (tests/server/nginx_front.py), with a self-signed certificate that the clients
here verify (they trust it; nothing is let through unverified).

- Pages come over https, and the room's Secure session cookie comes back on the next one;
  plain http is sent to https.
- A lobby socket and a table socket are upgraded through nginx (wss) and answer both ways;
  a socket from another origin is still refused behind it.
- The room counts a client by the address nginx saw, not by nginx's own address and not by
  an X-Forwarded-For the client wrote itself.
- A process that is down is passed over; a body over the room's 64 KiB cap is refused by nginx.
- With two room processes, connections are spread over both (their X-Belote-Process header).
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from tests.server.nginx_front import NginxFront, free_port, room_options, running_nginx
from tests.server.postgres import fresh_database
from tests.server.serve_process import ServeProcess

# Each test starts `belote serve` (and nginx): seconds, not milliseconds.
pytestmark = pytest.mark.slow

TIMEOUT = 30.0  # seconds any one answer may take on a loaded machine


@dataclass
class Front:
    room: ServeProcess
    nginx: NginxFront


@pytest.fixture(scope="module")
def front(postgres_url: str) -> Iterator[Front]:
    https_port = free_port()
    with ServeProcess(fresh_database(postgres_url), options=room_options(https_port)) as room, \
            running_nginx(room.ports, https_port) as nginx:
        yield Front(room, nginx)


def client(nginx: NginxFront, source: str | None = None) -> httpx.Client:
    """An https client of ``nginx`` that verifies its certificate; ``source``: the loopback
    address it connects from (another client's address, as nginx sees it)."""
    transport = httpx.HTTPTransport(verify=nginx.ssl_context(), local_address=source)
    return httpx.Client(base_url=nginx.url, transport=transport, timeout=TIMEOUT,
                        headers={"Origin": nginx.origin})


def sign_in(http: httpx.Client, name: str) -> httpx.Response:
    return http.post("/guest", data={"name": name}, follow_redirects=False)


def cookie_header(http: httpx.Client) -> str:
    return "; ".join(f"{c.name}={c.value}" for c in http.cookies.jar)


def socket(nginx: NginxFront, path: str, http: httpx.Client,
           origin: str | None = None) -> ClientConnection:
    return ws_connect(f"wss://127.0.0.1:{nginx.https_port}{path}", ssl=nginx.ssl_context(),
                      open_timeout=TIMEOUT, additional_headers={
                          "Origin": origin or nginx.origin, "Cookie": cookie_header(http)})


def frame(ws: ClientConnection) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(ws.recv(timeout=TIMEOUT))
    return found


def send(ws: ClientConnection, kind: str, **data: Any) -> None:
    ws.send(json.dumps({"t": kind, "d": data}))


def until(ws: ClientConnection, kind: str, limit: int = 50) -> dict[str, Any]:
    """The next frame of type ``kind`` (others are skipped, at most ``limit``)."""
    seen = []
    for _ in range(limit):
        found = frame(ws)
        if found["t"] == kind:
            return found
        seen.append(found["t"])
    raise AssertionError(f"no {kind!r} frame in {seen}")


def test_pages_come_over_https_and_the_secure_session_cookie_comes_back(front: Front) -> None:
    with client(front.nginx) as http:
        lobby = http.get("/")
        assert lobby.status_code == 200 and lobby.url.scheme == "https"
        signed = sign_in(http, "Ada")
        assert signed.status_code == 303, signed.text
        session = [c for c in signed.headers.get_list("set-cookie") if c.startswith("sala=")]
        assert session and "secure" in session[0].lower(), signed.headers
        # httpx keeps a Secure cookie for https only: the room knows Ada on the next page.
        assert "Signed in as Ada" in http.get("/").text

    plain = httpx.get(f"http://127.0.0.1:{front.nginx.http_port}/table/1?x=1", timeout=TIMEOUT)
    assert plain.status_code == 301
    assert plain.headers["location"] == "https://127.0.0.1/table/1?x=1"


def test_lobby_and_table_sockets_are_upgraded_through_nginx(front: Front) -> None:
    with client(front.nginx) as http:
        assert sign_in(http, "Bea").status_code == 303
        created = http.post("/tables", data={"preset": "classic", "flags": "", "target": ""},
                            follow_redirects=False)
        assert created.status_code == 303, created.text
        table_id = int(created.headers["location"].rsplit("/", 1)[1])

        with socket(front.nginx, "/ws/lobby", http) as lobby:
            assert frame(lobby)["t"] == "sync"

        with socket(front.nginx, f"/ws/table/{table_id}", http) as table:
            sync = frame(table)
            assert sync["t"] == "sync" and sync["d"]["view"]["table"] == table_id
            send(table, "ping", n=7)
            assert until(table, "pong")["d"]["n"] == 7
            send(table, "sit", seat=2)
            seats = until(table, "update")["d"]["view"]["seats"]
            assert seats[2]["name"] == "Bea" and seats[2]["you"], seats

        # The room's Origin check still holds behind nginx: another site's page is refused.
        with pytest.raises(InvalidStatus) as refused:
            socket(front.nginx, "/ws/lobby", http, origin="https://elsewhere.example")
        assert refused.value.response.status_code == 403


def test_the_room_counts_a_client_by_the_address_nginx_saw(postgres_url: str) -> None:
    # Two new guests an hour per address.  The clients connect to nginx from 127.0.0.2 and
    # 127.0.0.3 (nginx itself reaches the room from 127.0.0.1) and each writes an
    # X-Forwarded-For of its own choosing, which nginx must replace by the address it saw.
    https_port = free_port()
    options = [*room_options(https_port), "--guests-per-hour", "2"]
    with ServeProcess(fresh_database(postgres_url), options=options) as room, \
            running_nginx(room.ports, https_port) as nginx:

        def guest(source: str, name: str, claimed: str) -> int:
            with client(nginx, source) as http:
                http.headers["X-Forwarded-For"] = claimed
                return sign_in(http, name).status_code

        assert guest("127.0.0.2", "Cleo", "198.51.100.1") == 303
        assert guest("127.0.0.2", "Dora", "198.51.100.2") == 303
        # A third from 127.0.0.2: refused, whatever address it claims.
        assert guest("127.0.0.2", "Ezio", "198.51.100.3") == 429
        # Another address keeps its own count: the room did not count nginx's 127.0.0.1.
        assert guest("127.0.0.3", "Fede", "198.51.100.2") == 303
        log = room.log()
    # uvicorn's access log names the client the room saw.
    assert '127.0.0.2:0 - "POST /guest' in log and '127.0.0.3:0 - "POST /guest' in log, log
    assert "198.51.100." not in log


def test_a_process_that_is_down_is_passed_over(postgres_url: str) -> None:
    https_port, dead = free_port(), free_port()  # nothing listens on ``dead``: a process down
    with ServeProcess(fresh_database(postgres_url), options=room_options(https_port)) as room, \
            running_nginx([dead, *room.ports], https_port) as nginx, client(nginx) as http:
        answers = [http.get("/").status_code for _ in range(6)]
        assert sign_in(http, "Gino").status_code == 303  # a POST that never reached it
        assert "Signed in as Gino" in http.get("/").text
        log = nginx.error_log()
    assert answers == [200] * 6
    assert "connect() failed (111: Connection refused) while connecting to upstream" in log
    assert f"127.0.0.1:{dead}" in log


class _Named(BaseHTTPRequestHandler):
    """A stand-in for a room process: answers every GET with its own port."""

    def do_GET(self) -> None:
        body = str(self.server.server_address[1]).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:  # quiet: the test reads nginx's log
        pass


def _up(port: int) -> ThreadingHTTPServer:
    server = ThreadingHTTPServer(("127.0.0.1", port), _Named)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def _down(server: ThreadingHTTPServer) -> None:
    server.shutdown()
    server.server_close()  # the port refuses connections again: the process is down


def test_a_process_back_from_down_is_tried_again_within_seconds() -> None:
    """Found by the failover browser test: nginx passed over a process that had refused a
    connection for its default 10 s.  Killed and restarted, a process stayed shunned; the
    other one going down meanwhile (two processes, a rolling restart) left nginx with "no
    live upstreams": 502 for every page and socket, the players' pages 7 s without their
    table.  The sample passes a refusing process over for 2 s (fail_timeout)."""
    first, second = free_port(), free_port()
    running = [_up(second)]  # ``first`` is down
    try:
        with running_nginx([first, second]) as nginx, client(nginx) as http:
            for _ in range(20):  # until nginx has tried ``first`` (and passed it over)
                assert http.get("/").text == str(second)
                if f"127.0.0.1:{first}" in nginx.error_log():
                    break
            assert "connect() failed (111: Connection refused) while connecting to upstream, " \
                   "client: 127.0.0.1" in nginx.error_log(), nginx.error_log()
            running.append(_up(first))  # ``first`` back, and at once ``second`` down
            _down(running.pop(0))
            started, answers = time.monotonic(), []
            while time.monotonic() - started < 6.0:  # 2 s with the sample, 10 s without
                response = http.get("/")
                answers.append(response.status_code)
                if response.status_code == 200:
                    break
                time.sleep(0.1)
            assert answers[-1] == 200 and response.text == str(first), \
                (answers, nginx.error_log()[-1500:])
    finally:
        for server in running:
            _down(server)


def test_a_body_over_the_rooms_64_kib_is_refused_by_nginx(front: Front) -> None:
    with client(front.nginx) as http:
        refused = http.post("/guest", content=b"name=" + b"x" * (65 * 1024),
                            headers={"Content-Type": "application/x-www-form-urlencoded"})
        assert refused.status_code == 413
        assert "<center>nginx</center>" in refused.text  # nginx's page, not the room's
        assert http.get("/").status_code == 200


def test_connections_are_spread_over_the_rooms_processes(postgres_url: str) -> None:
    # Needs `belote serve --processes` and its X-Belote-Process header (issue 26).
    https_port = free_port()
    with ServeProcess(fresh_database(postgres_url), processes=2,
                      options=room_options(https_port)) as room, \
            running_nginx(room.ports, https_port) as nginx:
        answered: Counter[str] = Counter()
        for _ in range(20):
            with client(nginx) as http:  # a new connection each
                response = http.get("/")
            assert response.status_code == 200
            answered[response.headers.get("X-Belote-Process", "(no header)")] += 1
    assert "(no header)" not in answered, answered
    assert len(answered) == 2, answered
