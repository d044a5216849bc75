"""The table page when the process running its table dies (issue 26, item 4).

The first test: the page's socket is on the other process.  The second: behind nginx,
whichever process holds the page's socket, a killed process is one sentence.

Two ``belote serve --cluster`` processes, A and B, on the session's PostgreSQL
(tests/server/cluster_room.py).  Lia's table runs in A; her page is on B, whose relay carries
her socket to A.  A is killed with SIGKILL at her turn: B closes her socket as "moved" (close
code 1012), takes the table over and her page connects again.  The page says one sentence
about it, the table moved, and not also "Connected again"; the table resumes where it was
and she plays a card from the keyboard.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import httpx
from playwright.sync_api import Page

from tests.browser import sala
from tests.browser.test_reconnect import QUICK_RETURN
from tests.browser.test_stalled_network import my_turn_to_play_a_card, press_a_card
from tests.server.cluster_room import ClusterRoom, Process
from tests.server.nginx_front import free_port, room_options, running_nginx
from tests.server.postgres import fresh_database

MOVED = "This table's server changed or restarted: reconnecting. Nothing is lost."
LOST = "Connection lost: your moves are held. Reconnecting."
BACK = "Connected again: the table is up to date."
GRACE_S = 3.5  # past the page's grace for a quick return (table.js LOST_GRACE_MS)
LOST_GRACE_MS = 3000  # table.js

# When each of the page's table sockets opened and closed (the page's clock, ms), so that a
# return slower than the grace is told from a page that said the loss too soon.
SOCKET_TIMES = """
(() => {
  const Real = window.WebSocket;
  window.__tableSockets = [];
  function Timed(url, protocols) {
    const ws = protocols === undefined ? new Real(url) : new Real(url, protocols);
    if (String(url).includes("/ws/table/")) {
      const times = { opened: null, closed: null };
      window.__tableSockets.push(times);
      ws.addEventListener("open", () => { times.opened = performance.now(); });
      ws.addEventListener("close", () => { times.closed = performance.now(); });
    }
    return ws;
  }
  Timed.prototype = Real.prototype;
  for (const name of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) Timed[name] = Real[name];
  window.WebSocket = Timed;
})();
"""


def _away_ms(page: Page, sockets_before: int) -> float:
    """How long the page had no open table socket after the kill: from the close of the
    socket open at the kill to the open of the next one that opened."""
    times: list[dict[str, float | None]] = page.evaluate("() => window.__tableSockets")
    at_kill = times[sockets_before - 1]
    later = [t["opened"] for t in times[sockets_before:] if t["opened"] is not None]
    assert at_kill["closed"] is not None and later, times
    return float(later[0]) - float(at_kill["closed"])


def test_the_page_says_once_that_its_table_moved_and_play_goes_on(
        new_page: Callable[..., Page], postgres_url: str, tmp_path: Path) -> None:
    room = ClusterRoom(fresh_database(postgres_url), tmp_path, 2, ["--pace", "0"])
    room.start()
    a, b = room.processes
    page = new_page()
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    try:
        sala.guest(page, a.base, "Lia")
        table_id = sala.create_table(page, target="300")  # created through A: A runs it
        sala.click_sit(page, "South")
        sala.click_bots(page, "North", "East", "West")
        sala.click_start(page)
        # The same page through B (the session's cookie is the room's, for either port).
        through_b = len(sockets)
        page.goto(f"{b.base}/table/{table_id}")
        sala.connected(page)
        owner = page.request.get(f"{b.base}/table/{table_id}").headers
        assert owner["x-belote-owner"] == f"127.0.0.1:{a.port}", owner
        my_turn_to_play_a_card(page)

        said_before = len(sala.spoken(page, "assertive"))
        a.kill()
        sala.wait_spoken(page, re.escape(MOVED), region="assertive")
        # and shown in the same words (not "connection lost"): what is seen is what is heard
        assert MOVED in page.locator("#connection").inner_text()
        sala.connected(page)
        # "Connected again" would be said as the new socket opens, before the line above
        # reads "Connected.": nothing more can come about the move.
        assert sala.spoken(page, "assertive")[said_before:] == [MOVED]
        runs = page.request.get(f"{b.base}/table/{table_id}").headers
        assert "x-belote-owner" not in runs and runs["x-belote-process"] == f"127.0.0.1:{b.port}"

        my_turn_to_play_a_card(page)  # the sync brought her turn back, as it was
        card = press_a_card(page)
        sala.wait_spoken(page, f"You played the {re.escape(card)}\\.")
    except Exception:
        print(f"--- the processes' logs ---\n{room.logs()}")
        raise
    finally:
        page.close()  # before the processes stop: no reconnection attempts
        room.stop()
    # Her page's sockets all went to B: the first relayed to A, the next ones to B's table.
    later = sockets[through_b:]
    assert len(later) >= 2 and all(u.startswith(f"ws://127.0.0.1:{b.port}/") for u in later)


def owner_of(room: ClusterRoom, table_id: int) -> Process:
    """The process running ``table_id``: the one whose answer names no other owner."""
    for process in room.processes:
        if process.popen is None or process.popen.poll() is not None:
            continue
        headers = httpx.get(f"{process.base}/table/{table_id}", timeout=20).headers
        if "x-belote-owner" not in headers:
            return process
    raise AssertionError(f"no live process runs table {table_id}")


def test_behind_nginx_a_killed_process_is_one_sentence_wherever_the_socket_was(
        new_page: Callable[..., Page], postgres_url: str, tmp_path: Path) -> None:
    """The owner is killed until the page's own socket was on it: the socket closes with
    no word from the room, the page connects again through nginx (to the survivor, which
    takes the table over) and says one sentence when it is back; a socket on the survivor
    hears the move (close code 1012).  Either way one sentence a kill, and play goes on."""
    https_port = free_port()
    room = ClusterRoom(fresh_database(postgres_url), tmp_path, 2,
                       ["--pace", "0", *room_options(https_port)])
    room.start()
    page = new_page(ignore_https_errors=True)  # the certificate is self-signed
    page.add_init_script(SOCKET_TIMES)
    heard: list[list[str]] = []
    try:
        with running_nginx([p.port for p in room.processes], https_port) as nginx:
            sala.guest(page, nginx.url, "Lia")
            table_id = sala.create_table(page, target="1500")
            sala.click_sit(page, "South")
            sala.click_bots(page, "North", "East", "West")
            sala.click_start(page)
            for _ in range(3):
                my_turn_to_play_a_card(page)
                killed = owner_of(room, table_id)
                said_before = len(sala.spoken(page, "assertive"))
                sockets_before = page.evaluate("() => window.__tableSockets.length")
                killed.kill()
                sala.wait_until(page, lambda n=said_before: len(sala.spoken(page, "assertive")) > n,
                                timeout=30_000, message="a sentence about the kill")
                sala.connected(page)
                page.wait_for_timeout(GRACE_S * 1000)  # nothing more comes about it
                heard.append(sala.spoken(page, "assertive")[said_before:])
                # (one announcement when the socket opened within 30 ms of the loss said)
                if heard[-1] in ([LOST, BACK], [f"{LOST} {BACK}"]):
                    # The page's own socket was on the killed process, and the survivor's
                    # take-over took longer than the grace (a busy machine may): the loss is
                    # said when the grace ends and the return when it comes (docs/room.md,
                    # "Failover").  Only then: not a loss said too soon.
                    away = _away_ms(page, sockets_before)
                    assert away > LOST_GRACE_MS, (away, heard)
                    # ... and not because nginx still shunned the process back from the kill
                    # before (the CI failure's real cause, test_nginx_front.py): 502s
                    assert "no live upstreams" not in nginx.error_log(), nginx.error_log()
                    print(f"kill {len(heard)}: back after {away:.0f} ms, over the grace")
                else:
                    assert heard[-1] in ([MOVED], [QUICK_RETURN]), heard
                my_turn_to_play_a_card(page)
                card = press_a_card(page)
                sala.wait_spoken(page, f"You played the {re.escape(card)}\\.")
                if heard[-1] in ([QUICK_RETURN], [LOST, BACK], [f"{LOST} {BACK}"]):
                    break
                killed.start()  # back for the next kill, with no table of its own
            # the socket on the killed process was seen
            assert any(h in heard for h in ([QUICK_RETURN], [LOST, BACK], [f"{LOST} {BACK}"])), \
                heard
    except Exception:
        print(f"--- heard at each kill: {heard} ---\n--- the processes' logs ---\n{room.logs()}")
        raise
    finally:
        page.close()  # before the processes stop: no reconnection attempts
        room.stop()
