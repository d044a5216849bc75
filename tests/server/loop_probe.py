"""A probe socket: how long a live room's event loop is held, measured from outside.

The standard: "No request holds the room's event loop more than 50 ms ... Test it with a probe
socket."  :class:`LoopProbe` opens the lobby's WebSocket of a running room (a
:class:`tests.browser.live.LiveServer`, or any ``belote serve``) in a process of its own and
sends ``ping`` at a fixed interval, one at a time; each ``pong``'s round trip is a sample.
While the room's loop is held, the ping in flight waits: its round trip is the stall (at
least).  The probe lives in its own process so that nothing the test does (its threads, its
own interpreter lock) delays it; its times are ``time.monotonic()``, one clock for the whole
machine, so they compare with the test's.

Use::

    with LiveServer() as room:
        measured = worst_stall(room.url, lambda: heavy_request(room.url))
        assert measured.stall <= 0.050, measured

:func:`worst_stall` runs the action up to ``attempts`` times, each under a fresh probe, and
keeps the least of the attempts' worst round trips: a stall that a request really causes
shows in every attempt, while a busy machine's noise (another process scheduled, a page
fault) rarely hits every one.  It stops at the first attempt within the threshold.

The room under test and the probe run favoured (:func:`favour`: nice -10; the room's
heavy-work processes, started later, inherit it), as a room on a machine of its own would: in
the full suite three test workers share two cores, and the scheduler then leaves a runnable
room or probe waiting tens of milliseconds, which the probe would count as a held loop.  A
request that holds the loop holds it as long when favoured (its work is the room's own), so
what is measured is still the room.  Where the priority cannot be raised (no right to), the
measurement says so (``favoured``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

INTERVAL = 0.01  # seconds between the end of one round trip and the next ping
THRESHOLD = 0.050  # the standard's 50 ms

FAVOURED = -10  # the nice value of the room under test and of the probe (see above)


def favour(pid: int) -> bool:
    """Raise process ``pid``'s priority to ``FAVOURED``; False where that is not allowed."""
    try:
        os.setpriority(os.PRIO_PROCESS, pid, FAVOURED)
    except OSError:
        return False
    return True


# Run in the probe's process: argv[1] the ws:// URL, argv[2] the Origin, argv[3] the interval.
# Prints "ready", then one line "SENT RTT" per pong (monotonic seconds); stdin closed: it
# stops, counting a ping still in flight as a round trip that lasted until then.
_PROBE = r"""
import sys, threading, time
from websockets.sync.client import connect
url, origin, interval = sys.argv[1], sys.argv[2], float(sys.argv[3])
stop = threading.Event()
def watch():
    sys.stdin.read()
    stop.set()
threading.Thread(target=watch, daemon=True).start()
out = sys.stdout
with connect(url, origin=origin, open_timeout=10, max_size=None) as ws:
    ws.recv(timeout=10)  # the lobby's sync
    out.write("ready\n"); out.flush()
    while not stop.is_set():
        sent = time.monotonic()
        ws.send('{"t":"ping","d":{}}')
        while True:
            try:
                frame = ws.recv(timeout=0.05)
            except TimeoutError:
                if stop.is_set():
                    out.write(f"{sent} {time.monotonic() - sent} open\n")
                    break
                continue
            if '"pong"' in frame:
                out.write(f"{sent} {time.monotonic() - sent}\n")
                break
        out.flush()
        stop.wait(interval)
"""


@dataclass(frozen=True, slots=True)
class Sample:
    """One ping: when it was sent and its round trip (seconds; ``open``: no pong came before
    the probe stopped, so the round trip is a lower bound)."""

    sent: float
    rtt: float
    open: bool = False


class LoopProbe:
    """Ping a room's lobby socket every ``interval`` seconds, in a process of its own.

    ``url`` is the room's http(s) address.  Use as a context manager; :meth:`max_stall` and
    :meth:`samples_between` read what it measured once stopped.
    """

    def __init__(self, url: str, interval: float = INTERVAL, path: str = "/ws/lobby") -> None:
        parts = urlsplit(url)
        scheme = "wss" if parts.scheme == "https" else "ws"
        self.ws_url = f"{scheme}://{parts.netloc}{path}"
        self.origin = f"{parts.scheme}://{parts.netloc}"
        self.interval = interval
        self.samples: list[Sample] = []
        self.favoured = False
        self._process: subprocess.Popen[str] | None = None
        self._lines: list[str] = []
        self._reader: threading.Thread | None = None

    def start(self, timeout: float = 20.0) -> LoopProbe:
        self._process = subprocess.Popen(
            [sys.executable, "-c", _PROBE, self.ws_url, self.origin, str(self.interval)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.favoured = favour(self._process.pid)
        assert self._process.stdout is not None
        ready = threading.Event()

        def read(stream: Any) -> None:
            for line in stream:
                if line.strip() == "ready":
                    ready.set()
                else:
                    self._lines.append(line)

        self._reader = threading.Thread(target=read, args=(self._process.stdout,), daemon=True)
        self._reader.start()
        if not ready.wait(timeout):
            self.stop()
            raise RuntimeError("the probe socket did not connect to the room")
        return self

    def stop(self) -> list[Sample]:
        process, self._process = self._process, None
        if process is None:
            return self.samples
        assert process.stdin is not None
        try:
            process.stdin.close()
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
        if self._reader is not None:
            self._reader.join(10)
        errors = process.stderr.read() if process.stderr else ""
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()
        if process.returncode and not self._lines:
            raise RuntimeError(f"the probe failed: {errors}")
        for line in self._lines:
            fields = line.split()
            if len(fields) >= 2:
                self.samples.append(Sample(float(fields[0]), float(fields[1]),
                                           len(fields) > 2))
        return self.samples

    def __enter__(self) -> LoopProbe:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    def samples_between(self, start: float, end: float) -> list[Sample]:
        """Pings whose round trip overlaps [start, end] (``time.monotonic()`` seconds)."""
        return [s for s in self.samples if s.sent <= end and s.sent + s.rtt >= start]

    def max_stall(self, start: float = float("-inf"), end: float = float("inf")) -> float:
        """The longest round trip overlapping [start, end] (0.0 when none did)."""
        return max((s.rtt for s in self.samples_between(start, end)), default=0.0)


@dataclass
class Measurement:
    """What :func:`worst_stall` saw: ``stall`` is the least of the attempts' worst round trips
    (seconds), ``stalls`` each attempt's, ``seconds`` how long each attempt's action took,
    ``pings`` how many round trips overlapped each action, ``results`` what it returned,
    ``favoured`` whether every probe ran favoured (:func:`favour`)."""

    stall: float = float("inf")
    stalls: list[float] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    pings: list[int] = field(default_factory=list)
    results: list[Any] = field(default_factory=list)
    favoured: bool = True

    @property
    def kept(self) -> Any:
        """What the kept attempt's action returned (the one whose worst round trip is
        ``stall``): the others' results may be spoilt by the noise that made them retried."""
        return self.results[self.stalls.index(self.stall)]

    def __str__(self) -> str:
        worst = ", ".join(f"{s * 1000:.0f}" for s in self.stalls)
        took = ", ".join(f"{s * 1000:.0f}" for s in self.seconds)
        return (f"loop stall {self.stall * 1000:.0f} ms (attempts: {worst} ms; the action "
                f"took {took} ms; pings {self.pings}"
                f"{'' if self.favoured else '; the probe NOT favoured: no right to'})")


def worst_stall(url: str, action: Callable[[], Any], *, attempts: int = 3,
                threshold: float = THRESHOLD, warm_up: float = 0.3,
                interval: float = INTERVAL,
                between: Callable[[], Any] | None = None) -> Measurement:
    """Run ``action`` (which talks to the room at ``url``) under a probe socket, up to
    ``attempts`` times, stopping at the first whose worst round trip is within
    ``threshold``; see the module's docstring.  ``warm_up`` seconds of pings come first.
    ``between`` runs before each attempt after the first, unmeasured: to let the room settle
    (e.g. finish the work the attempt before left queued) so each attempt starts alike."""
    measured = Measurement()
    for attempt in range(attempts):
        if attempt and between is not None:
            between()
        with LoopProbe(url, interval) as probe:
            time.sleep(warm_up)
            start = time.monotonic()
            measured.results.append(action())
            end = time.monotonic()
            time.sleep(max(0.1, 3 * interval))  # the last ping in flight comes back
        stall = probe.max_stall(start, end)
        measured.favoured = measured.favoured and probe.favoured
        measured.stalls.append(stall)
        measured.seconds.append(end - start)
        measured.pings.append(len(probe.samples_between(start, end)))
        measured.stall = min(measured.stall, stall)
        if stall <= threshold:
            break
    return measured

