"""Accounts and sessions after the security review: server-side sessions, one name per key,
the Host check, logins that do not tell whether a name exists, and the rate limits."""

from __future__ import annotations

import asyncio
import re
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from belote.server.app import create_app
from belote.server.auth import RateLimiter, name_key
from belote.server.auth import passwords as passwords_module
from belote.server.auth.devices import DEVICE_COOKIE
from belote.server.config import Settings
from tests.server.conftest import ORIGIN, client_for, make_settings
from tests.server.helpers import Identities, guest, read_store

SIGNED_IN = "Signed in as"


class Devices(Identities):
    """Identities whose cookie jars keep what every request sets (not only /guest's)."""

    def __call__(self, who: str, method: str, path: str, **kw: Any) -> Any:
        client = super().use(who)
        response = getattr(client, method)(path, **kw)
        self._jars[who] = client.cookies
        return response

    def register(self, who: str, name: str, password: str = "settebello") -> Any:
        return self(who, "post", "/register", data={"name": name, "password": password},
                    follow_redirects=False)

    def login(self, who: str, name: str, password: str = "settebello") -> Any:
        return self(who, "post", "/login", data={"name": name, "password": password},
                    follow_redirects=False)

    def guest_as(self, who: str, name: str) -> None:
        assert self(who, "post", "/guest", data={"name": name},
                    follow_redirects=False).status_code == 303


def register(client: TestClient, name: str, password: str = "settebello") -> Any:
    return client.post("/register", data={"name": name, "password": password},
                       follow_redirects=False)


def login(client: TestClient, name: str, password: str = "settebello") -> Any:
    return client.post("/login", data={"name": name, "password": password},
                       follow_redirects=False)


# ---------------------------------------------------------------------- sessions
def test_logout_ends_the_session_and_a_replayed_cookie_is_signed_out(
        client: TestClient) -> None:
    assert register(client, "Dario").status_code == 303
    old_cookie = client.cookies.get("sala", "")
    assert f"{SIGNED_IN} Dario" in client.get("/").text
    client.post("/logout")
    assert SIGNED_IN not in client.get("/").text
    client.cookies.clear()
    replayed = client.get("/", headers={"cookie": f"sala={old_cookie}"})
    assert replayed.status_code == 200 and SIGNED_IN not in replayed.text
    refused = client.post("/tables", data={"preset": "classic"},
                          headers={"cookie": f"sala={old_cookie}"})
    assert refused.status_code == 401


def test_a_replayed_cookie_opens_only_a_spectators_websocket(client: TestClient) -> None:
    guest(client, "Ada")
    old_cookie = client.cookies.get("sala", "")
    client.post("/logout")
    client.cookies.clear()
    with client.websocket_connect("wss://testserver/ws/lobby",
                                  headers={"origin": ORIGIN,
                                           "cookie": f"sala={old_cookie}"}) as ws:
        ws.send_text('{"t": "chat", "d": {"text": "hello"}}')
        while True:
            frame = ws.receive_json()
            if frame["t"] == "error":
                break
        assert frame["d"]["code"] == "sign_in"


def test_preferences_survive_signing_out_and_work_for_visitors(client: TestClient) -> None:
    client.post("/preferences", data={"lang": "it"})
    guest(client, "Ada")
    client.post("/logout")
    assert '<html lang="it">' in client.get("/").text


def test_the_account_page_lists_sessions_and_ends_one_or_all_the_others(
        client: TestClient) -> None:
    people = Devices(client)
    assert people.register("laptop", "Dario").status_code == 303
    for device in ("phone", "tablet"):
        assert people.login(device, "Dario").status_code == 303
    page = people("laptop", "get", "/account", headers={"user-agent": "LaptopBrowser"})
    assert page.status_code == 200
    assert 'href="/account"' in page.text  # the header links to it
    assert page.text.count('name="session"') == 3 and "this browser" in page.text
    # End one of the two other sessions (the first row that is not this browser).
    rows = re.findall(r"<tr>(.*?)</tr>", page.text, re.S)
    other = next(r for r in rows if 'name="session"' in r and "this browser" not in r)
    target = re.search(r'name="session" value="([^"]+)"', other)
    assert target is not None
    people("laptop", "post", "/account/end", data={"session": target.group(1)})
    still = [who for who in ("phone", "tablet")
             if SIGNED_IN in people(who, "get", "/").text]
    assert len(still) == 1
    people("laptop", "post", "/account/end", data={"others": "1"})
    assert all(SIGNED_IN not in people(who, "get", "/").text for who in ("phone", "tablet"))
    assert f"{SIGNED_IN} Dario" in people("laptop", "get", "/").text
    unknown = people("laptop", "post", "/account/end", data={"session": "nope"})
    assert "already ended" in unknown.text


def test_a_guest_has_no_account_page(client: TestClient) -> None:
    guest(client, "Ada")
    assert 'href="/account"' not in client.get("/").text
    assert client.get("/account").status_code == 401


def test_sessions_are_kept_across_a_restart(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    with client_for(create_app(settings)) as client:
        register(client, "Dario")
        cookie = client.cookies.get("sala", "")
    with client_for(create_app(settings)) as client:
        page = client.get("/", headers={"cookie": f"sala={cookie}"})
        assert f"{SIGNED_IN} Dario" in page.text


# ---------------------------------------------------------------------- names
@pytest.mark.parametrize("variant", ["dario", "DARIO", "Dаrio", "Ｄａｒｉｏ", "ＤＡＲＩＯ"])
def test_look_alike_names_share_one_key(variant: str) -> None:
    assert name_key(variant) == name_key("Dario")


def test_different_names_keep_different_keys() -> None:
    assert len({name_key(n) for n in ("Dario", "Daria", "Mario", "Ada", "Bea")}) == 5


@pytest.mark.parametrize("variant", ["dario", "DARIO", "Dаrio", "Ｄａｒｉｏ"])
def test_registration_refuses_a_name_that_reads_as_a_registered_one(
        client: TestClient, variant: str) -> None:
    assert register(client, "Dario").status_code == 303
    client.cookies.clear()
    refused = register(client, variant)
    assert refused.status_code == 409 and "That name is taken" in refused.text
    assert SIGNED_IN not in client.get("/").text


@pytest.mark.parametrize("variant", ["dario", "Dаrio", "Ｄａｒｉｏ"])
def test_a_guest_cannot_take_a_name_that_reads_as_a_registered_one(
        client: TestClient, variant: str) -> None:
    register(client, "Dario")
    client.cookies.clear()
    page = client.post("/guest", data={"name": variant}, follow_redirects=True)
    assert "That name belongs to an account" in page.text and SIGNED_IN not in page.text


def test_two_connected_guests_cannot_share_a_name_until_one_leaves(client: TestClient) -> None:
    people = Devices(client)
    people.guest("Ada")
    people.use("Ada")
    with client.websocket_connect("wss://testserver/ws/lobby", headers={"origin": ORIGIN}):
        for variant in ("ADA", "Аda", "Ａｄａ"):  # Cyrillic А, fullwidth
            page = people("other", "post", "/guest", data={"name": variant},
                          follow_redirects=True)
            assert "already uses that name" in page.text and SIGNED_IN not in page.text
        refused = people.register("other", "ada")
        assert refused.status_code == 409
    # Ada left (no socket open): the name passes to the newcomer, and her old session ends.
    people.guest_as("other", "ADA")
    assert f"{SIGNED_IN} ADA" in people("other", "get", "/").text
    assert SIGNED_IN not in people("Ada", "get", "/").text


def test_an_expired_guest_session_frees_its_name(tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path, guest_idle_hours=0.0))
    with client_for(app) as client:
        people = Devices(client)
        people.guest("Ada")
        people.guest_as("other", "ada")  # Ada's session has expired: the name is free
        assert SIGNED_IN not in people("Ada", "get", "/").text


def test_a_guest_may_register_its_own_name(client: TestClient) -> None:
    guest(client, "Ada")
    assert register(client, "Ada").status_code == 303
    assert "(guest)" not in client.get("/").text


# ---------------------------------------------------------------------- host
def test_a_request_for_another_host_is_refused(client: TestClient) -> None:
    assert client.get("/", headers={"host": "evil.example"}).status_code == 400
    assert client.get("/").status_code == 200


def test_the_served_hosts_default_to_the_address_and_loopback_names() -> None:
    assert Settings(host="192.0.2.7").allowed_hosts == ("192.0.2.7", "localhost", "127.0.0.1")
    assert Settings(allowed_hosts=("sala.example",)).allowed_hosts == ("sala.example",)


# ---------------------------------------------------------------------- passwords
def test_an_unknown_name_costs_a_verification_in_the_password_threads(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    register(client, "Dario")
    client.cookies.clear()
    seen: list[tuple[str, str]] = []
    verify = passwords_module.verify_password

    def spy(password_hash: str, password: str, **options: Any) -> bool:
        seen.append((threading.current_thread().name, password_hash[:9]))
        return verify(password_hash, password, **options)

    monkeypatch.setattr(passwords_module, "verify_password", spy)
    assert login(client, "Nobody", "whatever1").status_code == 401
    assert login(client, "Dario", "whatever1").status_code == 401
    assert len(seen) == 2
    assert all(thread.startswith("argon2") and prefix == "$argon2id" for thread, prefix in seen)
    assert threading.current_thread().name not in {t for t, _ in seen}


# ---------------------------------------------------------------------- limits
def test_the_owner_signs_in_while_others_block_the_name(tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path, login_attempts=3))
    with client_for(app) as client:
        people = Devices(client)
        people.register("owner", "Dario")
        assert people.use("owner").cookies.get(DEVICE_COOKIE)
        people("owner", "post", "/logout")
        for _ in range(3):
            assert people.login("attacker", "Dario", "guessing!").status_code == 401
        assert people.login("attacker", "Dario").status_code == 429
        assert people.login("stranger", "Dario").status_code == 429
        assert people.login("owner", "Dario").status_code == 303


def test_failed_logins_are_limited_per_address_whatever_the_name(tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path, login_address_attempts=4))
    with client_for(app) as client:
        for n in range(4):
            assert login(client, f"Nobody{n}").status_code == 401
        blocked = client.post("/login", data={"name": "Other", "password": "x" * 9},
                              headers={"accept-language": "fr"})
        assert blocked.status_code == 429 and "Trop de tentatives" in blocked.text


def test_sign_ups_are_limited_per_address_with_a_translated_refusal(tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path, signups_per_hour=2))
    with client_for(app) as client:
        client.post("/preferences", data={"lang": "it"})
        for name in ("Ada", "Bea"):
            assert register(client, name).status_code == 303
        refused = register(client, "Cleo")
        assert refused.status_code == 429 and "Troppi nuovi account" in refused.text
        assert read_store(app, lambda s: s.user("Cleo")) is None


def test_guests_are_limited_per_address(tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path, guests_per_hour=2))
    with client_for(app) as client:
        guest(client, "Ada")
        guest(client, "Bea")
        refused = client.post("/guest", data={"name": "Cleo"})
        assert refused.status_code == 429 and "Too many new guests" in refused.text


def test_the_limiter_lifts_a_block_after_the_window_and_forgets_old_keys() -> None:
    now = [0.0]
    limiter = RateLimiter(2, 60.0, max_keys=100, clock=lambda: now[0])
    limiter.hit("name:ada")
    limiter.hit("name:ada")
    assert limiter.blocked("name:ada") and not limiter.blocked("name:bea")
    now[0] = 61.0
    assert not limiter.blocked("name:ada")
    for n in range(50):
        limiter.hit(f"ip:{n}")
    assert len(limiter) == 50
    now[0] = 200.0
    limiter.hit("ip:new")  # a sweep: every key past its window goes
    assert len(limiter) == 1


def test_the_limiter_memory_is_bounded() -> None:
    limiter = RateLimiter(5, 3600.0, max_keys=10)
    for n in range(1000):
        limiter.hit(f"ip:{n}")
    assert len(limiter) == 10 and limiter.evicted == 990
    assert limiter.count("ip:999") == 1 and limiter.count("ip:0") == 0


def test_concurrent_sign_ups_on_sqlite_all_succeed(tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path, signups_per_hour=100))

    async def main() -> list[int]:
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url=ORIGIN,
                                         headers={"origin": ORIGIN}) as http:
                answers = await asyncio.gather(*(
                    http.post("/register", data={"name": f"Player{n}",
                                                 "password": "settebello"})
                    for n in range(12)))
        return [a.status_code for a in answers]

    assert asyncio.run(main()) == [303] * 12
    assert all(read_store(app, lambda s, n=n: s.user(f"Player{n}")) for n in range(12))


# ---------------------------------------------------------------------- belote serve
def test_serve_trusts_forwarded_headers_only_from_named_proxies(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import uvicorn

    from belote.cli import app as cli

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append(kw))
    db = f"sqlite:///{tmp_path / 'x.db'}"
    runner = CliRunner()
    assert runner.invoke(cli, ["serve", "--db", db]).exit_code == 0
    assert runner.invoke(cli, ["serve", "--db", db, "--forwarded-allow-ips", "10.0.0.2",
                               "--allowed-host", "sala.example"]).exit_code == 0
    assert calls[0]["proxy_headers"] is False
    assert (calls[1]["proxy_headers"], calls[1]["forwarded_allow_ips"]) == (True, ["10.0.0.2"])
