"""Limits on what one request or one address may take (issue 21, items 7 and 12): request
bodies and form fields, the replays' and analyses' cache and limits, rematches and the
invitation codes.  Each refusal is clear (its own message, in the reader's language), counted
and logged, and changes nothing.  The event loop's stall under the heavy requests themselves
is measured with a probe socket in test_loop_stalls.py."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from belote.ai.analysis import AnalysisUnavailable
from belote.server import heavy as heavy_module
from belote.server.app import create_app
from belote.server.config import Settings
from belote.server.heavy import HeavyFailed, HeavyWork
from belote.server.limits import KeyedLimiter, Refusal, count_fields
from belote.server.replay_analysis import StepError
from tests.server import heavy_jobs as jobs
from tests.server.conftest import ORIGIN, client_for, make_settings
from tests.server.helpers import Identities, connect, guest, play_to_the_end, sit_with_bots
from tests.server.test_replay_analysis import card_steps, finished_record, store_finished

FORM = {"content-type": "application/x-www-form-urlencoded", "origin": ORIGIN}


# ---------------------------------------------------------------- bodies and forms
def test_empty_fields_are_counted_by_the_field_limit() -> None:
    """Finding: "empty fields are not counted by the field limit" (Starlette's parser skips
    ``&&&&``, yet parsing them is what held the loop)."""
    form = "application/x-www-form-urlencoded"
    assert count_fields(b"&" * 100, form) == 101
    assert count_fields(b"name=Ada", form) == 1
    assert count_fields(b"a=1;b=2&c=3", form) == 3
    assert count_fields(b"", form) == 0


def test_a_form_of_empty_fields_is_refused_and_changes_nothing(tmp_path: Path,
                                                               caplog: Any) -> None:
    app = create_app(make_settings(tmp_path))
    with client_for(app) as client, caplog.at_level(logging.WARNING):
        body = b"name=Ada" + b"&" * 1000  # 1001 fields as sent, one of them not empty
        refused = client.post("/guest", content=body, headers=FORM, follow_redirects=False)
        assert refused.status_code == 400
        assert "too many fields (empty ones count too)" in refused.text
        assert "Ada" not in client.get("/").text  # no guest was made
        assert any("more than 64 fields" in r.getMessage() for r in caplog.records)
        assert app.state.refused["too_many_fields"] == 1
        # the same form with its fields counted within the limit is read
        assert client.post("/guest", content=b"name=Ada" + b"&" * 10, headers=FORM,
                           follow_redirects=False).status_code == 303


def test_a_body_over_the_cap_is_refused_with_413_before_it_is_read(tmp_path: Path) -> None:
    """Finding: "no body cap" (one POST of 30 MiB of ``&`` to /guest).  Announced or not
    (chunked), a body over the cap is refused with 413 in the reader's language."""
    app = create_app(make_settings(tmp_path, max_body_bytes=4096))
    with client_for(app) as client:
        big = client.post("/guest", content=b"name=Ada&" + b"x" * 5000, headers={
            **FORM, "accept-language": "it"})
        assert big.status_code == 413
        assert "Questa richiesta è troppo grande per la sala" in big.text

        def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it comes
            for _ in range(10):
                yield b"&" * 1000

        chunked = client.post("/guest", content=chunks(), headers=FORM)
        assert chunked.status_code == 413
        assert "too large for the room" in chunked.text
        assert "Ada" not in client.get("/").text  # nothing changed
        assert app.state.refused["body_too_large"] == 2
        assert client.post("/guest", data={"name": "Ada"},
                           follow_redirects=False).status_code == 303


# ---------------------------------------------------------------- rematch
@contextlib.contextmanager
def _finished_match(client: Any) -> Iterator[int]:
    """A match played to its end; its table stays in the room while the socket is open."""
    response = client.post("/tables", data={"preset": "classic", "flags": "",
                                            "target": "1"}, follow_redirects=False)
    table_id = int(response.headers["location"].rsplit("/", 1)[1])
    with connect(client, table_id) as ws:
        sit_with_bots(ws, level="easy")
        final, _ = play_to_the_end(ws)
        assert final["finished"]
        yield table_id


def test_rematch_counts_against_the_table_creation_limits_of_the_address(
        tmp_path: Path) -> None:
    """Finding: "Rematch bypasses the table creation limits (60 tables in 18 s)"."""
    app = create_app(make_settings(tmp_path, tables_per_address_burst=1,
                                   tables_per_address_per_hour=0.001))
    with client_for(app) as client:
        guest(client, "Ada")
        with _finished_match(client) as table_id:
            refused = client.post(f"/tables/{table_id}/rematch", data={"seat": "0"})
            assert "Too many tables were created from your address" in refused.text
            assert sorted(app.state.room.tables) == [table_id]  # no table was made


def test_rematch_counts_against_the_tables_one_person_may_keep_waiting(
        tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path, waiting_tables_per_user=1))
    with client_for(app) as client:
        guest(client, "Ada")
        with _finished_match(client) as table_id:  # started at once: it never waited
            waiting = client.post("/tables", data={"preset": "classic", "flags": "",
                                                   "target": ""}, follow_redirects=False)
            assert waiting.headers["location"].startswith("/table/")
            refused = client.post(f"/tables/{table_id}/rematch", data={"seat": "0"})
            assert "the most tables waiting" in refused.text
            assert app.state.room.tables[table_id].rematch is None
        assert len([t for t in app.state.room.tables.values() if t.game is None]) == 1


# ---------------------------------------------------------------- invitation codes
def test_invitation_code_guesses_are_rate_limited_per_address(tmp_path: Path,
                                                              caplog: Any) -> None:
    """Finding: "invitation codes can be guessed at ~400/s without a limit"."""
    app = create_app(make_settings(tmp_path, code_guesses_per_minute=5))
    with client_for(app) as client, caplog.at_level(logging.WARNING):
        people = Identities(client)
        people.guest("Ada")
        response = client.post("/tables", data={"preset": "classic", "flags": "",
                                                "target": "300", "private": "on"},
                               follow_redirects=False)
        table_id = int(response.headers["location"].rsplit("/", 1)[1])
        code = app.state.room.tables[table_id].code
        mallory = people.guest("Mallory")
        for guess in ["AAAAAA", "BBBBBB", "CCCCCC", "DDDDDD", "EEEEEE"]:
            wrong = mallory.post("/join", data={"code": guess}, follow_redirects=False)
            assert wrong.status_code == 303 and wrong.headers["location"] == "/"
        for attempt in (mallory.post("/join", data={"code": "FFFFFF"}),
                        mallory.get(f"/join/{code}")):  # even the right code, for now
            assert attempt.status_code == 429
            assert "Too many wrong invitation codes" in attempt.text
            assert 1 <= int(attempt.headers["retry-after"]) <= 60
        assert mallory.get(f"/table/{table_id}").status_code == 403  # not let in
        assert any("too many wrong codes" in r.getMessage() for r in caplog.records)
        assert app.state.refused["code_guesses"] == 2


def test_invitation_codes_from_another_address_are_not_held_back(tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path, code_guesses_per_minute=2))
    with client_for(app) as client:
        guest(client, "Ada")
        response = client.post("/tables", data={"preset": "classic", "flags": "",
                                                "target": "300", "private": "on"},
                               follow_redirects=False)
        table_id = int(response.headers["location"].rsplit("/", 1)[1])
        code = app.state.room.tables[table_id].code
        for _ in range(2):
            client.post("/join", data={"code": "ZZZZZZ"})
        assert client.get(f"/join/{code}").status_code == 429
        other = TestClient(app, base_url=ORIGIN, headers={"origin": ORIGIN},
                           client=("192.0.2.7", 4000))
        guest(other, "Bea")
        joined = other.get(f"/join/{code}", follow_redirects=False)
        assert joined.headers["location"] == f"/table/{table_id}"


# ---------------------------------------------------------------- replays and analyses
def test_the_replay_is_computed_once_per_match_and_language(tmp_path: Path) -> None:
    """Finding: "the replay page costs ~15 ms of server time per deal, uncached"."""
    app = create_app(make_settings(tmp_path))
    with client_for(app) as client:
        table_id = store_finished(app, finished_record())
        first = client.get(f"/replay/{table_id}")
        assert first.status_code == 200
        assert client.get(f"/replay/{table_id}").text == first.text
        heavy: HeavyWork = app.state.heavy
        assert (heavy.stats.computed, heavy.stats.cached) == (1, 1)
        italian = client.get(f"/replay/{table_id}", headers={"accept-language": "it"})
        assert "Replica del tavolo" in italian.text
        assert heavy.stats.computed == 2  # one per language
        record = client.get(f"/replay/{table_id}.json")
        assert record.json() == client.get(f"/replay/{table_id}.json").json()
        assert heavy.stats.computed == 3


def test_uncached_replays_are_limited_per_client(tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path, replays_burst=2, replays_per_hour=1.0))
    with client_for(app) as client:
        ids = [store_finished(app, finished_record(seed)) for seed in (1, 2, 3)]
        assert client.get(f"/replay/{ids[0]}").status_code == 200
        assert client.get(f"/replay/{ids[1]}").status_code == 200
        refused = client.get(f"/replay/{ids[2]}", headers={"accept-language": "es"})
        assert refused.status_code == 429
        assert "Has abierto muchas repeticiones en poco tiempo" in refused.text
        assert int(refused.headers["retry-after"]) > 60
        assert client.get(f"/replay/{ids[0]}").status_code == 200  # cached: free
        assert app.state.heavy.stats.refused == {"replay/client": 1}


@pytest.mark.slow
def test_uncached_analyses_are_limited_per_client_and_cached_per_match(
        tmp_path: Path, caplog: Any) -> None:
    """Finding: "uncached analysis requests (80 at once from one anonymous client)"."""
    app = create_app(make_settings(tmp_path, analyses_burst=2, analyses_per_hour=1.0))
    with client_for(app) as client, caplog.at_level(logging.WARNING):
        record = finished_record()
        table_id = store_finished(app, record)
        steps = card_steps(record)
        for step in steps[:2]:
            assert client.get(f"/replay/{table_id}/analysis?step={step}").status_code == 200
        refused = client.get(f"/replay/{table_id}/analysis?step={steps[2]}",
                             headers={"accept-language": "fr"})
        assert refused.status_code == 429
        assert refused.json()["error"].startswith("Vous avez demandé beaucoup d'analyses")
        assert int(refused.headers["retry-after"]) > 60
        again = client.get(f"/replay/{table_id}/analysis?step={steps[0]}")
        assert again.status_code == 200  # an answer made already is always given
        heavy: HeavyWork = app.state.heavy
        assert heavy.stats.computed == 2 and heavy.stats.cached == 1
        assert heavy.stats.refused == {"analysis/client": 1}
        assert any("analysis refused" in r.getMessage() for r in caplog.records)


def _slow(text: str) -> str:
    time.sleep(0.3)
    return text


def test_heavy_work_is_bounded_in_all_and_computes_one_answer_once() -> None:
    """The global limit: past ``heavy_queue`` jobs in or waiting, 429 "busy" with a
    Retry-After; the same answer asked twice at once is computed once."""
    heavy = HeavyWork(Settings(heavy_workers=0, heavy_queue=1))

    async def scenario() -> list[Any]:
        return await asyncio.gather(
            heavy._get(("record", 1), "a", len, _slow, "one"),
            heavy._get(("record", 1), "b", len, _slow, "one"),
            heavy._get(("record", 2), "c", len, _slow, "two"),
            return_exceptions=True)

    try:
        first, shared, busy = asyncio.run(scenario())
    finally:
        heavy.close()
    assert first == shared == "one"
    assert isinstance(busy, Refusal) and busy.status_code == 429
    assert busy.key == "limits.busy" and busy.headers and int(busy.headers["Retry-After"]) >= 1
    assert heavy.stats.computed == 1 and heavy.stats.shared == 1
    assert heavy.stats.refused == {"busy": 1}


def test_a_keyed_limiter_says_when_to_come_back() -> None:
    now = [0.0]
    limiter = KeyedLimiter(1, 3600.0, clock=lambda: now[0])
    assert limiter.retry_after("a") == 0.0
    assert limiter.take("a") and not limiter.take("a")
    assert limiter.retry_after("a") == pytest.approx(1.0)
    now[0] = 0.5
    assert limiter.retry_after("a") == pytest.approx(0.5)


@pytest.mark.slow
def test_a_heavy_process_that_dies_or_hangs_is_replaced_and_the_next_job_works(
        caplog: Any) -> None:
    heavy = HeavyWork(Settings(heavy_workers=1, heavy_timeout=5.0))

    async def scenario() -> list[Any]:
        died = await asyncio.gather(heavy._get(("record", 1), "a", len, jobs.die),
                                    return_exceptions=True)
        after_death = await heavy._get(("record", 2), "a", len, str, "two")
        hung = await asyncio.gather(heavy._get(("record", 3), "a", len, jobs.stop),
                                    return_exceptions=True)
        after_hang = await heavy._get(("record", 4), "a", len, str, "four")
        return [*died, after_death, *hung, after_hang]

    try:
        with caplog.at_level(logging.ERROR):
            died, after_death, hung, after_hang = asyncio.run(scenario())
    finally:
        heavy.close()
    assert isinstance(died, HeavyFailed) and isinstance(hung, HeavyFailed)
    assert "hung" in str(hung)
    assert (after_death, after_hang) == ("two", "four")
    assert heavy.stats.replacements == 2 and heavy.stats.failed == 2
    assert sum("heavy-work process lost" in r.getMessage() for r in caplog.records) == 2


@pytest.mark.slow
def test_a_healthy_heavy_process_with_jobs_waiting_behind_each_other_is_not_taken_for_hung(
        caplog: Any) -> None:
    """Review finding: the timeout ran from the submit, so time waiting in the queue
    counted (heavy_timeout=2.5 s, four 1 s jobs: the third and fourth failed and the healthy
    process was killed).  A job is timed from its start: six 0.4 s jobs on one process,
    2.4 s of work in all, all answer under a 2 s timeout (each with 1.6 s to spare, for a
    loaded machine)."""
    heavy = HeavyWork(Settings(heavy_workers=1, heavy_timeout=2.0, heavy_queue=8))

    async def scenario() -> list[Any]:
        # The process started first (one quick job of this module, so that importing it
        # in the process is done too): its start-up, seconds on a loaded machine, is no
        # part of what is timed here.
        await heavy._get(("record", -1), "a", len, jobs.echo, "started")
        return await asyncio.gather(
            *(heavy._get(("record", n), "a", len, jobs.nap, str(n)) for n in range(6)),
            return_exceptions=True)

    try:
        with caplog.at_level(logging.ERROR):
            answers = asyncio.run(scenario())
    finally:
        heavy.close()
    assert answers == ["0", "1", "2", "3", "4", "5"]
    assert heavy.stats.replacements == 0 and heavy.stats.failed == 0
    assert not any("heavy-work process lost" in r.getMessage() for r in caplog.records)


@pytest.mark.slow
def test_a_starved_heavy_process_is_given_more_time_a_busy_loop_is_hung(
        caplog: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seen in the suite: the heavy-work process is niced below the tables and the bots; on
    a busy machine it got a few percent of a core, a one-second analysis took longer than
    the timeout, and the healthy process was killed as hung (the page said "try again", the
    replay page answered 503).  A job whose process gets some CPU while it waits, less than a
    timeout's worth in all, is starved, not hung: it is given more time, logged and counted.
    A job that used a whole timeout of CPU (a busy loop) is hung, as one that used none (a
    stopped process: the test above)."""
    # Only the CPU rule may end the busy loop (not the cap on a starved job's waits, which a
    # busy test machine could reach first).
    monkeypatch.setattr(heavy_module, "STARVED_WAITS", 1000)
    heavy = HeavyWork(Settings(heavy_workers=1, heavy_timeout=1.0))

    async def scenario() -> list[Any]:
        await heavy._get(("record", -1), "a", len, jobs.echo, "started")
        starved = await heavy._get(("record", 1), "a", len, jobs.trickle, 3.0)
        spun = await asyncio.gather(heavy._get(("record", 2), "a", len, jobs.spin, 300.0),
                                    return_exceptions=True)
        return [starved, *spun]

    try:
        with caplog.at_level(logging.WARNING):
            starved, spun = asyncio.run(scenario())
    finally:
        heavy.close()
    assert starved == "trickled"
    assert isinstance(spun, HeavyFailed) and "hung" in str(spun), spun
    assert heavy.stats.starved >= 1 and heavy.stats.failed == 1
    assert heavy.stats.replacements == 1  # the busy loop's process only
    said = [r.getMessage() for r in caplog.records]
    assert any("heavy-work process starved" in m for m in said), said


def test_a_request_refused_as_busy_costs_its_client_nothing() -> None:
    """Review finding: the client's token was taken before the global "busy" check."""
    heavy = HeavyWork(Settings(heavy_workers=0, heavy_queue=1, replays_burst=1,
                               replays_per_hour=1.0))

    async def scenario() -> list[Any]:
        first = asyncio.ensure_future(heavy._get(("record", 1), "a", len, _slow, "one"))
        await asyncio.sleep(0.05)
        busy = await asyncio.gather(heavy._get(("record", 2), "b", len, _slow, "two"),
                                    return_exceptions=True)
        return [await first, *busy, await heavy._get(("record", 2), "b", len, _slow, "two")]

    try:
        first, busy, later = asyncio.run(scenario())
    finally:
        heavy.close()
    assert isinstance(busy, Refusal) and busy.key == "limits.busy"
    assert (first, later) == ("one", "two")  # b's one token was still there
    assert heavy.stats.refused == {"busy": 1}


UNAVAILABLE_CALLS: list[int] = []


def _cannot_analyse(step: int) -> str:
    UNAVAILABLE_CALLS.append(step)
    if step % 2:
        raise StepError("not_a_card", step=step)
    raise AnalysisUnavailable("3 players, 8 tricks left: too many unknown cards")


def test_a_step_that_cannot_be_analysed_is_kept_and_asking_again_costs_nothing() -> None:
    """Review finding: AnalysisUnavailable / StepError answers were not cached, so asking
    again for such a step cost a process job and a token every time."""
    UNAVAILABLE_CALLS.clear()
    heavy = HeavyWork(Settings(heavy_workers=0, analyses_burst=2, analyses_per_hour=1.0))

    async def one_by_one() -> list[Any]:
        answers = []
        for step in (4, 5, 4, 5, 4, 5):
            answers += await asyncio.gather(
                heavy._get(("analysis", 1, step), "a", len, _cannot_analyse, step),
                return_exceptions=True)
        return answers

    try:
        answers = asyncio.run(one_by_one())
    finally:
        heavy.close()
    assert UNAVAILABLE_CALLS == [4, 5]  # one job each, then kept: the two tokens suffice
    assert [type(a) for a in answers] == [AnalysisUnavailable, StepError] * 3
    assert all(not isinstance(a, Refusal) for a in answers)
    assert heavy.stats.computed == 2 and heavy.stats.cached == 4
    assert heavy.stats.refused == {}


def test_a_process_that_hangs_on_a_job_whose_request_was_cancelled_is_still_replaced(
        tmp_path: Path) -> None:
    """A job's place in the process is freed when the job ends, not when its request does;
    so the watch goes on without the request: a process that hangs on a job whose client has
    gone is still found, killed and replaced, and the next job is answered."""
    heavy = HeavyWork(Settings(heavy_workers=1, heavy_timeout=1.5))

    async def scenario() -> str:
        # The process started first (its start-up, seconds on a loaded machine, would count
        # against the job's 1.5 s and have it replaced before the job wrote its file).
        await heavy._get(("record", -1), "a", len, jobs.echo, "started")
        stopped = tmp_path / "stopped"
        gone = asyncio.ensure_future(heavy._get(("record", 1), "a", len, jobs.say_and_stop,
                                                str(stopped)))
        deadline = time.monotonic() + 60
        while not stopped.exists():  # the job runs, and its process stops
            assert time.monotonic() < deadline, "the job never ran"
            await asyncio.sleep(0.05)
        gone.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await gone
        answer: str = await asyncio.wait_for(
            heavy._get(("record", 2), "a", len, str, "two"), 30)
        return answer

    try:
        assert asyncio.run(scenario()) == "two"
    finally:
        heavy.close()
    assert heavy.stats.replacements == 1 and heavy.stats.failed == 1
