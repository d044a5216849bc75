"""A real nginx (Debian's package) in front of the room, for the tests: TLS, WebSockets, proxying.

:func:`running_nginx` makes a self-signed certificate for 127.0.0.1 (``openssl``), renders
the sample configuration ``deploy/nginx/belote.conf`` for the given upstream ports (its
``CHANGE`` lines replaced: the one file the docs show and the tests run), wraps it in a small
nginx.conf whose paths (pid, logs, temporary files) all lie in a temporary folder, starts
nginx in the foreground and waits until its https port answers; on leaving it stops the
process it started and deletes the folder.  As root the workers run as root (the folder is
root's own); otherwise nginx runs as the test's user.  Without nginx the tests fail, naming
``scripts/system-deps.sh``: they never skip.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "deploy" / "nginx" / "belote.conf"
HOST = "127.0.0.1"
MISSING_NGINX = ("nginx not found (on PATH or /usr/sbin): run scripts/system-deps.sh "
                 "(installs Debian's nginx package) first; these tests never skip")
MISSING_OPENSSL = ("openssl not found: run scripts/system-deps.sh (installs Debian's openssl "
                   "package) first; these tests never skip")
START_TIMEOUT = 30.0  # seconds: nginx starts in milliseconds; a loaded machine gets slack

# The test's own nginx.conf around the sample: every path nginx writes to is in ``folder``
# (the compiled-in ones are under /var, root's), one worker, logs kept for a failure.
MAIN_CONF = """\
worker_processes 1;
events {{ worker_connections 1024; }}
http {{
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    access_log {folder}/access.log;
    include {folder}/belote.conf;
}}
"""

UPSTREAM = re.compile(r"(upstream belote_room \{\n\s*least_conn;\n)((?:[ \t]*server [^\n]*\n)+)")
SERVER = re.compile(r"[ \t]*server \S+?((?: \w+=\S+?)*);")  # its parameters: group 1


def find_nginx() -> str:
    """nginx's path; fails the test, naming scripts/system-deps.sh, if it is missing."""
    found = shutil.which("nginx", path=f"{os.environ.get('PATH', '')}:/usr/sbin:/sbin")
    if found is None:
        pytest.fail(MISSING_NGINX, pytrace=False)
    return found


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def room_options(https_port: int) -> list[str]:
    """`belote serve`'s options behind the nginx that serves https on 127.0.0.1's
    ``https_port``: believe its forwarded headers, answer its Host (``$host``: no port), and
    take its origin (which carries the port, not being 443)."""
    return ["--forwarded-allow-ips", HOST, "--allowed-host", HOST,
            "--origin", f"https://{HOST}:{https_port}"]


def _replace_once(text: str, old: str, new: str) -> str:
    if text.count(old) != 1:
        raise AssertionError(f"{SAMPLE} should hold {old!r} once: the renderer is out of date")
    return text.replace(old, new)


def render(sample: str, upstreams: Sequence[int], https_port: int, http_port: int,
           certificate: Path, key: Path) -> str:
    """The sample configuration with its CHANGE lines made for this machine: the room on
    ``upstreams`` (ports on 127.0.0.1), https and http on 127.0.0.1's ports."""
    if not upstreams:
        raise ValueError("nginx needs at least one upstream port")
    block = UPSTREAM.search(sample)
    if block is None:
        raise AssertionError(f"{SAMPLE}: no 'upstream belote_room' block of server lines")
    # Each line as the sample's first: its parameters (max_fails, fail_timeout) kept.
    first = SERVER.match(block.group(2))
    if first is None:
        raise AssertionError(f"{SAMPLE}: its first upstream line is not 'server HOST:PORT ...;'")
    servers = "".join(f"    server {HOST}:{port}{first.group(1)};\n" for port in upstreams)
    text = sample[:block.start(2)] + servers + sample[block.end(2):]
    text = _replace_once(text, "listen 443 ssl;", f"listen {HOST}:{https_port} ssl;")
    text = _replace_once(text, "listen 80;", f"listen {HOST}:{http_port};")
    text = _replace_once(text, "ssl_certificate /etc/ssl/belote/fullchain.pem;",
                         f"ssl_certificate {certificate};")
    return _replace_once(text, "ssl_certificate_key /etc/ssl/belote/privkey.pem;",
                         f"ssl_certificate_key {key};")


def make_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost, and its key: (cert, key)."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.fail(MISSING_OPENSSL, pytrace=False)
    certificate, key = folder / "cert.pem", folder / "key.pem"
    done = subprocess.run(
        [openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-days", "2", "-subj", "/CN=belote-test", "-keyout", str(key),
         "-out", str(certificate), "-addext", f"subjectAltName=IP:{HOST},DNS:localhost"],
        capture_output=True, text=True, timeout=60, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"openssl failed ({done.returncode}): {done.stderr}")
    return certificate, key


@dataclass
class NginxFront:
    """A started nginx: its https and http ports, its certificate and its folder."""

    folder: Path
    certificate: Path
    https_port: int
    http_port: int
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"https://{HOST}:{self.https_port}"

    @property
    def origin(self) -> str:
        """What a browser on :attr:`url` sends as Origin (the room's ``--origin``)."""
        return self.url

    def ssl_context(self) -> ssl.SSLContext:
        """A client context that trusts this nginx's certificate, and verifies it."""
        return ssl.create_default_context(cafile=str(self.certificate))

    def error_log(self) -> str:
        path = self.folder / "error.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def start(self, nginx: str, upstreams: Sequence[int]) -> None:
        certificate, key = self.certificate, self.folder / "key.pem"
        (self.folder / "belote.conf").write_text(
            render(SAMPLE.read_text(), upstreams, self.https_port, self.http_port,
                   certificate, key))
        (self.folder / "nginx.conf").write_text(MAIN_CONF.format(folder=self.folder))
        # As root the master would hand its workers to www-data, who may not enter the
        # folder; as anyone else there is no user to switch to (the directive is left out).
        user = "user root root; " if os.geteuid() == 0 else ""
        globals_ = f"{user}daemon off; pid {self.folder}/nginx.pid; " \
                   f"error_log {self.folder}/error.log info;"
        self.process = subprocess.Popen(
            [nginx, "-p", f"{self.folder}/", "-e", str(self.folder / "error.log"),
             "-c", str(self.folder / "nginx.conf"), "-g", globals_],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                with socket.create_connection((HOST, self.https_port), timeout=2):
                    return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"nginx did not start on {self.url}; its log:\n{self.error_log()}")

    def stop(self) -> None:
        """Stop the nginx this object started (its master: it stops its workers)."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)  # fast shutdown: open sockets are closed
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


@contextlib.contextmanager
def running_nginx(upstreams: Sequence[int], https_port: int | None = None
                  ) -> Iterator[NginxFront]:
    """nginx on 127.0.0.1 (https, and http redirecting to it) in front of the room's
    ``upstreams``; ``https_port``: the port to serve on (default: a free one), for a room
    that was told its origin before nginx started."""
    nginx = find_nginx()
    folder = Path(tempfile.mkdtemp(prefix="belote-nginx-"))
    try:
        certificate, _key = make_certificate(folder)
        front = NginxFront(folder, certificate, https_port or free_port(), free_port())
        try:
            front.start(nginx, upstreams)
            yield front
        finally:
            front.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
