"""Hostile input to every tournament form (issue 24: "Bad input gets a clear error and changes
nothing"; "No request holds the room's event loop more than 50 ms ... Test it with a probe
socket").

Each row of :data:`ROWS` names a form (its handler, who sends it, a valid form) and one of its
fields, and the bad values sent in that field, one request each: huge texts, huge and
absurd numbers, missing and repeated fields, words that are not one of the choices, control
characters and direction overrides, ids that are not this tournament's (ids are numbered per
tournament: another tournament's entrant 99 is no entrant here).  Each answer must be a
clear refusal, a 4xx or the page saying the error (``role="alert"``), never a 500, and
nothing may change: every tournament (its event log as stored and its state as the room
holds it), its organisers, and the seasons read the same before and after.  Then the row's
valid form is sent and must change something: the row really reached its handler.

Bodies over the room's cap (64 KiB) are refused before the form is read (413); the huge texts
here (60,000 characters) pass the cap and meet the fields' own bounds
(:mod:`belote.server.routes.tournaments.common`).  The last test posts the heaviest hostile
forms to a live room under a probe socket (:mod:`tests.server.loop_probe`).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import html
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from belote.server.app import create_app
from belote.server.routes.tournaments.seasons import MAX_MERGES
from belote.server.tournament.seasons import SeasonStore
from belote.tournament.codes import side_code
from belote.tournament.events import Tournament
from tests.server.conftest import client_for, make_settings
from tests.server.helpers import Identities
from tests.server.test_tournament_http import create, enter_hand, post, register, tournament

HUGE = "x" * 60_000  # under the body cap (64 KiB), far over every field's bound
MEGA = "x" * 1_000_000  # over the body cap: refused before the form is read
MISSING = object()  # the field left out of the form
TWICE = object()  # the field sent twice (its valid value, then again)
HAND = ["ns", "h", "152", "10", "", "", "", ""]  # N-S 152, E-W 10

# Texts no name, reason or code may be; BLANK only where the field is required.
TEXTS: list[Any] = [HUGE, "Anna\x00", "An\x07na", "Anna\u202eanna", "\u2067Anna\u2069",
                    "Anna\x1b[31m", "\ufeff\u200e\u202d", TWICE]
BLANK: list[Any] = ["", " \t ", MISSING]
# Not numbers: huge, not numbers at all, not whole, not ASCII digits.
NOT_NUMBERS: list[Any] = [str(10 ** 30), "-" + str(10 ** 30), "NaN", "nan", "inf", "-inf",
                          "1e309", "1e3", "1.5", "0x10", "1_0", "\u0663", "\uff11",
                          "9" * 5000, "seven"]
NUMBERS: list[Any] = [*NOT_NUMBERS, "", MISSING, TWICE]  # a number the form needs
OPTIONAL: list[Any] = [*NOT_NUMBERS, TWICE]  # a number the form may leave empty
NOT_CHOICES: list[Any] = ["explode", HUGE, "on\x00", "\u202eon"]  # none of a form's choices
WORDS: list[Any] = [*NOT_CHOICES, "", MISSING, TWICE]  # a choice the form needs


def v(*parts: Any) -> list[Any]:
    """Bad values: the lists given, then the single values."""
    out: list[Any] = []
    for part in parts:
        out.extend(part if isinstance(part, list) else [part])
    return out


def organiser(people: Identities) -> TestClient:
    return people.use("Organiser")


# ------------------------------------------------------------------------ the set-ups
def registered(people: Identities) -> int:
    """A Pinasca to 1500 with two neighbourhoods (entrants 1 to 4), not drawn; another
    account ("Rival") exists."""
    register(people, "Organiser")
    register(people, "Rival")
    tid = create(organiser(people), target="1500")
    for n in range(2):
        post(organiser(people), f"/tournaments/{tid}/do/register", club=f"Q{n}",
             a_player1=f"Anna{n}", a_player2=f"Bruno{n}", b_player1=f"Carla{n}",
             b_player2=f"Dino{n}")
    return tid


def drawn(people: Identities) -> int:
    """Round 1 drawn: games 1 and 2 (tables 1 and 2), no result."""
    tid = registered(people)
    post(organiser(people), f"/tournaments/{tid}/do/draw")
    return tid


def scored(people: Identities) -> int:
    """Round 1 drawn, game 2's result typed at the console (1500 to 1200)."""
    tid = drawn(people)
    post(organiser(people), f"/tournaments/{tid}/do/result", game="2", total_a="1500",
         total_b="1200")
    return tid


def closed(people: Identities) -> int:
    """Round 1 played and closed."""
    tid = scored(people)
    post(organiser(people), f"/tournaments/{tid}/do/result", game="1", total_a="1500",
         total_b="1000")
    post(organiser(people), f"/tournaments/{tid}/do/close")
    return tid


def concours(people: Identities) -> int:
    """A concours of four pairs, check-in off, late entries given a bye; round 1 played
    and closed (it takes late entries)."""
    register(people, "Organiser")
    org = organiser(people)
    tid = create(org, name="Concours", format="concours", target="1500")
    for n in range(4):
        post(org, f"/tournaments/{tid}/do/register", a_name=f"Pair {n}",
             a_player1=f"Anna{n}", a_player2=f"Bruno{n}")
    post(org, f"/tournaments/{tid}/manage/settings", check_in="off", late_rule="bye")
    post(org, f"/tournaments/{tid}/do/draw")
    for game in tournament(people.client, tid).current.games:
        post(org, f"/tournaments/{tid}/do/result", game=str(game.id), total_a="1500",
             total_b="1000")
    post(org, f"/tournaments/{tid}/do/close")
    return tid


def give(people: Identities, who: str, path: str, **data: str) -> str:
    client = people.use(who)
    page = post(client, path, **data)
    people._jars[who] = client.cookies  # the client may have replaced its jar
    return page


def coded(people: Identities) -> int:
    """Round 1 drawn; "Scorer" gave game 1's N-S side code, "Opponent" its E-W one."""
    tid = drawn(people)
    game = tournament(people.client, tid).game(1)
    people.guest("Scorer")
    people.guest("Opponent")
    give(people, "Scorer", f"/tournaments/{tid}/games/1/code", code=side_code(game, 0))
    give(people, "Opponent", f"/tournaments/{tid}/games/1/code", code=side_code(game, 1))
    return tid


def pending(people: Identities) -> int:
    """As :func:`coded`, and N-S entered hand 1: it awaits E-W's word."""
    tid = coded(people)
    enter_hand(people.use("Scorer"), tid, 1, HAND)
    assert tournament(people.client, tid).claims.get(1) is not None
    return tid


def walker(people: Identities) -> int:
    """Round 1 drawn; a guest ("Walker") who gave no code yet."""
    tid = drawn(people)
    people.guest("Walker")
    return tid


def season(people: Identities) -> int:
    """The organiser's season ("Grand Prix", the tournament added, one merge made); the
    tournament's id is returned, the season is number 1."""
    tid = registered(people)
    org = organiser(people)
    response = org.post("/seasons", data={"name": "Grand Prix", "points": "25, 20, 16"},
                        follow_redirects=False)
    assert response.headers["location"] == "/seasons/1", response.text
    post(org, "/seasons/1", do="add", tournament=str(tid))
    post(org, "/seasons/1", do="merge", player="name:ada", into="name:anna0")
    return tid


def season_and_another(people: Identities) -> int:
    """As :func:`season`, and a second tournament (number 2), not in the season."""
    tid = season(people)
    create(organiser(people), name="Coppa 2")
    return tid


SETUPS: dict[str, Callable[[Identities], int]] = {
    "registered": registered, "drawn": drawn, "scored": scored, "closed": closed,
    "coded": coded, "pending": pending, "walker": walker, "season": season,
    "season_and_another": season_and_another, "concours": concours}


# ------------------------------------------------------------------------ each set-up built once
# A set-up costs a second or more (two accounts: argon2 hashes; the forms that build the
# tournament), and 84 tests start from one of ten.  Each is built once per module (per
# xdist worker), in a room of its own; a test starts a fresh room on a copy of that room's
# database, holding copies of the tournaments as the builder's room held them in memory,
# with copies of its people's cookies (their sessions are in the database), and first
# checks that the new room reads every tournament and season as the builder left them.
# The tournaments are handed over, not read back from the file: on SQLite their events'
# times come back without their UTC offset, and a room reading them is not the room the
# set-up built (a restart on SQLite is not what these tests are about).
@dataclass(frozen=True)
class Built:
    """A set-up as built: the folder of its room's SQLite files, the tournament's id, each
    person's cookies (and the client's own, as the last request left them), the
    tournaments the room held, what :func:`snapshot` read."""

    folder: Path
    tid: int
    jars: dict[str, Any]
    live_jar: Any
    held: dict[int, Tournament]
    state: Any


def copy_jar(jar: Any) -> Any:
    """A jar of its own holding copies of ``jar``'s cookies (a test changes its jars)."""
    fresh = type(jar)()
    for cookie in jar.jar:
        fresh.jar.set_cookie(copy.copy(cookie))
    return fresh


def build(setup: str, folder: Path) -> Built:
    with client_for(create_app(make_settings(folder))) as client:
        people = Identities(client)
        tid = SETUPS[setup](people)
        jars = {who: copy_jar(jar) for who, jar in people._jars.items()}
        state = snapshot(client)  # after the set-up: every tournament held
        held = copy.deepcopy(service_of(client)._cache)
        built = Built(folder, tid, jars, copy_jar(client.cookies), held, state)
    return built  # the room is closed: its database is whole in its file


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Built]:
    """Each set-up, built on first use."""
    done: dict[str, Built] = {}

    def get(setup: str) -> Built:
        if setup not in done:
            done[setup] = build(setup, tmp_path_factory.mktemp(f"built-{setup}"))
        return done[setup]

    return get


Start = Callable[[str], tuple[Identities, int]]


@pytest.fixture
def room(built: Callable[[str], Built], tmp_path: Path) -> Iterator[Start]:
    """``room(setup)``: a fresh room on a copy of the set-up's database, its people (with
    their sessions), and the tournament's id; the room closes after the test."""
    with contextlib.ExitStack() as rooms:

        def start(setup: str) -> tuple[Identities, int]:
            source = built(setup)
            for path in source.folder.glob("sala.db*"):  # the database, and any WAL left
                shutil.copy(path, tmp_path / path.name)
            client = rooms.enter_context(client_for(create_app(make_settings(tmp_path))))
            people = Identities(client)
            people._jars.update({who: copy_jar(jar) for who, jar in source.jars.items()})
            client.cookies = copy_jar(source.live_jar)
            service_of(client)._cache.update(copy.deepcopy(source.held))
            # Every tournament as stored (its log as long as the copy held says), as the
            # room holds it, its organisers, the seasons: as built.
            assert snapshot(client) == source.state
            return people, source.tid

        yield start


# ------------------------------------------------------------------------ the table
Form = Callable[[Tournament], dict[str, str]]


@dataclass(frozen=True)
class Row:
    """A form, one of its fields, and the bad values for it."""

    name: str
    setup: str
    who: str
    path: str  # {tid}: the set-up's tournament
    form: Form  # the valid form (from the tournament as set up)
    field: str
    bad: list[Any]
    changes: bool = True  # whether the valid form changes what :func:`snapshot` reads
    extra: list[Any] = field(default_factory=list)


def fixed(**data: str) -> Form:
    return lambda _t: dict(data)


def lineup(t: Tournament) -> dict[str, str]:
    names = t.game(1).lineup
    return {"game": "1", "a1": names[0][1], "a2": names[0][0], "b1": names[1][0],
            "b2": names[1][1]}


def entrant_name(t: Tournament, entrant: int = 1) -> str:
    return t.entrants[entrant].name


def code_of(t: Tournament, side: int = 0) -> str:
    return side_code(t.game(1), side)


REGISTER = fixed(club="Q9", a_name="", a_player1="Ada", a_player2="Bea", b_name="",
                 b_player1="Cloe", b_player2="Dora")
CREATE = fixed(name="Coppa", format="pinasca", preset="pinasca", target="1500", rounds="3",
               deals="", rank_by="wins", bye_points="0", standins="on")
DO = "/tournaments/{tid}/do/"
MANAGE = "/tournaments/{tid}/manage/"
ENTRY = "/tournaments/{tid}/games/1/entry"
IDS = ["0", "-1", "5", "99"]  # no entrant or game here (ids are per tournament)

NUMBER_FIELDS = ("target", "rounds", "deals", "bye_points")
ROWS: list[Row] = [
    # --- a new tournament (the list's form)
    *[Row(f"create-{f}", "registered", "Organiser", "/tournaments", CREATE, f, bad)
      for f, bad in (("name", TEXTS + BLANK), ("format", WORDS), ("preset", WORDS),
                     ("rank_by", v(NOT_CHOICES, "")), ("target", v(NUMBERS, "0", "-1", "100001")),
                     ("rounds", v(NUMBERS, "0", "65")), ("deals", v(OPTIONAL, "0")),
                     ("bye_points", v(OPTIONAL, "-1")))],
    # --- the console's actions
    *[Row(f"register-{f}", "registered", "Organiser", DO + "register", REGISTER, f, bad)
      for f, bad in (("club", TEXTS + BLANK), ("a_name", TEXTS), ("a_player1", TEXTS + BLANK),
                     ("b_player2", TEXTS + BLANK))],
    Row("register-taken", "registered", "Organiser", DO + "register", REGISTER, "club",
        ["Q0", "Q1"]),
    Row("checkin", "registered", "Organiser", DO + "checkin", fixed(entrant="1"), "entrant",
        NUMBERS + IDS),
    *[Row(f"bind-{f}", "registered", "Organiser", DO + "bind",
          fixed(entrant="1", player="0", account="Rival"), f, bad)
      for f, bad in (("entrant", NUMBERS + IDS), ("player", v(NUMBERS, "2", "-1")),
                     ("account", v(TEXTS, "Nobody", "organiser\u202e")))],
    *[Row(f"lineup-{f}", "drawn", "Organiser", DO + "lineup", lineup, f, bad)
      for f, bad in (("game", NUMBERS + IDS), ("a1", TEXTS + BLANK))],
    *[Row(f"result-{f}", "scored", "Organiser", DO + "result",
          fixed(game="1", total_a="1500", total_b="1100"), f, bad)
      for f, bad in (("game", v(NUMBERS, IDS, "2")), ("total_a", v(NUMBERS, "-1", "15000")),
                     ("total_b", NUMBERS))],
    *[Row(f"correct-{f}", "scored", "Organiser", DO + "correct",
          fixed(game="2", total_a="1500", total_b="1100", reason="typo on the sheet"), f, bad)
      for f, bad in (("game", v(NUMBERS, IDS, "1")), ("total_a", NUMBERS),
                     ("reason", TEXTS + BLANK))],
    *[Row(f"adjust-{f}", "drawn", "Organiser", DO + "adjust",
          fixed(subject="Q0", points="5", reason="fair play"), f, bad)
      for f, bad in (("subject", v(TEXTS, BLANK, "Q7")),
                     ("points", v(NUMBERS, "0", "1001", "-1001")),
                     ("reason", TEXTS + BLANK))],
    Row("organiser", "registered", "Organiser", DO + "organiser", fixed(name="Rival"), "name",
        v(TEXTS, BLANK, "Nobody")),
    Row("force", "drawn", "Organiser", DO + "force", fixed(reason="left early", then="close"),
        "reason", TEXTS),
    *[Row(f"clock-{f}", "drawn", "Organiser", DO + "clock", fixed(clock="start", minutes="40"),
          f, bad)
      for f, bad in (("clock", WORDS), ("minutes", v(NUMBERS, "0", "601", "-5")))],
    # --- the entrants' forms
    *[Row(f"withdraw-{f}", "drawn", "Organiser", MANAGE + "withdraw",
          fixed(entrant="1", reason="went home"), f, bad)
      for f, bad in (("entrant", NUMBERS + IDS), ("reason", TEXTS))],
    Row("remove", "registered", "Organiser", MANAGE + "remove", fixed(entrant="4"), "entrant",
        NUMBERS + IDS),
    *[Row(f"late-{f}", "concours", "Organiser", MANAGE + "late",
          fixed(name="Late", player1="Lia", player2="Mara"), f, bad)
      for f, bad in (("name", TEXTS), ("player1", TEXTS + BLANK))],
    *[Row(f"settings-{f}", "registered", "Organiser", MANAGE + "settings",
          fixed(check_in="off", late_rule="bye", tiebreak1="lot", reason=""), f, bad)
      for f, bad in (("check_in", WORDS), ("late_rule", WORDS),
                     ("tiebreak1", v(NOT_CHOICES, TWICE)),
                     ("tiebreak2", v(NOT_CHOICES, TWICE, "lot")),
                     ("best_of", v(OPTIONAL, "", "2", "0")), ("reason", TEXTS))],
    Row("undraw", "drawn", "Organiser", MANAGE + "undraw", fixed(reason="wrong pairs"),
        "reason", TEXTS + BLANK),
    Row("reopen", "closed", "Organiser", MANAGE + "reopen", fixed(reason="a result to check"),
        "reason", TEXTS + BLANK),
    # --- the prize list
    *[Row(f"prizes-{f}", "registered", "Organiser", "/tournaments/{tid}/prizes",
          lambda t: {"places": "Un prosciutto\nUn salame", "prize_mixed": "Una bottiglia",
                     "eligible_mixed": entrant_name(t)}, f, bad)
      for f, bad in (("places", v(TEXTS, "x\n" * 101, ("y" * 201) + "\nz")),
                     ("prize_mixed", TEXTS), ("prize_best_pair", TEXTS),
                     ("eligible_mixed", v(TEXTS, "Nobody", "Q0 A\n" + "y" * 5000)))],
    # --- the seasons
    *[Row(f"season-create-{f}", "registered", "Organiser", "/seasons",
          fixed(name="Grand Prix", points="25, 20, 16", others="1"), f, bad)
      for f, bad in (("name", TEXTS + BLANK),
                     ("points", v(HUGE, NOT_NUMBERS, "1, -1", "10001", "1," * 1100)),
                     ("others", v(OPTIONAL, "-1", "10001")))],
    *[Row(f"season-points-{f}", "season", "Organiser", "/seasons/1",
          fixed(do="points", points="10, 5", others="1"), f, bad)
      for f, bad in (("points", v(NOT_NUMBERS, HUGE, "1, -1")),
                     ("others", v(OPTIONAL, "-1")))],
    Row("season-add", "season_and_another", "Organiser", "/seasons/1",
        fixed(do="add", tournament="2"), "tournament", v(NUMBERS, "0", "-1", "99")),
    Row("season-remove", "season", "Organiser", "/seasons/1",
        fixed(do="remove", tournament="1"), "tournament", v(NUMBERS, "0", "-1", "2")),
    *[Row(f"season-merge-{f}", "season", "Organiser", "/seasons/1",
          fixed(do="merge", player="name:bea", into="name:anna0"), f, bad)
      for f, bad in (("player", v(TEXTS, BLANK, "bea", "name:" + "b" * 200,
                                                "name:anna0", "name:be\u202ea")),
                     ("into", v(TEXTS, BLANK, "name:bea", "name:" + "a" * 200)))],
    Row("season-unmerge", "season", "Organiser", "/seasons/1",
        fixed(do="unmerge", player="name:ada"), "player",
        v(TEXTS, BLANK, "name:nobody", "name:anna0")),
    Row("season-do", "season", "Organiser", "/seasons/1", fixed(do="remove", tournament="1"),
        "do", WORDS),
    # --- seat codes and side codes (a person's session; nothing else changes)
    *[Row(f"enter-{f}", "walker", "Walker", "/tournaments/{tid}/enter",
          lambda t: {"table": "1", "code": code_of(t)}, f, bad, changes=False)
      for f, bad in (("table", v(NUMBERS, "0", "3")), ("code", TEXTS + BLANK))],
    Row("code", "walker", "Walker", "/tournaments/{tid}/games/1/code",
        lambda t: {"code": code_of(t)}, "code", TEXTS + BLANK, changes=False),
    # --- the score entry
    *[Row(f"entry-next-{f}", "coded", "Scorer", ENTRY, fixed(do="next", answer="ns", hand="1"),
          f, bad, changes=False)
      for f, bad in (("answer", v(TEXTS, "zz", str(10 ** 30))),
                     ("hand", v(OPTIONAL, "0", "1000")), ("do", v(NOT_CHOICES, TWICE)))],
    *[Row(f"entry-totals-{f}", "coded", "Scorer", ENTRY,
          fixed(do="totals", total_ns="1500", total_ew="1200"), f, bad)
      for f, bad in (("total_ns", v(NUMBERS, "-1", "15000")), ("total_ew", NUMBERS))],
    *[Row(f"entry-confirm-{f}", "pending", "Opponent", ENTRY,
          fixed(do="confirm", hands="1", totals=""), f, bad)
      for f, bad in (("hands", v(NUMBERS, "0", "2")),
                     ("totals", v(TEXTS, "1-2-3", "a-b", "9999999999-1", "-1-2", "1500-")),
                     ("code", TEXTS))],
    *[Row(f"entry-dispute-{f}", "pending", "Opponent", ENTRY,
          fixed(do="dispute", hands="1", totals="", reason="we took 152"), f, bad)
      for f, bad in (("reason", TEXTS), ("hands", v(NUMBERS, "0")))],
    # --- the organiser's queue
    *[Row(f"resolve-{f}", "pending", "Organiser", "/tournaments/{tid}/games/1/resolve",
          fixed(decision="reject", reason="re-entered at the table"), f, bad)
      for f, bad in (("decision", WORDS), ("reason", TEXTS + BLANK))],
]


# ------------------------------------------------------------------------ the checks
def service_of(client: TestClient) -> Any:
    return client.app.state.tournaments.service  # type: ignore[attr-defined]


def snapshot(client: TestClient) -> Any:
    """Everything a tournament form may change: each tournament as stored (its event log's
    length) and as the room holds it (its whole state), its organisers; the seasons."""
    service = service_of(client)

    async def read() -> Any:
        tournaments = []
        for row in await service.store.list():
            t = await service.get(row.id)
            tournaments.append((row, await service.store.count(row.id), repr(t),
                                sorted(await service.store.organisers(row.id))))
        seasons = [(r.id, r.owner, r.season)
                   for r in await SeasonStore(service.store.engine).all()]
        return tournaments, seasons

    return client.portal.call(read)


ALERT = re.compile(r'<p class="flash" role="alert">(.*?)</p>', re.S)


def refusal(client: TestClient, response: Any) -> str:
    """The refusal ``response`` says: a 4xx page, or a redirect to a page that says the
    error (once, as an alert); never a 500, a traceback, an untranslated key, nor the bad
    value echoed back whole (the notice travels in the session cookie)."""
    assert response.status_code < 500, response.text[:2000]
    assert len(response.headers.get("set-cookie", "")) < 4096
    if 400 <= response.status_code < 500:
        text = response.text
    else:
        assert response.status_code == 303, (response.status_code, response.text[:500])
        page = client.get(response.headers["location"])
        assert page.status_code == 200, page.text[:500]
        said = ALERT.findall(page.text)
        assert len(said) == 1, f"no refusal said on {response.headers['location']}"
        text = html.unescape(said[0])
        assert 0 < len(text) < 1000, text[:200]
    assert "Traceback" not in text and "tournament.error." not in text
    assert not re.search(r"\{[a-z_]+\}", text), text[:200]  # a placeholder left unfilled
    return text


def form_with(base: dict[str, str], name: str, value: Any) -> dict[str, Any]:
    data: dict[str, Any] = dict(base)
    if value is MISSING:
        data.pop(name, None)
    elif value is TWICE:
        data[name] = [base.get(name, ""), base.get(name, "")]
    else:
        data[name] = value
    return data


def shown(value: Any) -> str:
    if value is MISSING:
        return "<missing>"
    if value is TWICE:
        return "<twice>"
    return repr(value if len(value) < 40 else value[:20] + f"...({len(value)} chars)")


@pytest.mark.parametrize("row", ROWS, ids=[row.name for row in ROWS])
def test_a_hostile_field_is_refused_in_words_and_changes_nothing(room: Start, row: Row) -> None:
    people, tid = room(row.setup)
    client = people.client
    base = row.form(tournament(client, tid))
    path = row.path.format(tid=tid)
    before = snapshot(client)
    failures = []
    for value in row.bad:
        data = form_with(base, row.field, value)
        response = people.use(row.who).post(path, data=data, follow_redirects=False)
        people._jars[row.who] = client.cookies
        try:
            refusal(client, response)
            assert snapshot(client) == before, "changed"
            if row.who in ("Scorer", "Walker"):  # no code kept, no answer kept
                assert _session_unchanged(people, row, tid), "session changed"
        except AssertionError as error:
            failures.append(f"{shown(value)}: {str(error).splitlines()[0][:150]}")
            before = snapshot(client)  # each value on its own
    assert not failures, "\n".join(failures)
    # The valid form passes: the refusals above were the field's.
    response = people.use(row.who).post(path, data=base, follow_redirects=True)
    assert response.status_code == 200
    assert not ALERT.search(response.text), ALERT.findall(response.text)
    if row.changes:
        assert snapshot(client) != before, row.name


def _session_unchanged(people: Identities, row: Row, tid: int) -> bool:
    """A walker still scores for nobody; a scorer is still asked hand 1's first question."""
    page = people.use(row.who).get(f"/tournaments/{tid}/games/1/entry").text
    if row.who == "Walker":
        return 'id="entry-form"' not in page and 'id="totals-form"' not in page
    return 'name="do" value="back"' not in page


# ------------------------------------------------------------------------ beyond the table
@pytest.mark.parametrize(("setup", "who", "path", "data"), [
    ("registered", "Organiser", "/tournaments/{tid}/prizes", {"places": MEGA}),
    ("pending", "Opponent", ENTRY, {"do": "dispute", "hands": "1", "reason": MEGA}),
    ("registered", "Organiser", DO + "register", {"club": MEGA, "a_player1": "A"}),
    ("registered", "Organiser", "/seasons", {"name": MEGA, "points": "1"}),
])
def test_a_megabyte_field_is_refused_before_the_form_is_read(
        room: Start, setup: str, who: str, path: str, data: dict[str, str]) -> None:
    people, tid = room(setup)
    client = people.client
    before = snapshot(client)
    response = people.use(who).post(path.format(tid=tid), data=data, follow_redirects=False)
    assert response.status_code == 413
    assert "too large" in refusal(client, response)
    assert snapshot(client) == before


def test_a_file_or_a_json_body_is_no_form(room: Start) -> None:
    people, tid = room("registered")
    client = people.client
    org = organiser(people)
    before = snapshot(client)
    response = org.post(f"/tournaments/{tid}/do/register", data={"club": "Q9"},
                        files={"a_player1": ("a.txt", b"Ada", "text/plain")},
                        follow_redirects=False)
    refusal(client, response)
    response = org.post(f"/tournaments/{tid}/do/register", json={
        "club": "Q9", "a_player1": "Ada", "a_player2": "Bea", "b_player1": "Cloe",
        "b_player2": "Dora"}, follow_redirects=False)
    refusal(client, response)
    # Bytes that are not UTF-8, percent-encoded or raw.
    for body in (b"club=Q%FF9&a_player1=%ED%A0%80", b"club=Q\xff9&a_player1=\xed\xa0\x80"):
        response = org.post(f"/tournaments/{tid}/do/register", content=body, headers={
            "content-type": "application/x-www-form-urlencoded"}, follow_redirects=False)
        refusal(client, response)
    assert snapshot(client) == before


def test_another_tournaments_games_codes_and_forms_are_out_of_reach(
        room: Start) -> None:
    """Two tournaments: the Rival's forms refuse the Organiser, and the ids and codes of
    one are nothing in the other."""
    people, mine = room("pending")
    client = people.client
    rival = people.use("Rival")
    theirs = create(rival, name="Rival cup", target="1500")
    for n in range(3):
        post(people.use("Rival"), f"/tournaments/{theirs}/do/register", club=f"R{n}",
             a_player1=f"Eva{n}", a_player2=f"Fede{n}", b_player1=f"Gea{n}",
             b_player2=f"Ivo{n}")
    post(people.use("Rival"), f"/tournaments/{theirs}/do/draw")
    their_code = side_code(tournament(client, theirs).game(3), 0)
    before = snapshot(client)
    org = organiser(people)
    for path, data in ((f"/tournaments/{theirs}/do/result",
                        {"game": "1", "total_a": "1500", "total_b": "0"}),
                       (f"/tournaments/{theirs}/do/organiser", {"name": "Organiser"}),
                       (f"/tournaments/{theirs}/manage/withdraw", {"entrant": "1"}),
                       (f"/tournaments/{theirs}/prizes", {"places": "a ham"}),
                       (f"/tournaments/{theirs}/games/1/resolve", {"decision": "accept"})):
        response = org.post(path, data=data, follow_redirects=False)
        assert "organisers" in refusal(client, response), path
    # Game 3 is the rival's: no game of mine; its code opens nothing here.
    for path in (f"/tournaments/{mine}/games/3/entry", f"/tournaments/{mine}/games/3/code",
                 f"/tournaments/{mine}/games/3/claim", f"/tournaments/{mine}/games/3/resolve",
                 f"/tournaments/{mine}/games/{10 ** 30}/entry",
                 f"/tournaments/{10 ** 30}/do/draw", "/seasons/99",
                 f"/tournaments/{mine}/do/nothing", f"/tournaments/{mine}/manage/nothing"):
        response = org.post(path, data={"do": "confirm", "code": their_code},
                            follow_redirects=False)
        assert response.status_code == 404, path
    people.guest("Walker")
    response = people.use("Walker").post(f"/tournaments/{mine}/enter",
                                         data={"table": "3", "code": their_code},
                                         follow_redirects=False)
    refusal(client, response)
    response = people.use("Walker").post(f"/tournaments/{mine}/games/1/code",
                                         data={"code": their_code}, follow_redirects=False)
    refusal(client, response)
    response = people.use("Scorer").post(  # confirming with the other side's code
        f"/tournaments/{mine}/games/1/entry",
        data={"do": "confirm", "hands": "1", "totals": "", "code": their_code},
        follow_redirects=False)
    refusal(client, response)
    # A season of someone else's refuses its owner's forms to others.
    rival_season = people.use("Rival").post("/seasons", data={"name": "Rival GP",
                                                               "points": "3, 2, 1"},
                                            follow_redirects=False)
    sid = int(rival_season.headers["location"].rsplit("/", 1)[1])
    before = snapshot(client)
    response = organiser(people).post(f"/seasons/{sid}",
                                      data={"do": "add", "tournament": str(mine)},
                                      follow_redirects=False)
    assert "organisers" in refusal(client, response)
    assert snapshot(client) == before


def test_declarations_of_thousands_of_words_are_refused_unread(room: Start) -> None:
    """The score entry reads declarations in words by trying every run of words: cubic in
    their number (100 words "e", 150 ms; 3,000, minutes of the room's loop).  An answer,
    or its check as it is typed, over the answer's bound is refused before it is read."""
    people, tid = room("coded")
    client = people.client
    path = ENTRY.format(tid=tid)
    for answer in HAND[:5]:  # taker, trump, both sides' trick points, capot
        give(people, "Scorer", path, do="next", answer=answer)
    assert "Declarations N-S" in people.use("Scorer").get(path).text
    words = "e " * 3000
    before = snapshot(client)
    response = people.use("Scorer").post(path, data={"do": "next", "answer": words},
                                         follow_redirects=False)
    assert "at most 64 characters" in refusal(client, response)
    check = people.use("Scorer").get(f"/tournaments/{tid}/games/1/check",
                                     params={"value": words}).json()
    assert check["ok"] is False and "at most 64 characters" in check["text"]
    assert snapshot(client) == before
    assert "Declarations N-S" in people.use("Scorer").get(path).text  # asked again


def test_a_season_takes_a_bounded_number_of_merges(room: Start) -> None:
    """Every change of a season checks its merges for a circle on the event loop: their
    number is bounded (a chain of 2,000 held the loop 120 ms), a new one past it refused."""
    people, _ = room("season")  # season 1, one merge
    client = people.client
    store = SeasonStore(client.app.state.tournaments.service.store.engine)  # type: ignore[attr-defined]
    chain = {f"name:m{n + 1}": f"name:m{n}" for n in range(MAX_MERGES - 1)}
    client.portal.call(store.change, 1, lambda data: data["merges"].update(chain))
    before = snapshot(client)
    response = organiser(people).post("/seasons/1", data={
        "do": "merge", "player": "name:zz", "into": "name:m0"}, follow_redirects=False)
    assert f"at most {MAX_MERGES} merges" in refusal(client, response)
    assert snapshot(client) == before
    # A merge made already may still be changed.
    post(organiser(people), "/seasons/1", do="merge", player="name:m1", into="name:zz")
    assert dict(client.portal.call(store.get, 1).season.merges)["name:m1"] == "name:zz"


class _Fields(HTMLParser):
    """The fields each form of a page sends (radio buttons: one)."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[list[str]] = []
        self._radios: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "form":
            self.forms.append([str(values.get("action") or "")])
            self._radios = set()
        elif tag in ("input", "select", "textarea") and self.forms and values.get("name"):
            name = str(values["name"])
            if values.get("type") == "radio":
                if name in self._radios:
                    return
                self._radios.add(name)
            if values.get("type") not in ("submit", "button"):
                self.forms[-1].append(name)


def test_no_form_of_the_tournament_pages_sends_a_field_twice(room: Start) -> None:
    """Forms that repeat a field are refused: none of ours may send one."""
    people, tid = room("season")
    post(organiser(people), f"/tournaments/{tid}/do/draw")
    for who, path in (("Organiser", f"/tournaments/{tid}"), ("Organiser", "/tournaments"),
                      ("Organiser", f"/tournaments/{tid}/prizes"),
                      ("Organiser", "/seasons"), ("Organiser", "/seasons/1"),
                      ("Organiser", f"/tournaments/{tid}/games/1/entry"),
                      ("Organiser", f"/tournaments/{tid}/games/1/code"),
                      ("Organiser", f"/tournaments/{tid}/enter")):
        parser = _Fields()
        parser.feed(people.use(who).get(path).text)
        assert parser.forms, path
        for action, *fields in parser.forms:
            if action.startswith("/preferences"):  # the site's own, not a tournament form
                continue
            assert len(fields) == len(set(fields)), (path, action, fields)


# ------------------------------------------------------------------------ the probe socket
@pytest.mark.slow
def test_the_heaviest_hostile_forms_do_not_hold_the_loop() -> None:
    """The heaviest hostile forms, posted to a live room while a probe socket pings its
    lobby (:mod:`tests.server.loop_probe`).  To a Pinasca of 200 entrants (100 tables
    drawn): prize lists of 60,000 characters, of 300 prizes, of 1,000 unknown winners and
    of a megabyte; registrations of huge, overridden and taken names; a dispute and a
    decision with huge reasons; declarations of 3,000 words (an answer and its check).  To
    a season of 200 tournaments and 499 merges in one chain (every change checks the
    chain): a huge points table, a huge merge, a merge past the limit, a change of its
    points; a season of a huge name; then that season's page.  Each is refused (the
    points change and the page: done) without holding the room's loop more than 50 ms,
    and the tournament's audit log is as it was."""
    import httpx

    from tests.browser.live import LiveServer
    from tests.server.helpers import sign_up_over_http
    from tests.server.loop_probe import THRESHOLD, worst_stall

    with (LiveServer(signups_per_hour=1000) as room,
          httpx.Client(base_url=room.url, headers={"origin": room.url}, timeout=120) as http):
        room.favour()  # a probe measures it (tests/server/loop_probe.py)
        sign_up_over_http(http, "Organiser")
        tid, sid = asyncio.run(_big_tournament_and_season(str(room.settings["db_url"])))
        names = "\n".join(f"Nobody {n}" for n in range(1000))
        forms: list[tuple[str, dict[str, str]]] = [
            (f"/tournaments/{tid}/prizes", {"places": HUGE}),
            (f"/tournaments/{tid}/prizes", {"places": "\n".join(["p" * 199] * 300)}),
            (f"/tournaments/{tid}/prizes", {"places": "ham", "prize_mixed": "wine",
                                            "eligible_mixed": names}),
            (f"/tournaments/{tid}/prizes", {"places": MEGA}),
            (f"/tournaments/{tid}/do/register", {
                "club": HUGE[:12_000], "a_name": HUGE[:12_000], "a_player1": HUGE[:12_000],
                "a_player2": HUGE[:12_000], "b_player1": HUGE[:12_000]}),
            (f"/tournaments/{tid}/do/register", {
                "club": "\u202e" * 12_000, "a_player1": "\x00" * 12_000,
                "a_player2": "\u0300" * 12_000, "b_player1": "b", "b_player2": "c"}),
            (f"/tournaments/{tid}/do/register", {
                "club": "Q0", "a_player1": "A", "a_player2": "B", "b_player1": "C",
                "b_player2": "D"}),
            (f"/tournaments/{tid}/games/1/entry", {"do": "dispute", "hands": "1",
                                                   "reason": HUGE}),
            (f"/tournaments/{tid}/games/1/resolve", {"decision": "reject", "reason": HUGE}),
            (f"/tournaments/{tid}/do/adjust", {"subject": HUGE, "points": "1",
                                              "reason": "x"}),
            (f"/seasons/{sid}", {"do": "points", "points": "1," * 30_000}),
            (f"/seasons/{sid}", {"do": "merge", "player": "name:" + HUGE, "into": "name:a"}),
            (f"/seasons/{sid}", {"do": "merge", "player": "name:zz", "into": "name:m0"}),
            (f"/seasons/{sid}", {"do": "points", "points": "25, 20, 16", "others": "1"}),
            ("/seasons", {"name": HUGE, "points": "1 " * 30_000}),
        ]
        for answer in HAND[:5]:  # the organiser's entry of game 2, up to its declarations
            http.post(f"/tournaments/{tid}/games/2/entry", data={"do": "next",
                                                                "answer": answer})
        words = "e " * 3000  # read whole, minutes of the loop (cubic in the words)
        forms += [(f"/tournaments/{tid}/games/2/entry", {"do": "next", "answer": words})]
        before = http.get(f"/tournaments/{tid}/log").text

        def hostile() -> list[int]:
            answers = [http.post(path, data=data, follow_redirects=False).status_code
                       for path, data in forms]
            check = http.get(f"/tournaments/{tid}/games/2/check", params={"value": words})
            return [*answers, check.status_code, http.get(f"/seasons/{sid}").status_code]

        measured = worst_stall(room.url, hostile)
        print(measured)
        assert measured.stall <= THRESHOLD, measured
        *posted, check, season_page = measured.kept
        assert all(status in (303, 413) for status in posted), posted
        assert check == season_page == 200
        assert http.get(f"/tournaments/{tid}/log").text == before
        said = http.get(f"/seasons/{sid}").text
        assert "Big season" in said


async def _big_tournament_and_season(db_url: str) -> tuple[int, int]:
    """Written straight into the live room's database: a Pinasca of 100 neighbourhoods
    (200 entrants), round 1 drawn; a season of it and 199 other tournaments, with a chain
    of 499 merges (one short of the limit)."""
    from belote.server.auth.names import name_key
    from belote.server.persistence import Store
    from belote.server.tournament.service import Tournaments
    from belote.server.tournament.store import TournamentStore

    store = Store(db_url)
    await store.open()
    try:
        service = Tournaments(TournamentStore(store.engine))
        owner = name_key("Organiser")
        settings = {"name": "Big", "format": "pinasca", "preset": "pinasca", "target": 1500,
                    "rounds": 3}
        tid = await service.create(settings, owner)
        for n in range(100):  # a neighbourhood registers its two pairs together
            await service.change(tid, "registered", {"entrants": [
                {"players": [f"A{n}", f"B{n}"], "club": f"Q{n}"},
                {"players": [f"C{n}", f"D{n}"], "club": f"Q{n}"}]}, "Organiser")
        await service.draw(tid, "Organiser")
        others = [await service.create({**settings, "name": f"Other {n}"}, owner)
                  for n in range(199)]
        sid = await SeasonStore(store.engine).create({
            "name": "Big season", "points": [25, 20, 16], "tournaments": [tid, *others],
            "merges": {f"name:m{n + 1}": f"name:m{n}" for n in range(MAX_MERGES - 1)}},
            owner)
        return tid, sid
    finally:
        await store.close()
