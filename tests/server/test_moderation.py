"""Reports and moderation (issue 28, item 2): a report carries the context the server saw;
limits; only moderators see the queue and act; each action is enforced, audited and lifted.

One room serves the whole module (accounts are slow to make: argon2); each test uses its
own people or its own tables where what it checks would meet another test's.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient
from typer.testing import CliRunner

from belote.cli import app as cli_app
from belote.server.app import create_app
from belote.server.moderation.schema import moderation_log, reports, sanctions
from belote.server.moderation.service import REPORTS_PER_HOUR
from belote.server.moderation.store import ModerationStore
from tests.server.conftest import client_for, make_settings
from tests.server.helpers import Identities, create_table, read_store, receive, send, until

PASSWORD = "settebello"
PEOPLE = ("Ada", "Bea", "Cy", "Dee", "Mod")


class Person:
    """One person's requests: their cookie jar in use, and kept after each answer (a
    sign-in sets a new session cookie)."""

    def __init__(self, people: Identities, who: str) -> None:
        self.people = people
        self.who = who

    def _call(self, method: str, *args: Any, **kw: Any) -> Any:
        client = self.people.use(self.who)
        answer = getattr(client, method)(*args, **kw)
        self.people._jars[self.who] = client.cookies
        return answer

    def get(self, *args: Any, **kw: Any) -> Any:
        return self._call("get", *args, **kw)

    def post(self, *args: Any, **kw: Any) -> Any:
        return self._call("post", *args, **kw)

    def websocket_connect(self, *args: Any, **kw: Any) -> Any:
        return self.people.use(self.who).websocket_connect(*args, **kw)


class Room:
    """The module's room: one app, one client, each person with their own cookie jar."""

    def __init__(self, app: Any, client: TestClient, db_url: str) -> None:
        self.app = app
        self.people = Identities(client)
        self.db_url = db_url
        self.ids: dict[str, int] = {}

    def as_(self, who: str) -> Any:
        return Person(self.people, who)

    def sign_in(self, who: str) -> Any:
        return self.as_(who).post("/login", data={"name": who, "password": PASSWORD},
                                  follow_redirects=False)

    def rows(self, table: sa.Table, *where: Any) -> list[Any]:
        async def query(store: Any) -> list[Any]:
            async with store.engine.connect() as conn:
                return list((await conn.execute(sa.select(table).where(*where)
                                                .order_by(table.c.id))).all())
        return list(read_store(self.app, query))

    def count(self, table: sa.Table) -> int:
        return len(self.rows(table))


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    tmp: Path = tmp_path_factory.mktemp("moderation")
    # A report's context is checked past the table's last 20 chat lines (one person says
    # them, beyond the chat's usual burst), and a test registers one more person.
    settings = make_settings(tmp, chat_burst=30, signups_per_hour=50)
    app = create_app(settings)
    with client_for(app) as client:
        here = Room(app, client, settings.db_url)
        for name in PEOPLE:
            answer = here.as_(name).post("/register", data={"name": name,
                                                            "password": PASSWORD},
                                         follow_redirects=False)
            assert answer.status_code == 303, answer.text

        async def ids(store: Any) -> dict[str, int]:
            found = ModerationStore(store.engine)
            return {n: (await found.account_named(n) or (0, ""))[0] for n in PEOPLE}
        here.ids = read_store(app, ids)
        # The role is granted from the command line, on the room's database.
        result = CliRunner().invoke(cli_app, ["moderator", "add", "Mod", "--db",
                                              settings.db_url])
        assert result.exit_code == 0, result.output
        yield here


def chat_at(room: Room, who: str, table_id: int, text: str) -> None:
    """``who`` says ``text`` at the table (and hears it back: it is in the log)."""
    with room.people.connect(who, table_id) as ws:
        send(ws, "chat", text=text)
        until(ws, lambda f: f["t"] == "update" and any(
            e["kind"] == "chat" and text in e["text"] for e in f["d"]["events"]))


def report(room: Room, who: str, target: str | int, table_id: int | None = None,
           reason: str = "abuse", text: str = "", json: bool = False) -> Any:
    data = {"target": str(room.ids.get(str(target), target)), "reason": reason, "text": text}
    if table_id is not None:
        data["table"] = str(table_id)
    headers = {"accept": "application/json"} if json else {}
    return room.as_(who).post("/report", data=data, headers=headers)


def act(room: Room, action: str, target: str, reason: str = "please be kind", *,
        hours: str = "", report_id: int | None = None, table_id: int | None = None,
        who: str = "Mod") -> Any:
    data = {"account": str(room.ids[target]), "action": action, "reason": reason,
            "hours": hours}
    if report_id is not None:
        data["report"] = str(report_id)
    if table_id is not None:
        data["table"] = str(table_id)
    return room.as_(who).post("/moderation/act", data=data, follow_redirects=False)


def queue_filled(room: Room) -> None:
    """The open reports the queue's tests read (Ada's on Bea, then Cy's on Dee), filed here
    when the tests that file them ran in another pytest-xdist worker (each has its room)."""
    if not room.rows(reports, reports.c.reporter == room.ids["Ada"],
                     reports.c.target == room.ids["Bea"]):
        table_id = create_table(room.people.use("Ada"))
        chat_at(room, "Bea", table_id, "you are all hopeless")
        assert report(room, "Ada", "Bea", table_id).status_code == 200
    if not room.rows(reports, reports.c.reporter == room.ids["Cy"],
                     reports.c.target == room.ids["Dee"]):
        table_id = create_table(room.people.use("Cy"))
        chat_at(room, "Dee", table_id, "hurry up")
        assert report(room, "Cy", "Dee", table_id).status_code == 200


def in_force(room: Room, target: str, kind: str) -> list[Any]:
    return [r for r in room.rows(sanctions, sanctions.c.account == room.ids[target],
                                 sanctions.c.kind == kind) if r.lifted is None]


def lift(room: Room, sanction_id: int, reason: str = "served") -> Any:
    return room.as_("Mod").post("/moderation/lift", data={
        "sanction": str(sanction_id), "reason": reason}, follow_redirects=False)


# ---------------------------------------------------------------------- reports
def test_a_report_keeps_the_tables_seats_and_chat_from_the_log_not_the_reporters_claim(
        room: Room) -> None:
    table_id = create_table(room.people.use("Ada"))
    with room.people.connect("Bea", table_id) as ws:
        send(ws, "sit", seat=1)
        until(ws, lambda f: f["t"] == "update" and f["d"]["view"]["seats"][1]["name"] == "Bea")
    chat_at(room, "Bea", table_id, "you are all hopeless")
    # The help page offers the table's people (Bea, seated and speaking), never oneself.
    page = room.as_("Ada").get(f"/help?panel=1&from=/table/{table_id}").text
    offered = 'name="target" value="{}"'
    assert offered.format(room.ids["Bea"]) in page
    assert offered.format(room.ids["Ada"]) not in page
    answer = room.as_("Ada").post("/report", data={
        "target": str(room.ids["Bea"]), "table": str(table_id), "reason": "abuse",
        "text": "rude in the chat", "context": "Bea said nothing", "chat": "forged"},
        headers={"accept": "application/json"})
    assert answer.status_code == 200 and answer.json()["ok"], answer.text
    row = room.rows(reports, reports.c.reporter == room.ids["Ada"])[-1]
    import json
    context = json.loads(row.context)
    assert (row.target, row.table_id, row.reason, row.text, row.status) == (
        room.ids["Bea"], table_id, "abuse", "rude in the chat", "open")
    assert [(s["seat"], s["name"], s["account"]) for s in context["seats"]] == [
        (1, "Bea", room.ids["Bea"])]
    assert [(c["name"], c["text"], c["account"]) for c in context["chat"]] == [
        ("Bea", "you are all hopeless", room.ids["Bea"])]
    assert "at" in context and "forged" not in row.context


def test_a_tables_people_are_offered_by_name_and_seat_only_to_those_who_were_there(
        room: Room) -> None:
    """Review of issue 28, item 2: the report form never shows a table's chat, and shows
    its people only to someone who sat, spoke or watched there; a report from anyone else
    is refused.  A report still carries the chat, read from the log by the server."""
    table_id = create_table(room.people.use("Ada"))
    with room.people.connect("Bea", table_id) as ws:
        send(ws, "sit", seat=1)
        until(ws, lambda f: f["t"] == "update" and f["d"]["view"]["seats"][1]["name"] == "Bea")
    with room.people.connect("Dee", table_id) as ws:
        send(ws, "sit", seat=2)
        until(ws, lambda f: f["t"] == "update" and f["d"]["view"]["seats"][2]["name"] == "Dee")
    chat_at(room, "Bea", table_id, "my secret plan for tonight")
    chat_at(room, "Mod", table_id, "a word from the rail")  # spoke, never sat
    offered = 'name="target" value="{}"'
    # Cy was never at the table: nobody offered, no name, no chat, and a report is refused.
    for path in (f"/help?table={table_id}&panel=1", f"/help?panel=1&from=/table/{table_id}",
                 f"/help?table={table_id}"):
        page = room.as_("Cy").get(path).text
        assert 'name="target"' not in page, path
        assert "secret plan" not in page and "Bea" not in page, path
        assert "Nobody to report from here" in page, path
    before = room.count(reports)
    refused = report(room, "Cy", "Bea", table_id, json=True)
    assert refused.status_code == 403
    assert "only if you played or watched there" in refused.json()["message"]
    assert report(room, "Cy", "Bea", table_id).status_code == 403  # the page's form too
    assert room.count(reports) == before
    # A player of the table (gone from it now) is offered its people by name and seat only.
    page = room.as_("Dee").get(f"/help?table={table_id}&panel=1").text
    assert offered.format(room.ids["Bea"]) in page and "Bea, seated East" in page
    assert offered.format(room.ids["Mod"]) in page
    assert "Mod, without a seat at the table" in page
    assert offered.format(room.ids["Dee"]) not in page
    assert "secret plan" not in page and "from the rail" not in page
    # Watching counts while the socket is open: Cy, connected, is offered the same people.
    with room.people.connect("Cy", table_id) as ws:
        receive(ws)
        watching = room.as_("Cy").get(f"/help?table={table_id}&panel=1").text
        assert offered.format(room.ids["Bea"]) in watching and "secret plan" not in watching
    # A report from there keeps the chat: the server reads it from the log.  (Mod, who
    # spoke there: Dee's reports are another test's to count.)
    assert report(room, "Mod", "Bea", table_id, json=True).status_code == 200
    row = room.rows(reports, reports.c.reporter == room.ids["Mod"])[-1]
    assert "my secret plan for tonight" in row.context and row.table_id == table_id


def test_malformed_and_repeated_reports_are_refused_clearly_and_change_nothing(
        room: Room) -> None:
    table_id = create_table(room.people.use("Cy"))
    chat_at(room, "Dee", table_id, "hurry up")
    before = room.count(reports)
    refusals = [
        (report(room, "Cy", "Dee", table_id, reason="rudeness"), 400, "reasons offered"),
        (report(room, "Cy", "Cy", table_id), 400, "own account"),
        (report(room, "Cy", 999_999), 400, "no such account"),
        (report(room, "Cy", "Bea", table_id), 400, "not seen at this table"),
        (report(room, "Cy", "Dee", table_id, text="x" * 501), 400, "too long"),
        (report(room, "Cy", "Dee", 888_888), 400, "not in the room"),
        (room.as_("Cy").post("/report", data={"target": "abc", "reason": "abuse"}), 400,
         "choose the person"),
    ]
    for answer, status, words in refusals:
        assert (answer.status_code, words in answer.text) == (status, True), (
            words, answer.status_code, answer.text[answer.text.find('report-status'):][:300])
    assert room.count(reports) == before
    assert report(room, "Cy", "Dee", table_id).status_code == 200
    again = report(room, "Cy", "Dee", table_id, reason="other", json=True)
    assert again.status_code == 409 and "already reported" in again.json()["message"]
    assert room.count(reports) == before + 1
    # A guest (no account) reports nothing.
    guest = room.people.guest("Visitor")
    assert guest.post("/report", data={"target": str(room.ids["Dee"]),
                                       "reason": "abuse"}).status_code == 401
    assert room.count(reports) == before + 1


def test_reports_per_hour_are_limited_in_the_database(room: Room) -> None:
    """One report, closed, then another: the open-report rule lets it through, the hour's
    limit (kept in the database, the same in every process) stops the one past it."""
    for n in range(REPORTS_PER_HOUR):
        answer = report(room, "Dee", "Cy", reason="name")
        assert answer.status_code == 200, (n, answer.text)
        open_one = room.rows(reports, reports.c.reporter == room.ids["Dee"],
                             reports.c.status == "open")[0]
        assert room.as_("Mod").post("/moderation/close", data={
            "report": str(open_one.id), "status": "dismissed", "reason": "a joke"},
            follow_redirects=False).status_code == 303
    before = room.count(reports)
    refused = report(room, "Dee", "Cy", reason="name", json=True)
    assert refused.status_code == 429 and "wait a while" in refused.json()["message"]
    assert room.count(reports) == before


# ---------------------------------------------------------------------- the queue
def test_only_moderators_see_the_queue_or_act(room: Room) -> None:
    assert room.as_("Ada").get("/moderation").status_code == 403
    assert act(room, "ban", "Bea", who="Ada").status_code == 403
    assert room.as_("Ada").post("/moderation/lift", data={"sanction": "1", "reason": "x"},
                                follow_redirects=False).status_code == 403
    assert room.people.guest("Passerby").get("/moderation").status_code == 401
    assert in_force(room, "Bea", "ban") == []
    queue_filled(room)
    page = room.as_("Mod").get("/moderation")
    assert page.status_code == 200
    text = page.text
    # Open reports, oldest first, with their context; the reporter's name is there for the
    # moderator (and never shown to the person reported).
    first = text.index("Report ")
    assert "Bea, reported by Ada" in text[first:] and "you are all hopeless" in text
    # Oldest first: the page lists the open reports in the order they were filed (which of the
    # two came first depends on which tests this pytest-xdist worker ran before this one).
    names = {v: k for k, v in room.ids.items()}
    filed = [(names[r.target], names[r.reporter]) for r in sorted(
        room.rows(reports, reports.c.status == "open"), key=lambda r: r.id)
        if (names.get(r.target), names.get(r.reporter)) in {("Bea", "Ada"), ("Dee", "Cy")}]
    assert len(filed) == 2
    places = [text.index(f"{target}, reported by {reporter}") for target, reporter in filed]
    assert places == sorted(places), (filed, places)


def test_closing_a_report_is_audited_and_happens_once(room: Room) -> None:
    queue_filled(room)
    open_one = room.rows(reports, reports.c.reporter == room.ids["Cy"],
                         reports.c.status == "open")[0]
    before = room.count(moderation_log)
    data = {"report": str(open_one.id), "status": "resolved", "reason": "talked to Dee"}
    assert room.as_("Mod").post("/moderation/close", data=data,
                                follow_redirects=False).status_code == 303
    assert "Report closed as resolved." in room.as_("Mod").get("/moderation").text
    room.as_("Mod").post("/moderation/close", data=data, follow_redirects=False)
    assert "already closed" in room.as_("Mod").get("/moderation").text
    audit = room.rows(moderation_log)[before:]
    assert [(a.action, a.account, a.report, a.moderator, a.reason) for a in audit] == [
        ("resolved", room.ids["Dee"], open_one.id, room.ids["Mod"], "talked to Dee")]


def test_bad_actions_are_refused_and_store_nothing(room: Room) -> None:
    queue_filled(room)
    before = (room.count(sanctions), room.count(moderation_log))
    for action, target, reason, hours, words in [
            ("shout", "Bea", "x", "", "not one of those offered"),
            ("warn", "Bea", "  ", "", "needs a reason"),
            ("mute", "Bea", "x", "5", "durations offered"),
            ("suspend", "Bea", "x", "", "durations offered"),
            ("warn", "Mod", "x", "", "your own account"),
            ("remove", "Bea", "x", "", "not in the room"),
            ("mute", "Bea", "x", "soon", "durations offered")]:
        assert act(room, action, target, reason, hours=hours).status_code == 303
        assert words in room.as_("Mod").get("/moderation").text, action
    on_dee = room.rows(reports, reports.c.target == room.ids["Dee"])[0]
    act(room, "warn", "Bea", "x", report_id=on_dee.id)  # a report about someone else
    assert "not about this person" in room.as_("Mod").get("/moderation").text
    assert (room.count(sanctions), room.count(moderation_log)) == before


# ---------------------------------------------------------------------- actions
def test_a_warning_is_told_at_once_if_online_and_at_the_next_page_otherwise(
        room: Room) -> None:
    room.sign_in("Bea")
    with room.people.use("Bea").websocket_connect(
            "wss://testserver/ws/lobby", headers={"origin": "https://testserver"}) as lobby:
        until(lobby, lambda f: f["t"] == "sync")
        assert act(room, "warn", "Bea", "mind your words").status_code == 303
        told = until(lobby, lambda f: f["t"] == "error")
        assert told["d"]["code"] == "moderation" and "mind your words" in told["d"]["text"]
    # Told at once, so not again: the room marks it told just after the frame went out.
    deadline = time.monotonic() + 10
    while (said := room.as_("Bea").get("/notices").json()["notices"]) and \
            time.monotonic() < deadline:
        time.sleep(0.05)
    assert said == []
    assert act(room, "warn", "Bea", "no spam please").status_code == 303
    said = room.as_("Bea").get("/notices").json()["notices"]
    assert [("no spam please" in n["text"], "friendly" in n["text"]) for n in said] == [
        (True, True)]
    room.as_("Bea").post("/notices/seen", data={"id": str(said[0]["id"])})
    assert room.as_("Bea").get("/notices").json()["notices"] == []
    actions = [(a.action, a.account, a.moderator) for a in room.rows(moderation_log)][-2:]
    assert actions == [("warn", room.ids["Bea"], room.ids["Mod"])] * 2


def test_a_muted_player_is_refused_chat_with_the_reason_until_it_is_lifted(
        room: Room) -> None:
    table_id = create_table(room.people.use("Ada"))
    room.sign_in("Bea")
    with room.people.connect("Bea", table_id) as ws:
        receive(ws)
        assert act(room, "mute", "Bea", "insults", hours="1").status_code == 303
        told = until(ws, lambda f: f["t"] == "error")  # said at once to her open socket
        assert told["d"]["code"] == "moderation" and "insults" in told["d"]["text"]
        send(ws, "chat", text="still here")
        refused = until(ws, lambda f: f["t"] == "error")
        assert refused["d"]["code"] == "muted"
        assert "until" in refused["d"]["text"] and "insults" in refused["d"]["text"]
    [mute] = in_force(room, "Bea", "mute")
    assert mute.until is not None
    with room.people.use("Bea").websocket_connect(
            "wss://testserver/ws/lobby", headers={"origin": "https://testserver"}) as lobby:
        until(lobby, lambda f: f["t"] == "sync")
        send(lobby, "chat", text="hello lobby")
        assert until(lobby, lambda f: f["t"] == "error")["d"]["code"] == "muted"
    assert lift(room, mute.id).status_code == 303
    chat_at(room, "Bea", table_id, "sorry everyone")
    audit = [(a.action, a.sanction) for a in room.rows(moderation_log)][-2:]
    assert audit == [("mute", mute.id), ("lift", mute.id)]
    assert lift(room, mute.id).status_code == 303  # lifted already: refused, nothing more
    assert "no longer in force" in room.as_("Mod").get("/moderation").text
    assert [(a.action, a.sanction) for a in room.rows(moderation_log)][-1] == ("lift", mute.id)


def test_removing_a_player_frees_the_seat_keeps_them_out_and_lifting_lets_them_back(
        room: Room) -> None:
    # During a match: a bot takes the seat for good, and the removed socket is told and
    # closed.
    table_id = create_table(room.people.use("Ada"))
    with room.people.connect("Dee", table_id) as ws:
        send(ws, "sit", seat=1)
        for seat in (0, 2, 3):
            send(ws, "bot", seat=seat, level="easy")
        send(ws, "start")
        until(ws, lambda f: f["t"] == "update" and f["d"]["view"].get("started"))
        assert act(room, "remove", "Dee", "stalling", table_id=table_id).status_code == 303
        told = until(ws, lambda f: f["t"] == "error")
        assert told["d"]["code"] == "removed"
    seat = room.app.state.room.tables[table_id].seats[1]
    assert (seat.kind, seat.owner, seat.account) == ("bot", None, None)
    # Before a match: the seat is emptied, and the person may not sit there again...
    waiting = create_table(room.people.use("Ada"))
    assert room.as_("Dee").post(f"/tables/{waiting}/sit", data={"seat": "2"},
                                follow_redirects=False).status_code == 303
    assert act(room, "remove", "Dee", "offensive name", table_id=waiting).status_code == 303
    assert room.app.state.room.tables[waiting].seats[2].kind == "empty"
    refused = room.as_("Dee").post(f"/tables/{waiting}/sit", data={"seat": "2"})
    assert refused.status_code == 403 and "removed you" in refused.text
    with room.people.connect("Dee", waiting) as ws:
        send(ws, "sit", seat=3)
        assert until(ws, lambda f: f["t"] == "error")["d"]["code"] == "removed"
    assert room.app.state.room.tables[waiting].seats[3].kind == "empty"
    # ...until the removal is lifted.
    [removal] = [r for r in in_force(room, "Dee", "remove") if r.table_id == waiting]
    assert lift(room, removal.id, "name changed").status_code == 303
    assert room.as_("Dee").post(f"/tables/{waiting}/sit", data={"seat": "2"},
                                follow_redirects=False).status_code == 303
    assert room.app.state.room.tables[waiting].seats[2].name == "Dee"
    # Removing someone who holds no seat there is refused.
    act(room, "remove", "Ada", "x", table_id=waiting)
    assert "holds no seat" in room.as_("Mod").get("/moderation").text


def test_a_suspension_ends_the_sessions_closes_the_sockets_and_refuses_sign_in_until_lifted(
        room: Room) -> None:
    assert room.sign_in("Cy").status_code == 303
    table_id = create_table(room.people.use("Ada"))
    with room.people.connect("Cy", table_id) as ws:
        receive(ws)
        assert act(room, "suspend", "Cy", "collusion", hours="24").status_code == 303
        closed = until(ws, lambda f: f["t"] == "error")
        assert closed["d"]["code"] == "signed_out"
    assert "Signed in as Cy" not in room.as_("Cy").get("/").text
    refused = room.sign_in("Cy")
    assert refused.status_code == 403
    assert "suspended until" in refused.text and "UTC" in refused.text
    assert "collusion" in refused.text
    [suspension] = in_force(room, "Cy", "suspend")
    assert lift(room, suspension.id, "appeal granted").status_code == 303
    assert room.sign_in("Cy").status_code == 303
    # A ban is the same, without end.
    assert act(room, "ban", "Cy", "cheating again").status_code == 303
    refused = room.sign_in("Cy")
    assert refused.status_code == 403 and "banned" in refused.text
    [ban] = in_force(room, "Cy", "ban")
    assert ban.until is None
    assert lift(room, ban.id, "mistaken identity").status_code == 303
    assert room.sign_in("Cy").status_code == 303
    actions = [a.action for a in room.rows(moderation_log, moderation_log.c.account
                                           == room.ids["Cy"])][-4:]
    assert actions == ["suspend", "lift", "ban", "lift"]


def test_another_process_forgets_the_sessions_of_a_suspended_account(
        room: Room, tmp_path: Path) -> None:
    """The news an account's ended sessions send every process (a suspension's, a ban's, a
    password reset's, a deletion's): each drops the account's cached sessions, so that a
    request there looks again (and finds none)."""
    from belote.server.auth.sessions import ENDED_NEWS

    assert room.sign_in("Dee").status_code == 303
    assert "Signed in as Dee" in room.as_("Dee").get("/").text
    sessions = room.app.state.sessions
    assert any(r.account == room.ids["Dee"] for r in sessions._cache.values())
    assert ENDED_NEWS == "account_sessions_ended"
    sessions.heard_ended({"account": room.ids["Dee"]})
    assert not any(r.account == room.ids["Dee"] for r in sessions._cache.values())
    assert "Signed in as Dee" in room.as_("Dee").get("/").text  # its row is still there


def test_the_moderator_command_adds_removes_and_lists(room: Room) -> None:
    def run(*args: str) -> Any:
        return CliRunner().invoke(cli_app, ["moderator", *args, "--db", room.db_url])

    assert run("add", "Nobody").exit_code == 1
    assert run("add", "Mod").exit_code == 1  # already one: nothing changed
    listed = run("list")
    assert listed.exit_code == 0 and "Mod, moderator since" in listed.output
    assert run("add", "Ada", "--lang", "it").output.strip() == "Ada ora è moderatore."
    assert room.as_("Ada").get("/moderation").status_code == 200
    assert run("remove", "Ada").exit_code == 0
    assert run("remove", "Ada").exit_code == 1
    assert room.as_("Ada").get("/moderation").status_code == 403


def test_help_and_report_is_linked_from_every_page_and_a_profile_offers_its_player(
        room: Room) -> None:
    for path in ("/", "/tournaments", "/leaderboard", "/help", "/players/Bea"):
        page = room.as_("Ada").get(path).text
        assert 'id="help-link"' in page and "/static/help.js" in page, path
    profile = room.as_("Ada").get("/players/Bea").text
    assert f'/help?player={room.ids["Bea"]}' in profile
    offered = room.as_("Ada").get(f"/help?player={room.ids['Bea']}").text
    assert f'name="target" value="{room.ids["Bea"]}"' in offered
    assert "F4" in offered and 'id="keys"' in offered
    assert "sign in with an account" in room.people.guest("Walker").get("/help").text


# ---------------------------------------------------------------------- review of issue 28
def _person(room: Room, name: str) -> int:
    """``name``'s account, registered here if this room has not got it yet (signed in)."""
    if name not in room.ids:
        answer = room.as_(name).post("/register", data={"name": name, "password": PASSWORD},
                                     follow_redirects=False)
        assert answer.status_code == 303, answer.text

        async def found(store: Any) -> int:
            return (await ModerationStore(store.engine).account_named(name) or (0, ""))[0]
        room.ids[name] = read_store(room.app, found)
    return room.ids[name]


def test_a_moderator_is_never_acted_on_and_the_command_line_lifts_an_action(
        room: Room) -> None:
    """Review S2: one moderator cannot sanction another (a rogue one could ban them all,
    and none could sign in to lift it); the role goes first, from the command line, and
    the command line lifts an action in force, audited as its own."""
    def run(*args: str) -> Any:
        return CliRunner().invoke(cli_app, ["moderator", *args, "--db", room.db_url])

    vic = _person(room, "Vic")
    # Vic, no moderator yet, is suspended; the command line lifts it.
    assert act(room, "suspend", "Vic", "spam", hours="24").status_code == 303
    [suspension] = in_force(room, "Vic", "suspend")
    assert room.sign_in("Vic").status_code == 403
    assert run("lift", "Vic").exit_code == 2  # no reason: refused by the options
    empty = run("lift", "Vic", "--reason", "   ")
    assert empty.exit_code == 2 and "--reason" in empty.output
    assert run("lift", "Nobody", "--reason", "x").exit_code == 1
    assert run("lift", "Vic", "--reason", "x", "--action", "999999").exit_code == 1
    # One action by its number: only that one.
    assert act(room, "mute", "Vic", "spam", hours="1").status_code == 303
    [mute] = in_force(room, "Vic", "mute")
    one = run("lift", "Vic", "--reason", "one at a time", "--action", str(mute.id))
    assert one.exit_code == 0 and one.output.strip() == (
        f"Lifted action {mute.id} on Vic (muted).")
    assert in_force(room, "Vic", "mute") == [] and in_force(room, "Vic", "suspend") != []
    # Every action in force on the account.
    before = room.count(moderation_log)
    lifted = run("lift", "Vic", "--reason", "appeal by mail")
    assert lifted.exit_code == 0, lifted.output
    assert lifted.output.strip() == f"Lifted action {suspension.id} on Vic (suspended)."
    assert in_force(room, "Vic", "suspend") == []
    [audit] = room.rows(moderation_log)[before:]
    assert (audit.action, audit.moderator, audit.account, audit.sanction, audit.reason) == (
        "lift_cli", None, vic, suspension.id, "appeal by mail")
    assert "the command line" in room.as_("Mod").get("/moderation").text
    again = run("lift", "Vic", "--reason", "twice", "--lang", "fr")
    assert again.exit_code == 1 and "aucune action en vigueur" in again.output
    assert room.sign_in("Vic").status_code == 303
    # Made a moderator, Vic is acted on by no moderator, and acts on none.
    assert run("add", "Vic").exit_code == 0
    try:
        rows = (room.count(sanctions), room.count(moderation_log))
        for action, hours in (("warn", ""), ("mute", "1"), ("suspend", "24"), ("ban", "")):
            assert act(room, action, "Vic", "a coup", hours=hours).status_code == 303
            said = room.as_("Mod").get("/moderation").text
            assert "That account is a moderator" in said and "moderator remove" in said
        assert act(room, "ban", "Mod", "a coup", who="Vic").status_code == 303
        assert "That account is a moderator" in room.as_("Vic").get("/moderation").text
        assert (room.count(sanctions), room.count(moderation_log)) == rows
        assert room.sign_in("Mod").status_code == 303
    finally:
        assert run("remove", "Vic").exit_code == 0


def test_a_report_names_anyone_seen_at_the_table_and_keeps_their_own_lines(
        room: Room) -> None:
    """Review m1: someone who spoke and stood up, their line followed by more than the 20
    lines a report keeps, is still reported from the table (seen in its whole log, as the
    reporter is), and the report keeps their line; the form offers them by name and seat,
    only to someone who was there."""
    table_id = create_table(room.people.use("Ada"))
    with room.people.connect("Bea", table_id) as ws:
        send(ws, "sit", seat=1)
        until(ws, lambda f: f["t"] == "update" and f["d"]["view"]["seats"][1]["name"] == "Bea")
        send(ws, "chat", text="you all play like fools")
        until(ws, lambda f: f["t"] == "update" and any(
            e["kind"] == "chat" for e in f["d"]["events"]))
        send(ws, "stand")
        until(ws, lambda f: f["t"] == "update" and f["d"]["view"]["seats"][1]["name"] != "Bea")
    with room.people.connect("Ada", table_id) as ws:
        for n in range(21):
            send(ws, "chat", text=f"line {n}")
        until(ws, lambda f: f["t"] == "update" and any(
            e["kind"] == "chat" and "line 20" in e["text"] for e in f["d"]["events"]))
    page = room.as_("Ada").get(f"/help?table={table_id}&panel=1").text
    assert f'name="target" value="{room.ids["Bea"]}"' in page and "Bea, seated East" in page
    assert "fools" not in page
    stranger = room.as_("Cy").get(f"/help?table={table_id}&panel=1").text
    assert 'name="target"' not in stranger and "Bea" not in stranger
    answer = report(room, "Ada", "Bea", table_id, json=True)
    assert answer.status_code == 200, answer.text
    import json
    row = room.rows(reports, reports.c.reporter == room.ids["Ada"],
                    reports.c.table_id == table_id)[-1]
    context = json.loads(row.context)
    said = [c["text"] for c in context["chat"]]
    assert said[0] == "you all play like fools" and said[1:] == [f"line {n}" for n in
                                                                 range(1, 21)]
    assert [(s["seat"], s["account"]) for s in context["left"]] == [(1, room.ids["Bea"])]
    # Someone never seen there is still refused.
    assert report(room, "Ada", "Dee", table_id).status_code == 400


def test_a_removed_player_watching_the_table_may_not_chat_there(room: Room) -> None:
    """Review m3: removed from a table, a player who comes back as a spectator is refused
    its chat, and told why, while the removal stands; elsewhere they chat as before."""
    table_id = create_table(room.people.use("Ada"))
    assert room.as_("Dee").post(f"/tables/{table_id}/sit", data={"seat": "2"},
                                follow_redirects=False).status_code == 303
    assert act(room, "remove", "Dee", "insults", table_id=table_id).status_code == 303
    with room.people.connect("Dee", table_id) as ws:
        receive(ws)
        send(ws, "chat", text="I am still here")
        refused = until(ws, lambda f: f["t"] == "error")
        assert refused["d"]["code"] == "removed"
        assert "cannot chat here" in refused["d"]["text"]
    chat_at(room, "Ada", table_id, "calm again")
    other = create_table(room.people.use("Ada"))
    chat_at(room, "Dee", other, "hello there")  # another table: chat as before

    async def lines(store: Any) -> list[str]:
        return [str(e.data.get("text")) for e in await store.log(table_id)
                if e.kind == "chat"]
    assert "I am still here" not in str(read_store(room.app, lines))
    [removal] = [r for r in in_force(room, "Dee", "remove") if r.table_id == table_id]
    assert lift(room, removal.id, "apologised").status_code == 303
    chat_at(room, "Dee", table_id, "sorry")


# ---------------------------------------------------------------------- two processes
@pytest.mark.postgres
def test_every_way_an_accounts_sessions_end_is_heard_at_once_by_another_process(
        tmp_path: Path, postgres_url: str) -> None:
    """Review S5: two processes of one room (two apps here, on one PostgreSQL, each with
    its own cache of sessions).  A password reset, an account deleted and a suspension,
    each done through the first, end the sessions the second had cached at once (the
    room's news), not at its next minute's touch."""
    from datetime import timedelta

    from belote.server.mail.store import MailStore
    from tests.server.postgres import fresh_database

    url = fresh_database(postgres_url)
    one, two = (create_app(make_settings(tmp_path, db_url=url, cluster=True, port=port))
                for port in (18101, 18102))
    with client_for(one) as first, client_for(two) as second:
        here, there = Identities(first), Identities(second)
        ids = {}
        for name in ("Reo", "Del", "Sus", "Mo"):
            assert here.use(name).post("/register", data={
                "name": name, "password": PASSWORD}, follow_redirects=False
            ).status_code == 303
            here._jars[name] = first.cookies
            there._jars[name] = type(second.cookies)(first.cookies)  # the same browser

            async def account_of(store: Any, name: str = name) -> int:
                return (await ModerationStore(store.engine).account_named(name) or (0, ""))[0]
            ids[name] = read_store(one, account_of)
            assert f"Signed in as {name}" in there.use(name).get("/").text  # cached there

        cache = two.state.sessions._cache

        def forgotten_there(name: str) -> bool:
            deadline = time.monotonic() + 10  # the news take milliseconds; a touch, 60 s
            while any(r.account == ids[name] for r in cache.values()):
                if time.monotonic() > deadline:
                    return False
                time.sleep(0.02)
            return f"Signed in as {name}" not in there.use(name).get("/").text

        # A password reset by mail's link, followed through the first process.
        async def reset_link(store: Any) -> str:
            return await MailStore(store.engine).new_token(
                ids["Reo"], "reset", "reo@example.org", timedelta(hours=1))
        token = read_store(one, reset_link)
        done = here.use("Reo").post("/account/reset", data={
            "token": token, "password": "a new settebello"})
        assert done.status_code == 200, done.text
        assert forgotten_there("Reo")
        # An account deleted through the first process.
        gone = here.use("Del").post("/account/delete", data={
            "confirm": "yes", "password": PASSWORD}, follow_redirects=False)
        assert gone.status_code == 200, gone.text
        assert forgotten_there("Del")
        # A suspension, given through the first process.
        assert CliRunner().invoke(cli_app, ["moderator", "add", "Mo", "--db", url]
                                  ).exit_code == 0
        suspended = here.use("Mo").post("/moderation/act", data={
            "account": str(ids["Sus"]), "action": "suspend", "reason": "spam",
            "hours": "24"}, follow_redirects=False)
        assert suspended.status_code == 303
        assert forgotten_there("Sus")
        # The moderator's own session, in both, is untouched.
        assert "Signed in as Mo" in there.use("Mo").get("/").text


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.xdist_group("two_processes")
def test_a_mute_and_a_suspension_given_in_one_process_hold_in_the_other(
        two_processes: Any) -> None:
    """Two ``belote serve --cluster`` processes on one PostgreSQL: the moderator acts
    through process 1, the player is at a table of process 0.  She is told at once and her
    chat refused there (the news between processes; the mute in the database); suspended,
    her socket there closes and process 0 forgets her session (its cache too)."""
    import subprocess
    import sys

    from tests.server.room_under_test import TwoProcesses, ensure_running, read_db

    ensure_running(two_processes)
    room = TwoProcesses(two_processes)
    n = next(TwoProcesses.names)
    player, moderator = f"Bea{n}", f"Mod{n}"
    for who, name, via in (("bea", player, 0), ("mod", moderator, 1)):
        answer = room.http(who, via).post("/register", data={"name": name,
                                                              "password": PASSWORD})
        assert f"Signed in as {name}" in answer.text
    granted = subprocess.run([sys.executable, "-m", "belote", "moderator", "add", moderator,
                              "--db", two_processes.db], capture_output=True, text=True,
                             timeout=60)
    assert granted.returncode == 0, granted.stderr

    async def account_of(store: Any) -> int:
        found = await ModerationStore(store.engine).account_named(player)
        assert found is not None
        return found[0]
    bea = read_db(two_processes.db, account_of)
    table_id = room.create_table("bea", via=0)
    try:
        # Watching counts wherever the table runs: refused while the moderator was never at
        # her table (403), his report through process 1 goes through once his socket is
        # open at it in process 0 (the node asks the table's process).
        with room.connect("bea", table_id, via=0) as ws:
            send(ws, "chat", text="hello all")
            until(ws, lambda f: f["t"] == "update" and any(
                e["kind"] == "chat" for e in f["d"]["events"]))

        def report_via_1() -> int:
            answer = room.http("mod", 1).post("/report", data={
                "target": str(bea), "table": str(table_id), "reason": "abuse"},
                headers={"accept": "application/json"})
            return int(answer.status_code)
        assert report_via_1() == 403
        with room.connect("mod", table_id, via=0) as watcher:
            until(watcher, lambda f: f["t"] == "sync")
            assert report_via_1() == 200
        with room.connect("bea", table_id, via=0) as ws:
            followed(room, ws, bea)
        assert f"Signed in as {player}" not in room.http("bea", 0).get("/").text
        refused = room.http("bea", 0).post("/login", data={"name": player,
                                                           "password": PASSWORD})
        assert refused.status_code == 403 and "suspended until" in refused.text
    finally:
        room.close()


def followed(room: Any, ws: Any, bea: int) -> None:
    """At her table in process 0, the player hears the moderator acting in process 1."""
    until(ws, lambda f: f["t"] == "sync")

    def act_via_1(action: str, hours: str) -> None:
        answer = room.http("mod", 1).post("/moderation/act", data={
            "account": str(bea), "action": action, "reason": "insults", "hours": hours},
            follow_redirects=False)
        assert answer.status_code == 303, answer.text

    act_via_1("mute", "1")
    told = until(ws, lambda f: f["t"] == "error")
    assert told["d"]["code"] == "moderation" and "insults" in told["d"]["text"]
    send(ws, "chat", text="still here")
    assert until(ws, lambda f: f["t"] == "error")["d"]["code"] == "muted"
    assert "Signed in as" in room.http("bea", 0).get("/").text
    act_via_1("suspend", "24")
    assert until(ws, lambda f: f["t"] == "error")["d"]["code"] == "signed_out"


def test_looking_at_tables_people_is_limited_per_account_and_help_still_opens(
        room: Room) -> None:
    """Each look at a table's people reads its log: past the allowance help opens without
    the list, says why, and the refusal is counted; another account looks as before."""
    from belote.server.routes.reports import PEOPLE_BURST

    _person(room, "Curioso")
    table_id = create_table(room.people.use("Ada"))
    chat_at(room, "Bea", table_id, "hello all")
    with room.people.connect("Curioso", table_id) as ws:
        send(ws, "sit", seat=1)
        until(ws, lambda f: f["t"] == "update" and f["d"]["view"]["seats"][1]["name"]
              == "Curioso")
        for _ in range(PEOPLE_BURST):
            page = room.as_("Curioso").get(f"/help?table={table_id}&panel=1").text
            assert 'name="target"' in page
        refused = room.as_("Curioso").get(f"/help?table={table_id}&panel=1").text
    assert 'name="target"' not in refused and "not listed for a few minutes" in refused
    assert "Nobody to report from here" not in refused  # the reason, not a wrong one
    assert room.app.state.refused["report_people"] >= 1
    assert 'name="target"' in room.as_("Bea").get(f"/help?table={table_id}&panel=1").text
