"""E-mail for accounts against a real SMTP server (aiosmtpd, started here on a free port):
an address verified by its link, a password reset end to end, links expired, used or
replaced, no account enumeration, the limits, a mail server that refuses or is gone, a room
without mail; and the account's data exported and the account deleted."""

from __future__ import annotations

import asyncio
import email
import json
import logging
import re
import socket
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from argon2 import PasswordHasher
from sqlalchemy import insert, select, update
from starlette.testclient import TestClient

from belote.server.app import create_app
from belote.server.auth import passwords as passwords_module
from belote.server.mail.schema import mail_tokens
from belote.server.mail.sender import Letter, Mailer, MailFailed
from belote.server.persistence.schema import table_log, tables, users
from belote.server.personal_data.deletion import DELETED_NAME
from belote.server.ratings.model import MatchOutcome, PlayerResult
from belote.server.ratings.schema import match_results, player_results
from belote.server.ratings.store import RatingsStore
from tests.server.conftest import client_for, make_settings
from tests.server.helpers import Identities

PASSWORD = "settebello"
SMTP_USER, SMTP_PASSWORD = "sala", "s3cret-smtp-word"
PER_ACCOUNT = 3  # mails one account may get an hour, in this module's room
PER_IP = 12
LINK = re.compile(r"https://testserver(/account/(?:email/verify|reset)\?token=[\w-]+)")


class Inbox:
    """What the SMTP server received; ``refuse`` answers every mail with a 451."""

    def __init__(self) -> None:
        self.mails: list[EmailMessage] = []
        self.refuse = False

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.refuse:
            return "451 4.3.0 try again later"
        parsed = email.message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(parsed, EmailMessage)
        self.mails.append(parsed)
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.mails if m["To"] == address]


def authenticate(server: Any, session: Any, envelope: Any, mechanism: str,
                 data: Any) -> AuthResult:
    ok = isinstance(data, LoginPassword) and (data.login, data.password) == (
        SMTP_USER.encode(), SMTP_PASSWORD.encode())
    return AuthResult(success=ok)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def inbox() -> Iterator[Inbox]:
    box = Inbox()
    for attempt in range(5):  # a port taken between the look and the bind: another one
        controller = Controller(box, hostname="127.0.0.1", port=free_port(),
                                authenticator=authenticate, auth_require_tls=False)
        try:
            controller.start()
            break
        except (OSError, RuntimeError):
            if attempt == 4:
                raise
    box.port = controller.port  # type: ignore[attr-defined]
    try:
        yield box
    finally:
        controller.stop()


@pytest.fixture(scope="module")
def light_hashes() -> Iterator[None]:
    """Cheap argon2 parameters for this module: it signs up, in and confirms passwords some
    forty times, and what it tests is the mail, not the hash's cost (test_accounts.py
    tests the room's own hasher)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(passwords_module, "_hasher",
                      PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
        yield


@pytest.fixture(scope="module")
def room(inbox: Inbox, tmp_path_factory: pytest.TempPathFactory,
         light_hashes: None) -> Iterator[TestClient]:
    settings = make_settings(
        tmp_path_factory.mktemp("mail"), smtp_host="127.0.0.1",
        smtp_port=inbox.port, smtp_security="none",  # type: ignore[attr-defined]
        smtp_user=SMTP_USER, smtp_password=SMTP_PASSWORD,
        smtp_from="La Sala <sala@example.org>", public_url="https://testserver",
        smtp_timeout=5.0, mails_per_account_per_hour=PER_ACCOUNT,
        mails_per_address_per_hour=PER_ACCOUNT, mail_requests_per_ip_per_hour=PER_IP,
        exports_per_hour=2, login_attempts=50, signups_per_hour=100)
    with client_for(create_app(settings)) as client:
        yield client


@pytest.fixture
def people(room: TestClient) -> Identities:
    return Identities(room)


def as_(people: Identities, who: str, method: str, path: str, **kw: Any) -> Any:
    client = people.use(who)
    response = getattr(client, method)(path, **kw)
    people._jars[who] = client.cookies
    return response


def register(people: Identities, name: str, who: str | None = None) -> None:
    response = as_(people, who or name, "post", "/register",
                   data={"name": name, "password": PASSWORD}, follow_redirects=False)
    assert response.status_code == 303, response.text


def settle(room: TestClient) -> None:
    """Wait for the mails the room sends in the background (password resets)."""
    room.portal.call(room.app.state.mail.settle)  # type: ignore[attr-defined,union-attr]


def on_db(room: TestClient, work: Any) -> Any:
    """``await work(conn)`` in a transaction of the room's own database, on its loop."""
    engine = room.app.state.store.engine  # type: ignore[attr-defined]

    async def run() -> Any:
        async with engine.begin() as conn:
            return await work(conn)

    return room.portal.call(run)  # type: ignore[union-attr]


def link_in(mail: EmailMessage) -> str:
    body = mail.get_content()
    found = LINK.search(body)
    assert found, body
    return found.group(1)


def set_email(people: Identities, who: str, address: str,
              password: str = PASSWORD) -> Any:
    return as_(people, who, "post", "/account/email",
               data={"email": address, "password": password})


def verified(people: Identities, inbox: Inbox, name: str, address: str) -> None:
    """Register ``name`` with ``address`` verified (through the mail, as a person would)."""
    register(people, name)
    assert set_email(people, name, address).status_code == 200
    page = as_(people, name, "get", link_in(inbox.to(address)[-1]))
    assert page.status_code == 200, page.text


def main_text(page: Any) -> str:
    """The page's main part: what a person hears after the navigation."""
    return str(page.text.split('id="main"', 1)[1])


# ---------------------------------------------------------------------- verification
def test_an_address_counts_as_verified_only_once_its_link_is_followed(
        people: Identities, inbox: Inbox, room: TestClient) -> None:
    register(people, "Ada")
    # The current password is asked for; a wrong one changes nothing.
    page = set_email(people, "Ada", "ada@example.org", password="wrong-password")
    assert "not your current password" in page.text and "ada@example.org" not in page.text
    page = set_email(people, "Ada", "not an address")
    assert "not an e-mail address" in page.text and not inbox.to("not an address")

    page = set_email(people, "Ada", "Ada@Example.org")
    assert "verification link is on its way" in page.text
    assert "Ada@Example.org, not verified yet" in page.text
    [mail] = inbox.to("Ada@Example.org")
    assert mail["From"] == "La Sala <sala@example.org>"
    assert mail["Subject"] == "La Sala: confirm your e-mail address"
    assert "Hello Ada," in mail.get_content() and mail.get_content_type() == "text/plain"
    link = link_in(mail)
    # The token is stored as its digest only.
    stored = on_db(room, lambda c: c.scalar(select(mail_tokens.c.digest)))
    assert link.split("token=")[1] not in stored

    page = as_(people, "Ada", "get", link)
    assert page.status_code == 200 and "Address verified" in page.text
    assert page.headers["referrer-policy"] == "same-origin"
    assert "Ada@Example.org, verified on" in as_(people, "Ada", "get", "/account").text
    again = as_(people, "Ada", "get", link)
    assert again.status_code == 410 and "already used" in again.text

    # Private: the profile and the lobby show no address, to anyone.
    people.guest("Bob")
    for path in ("/players/Ada", "/", "/leaderboard"):
        assert "example.org" not in as_(people, "Bob", "get", path).text.lower()


def test_a_newer_link_voids_the_older_and_a_mail_goes_in_the_account_language(
        people: Identities, inbox: Inbox) -> None:
    register(people, "Carla")
    as_(people, "Carla", "post", "/preferences",
        data={"lang": "it", "verbosity": "normal", "where": "account"})
    set_email(people, "Carla", "carla@example.org")
    page = as_(people, "Carla", "post", "/account/email/resend")
    assert "Un link di verifica sta arrivando" in page.text
    first, second = inbox.to("carla@example.org")
    assert second["Subject"] == "La Sala: conferma il tuo indirizzo e-mail"
    refused = as_(people, "Carla", "get", link_in(first))
    assert refused.status_code == 410 and "sostituito" in refused.text
    assert "non ancora verificato" in as_(people, "Carla", "get", "/account").text
    assert as_(people, "Carla", "get", link_in(second)).status_code == 200


# ---------------------------------------------------------------------- password reset
def test_a_password_reset_by_mail_from_end_to_end(people: Identities, inbox: Inbox,
                                                  room: TestClient) -> None:
    verified(people, inbox, "Dora", "dora@example.org")
    register_other_device = as_(people, "Dora-phone", "post", "/login",
                                data={"name": "Dora", "password": PASSWORD},
                                follow_redirects=False)
    assert register_other_device.status_code == 303
    assert as_(people, "Dora-phone", "get", "/account").status_code == 200

    forgot = as_(people, "stranger", "get", "/login")
    assert 'href="/account/forgot"' in forgot.text
    page = as_(people, "stranger", "post", "/account/forgot", data={"who": "dora"})
    assert page.status_code == 200 and "Request received" in page.text
    settle(room)
    mail = inbox.to("dora@example.org")[-1]
    assert mail["Subject"] == "La Sala: choose a new password"
    link = link_in(mail)

    form = as_(people, "stranger", "get", link)
    assert form.status_code == 200 and 'name="password"' in form.text
    token = link.split("token=")[1]
    short = as_(people, "stranger", "post", "/account/reset",
                data={"token": token, "password": "short"})
    assert short.status_code == 400 and "at least 8 characters" in short.text
    done = as_(people, "stranger", "post", "/account/reset",
               data={"token": token, "password": "a new password"})
    assert done.status_code == 200 and "Password changed" in done.text
    # Every session of the account ended; the new password signs in, the old one not.
    assert as_(people, "Dora", "get", "/account").status_code == 401
    assert as_(people, "Dora-phone", "get", "/account").status_code == 401
    old = as_(people, "x", "post", "/login", data={"name": "Dora", "password": PASSWORD},
              follow_redirects=False)
    assert old.status_code == 401
    new = as_(people, "x", "post", "/login",
              data={"name": "Dora", "password": "a new password"}, follow_redirects=False)
    assert new.status_code == 303
    # The link worked once.
    reused = as_(people, "stranger", "post", "/account/reset",
                 data={"token": token, "password": "a third password"})
    assert reused.status_code == 410 and "already used" in reused.text


def test_a_new_address_voids_the_reset_links_sent_to_the_old_one(
        people: Identities, inbox: Inbox, room: TestClient) -> None:
    """The owner of a mailbox taken over changes the account's address: a reset link the
    old mailbox holds (asked just before by whoever reads it) takes nothing any more."""
    verified(people, inbox, "Gemma", "gemma@example.org")
    as_(people, "intruder", "post", "/account/forgot", data={"who": "gemma@example.org"})
    settle(room)
    token = link_in(inbox.to("gemma@example.org")[-1]).split("token=")[1]
    assert set_email(people, "Gemma", "gemma@example.net").status_code == 200
    taken = as_(people, "intruder", "post", "/account/reset",
                data={"token": token, "password": "the intruder's own"})
    assert taken.status_code == 410 and "already used" in taken.text
    same = as_(people, "y", "post", "/login", data={"name": "Gemma", "password": PASSWORD},
               follow_redirects=False)
    assert same.status_code == 303  # the password is as it was


def test_an_expired_or_unknown_link_is_refused_and_changes_nothing(
        people: Identities, inbox: Inbox, room: TestClient) -> None:
    verified(people, inbox, "Elsa", "elsa@example.org")
    as_(people, "x", "post", "/account/forgot", data={"who": "ELSA@example.org"})
    settle(room)
    link = link_in(inbox.to("elsa@example.org")[-1])
    token = link.split("token=")[1]
    past = datetime.now(UTC) - timedelta(minutes=1)
    on_db(room, lambda c: c.execute(update(mail_tokens).where(
        mail_tokens.c.purpose == "reset").values(expires=past)))
    page = as_(people, "x", "get", link)
    assert page.status_code == 410 and "expired" in page.text
    post = as_(people, "x", "post", "/account/reset",
               data={"token": token, "password": "another password"})
    assert post.status_code == 410 and "expired" in post.text
    unknown = as_(people, "x", "get", "/account/reset?token=made-up")
    assert unknown.status_code == 404 and "not valid" in unknown.text
    same = as_(people, "y", "post", "/login", data={"name": "Elsa", "password": PASSWORD},
               follow_redirects=False)
    assert same.status_code == 303  # the password is as it was


def test_the_forgot_page_never_tells_whether_an_account_exists(
        people: Identities, inbox: Inbox, room: TestClient) -> None:
    verified(people, inbox, "Fina", "fina@example.org")
    register(people, "Gino")  # no address
    register(people, "Ivo")
    set_email(people, "Ivo", "ivo@example.org")  # not verified
    before = len(inbox.mails)
    answers = [as_(people, "anon", "post", "/account/forgot", data={"who": who})
               for who in ("Fina", "Nobody Here", "Gino", "ivo@example.org",
                           "nobody@example.org")]
    settle(room)
    assert {a.status_code for a in answers} == {200}
    assert len({main_text(a) for a in answers}) == 1
    # Only the verified address got a link.
    assert [m["To"] for m in inbox.mails[before:]] == ["fina@example.org"]


def test_the_limits_per_account_and_per_client_hold(people: Identities, inbox: Inbox,
                                                    room: TestClient) -> None:
    mail = room.app.state.mail  # type: ignore[attr-defined]
    mail.per_ip.local.clear("ip:testclient")
    room.portal.call(mail.per_ip.clear, "ip:testclient")  # type: ignore[union-attr]
    verified(people, inbox, "Hugo", "hugo@example.org")  # one mail of his three
    held = mail.withheld["account"]
    for _ in range(4):
        page = as_(people, "anon", "post", "/account/forgot", data={"who": "Hugo"})
        assert "Request received" in page.text  # the same answer, limited or not
    settle(room)
    assert len(inbox.to("hugo@example.org")) == PER_ACCOUNT
    assert mail.withheld["account"] == held + 2
    # The verification link has the same limit, said to the owner.
    page = set_email(people, "Hugo", "hugo2@example.org")
    assert f"at most {PER_ACCOUNT} an hour" in page.text and not inbox.to("hugo2@example.org")
    # One client asking too often is told so (it says nothing about any account).
    statuses = [as_(people, "anon", "post", "/account/forgot",
                    data={"who": f"nobody{i}"}).status_code for i in range(PER_IP)]
    assert statuses[-1] == 429
    page = as_(people, "anon", "post", "/account/forgot", data={"who": "Hugo"})
    assert page.status_code == 429 and "Too many requests" in page.text
    room.portal.call(mail.per_ip.clear, "ip:testclient")  # type: ignore[union-attr]


def test_a_mail_server_that_refuses_is_said_to_the_person_and_counted(
        people: Identities, inbox: Inbox, room: TestClient) -> None:
    mailer = room.app.state.mail.mailer  # type: ignore[attr-defined]
    register(people, "Jole")
    refused = mailer.failures["refused"]
    inbox.refuse = True
    try:
        page = set_email(people, "Jole", "jole@example.org")
    finally:
        inbox.refuse = False
    assert "could not send the e-mail" in page.text and 'role="alert"' in page.text
    assert mailer.failures["refused"] == refused + 1
    assert "jole@example.org, not verified yet" in page.text
    page = as_(people, "Jole", "post", "/account/email/resend")
    assert "on its way" in page.text and len(inbox.to("jole@example.org")) == 1


def test_an_unreachable_mail_server_is_logged_without_the_password(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    settings = make_settings(tmp_path, smtp_host="127.0.0.1", smtp_port=free_port(),
                             smtp_security="none", smtp_user="sala",
                             smtp_password="never-logged-42", smtp_from="sala@example.org",
                             public_url="https://sala.example.org", smtp_timeout=2.0)
    mailer = Mailer(settings)
    with caplog.at_level(logging.WARNING), pytest.raises(MailFailed):
        asyncio.run(mailer.send(Letter("a@example.org", "subject", "body")))
    assert mailer.failures["unreachable"] == 1 and mailer.sent == 0
    assert "mail to the SMTP server" in caplog.text
    assert "never-logged-42" not in caplog.text and "never-logged-42" not in repr(settings)
    with pytest.raises(ValueError, match="smtp_security"):
        make_settings(tmp_path, smtp_security="ssl")


def test_starttls_checks_the_servers_certificate(tmp_path: Path) -> None:
    """STARTTLS with a certificate no authority signed: the mail is not sent, and the failure
    is counted as TLS's (the room never sends a password over an unchecked channel)."""
    import ssl
    import subprocess

    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=60)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port(),
                            tls_context=context)
    controller.start()
    try:
        mailer = Mailer(make_settings(
            tmp_path, smtp_host="127.0.0.1", smtp_port=controller.port,
            smtp_security="starttls", smtp_from="sala@example.org",
            public_url="https://sala.example.org", smtp_timeout=5.0))
        with pytest.raises(MailFailed):
            asyncio.run(mailer.send(Letter("a@example.org", "subject", "body")))
    finally:
        controller.stop()
    assert mailer.failures["tls"] == 1 and not inbox.mails


def test_a_room_without_mail_says_it_cannot_send_any(tmp_path: Path,
                                                     light_hashes: None) -> None:
    with client_for(create_app(make_settings(tmp_path))) as client:
        page = client.get("/account/forgot")
        assert "cannot send e-mail" in page.text and 'name="who"' not in page.text
        assert client.post("/account/forgot", data={"who": "x"}).status_code == 503
        client.post("/register", data={"name": "Kai", "password": PASSWORD})
        assert "cannot send e-mail" in client.get("/account").text
        page = client.post("/account/email",
                           data={"email": "kai@example.org", "password": PASSWORD})
        assert "cannot send e-mail" in page.text and "kai@example.org" not in page.text
        # The rest of the account page works: the export says no address.
        assert client.post("/account/export").json()["email"] is None


# ---------------------------------------------------------------------- export, deletion
def _finished_match(room: TestClient, table_id: int, players: list[tuple[str, int | None]]
                    ) -> None:
    """A finished match between ``players`` (name, account), stored as the room stores it."""
    record = {"players": [name for name, _ in players], "result": [162, 0]}
    seats = [{"kind": "human", "name": name, "owner": f"s{n}", "level": "normal",
              "standin": False, **({"account": acc} if acc else {})}
             for n, (name, acc) in enumerate(players)]

    async def store(conn: Any) -> None:
        await conn.execute(insert(tables).values(
            id=table_id, preset="classic", flags="{}", target=301, status="finished",
            record=json.dumps(record)))
        await conn.execute(insert(table_log).values(
            table_id=table_id, version=1, kind="seats", data=json.dumps({"seats": seats})))
        await conn.execute(insert(table_log).values(
            table_id=table_id, version=2, kind="chat",
            data=json.dumps({"name": players[0][0], "text": "good luck"})))
        await conn.execute(insert(match_results).values(
            table_id=table_id, preset="classic", rated=False, winner=0, bots=False,
            recorded=datetime.now(UTC)))
        for n, (_, acc) in enumerate(players):
            if acc:
                await conn.execute(insert(player_results).values(
                    table_id=table_id, account=acc, preset="classic", won=n % 2 == 0,
                    taken=1, made=1, failed=0))

    on_db(room, store)


def _account_id(room: TestClient, name: str) -> int | None:
    found = on_db(room, lambda c: c.scalar(select(users.c.id).where(users.c.name == name)))
    return None if found is None else int(found)


def test_the_owner_downloads_everything_the_room_holds_about_the_account(
        people: Identities, inbox: Inbox, room: TestClient) -> None:
    verified(people, inbox, "Lia", "lia@example.org")
    lia = _account_id(room, "Lia")
    _finished_match(room, 9001, [("Lia", lia), ("Bot", None), ("Mo", None), ("Bot", None)])
    assert as_(people, "nobody", "post", "/account/export").status_code == 401
    # Only the room's own form: a GET (an image on another site) is no export.
    assert as_(people, "Lia", "get", "/account/export").status_code == 405
    response = as_(people, "Lia", "post", "/account/export")
    assert response.headers["content-disposition"].startswith("attachment")
    data = response.json()
    assert data["account"]["name"] == "Lia" and data["email"]["address"] == "lia@example.org"
    assert data["email"]["verified"] is not None
    assert [m["table"] for m in data["matches"]] == [9001] and data["matches"][0]["won"]
    assert data["matches"][0]["with_bots"] is False and data["league_weeks"] == []
    assert len(data["sessions"]) == 1 and "password" not in json.dumps(data).lower()
    as_(people, "Lia", "post", "/account/export")
    third = as_(people, "Lia", "post", "/account/export", follow_redirects=True)
    assert "downloaded your data many times" in third.text


def test_deleting_an_account_keeps_the_others_results_and_reserves_the_name(
        people: Identities, inbox: Inbox, room: TestClient) -> None:
    verified(people, inbox, "Nora", "nora@example.org")
    register(people, "Otto")
    nora, otto = _account_id(room, "Nora"), _account_id(room, "Otto")
    as_(people, "Nora-2", "post", "/login", data={"name": "Nora", "password": PASSWORD})
    _finished_match(room, 9002, [("Nora", nora), ("Otto", otto), ("Pia", None), ("Q", None)])

    page = as_(people, "Nora", "post", "/account/delete", data={"password": PASSWORD})
    assert "Tick the box" in page.text and _account_id(room, "Nora") == nora
    page = as_(people, "Nora", "post", "/account/delete",
               data={"password": "wrong one", "confirm": "yes"})
    assert "not your current password" in page.text and _account_id(room, "Nora") == nora
    page = as_(people, "Nora", "post", "/account/delete",
               data={"password": PASSWORD, "confirm": "yes"})
    assert page.status_code == 200 and "Account deleted" in page.text
    assert _account_id(room, "Nora") is None
    for who in ("Nora", "Nora-2"):
        assert as_(people, who, "get", "/account").status_code == 401

    async def left(conn: Any) -> Any:
        record = await conn.scalar(select(tables.c.record).where(tables.c.id == 9002))
        log = [r[0] for r in await conn.execute(
            select(table_log.c.data).where(table_log.c.table_id == 9002))]
        results = (await conn.execute(select(player_results.c.account)
                                      .where(player_results.c.table_id == 9002))).all()
        winner = await conn.scalar(select(match_results.c.winner)
                                   .where(match_results.c.table_id == 9002))
        return json.loads(record), log, results, winner

    record, log, results, winner = on_db(room, left)
    assert record["players"] == [DELETED_NAME, "Otto", "Pia", "Q"]
    assert "Nora" not in "".join(log) and DELETED_NAME in log[1]
    assert results == [(otto,)] and winner == 0
    # The name is never given again, to an account or a guest.
    again = as_(people, "newcomer", "post", "/register",
                data={"name": "nora", "password": PASSWORD})
    assert again.status_code == 409 and "taken" in again.text
    as_(people, "newcomer", "post", "/guest", data={"name": "Nora"})
    assert "Signed in as" not in as_(people, "newcomer", "get", "/").text
    # A match that was being played when the account went: the others' results are stored,
    # the deleted seat's not, and the match is not rated.
    outcome = MatchOutcome("classic", 0, tuple(
        PlayerResult(seat, account, seat % 2 == 0, 0, 0, 0)
        for seat, account in enumerate((nora, otto)) if account is not None), rated=True)

    async def record_late() -> Any:
        table_id = await room.app.state.store.new_table(  # type: ignore[attr-defined]
            "classic", {}, 301, status="finished")
        assert await RatingsStore(room.app.state.store.engine).record(  # type: ignore
            table_id, outcome)
        return table_id

    late = room.portal.call(record_late)  # type: ignore[union-attr]
    rows = on_db(room, lambda c: c.execute(select(player_results.c.account, match_results.c.rated)
                                           .join(match_results, match_results.c.table_id ==
                                                 player_results.c.table_id)
                                           .where(player_results.c.table_id == late)))
    assert rows.all() == [(otto, False)]
    # A reset asked by the deleted address sends nothing.
    before = len(inbox.mails)
    as_(people, "anon", "post", "/account/forgot", data={"who": "nora@example.org"})
    settle(room)
    assert len(inbox.mails) == before


# ---------------------------------------------------------------------- belote serve
def test_serve_takes_the_smtp_settings_from_options_environment_and_a_password_file(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import uvicorn
    from typer.testing import CliRunner

    from belote.cli import app as cli

    apps: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: apps.append(app))
    db = ["serve", "--db", f"sqlite:///{tmp_path / 'x.db'}"]
    secret = tmp_path / "smtp-password"
    secret.write_text("from-the-file\n")
    monkeypatch.setenv("BELOTE_SMTP_HOST", "mail.example.org")
    monkeypatch.setenv("BELOTE_SMTP_PASSWORD", "from-the-environment")
    runner = CliRunner()
    assert runner.invoke(cli, [*db, "--smtp-from", "sala@example.org", "--public-url",
                               "https://sala.example.org", "--smtp-security", "tls",
                               "--smtp-port", "465", "--smtp-user", "sala"]).exit_code == 0
    result = runner.invoke(cli, [*db, "--smtp-password-file", str(secret)])
    assert result.exit_code == 0 and "No e-mail" in result.output  # no sender nor URL
    first, second = (app.state.settings for app in apps)
    assert (first.smtp_host, first.smtp_port, first.smtp_security, first.smtp_user,
            first.smtp_password, first.mail_ready) == (
        "mail.example.org", 465, "tls", "sala", "from-the-environment", True)
    assert second.smtp_password == "from-the-file" and not second.mail_ready
    refused = runner.invoke(cli, [*db, "--smtp-security", "ssl"])
    assert refused.exit_code == 2 and "--smtp-security" in refused.output
    assert len(apps) == 2


# ---------------------------------------------------------------------- on PostgreSQL
def test_links_addresses_export_and_deletion_on_postgresql(postgres_url: str) -> None:
    """The same statements on the room's other database: a link used once, a newer one
    voiding the older, an address verified and found, the export, the deletion."""
    from belote.server.mail.store import MailStore
    from belote.server.persistence import Store
    from belote.server.personal_data.deletion import delete_account, name_retired
    from belote.server.personal_data.export import export
    from tests.server.postgres import fresh_database

    async def main() -> None:
        store = Store(fresh_database(postgres_url))
        await store.open()
        try:
            account = await store.add_user("Rosa", "hash")
            mails = MailStore(store.engine)
            await mails.set_address(account, "Rosa@Example.org")
            old = await mails.new_token(account, "verify", "Rosa@Example.org",
                                        timedelta(hours=1))
            new = await mails.new_token(account, "verify", "Rosa@Example.org",
                                        timedelta(hours=1))
            assert (await mails.use_token(old, "verify")).outcome == "used"
            used = await mails.use_token(new, "verify")
            assert (used.outcome, used.account) == ("ok", account)
            assert (await mails.use_token(new, "verify")).outcome == "used"
            assert await mails.mark_verified(account, "Rosa@Example.org")
            assert await mails.verified_accounts("rosa@example.org") == [account]
            data = await export(store.engine, account)
            assert data is not None and data["email"]["address"] == "Rosa@Example.org"
            deleted = await delete_account(store.engine, account)
            assert deleted is not None and deleted.name == "Rosa"
            assert await name_retired(store.engine, "rosa")
            assert await export(store.engine, account) is None
            assert await mails.verified_accounts("rosa@example.org") == []
        finally:
            await store.close()

    asyncio.run(main())


def test_a_session_ended_by_another_process_ends_here_within_a_minute(
        tmp_path: Path) -> None:
    """A password reset or a deletion ends the account's sessions in the database; another
    process of the room, which had one cached, drops it at its next touch (a minute)."""
    from belote.server.auth.sessions import TOUCH_EVERY, Sessions
    from belote.server.persistence import Store

    now = [datetime(2026, 1, 1, tzinfo=UTC)]

    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'two.db'}")
        await store.open()
        here, there = (Sessions(store, guest_idle=timedelta(hours=1),
                                account_idle=timedelta(days=1), clock=lambda: now[0])
                       for _ in range(2))
        try:
            account = await store.add_user("Sara", "hash")
            row = await here.start("Sara", "sara", account, user_agent="", address="")
            assert await there.get(row.id) is not None  # cached there
            await here.end(row.id)
            assert await here.get(row.id) is None
            now[0] += TOUCH_EVERY
            assert await there.get(row.id) is None
        finally:
            await store.close()

    asyncio.run(main())
