"""The messages between the room's processes (issue 26): long ones split under NOTIFY's
limit and put together again; a PostgreSQL round trip through two processes' wires."""

from __future__ import annotations

import asyncio
import json
import random

from belote.server.cluster.wire import LIMIT, PgWire, Reassembly, split
from tests.server.postgres import fresh_database, postgres_url

__all__ = ["postgres_url"]  # the fixture


def long_message(size: int) -> dict[str, object]:
    """A finished table's event: its record is JSON inside a string (escaped twice once
    split), with quotes, backslashes and accents."""
    rng = random.Random(size)
    record = {"deals": [{"cards": [rng.randrange(32) for _ in range(32)],
                         "note": 'il dit "belote" \\ à cœur'} for _ in range(size)]}
    return {"kind": "finished", "record": json.dumps(record), "from": "p1"}


def test_a_long_message_goes_in_parts_each_under_the_limit_and_comes_back_whole() -> None:
    for size in (1, 40, 400):
        message = long_message(size)
        payloads = split(message, "p1-7")
        assert all(len(p.encode()) <= LIMIT for p in payloads)
        parts = Reassembly()
        found = [parts.take(p) for p in payloads]
        assert found[:-1] == [None] * (len(payloads) - 1) and found[-1] == message


def test_a_message_missing_a_part_is_dropped_and_the_next_comes_whole() -> None:
    payloads = split(long_message(400), "p1-8")
    parts = Reassembly()
    assert parts.take(payloads[0]) is None
    assert parts.take(payloads[2]) is None  # the second part was lost: dropped
    again = split(long_message(40), "p1-9")
    assert [parts.take(p) for p in again][-1] == long_message(40)


def test_two_processes_wires_carry_a_long_message_and_short_ones_in_order(
        postgres_url: str) -> None:
    url = fresh_database(postgres_url)

    async def main() -> list[dict[str, object]]:
        here, there = PgWire(url, "127.0.0.1:1"), PgWire(url, "127.0.0.1:2")
        heard: list[dict[str, object]] = []
        done = asyncio.Event()

        def hear(message: dict[str, object]) -> None:
            heard.append(message)
            if len(heard) == 3:
                done.set()
        there.listen("belote_test", hear)
        await here.open()
        await there.open()
        try:
            here.send("belote_test", {"n": 1})
            here.send("belote_test", long_message(400))
            here.send("belote_test", {"n": 3})
            await asyncio.wait_for(done.wait(), 10)
        finally:
            await here.close()
            await there.close()
        return heard

    heard = asyncio.run(main())
    assert [m.get("n") for m in heard] == [1, None, 3]
    assert heard[1] == {**long_message(400), "from": "127.0.0.1:1"}


def test_the_bus_between_two_processes_keeps_the_contract(postgres_url: str) -> None:
    """Every event of one process's tables reaches the other's everywhere-subscribers once,
    in order, through its JSON form (a finished match's record in parts); a subscriber of
    its own process's tables hears only those; a failing subscriber is counted, the others
    still hear."""
    from belote.server.cluster.bus import PgBus
    from belote.server.events import TableEvent
    from tests.server.test_bus_contract import ONE_OF_EACH, Recorder, interleaved

    url = fresh_database(postgres_url)
    events: list[TableEvent] = [*ONE_OF_EACH, *interleaved()]

    async def main() -> tuple[list[TableEvent], ...]:
        wires = [PgWire(url, "127.0.0.1:1"), PgWire(url, "127.0.0.1:2")]
        here, there = (PgBus(w) for w in wires)
        mine, everything, own_only, failing = Recorder(), Recorder(), Recorder(), Recorder(
            frozenset({2}))
        here.subscribe("lobby", mine)
        there.subscribe("lobby", everything)
        there.subscribe("ratings", own_only, everywhere=False)
        there.subscribe("broken", failing)
        for wire in wires:
            await wire.open()
        try:
            for event in events:
                here.publish(event)
            assert mine.got == events  # at once, in this process
            await here.flush()
            for _ in range(100):
                if len(everything.got) == len(events):
                    break
                await asyncio.sleep(0.05)
            assert there.failures["broken"] == sum(1 for e in events if e.table_id == 2)
        finally:
            for wire in wires:
                await wire.close()
        return mine.got, everything.got, own_only.got, failing.got

    _, everything, own_only, failing = asyncio.run(main())
    assert everything == events  # once each, in order, equal after the wire
    assert own_only == []
    assert failing == [e for e in events if e.table_id != 2]
