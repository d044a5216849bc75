"""A game through nginx, as docs/room.md puts it in front of the room (issue 26, item 5).

The real `belote serve --processes 2` on the session's PostgreSQL, behind Debian's nginx
running the sample deploy/nginx/belote.conf with a self-signed certificate
(tests/server/nginx_front.py; the browser context accepts it).  A guest signs in over
https, creates a table with three bots and plays a card from the keyboard, hearing it said:
every socket of the page is wss through nginx.  (The page's script errors fail the test, as
everywhere in this suite: ``new_page``.)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial

from playwright.sync_api import Page

from tests.browser import sala
from tests.server.nginx_front import free_port, room_options, running_nginx
from tests.server.postgres import fresh_database
from tests.server.serve_process import ServeProcess

BID_SAID = re.compile(r"You (passed|took|named)")


def bid_said(page: Page, since: int) -> bool:
    """Whether the page said South's bid after its first ``since`` texts."""
    return any(BID_SAID.search(text) for text in sala.spoken(page)[since:])


def test_a_guest_plays_a_card_through_nginx(new_page: Callable[..., Page],
                                            postgres_url: str) -> None:
    https_port = free_port()
    with ServeProcess(fresh_database(postgres_url), processes=2,
                      options=room_options(https_port)) as room, \
            running_nginx(room.ports, https_port) as nginx:
        page = new_page(ignore_https_errors=True)  # the certificate is self-signed
        sockets: list[str] = []
        page.on("websocket", lambda ws: sockets.append(ws.url))
        try:
            sala.guest(page, nginx.url, "Lia")
            assert page.url.startswith(nginx.url)
            table_id = sala.create_table(page, target="300")
            sala.click_sit(page, "South")
            sala.click_bots(page, "North", "East", "West")
            sala.click_start(page)
            sala.wait_spoken(page, "The game starts")

            # Bid (take when offered) until the play starts, then play one card by keyboard.
            for _ in range(40):
                sala.my_turn(page, timeout=60_000)
                if not sala.bidding(page):
                    break
                said = len(sala.spoken(page))
                sala.keyboard_bid(page)
                # The turn line changes with the frame that says the bid: wait for it.
                sala.wait_until(page, partial(bid_said, page, said),
                                message="the bid's announcement")
            else:
                raise AssertionError("the bidding never ended on South's turn to play")
            name = sala.keyboard_play(page)
            sala.wait_spoken(page, f"You played the {name}\\.")
        except Exception:
            print(f"--- the room's log ---\n{room.log()[-5000:]}\n"
                  f"--- nginx's log ---\n{nginx.error_log()[-3000:]}")
            raise
        finally:
            page.close()  # before the room and nginx stop: no reconnection attempts
    assert f"wss://127.0.0.1:{https_port}/ws/table/{table_id}?heartbeat=1" in sockets, sockets
    assert all(url.startswith(f"wss://127.0.0.1:{https_port}/ws/") for url in sockets), sockets
