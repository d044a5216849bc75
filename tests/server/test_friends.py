"""Friends, invitations and blocks (issue 28, item 1 and the block list of item 2): player
search, the requests' lifecycle, presence, invitations delivered to a page's socket, the
invitation link for a guest, what a block keeps away, and the limits.

One room serves the module (its accounts made once); each test uses its own pairs of
people, so that the order of the tests does not matter.
"""

from __future__ import annotations

import html
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.testclient import WebSocketTestSession as Socket

from belote.i18n import translate
from belote.server.app import create_app
from belote.server.auth import name_key
from tests.server.cluster_room import cluster_room
from tests.server.conftest import ORIGIN, client_for, make_settings
from tests.server.helpers import Identities, connect, create_table, receive, send, until
from tests.server.postgres import postgres_url

__all__ = ["cluster_room", "postgres_url"]  # fixtures

PEOPLE = ("Ada", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ugo", "Vera", "Zeno",
          "Quinto", "Rita", "Sara", "Tito")
PENDING = 3  # requests one account may leave unanswered (the module's setting)
PER_HOUR = 12  # friend requests and invitations per sender an hour (the module's setting)
MAX_FRIENDS = 2  # friends one account may have (the module's setting)
ACTIONS = 30  # forms of the friends page one account may send at once (the default burst)
SOCKETS = 4  # table and lobby sockets from one address (the module's setting)
PERSONAL = 3  # personal sockets from one address (the module's setting)


class Room:
    def __init__(self, app: Any, client: TestClient, people: Identities) -> None:
        self.app = app
        self.client = client
        self.people = people
        self.ids: dict[str, int] = {}

    def use(self, who: str) -> TestClient:
        return self.people.use(who)

    def act(self, who: str, what: str, other: str | int, **extra: Any) -> str:
        """Post one of the friends page's forms as ``who``; the message the page says."""
        account = other if isinstance(other, int) else self.ids.get(other, other)
        client = self.use(who)
        answer = client.post(f"/friends/{what}", data={"account": str(account), **extra},
                             follow_redirects=False)
        assert answer.status_code == 303, answer.text
        return notice(client.get(answer.headers["location"]).text)

    def page(self, who: str, query: str = "") -> str:
        answer = self.use(who).get("/friends" + query)
        assert answer.status_code == 200, answer.text
        return answer.text

    def me(self, who: str) -> Socket:
        return self.use(who).websocket_connect("wss://testserver/ws/me",
                                               headers={"origin": ORIGIN})

    def lobby(self, who: str) -> Socket:
        return self.use(who).websocket_connect("wss://testserver/ws/lobby",
                                               headers={"origin": ORIGIN})

    def table(self, who: str, private: bool = False) -> int:
        client = self.use(who)
        if not private:
            return create_table(client)
        answer = client.post("/tables", data={"preset": "classic", "flags": "", "target": "",
                                              "private": "on"}, follow_redirects=False)
        return int(answer.headers["location"].rsplit("/", 1)[1])


def notice(page: str) -> str:
    found = re.search(r'id="friends-notice">([^<]*)<', page)
    return found.group(1) if found else ""


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    settings = make_settings(Path(tmp_path_factory.mktemp("friends")),
                             pending_requests=PENDING, friend_requests_per_hour=PER_HOUR,
                             invitations_per_hour=PER_HOUR, blocks_max=2,
                             max_friends=MAX_FRIENDS, sockets_per_address=SOCKETS,
                             personal_sockets_per_address=PERSONAL,
                             signups_per_hour=len(PEOPLE))
    app = create_app(settings)
    with client_for(app) as client:
        found = Room(app, client, Identities(client))
        for name in PEOPLE:
            answer = found.use(name).post("/register", data={
                "name": name, "password": "settebello-lungo"}, follow_redirects=False)
            assert answer.status_code == 303, answer.text
            found.people._jars[name] = client.cookies  # the session cookie just set
            store = app.state.store
            account = client.portal.call(store.account_by_key, name_key(name))  # type: ignore[union-attr]
            found.ids[name] = account.id
        yield found


def invite_link(room: Room, who: str, table: int) -> str:
    """The path of the invitation link to ``table`` that ``who``'s friends page offers."""
    page = room.page(who, f"?table={table}")
    found = re.search(r'id="invite-link" readonly value="https://testserver(/invite/[^"]+)"',
                      page)
    assert found is not None
    return found.group(1)


def befriend(room: Room, a: str, b: str) -> None:
    assert "sent" in room.act(a, "request", b)
    assert "friends now" in room.act(b, "accept", a)


# ---------------------------------------------------------------------------- search
def test_search_finds_accounts_by_their_folded_name_and_never_lists_guests(room: Room) -> None:
    room.people.guest("Brunella")  # a guest: no account, never listed
    page = room.page("Ada", "?q=BRU")  # case folded, as names are
    assert 'href="/players/Bruno"' in page and "Players found: 1." in page
    assert "Brunella" not in page
    assert f'name="account" value="{room.ids["Bruno"]}"' in page  # forms carry the id
    assert "Ada</a>" not in room.page("Ada", "?q=ad")  # one never finds oneself
    assert "No player whose name begins with" in room.page("Ada", "?q=zz%25")
    assert "not allowed" in room.page("Ada", "?q=%07bad")  # a control character
    # A guest has no friends page: an account is needed.
    assert room.use("Brunella").get("/friends").status_code == 401


def test_searches_are_limited_per_account_across_addresses_and_per_address(
        room: Room, monkeypatch: pytest.MonkeyPatch) -> None:
    """One account behind many addresses meets its own allowance (a new address each search
    here), and the address's own allowance stays apart (another account there searches)."""
    from belote.server.routes import friends as friends_routes

    addresses = iter(f"203.0.113.{n}" for n in range(1, 250))
    monkeypatch.setattr(friends_routes, "address", lambda _request: next(addresses))
    settings = room.app.state.room.settings
    burst = settings.searches_burst
    # Searched until refused: the allowance is the burst and what refilled meanwhile (one
    # every 6 s; a busy machine takes seconds over the burst, so a fixed burst + 1 failed).
    started = time.monotonic()
    answers: list[str] = []
    while len(answers) <= 2 * burst and not (answers and "Too many searches" in answers[-1]):
        answers.append(room.page("Zeno", "?q=bru"))
    refilled = (time.monotonic() - started) * settings.searches_per_hour / 3600
    assert all("Players found: 1." in page for page in answers[:-1])
    assert "Too many searches" in answers[-1] and "Players found" not in answers[-1]
    assert burst <= len(answers) - 1 <= burst + refilled + 1, (len(answers), refilled)
    assert room.app.state.friends.counts["searches_refused"] >= 1
    assert "Players found: 1." in room.page("Vera", "?q=bru")  # another account: its own


# ---------------------------------------------------------------------------- requests
def test_a_request_is_sent_once_declined_asked_again_accepted_and_removed(room: Room) -> None:
    assert room.act("Bruno", "request", "Carla") == "Friend request sent to Carla."
    assert room.act("Bruno", "request", "Carla") == "You have asked Carla already."
    carla = room.page("Carla")
    assert "Friend requests for you" in carla and "Accept Bruno" in carla
    assert room.act("Carla", "decline", "Bruno") == "Request from Bruno declined."
    assert room.act("Carla", "decline", "Bruno") == "There is no request waiting with Bruno."
    room.act("Bruno", "request", "Carla")
    assert room.act("Carla", "accept", "Bruno") == "You and Bruno are friends now."
    assert "Remove Carla from friends" in room.page("Bruno")
    assert room.act("Bruno", "request", "Carla") == "You and Carla are friends already."
    assert room.act("Carla", "remove", "Bruno") == "Bruno is no longer your friend."
    assert "Remove Carla" not in room.page("Bruno")
    assert room.act("Carla", "remove", "Bruno") == "Bruno is not your friend."
    # Asked both ways: the second request makes the friendship.
    room.act("Bruno", "request", "Carla")
    assert room.act("Carla", "request", "Bruno") == "You and Bruno are friends now."
    # Cancelled before an answer.
    room.act("Bruno", "request", "Dario")
    assert room.act("Bruno", "cancel", "Dario") == "Request to Dario cancelled."
    assert "Accept Bruno" not in room.page("Dario")


def test_malformed_or_unknown_forms_change_nothing(room: Room) -> None:
    assert room.act("Dario", "request", "x1") == "Not a valid request: nothing changed."
    assert room.act("Dario", "block", "1" * 12) == "Not a valid request: nothing changed."
    assert room.act("Dario", "request", 999999) == "There is no such player."
    assert room.act("Dario", "request", "Dario") == "You cannot do that to yourself."
    assert room.act("Dario", "accept", "Elena") == "There is no request waiting with Elena."
    client = room.use("Dario")
    assert client.post("/friends/steal", data={"account": "1"}).status_code == 404
    # Another site's form is refused.
    assert client.post("/friends/request", data={"account": "1"},
                       headers={"origin": "https://evil.example"}).status_code == 403
    assert "Your requests waiting" not in room.page("Dario")


def test_pending_requests_and_requests_an_hour_are_capped(room: Room) -> None:
    for other in ("Ada", "Bruno", "Carla"):
        assert "sent" in room.act("Elena", "request", other)
    assert room.act("Elena", "request", "Dario") == (
        "Too many requests without an answer: cancel some first.")
    for _ in range(PER_HOUR - PENDING - 1):  # every attempt counts, refused ones too
        room.act("Elena", "request", "Ada")
    assert room.act("Elena", "request", "Fabio") == "Too many in an hour: try again later."
    assert "Accept Elena" not in room.page("Fabio")  # refused: nothing changed


# ---------------------------------------------------------------------------- presence
def friend_line(page: str, name: str) -> str:
    found = re.search(rf'<li><a href="/players/{name}">{name}</a>:(.*?)</li>', page, re.S)
    assert found is not None, page
    return " ".join(found.group(1).split())


def test_presence_says_offline_in_the_room_at_a_table_or_at_a_private_one(room: Room) -> None:
    befriend(room, "Fabio", "Gina")
    assert "not connected" in friend_line(room.page("Fabio"), "Gina")
    with room.lobby("Gina") as lobby:
        receive(lobby)
        assert "in the room" in friend_line(room.page("Fabio"), "Gina")
    table = room.table("Gina")
    with connect(room.use("Gina"), table) as ws:
        receive(ws)
        send(ws, "sit", seat=0)
        until(ws, lambda f: f["t"] == "update")
        line = friend_line(room.page("Fabio"), "Gina")
        assert f"at table {table}" in line and f'href="/table/{table}"' in line
        send(ws, "stand")
        until(ws, lambda f: f["t"] == "update")
    private = room.table("Gina", private=True)
    with connect(room.use("Gina"), private) as ws:
        receive(ws)
        send(ws, "sit", seat=1)
        until(ws, lambda f: f["t"] == "update")
        line = friend_line(room.page("Fabio"), "Gina")
        assert "at a private table" in line and f"/table/{private}" not in line


# ---------------------------------------------------------------------------- invitations
def invite_frame(ws: Socket) -> dict[str, Any]:
    return until(ws, lambda f: f["t"] == "invite")["d"]


def test_an_invitation_reaches_every_page_of_the_friend_once_and_is_limited(room: Room) -> None:
    befriend(room, "Ugo", "Vera")
    table = room.table("Ugo")
    with connect(room.use("Ugo"), table) as ws:
        receive(ws)
        send(ws, "sit", seat=0)
        until(ws, lambda f: f["t"] == "update")
        # Vera is not connected: the invitation cannot reach her, and says so.
        assert room.act("Ugo", "invite", "Vera", table=str(table)) == (
            "Vera is not in the room now: the invitation cannot reach them.")
        # Her lobby page and another table's page each have the personal socket.
        with room.me("Vera") as lobby_page, room.me("Vera") as table_page:
            assert room.act("Ugo", "invite", "Vera", table=str(table)) == (
                f"Invitation to table {table} sent to Vera.")
            for page in (lobby_page, table_page):
                found = invite_frame(page)
                assert found["text"] == f"Ugo invites you to table {table}."
                assert found["table"] == table and found["link"].startswith("/invite/")
            # The same invitation again within ten minutes: refused, nothing sent.
            assert room.act("Ugo", "invite", "Vera", table=str(table)) == (
                "You invited Vera a moment ago: wait a little before inviting them again.")
            # Not a friend: refused.
            assert room.act("Ugo", "invite", "Zeno", table=str(table)) == (
                "Zeno is not your friend.")
            # A table one may not invite to (unknown; or private and not seated there).
            assert room.act("Ugo", "invite", "Vera", table="999999") == (
                "You cannot invite to this table.")
            assert room.act("Ugo", "invite", "Vera") == "You cannot invite to this table."
            send(lobby_page, "ping", n=1)  # nothing else came to her sockets
            assert receive(lobby_page)["t"] == "pong"
    # A guest's personal socket is refused (no account, no friends).
    room.people.guest("Wanda")
    with room.me("Wanda") as ws:
        assert receive(ws)["d"]["code"] == "sign_in"


def test_an_invitation_link_lets_a_guest_in_then_leads_to_the_private_table(
        room: Room) -> None:
    table = room.table("Zeno", private=True)
    with connect(room.use("Zeno"), table) as ws:
        receive(ws)
        send(ws, "sit", seat=0)
        until(ws, lambda f: f["t"] == "update")
        path = invite_link(room, "Zeno", table)
        stranger = room.use("a stranger")  # a browser with no session
        if stranger:
            assert stranger.get(f"/table/{table}").status_code == 403  # private
            offer = stranger.get(path)
            assert offer.status_code == 200 and "Zeno invites you to table" in offer.text
            sign_in = re.search(r'id="link-login" href="([^"]+)"', offer.text)
            assert sign_in is not None and sign_in.group(1).startswith("/login?next=")
            login_form = stranger.get(html.unescape(sign_in.group(1))).text
            assert f'name="next" value="{path}"' in login_form  # then on to the table
            came = stranger.post("/guest", data={"name": "Passante", "next": path},
                                 follow_redirects=False)
            assert came.headers["location"] == path
            led = stranger.get(path, follow_redirects=False)
            assert led.headers["location"] == f"/table/{table}"
            assert stranger.get(f"/table/{table}").status_code == 200
            # A forged or mangled link opens nothing.
            assert stranger.get(path[:-3] + "abc").status_code == 400
            assert stranger.get("/invite/" + "x" * 300).status_code == 400


# ---------------------------------------------------------------------------- blocks
def test_a_block_keeps_the_blocked_player_away_and_is_never_shown_to_them(room: Room) -> None:
    befriend(room, "Carla", "Dario")
    assert room.act("Carla", "block", "Dario") == "Dario is blocked."
    carla, dario = room.page("Carla"), room.page("Dario")
    assert "Unblock Dario" in carla  # her list, on her page
    assert "Remove Dario" not in carla and "Remove Carla" not in dario  # the friendship ended
    assert "Carla" not in dario  # nothing on his pages says she is there, or blocks him
    # Dario's request to her is answered exactly as his request to someone who does not
    # block him (Ugo): sent, and waiting on his page; she never sees it.
    assert room.act("Dario", "request", "Carla") == "Friend request sent to Carla."
    assert room.act("Dario", "request", "Ugo") == "Friend request sent to Ugo."
    assert room.act("Dario", "request", "Carla") == "You have asked Carla already."
    assert room.act("Dario", "request", "Ugo") == "You have asked Ugo already."
    dario = room.page("Dario")
    assert "Cancel the request to Carla" in dario and "Cancel the request to Ugo" in dario
    assert "Dario" not in room.page("Carla").split("blocked-heading")[0]  # hidden from her
    assert "Accept Dario" in room.page("Ugo")
    assert room.act("Carla", "accept", "Dario") == "There is no request waiting with Dario."
    assert room.act("Carla", "decline", "Dario") == "There is no request waiting with Dario."
    assert room.act("Dario", "cancel", "Carla") == "Request to Carla cancelled."
    assert room.act("Dario", "cancel", "Ugo") == "Request to Ugo cancelled."
    # Dario may not sit where Carla sits, nor at a table she made.
    table = room.table("Carla")
    with connect(room.use("Carla"), table) as carlas, connect(room.use("Dario"), table) as his, \
            connect(room.use("Bruno"), table) as bruno:
        for ws in (carlas, his, bruno):
            receive(ws)
        send(carlas, "sit", seat=0)
        until(carlas, lambda f: f["t"] == "update")
        send(his, "sit", seat=1)
        # The room's generic refusal, the words of any refusal that gives no reason:
        # nothing names a block.
        refusal = until(his, lambda f: f["t"] == "error")["d"]
        assert refusal["code"] == "forbidden"
        assert refusal["text"] == translate("en", "error.web.forbidden")
        assert "block" not in refusal["text"] and "you" not in refusal["text"].lower()
        send(carlas, "stand")  # she stands: the table is still hers
        until(carlas, lambda f: f["t"] == "update")
        send(his, "sit", seat=1)
        assert until(his, lambda f: f["t"] == "error")["d"]["code"] == "forbidden"
        # His chat line at the table reaches Bruno, never Carla.
        send(his, "chat", text="ciao a tutti")
        until(bruno, lambda f: f["t"] == "update" and "ciao a tutti" in str(f["d"]))
        send(bruno, "chat", text="eccomi")
        carla_heard = []
        while not carla_heard or "eccomi" not in str(carla_heard[-1]):
            carla_heard.append(receive(carlas))
        assert "ciao a tutti" not in str(carla_heard)
        send(carlas, "hello", since=0)  # a whole sync leaves his line out too
        synced = until(carlas, lambda f: f["t"] == "sync")
        assert "eccomi" in str(synced["d"]) and "ciao a tutti" not in str(synced["d"])
    # Unblocked: he may ask again.
    assert room.act("Carla", "unblock", "Dario") == "Dario is unblocked."
    assert room.act("Carla", "unblock", "Dario") == "Dario is not blocked."
    assert room.act("Dario", "request", "Carla") == "Friend request sent to Carla."


def test_a_blocked_friend_cannot_invite_and_the_block_list_is_capped(room: Room) -> None:
    befriend(room, "Gina", "Ada")
    table = room.table("Gina")
    with connect(room.use("Gina"), table) as ws, room.me("Ada") as adas:
        receive(ws)
        send(ws, "sit", seat=0)
        until(ws, lambda f: f["t"] == "update")
        assert room.act("Ada", "block", "Gina") == "Gina is blocked."
        # Neutral: the same words as for anyone who is not a friend.
        assert room.act("Gina", "invite", "Ada", table=str(table)) == "Ada is not your friend."
        send(adas, "ping", n=7)
        assert receive(adas)["t"] == "pong"  # no invitation came
    assert room.act("Ada", "block", "Gina") == "Gina is blocked already."
    assert room.act("Ada", "block", "Zeno") == "Zeno is blocked."
    assert room.act("Ada", "block", "Vera") == (
        "You block 2 players already, the most allowed: unblock one first.")
    room.act("Ada", "unblock", "Zeno")
    room.act("Ada", "unblock", "Gina")


# ---------------------------------------------------------------------------- two processes
def account_on(process: Any, name: str) -> Any:
    """An account registered on ``process`` of a cluster room: its HTTP client."""
    import httpx

    http = httpx.Client(base_url=process.base, headers={"Origin": process.base}, timeout=20,
                        follow_redirects=True)
    answer = http.post("/register", data={"name": name, "password": "settebello-lungo"})
    assert answer.status_code in (200, 303), answer.text
    return http


def cookie_of(http: Any) -> str:
    return "; ".join(f"{k}={v}" for k, v in http.cookies.items())


def found_id(http: Any, name: str) -> int:
    page = http.get("/friends", params={"q": name}).text
    match = re.search(r'name="account" value="(\d+)"', page)
    assert match is not None, page
    return int(match.group(1))


def post(http: Any, what: str, **data: Any) -> str:
    answer = http.post(f"/friends/{what}", data={k: str(v) for k, v in data.items()})
    return notice(answer.text)


@pytest.mark.slow
def test_presence_invitations_and_blocks_across_two_processes(cluster_room: Any) -> None:
    from websockets.sync.client import connect as ws_connect

    from tests.server.cluster_room import frame
    from tests.server.cluster_room import send as ws_send

    a, b = cluster_room.processes
    ada, bruno = account_on(a, "Ada"), account_on(b, "Bruno")
    try:
        assert post(ada, "request", account=found_id(ada, "Bruno")) == (
            "Friend request sent to Bruno.")
        ada_id = found_id(bruno, "Ada")
        assert post(bruno, "accept", account=ada_id) == "You and Ada are friends now."
        table = int(ada.post("/tables", data={"preset": "classic", "flags": "", "target": ""},
                             follow_redirects=False).headers["location"].rsplit("/", 1)[1])

        def socket(path: str) -> Any:
            return ws_connect(f"ws://127.0.0.1:{b.port}{path}", open_timeout=20,
                              additional_headers={"Origin": b.base,
                                                  "Cookie": cookie_of(bruno)})

        with socket("/ws/me") as mine:
            # Bruno's page socket is on b: Ada, on a, sees him in the room and invites him.
            page = ada.get("/friends", params={"table": table}).text
            assert "Bruno</a>: in the room" in " ".join(page.split())
            assert post(ada, "invite", account=found_id(ada, "Bruno"), table=table) == (
                f"Invitation to table {table} sent to Bruno.")
            invited = frame(mine)
            assert invited["t"] == "invite" and invited["d"]["table"] == table
            # Bruno at Ada's table (run by a, reached through b): she sees where he is.
            with socket(f"/ws/table/{table}") as his:
                assert frame(his)["t"] == "sync"
                ws_send(his, "sit", seat=2)

                def where() -> str:
                    return " ".join(ada.get("/friends").text.split())
                deadline = time.monotonic() + 10
                while f"Bruno</a>: at table {table}" not in where():
                    assert time.monotonic() < deadline, where()
                    time.sleep(0.2)
                # He blocks her on b; a hears of it: her chat line never reaches him.
                assert post(bruno, "block", account=ada_id) == "Ada is blocked."
                time.sleep(3.0)  # the news crosses the wire (NOTIFY, a re-read: slow when busy)
                with ws_connect(f"ws://127.0.0.1:{a.port}/ws/table/{table}", open_timeout=20,
                                additional_headers={"Origin": a.base,
                                                    "Cookie": cookie_of(ada)}) as hers:
                    assert frame(hers)["t"] == "sync"
                    ws_send(hers, "chat", text="ciao Bruno")
                    ws_send(his, "chat", text="eccomi")
                    heard = []
                    while not heard or "eccomi" not in str(heard[-1]):
                        heard.append(frame(his))
                    assert "ciao Bruno" not in str(heard)
    finally:
        ada.close()
        bruno.close()


def test_an_invitation_link_is_signed_expires_and_carries_only_two_ids() -> None:
    from belote.server.friends.tokens import Invitation, InvitationLinks

    links = InvitationLinks(lambda: "k" * 64, max_age=60)
    token = links.make(Invitation(12, 7))
    assert links.read(token) == Invitation(12, 7)
    assert InvitationLinks(lambda: "another room's key", 60).read(token) is None
    assert InvitationLinks(lambda: "k" * 64, max_age=-1).read(token) is None  # expired
    # Signed, but not a table and an account (another use of the same key and salt).
    assert links.read(str(links._signer().dumps(["12", True]))) is None
    assert links.read("") is None


def test_invitations_an_hour_are_limited_per_sender(room: Room) -> None:
    befriend(room, "Zeno", "Fabio")
    tables = [room.table("Zeno") for _ in range(PER_HOUR + 1)]
    with room.me("Fabio") as fabios:
        for table in tables[:PER_HOUR]:
            assert "sent to Fabio" in room.act("Zeno", "invite", "Fabio", table=str(table))
            assert invite_frame(fabios)["table"] == table
        assert room.act("Zeno", "invite", "Fabio", table=str(tables[-1])) == (
            "Too many in an hour: try again later.")
        send(fabios, "ping", n=3)
        assert receive(fabios)["t"] == "pong"  # the refused one never came


def add_tournament(room: Room, name: str, state: str) -> int:
    from sqlalchemy import insert

    from belote.server.tournament.schema import tournaments

    async def add() -> int:
        async with room.app.state.store.engine.begin() as conn:
            made = await conn.execute(insert(tournaments).values(
                name=name, format="swiss", preset="classic", flags="{}", target=1000,
                rounds=3, deals=None, rank_by="points", bye_points=0, standins=False,
                state=state, owner="someone"))
            return int(made.inserted_primary_key[0])
    return int(room.client.portal.call(add))  # type: ignore[union-attr]


def test_a_friend_is_invited_to_a_tournament_taking_entries(room: Room) -> None:
    cup = add_tournament(room, "Coppa d'autunno", "registration")
    over = add_tournament(room, "Coppa finita", "finished")
    befriend(room, "Bruno", "Zeno")
    with room.me("Zeno") as zenos:
        page = room.page("Bruno", f"?tournament={cup}")
        assert "Invite Zeno to the tournament Coppa d&#39;autunno" in page
        assert "Coppa finita" not in page  # not taking entries: not offered
        assert room.act("Bruno", "invite_tournament", "Zeno", tournament=str(cup)) == (
            "Invitation to the tournament sent to Zeno.")
        found = invite_frame(zenos)
        assert found["text"] == "Bruno invites you to the tournament Coppa d'autunno."
        assert found["link"] == f"/tournaments/{cup}/enter" and found["tournament"] == cup
        assert room.act("Bruno", "invite_tournament", "Zeno", tournament=str(cup)) == (
            "You invited Zeno a moment ago: wait a little before inviting them again.")
        assert room.act("Bruno", "invite_tournament", "Zeno", tournament=str(over)) == (
            "This tournament is not taking entries.")


def test_a_blocked_players_lobby_chat_never_reaches_the_blocker(room: Room) -> None:
    assert room.act("Vera", "block", "Ugo") == "Ugo is blocked."
    with room.lobby("Vera") as veras, room.lobby("Ugo") as ugos, room.lobby("Zeno") as zenos:
        for ws in (veras, ugos, zenos):
            until(ws, lambda f: f["t"] == "sync")
        send(ugos, "chat", text="ciao dalla sala")
        until(zenos, lambda f: f["t"] == "chat" and "ciao dalla sala" in f["d"]["text"])
        send(zenos, "chat", text="buonasera")
        heard: list[dict[str, Any]] = []
        while not heard or "buonasera" not in str(heard[-1]):
            heard.append(receive(veras))
        assert "ciao dalla sala" not in str(heard)
    with room.lobby("Vera") as again:  # nor in the history a new lobby socket is given
        synced = until(again, lambda f: f["t"] == "sync")
        assert "buonasera" in str(synced) and "ciao dalla sala" not in str(synced)
    assert room.act("Vera", "unblock", "Ugo") == "Ugo is unblocked."


# ---------------------------------------------------------------------------- review of issue 28
def test_every_friends_form_draws_on_one_allowance_per_account(room: Room) -> None:
    client = room.use("Quinto")
    forms = ("unblock", "decline", "cancel", "remove", "accept")
    for n in range(ACTIONS):  # each kind of form counts against the same allowance
        answer = client.post(f"/friends/{forms[n % len(forms)]}",
                             data={"account": str(room.ids["Tito"])}, follow_redirects=False)
        assert answer.status_code == 303
        client.get(answer.headers["location"])  # its notice said (and gone)
    refused = ("Too many changes in a short time: wait a little, then try again. "
               "Nothing changed.")
    assert room.act("Quinto", "block", "Tito") == refused
    assert room.act("Quinto", "request", "Tito") == refused
    assert room.act("Quinto", "invite", "Tito", table="1") == refused
    page = room.page("Quinto")
    assert "Unblock Tito" not in page and "Cancel the request to Tito" not in page
    assert "Quinto" not in room.page("Tito")  # nothing reached Tito
    assert room.act("Tito", "request", "Sara") == "Friend request sent to Sara."  # his own
    room.act("Tito", "cancel", "Sara")


def test_friends_are_capped_and_long_lists_say_there_are_more(
        room: Room, monkeypatch: pytest.MonkeyPatch) -> None:
    befriend(room, "Rita", "Sara")
    befriend(room, "Rita", "Tito")
    most = f"One of you already has {MAX_FRIENDS} friends, the most allowed: nothing changed."
    assert room.act("Rita", "request", "Vera") == most  # she has the most
    assert "Accept Rita" not in room.page("Vera")
    assert room.act("Vera", "request", "Rita") == "Friend request sent to Rita."
    assert room.act("Rita", "accept", "Vera") == most  # answering would make one too many
    assert room.act("Rita", "decline", "Vera") == "Request from Vera declined."
    assert "Only the first" not in room.page("Rita")
    # Each list is read with a LIMIT and says when there are more than it shows.
    from belote.server.friends import room as friends_room
    from belote.server.routes import friends as friends_routes
    monkeypatch.setattr(friends_room, "LIST_SHOWN", 1)
    monkeypatch.setattr(friends_routes, "LIST_SHOWN", 1)
    page = room.page("Rita")
    listed = re.search(r'<ul class="people" id="friend-list">(.*?)</ul>', page, re.S)
    assert listed is not None and listed.group(1).count("<li>") == 1
    assert 'id="friends-more">Only the first 1 are listed here.' in page


def test_presence_asks_the_processes_once_per_view_for_all_friends(room: Room) -> None:
    if "No friends yet" in room.page("Rita"):  # the test that made them ran in another worker
        befriend(room, "Rita", "Sara")
        befriend(room, "Rita", "Tito")
    friends = room.app.state.shared.friends
    asked: list[list[str]] = []
    present = friends.present

    async def counting(uids: Any) -> set[str]:
        asked.append(sorted(uids))
        return set(await present(uids))

    friends.present = counting
    try:
        room.page("Rita")  # two friends, neither connected
    finally:
        friends.present = present
    assert len(asked) == 1 and len(asked[0]) >= 2


def test_an_invitation_link_is_checked_again_when_it_is_used(room: Room) -> None:
    table = room.table("Sara")  # public: she may invite to it while it is open
    with connect(room.use("Sara"), table) as ws:
        receive(ws)
        send(ws, "sit", seat=0)
        until(ws, lambda f: f["t"] == "update")
        path = invite_link(room, "Sara", table)
        guest = room.use("a passer-by")
        assert guest.get(path).status_code == 200  # good while she may invite there
        # A moderator removes Sara from her table: her link is no longer good.
        moderation = room.app.state.shared.moderation
        from datetime import UTC, datetime
        room.client.portal.call(  # type: ignore[union-attr]
            moderation.store.add_sanction, room.ids["Sara"], "remove", "test", datetime.now(UTC),
            None, room.ids["Tito"], None, table)
        stale = guest.get(path, follow_redirects=False)
        assert stale.status_code == 410 and "This invitation is no longer valid." in stale.text
        assert room.use("Tito").get(path, follow_redirects=False).status_code == 410
    # A private table: the link is good while its inviter sits there, not after.
    private = room.table("Zeno", private=True)
    with connect(room.use("Zeno"), private) as ws:
        receive(ws)
        send(ws, "sit", seat=0)
        until(ws, lambda f: f["t"] == "update")
        path = invite_link(room, "Zeno", private)
        assert room.use("Tito").get(path, follow_redirects=False).status_code == 303
        send(ws, "stand")
        until(ws, lambda f: f["t"] == "update")
        stale = room.use("Tito").get(path, follow_redirects=False)
        assert stale.status_code == 410 and "no longer valid" in stale.text


def test_personal_sockets_never_take_a_tables_place(room: Room) -> None:
    table = room.table("Tito")
    pages = [room.me("Tito") for _ in range(PERSONAL)]
    try:
        for ws in pages:
            ws.__enter__()
        # As many personal sockets as allowed: one more is refused, with the reason.
        with room.me("Tito") as extra:
            assert receive(extra)["d"]["code"] == "too_many_sockets"
        # The table sockets and the lobby's, all of them, are still let in.
        tables = [connect(room.use("Tito"), table) for _ in range(SOCKETS - 1)]
        for ws in tables:
            ws.__enter__()
            assert receive(ws)["t"] == "sync"
        with room.lobby("Tito") as lobby:
            assert until(lobby, lambda f: f["t"] == "sync")
        for ws in tables:
            ws.__exit__(None, None, None)
    finally:
        for ws in pages:
            ws.__exit__(None, None, None)


def test_block_news_out_of_order_leave_the_latest_list(room: Room) -> None:
    """Two processes' news of one account's blocks arrive in the wrong order, and the
    reads they start end in the wrong order too: the read started last wins."""
    import asyncio

    friends = room.app.state.shared.friends
    account, old, new = 900001, frozenset({7}), frozenset({8})

    class SlowStore:
        """The first read answers last, with the list as it was before the second change."""

        def __init__(self) -> None:
            self.reads = 0
            self.first_may_answer = asyncio.Event()

        async def blocks_of(self, _account: int) -> frozenset[int]:
            self.reads += 1
            if self.reads == 1:
                await self.first_may_answer.wait()
                return old
            self.first_may_answer.set()
            return new

    async def scenario() -> tuple[bool, bool]:
        store, real = SlowStore(), friends.store
        friends.store = store
        try:
            friends.heard_blocks({"account": account})  # the newer change's news, first
            friends.heard_blocks({"account": account})  # the older one's, second
            await friends.settled()
            return friends.hears(account, 7), friends.hears(account, 8)
        finally:
            friends.store = real

    hears_old, hears_new = room.client.portal.call(scenario)  # type: ignore[union-attr]
    assert hears_old and not hears_new  # the latest list ({8}) is the one kept
    before = friends.counts["bad_news"]
    friends.heard_blocks({"nobody": 1})  # a malformed message changes nothing: counted
    assert friends.counts["bad_news"] == before + 1


@pytest.mark.postgres
def test_block_lists_are_read_again_when_the_news_come_back(
        tmp_path: Path, postgres_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """Review m2: a process that was off the room's news (its connection to PostgreSQL
    lost) missed a block's news; when it is back, it reads again the block lists of the
    accounts with a socket open there (counted and logged), so its chat filter holds."""
    import logging

    from belote.server.friends.store import FriendsStore
    from tests.server.postgres import fresh_database

    settings = make_settings(tmp_path, db_url=fresh_database(postgres_url), cluster=True,
                             port=18111)
    app = create_app(settings)
    with client_for(app) as client:
        people, ids = Identities(client), {}
        for name in ("Ada", "Bruno"):
            assert people.use(name).post("/register", data={
                "name": name, "password": "settebello-lungo"}, follow_redirects=False
            ).status_code == 303
            people._jars[name] = client.cookies
            ids[name] = client.portal.call(  # type: ignore[union-attr]
                app.state.store.account_by_key, name_key(name)).id
        friends = app.state.shared.friends
        wire = app.state.shared.services.node.wire
        with people.use("Ada").websocket_connect(
                "wss://testserver/ws/lobby", headers={"origin": ORIGIN}) as lobby:
            until(lobby, lambda f: f["t"] == "sync")  # her list read: she blocks nobody

            async def blocked_while_away() -> str:  # the change, its news never heard here
                return await FriendsStore(app.state.store.engine).block(
                    ids["Ada"], ids["Bruno"], 10)
            assert client.portal.call(blocked_while_away) == "blocked"  # type: ignore[union-attr]
            assert friends.hears(ids["Ada"], ids["Bruno"])  # stale, until the news come back
            before = friends.counts["blocks_reread"]

            async def back_on_the_news() -> None:
                for hook in wire.on_reconnect:
                    hook()
                await friends.settled()
            with caplog.at_level(logging.INFO, logger="belote.server.friends.room"):
                client.portal.call(back_on_the_news)  # type: ignore[union-attr]
            assert not friends.hears(ids["Ada"], ids["Bruno"])
            assert friends.counts["blocks_reread"] == before + 1
            assert any("1 block lists read again" in r.getMessage()
                       for r in caplog.records)
