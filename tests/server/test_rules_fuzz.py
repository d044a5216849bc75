"""Random rule flags through the lobby's form: refused with the error, or played to the end.

For every preset a few flag texts (fixed ones and seeded random ones) go through
``POST /tables``.  A refused text gets the error redirect and creates no table; an accepted one
gives a table whose rule page renders and whose match, a guest and three bots, finishes.
"""

from __future__ import annotations

import json
import random
from typing import Any, get_args, get_type_hints

import pytest
from starlette.testclient import TestClient

from belote.rules import PRESETS, Rules
from tests.server.helpers import connect, guest, play_to_the_end, read_store, sit_with_bots

TARGET = 60  # one or two hands: the point is that the match ends, not how
RANDOM_TABLES = 3  # seeded random flag texts per preset, beside the fixed ones
# (flags text, accepted?) tried on every preset.
FIXED: tuple[tuple[str, bool], ...] = (
    ("deal_packets=[3, 3]", False),
    ("target_score=9223372036854775807", False),
    ("belote_points=-20", False),
    ("no_such_flag=true", False),
    ("must_trump=false\nbelote_points=30", True),
)
VALUES: tuple[Any, ...] = (
    True, False, None, -1, 0, 1, 20, 162, 2**63 - 1, "clockwise", "trick", "prigione",
    "contract", "auction", "bogus", [3, 2], [3, 3], [3, 2, 3], [5], [], [80, 90, 100],
)


def _own_kind(rules: Rules, name: str, current: Any, rng: random.Random) -> Any:
    """A value of the flag's own kind, most of them playable."""
    if isinstance(current, bool):
        return not current
    if name.endswith("match_hands"):
        # Each hand of the match is played to the end: a few show it ends (160 took 3 min).
        return rng.choice((0, 1, 2, 4))
    if isinstance(current, int) or current is None:
        return rng.choice((0, 20, 100, 160))
    if isinstance(current, str):
        group, _, leaf = name.rpartition(".")
        owner = type(getattr(rules, group)) if group else Rules
        return rng.choice(get_args(get_type_hints(owner)[leaf]))  # a Literal's words
    return rng.choice(VALUES)


def _random_texts(rules: Rules, rng: random.Random) -> str:
    flags = dict(rules.flag_items())
    names = [name for name in flags if name not in ("name", "target_score")]
    lines = []
    for name in rng.sample(names, rng.randint(1, 2)):
        # Three values in four are of the flag's own kind, the others anything.
        if rng.random() < 0.75:
            value = _own_kind(rules, name, flags[name], rng)
        else:
            value = rng.choice(VALUES)
        lines.append(f"{name}={json.dumps(value)}")
    return "\n".join(lines)


def _cases() -> list[Any]:
    rng = random.Random(2024)
    cases: list[tuple[str, str, bool | None]] = []
    for preset, rules in PRESETS.items():
        cases += [(preset, text, accepted) for text, accepted in FIXED]
        cases += [(preset, _random_texts(rules, rng), None) for _ in range(RANDOM_TABLES)]
    # A match of match_hands=N hands is played to its end: slow lane, and untraced (the
    # shorter cases run the same lines; traced, a 160-hand one took 140 s).
    long_match = [pytest.mark.slow, pytest.mark.no_cover]
    return [pytest.param(*case, marks=long_match if "match_hands=" in case[1] else [])
            for case in cases]


def _table_ids(app: Any) -> list[int]:
    async def query(store: Any) -> list[int]:
        return [row.id for status in ("open", "finished")
                for row in await store.list_tables(status, limit=10_000)]

    ids: list[int] = read_store(app, query)
    return ids


def _expected(preset: str, text: str) -> bool:
    """Whether the rules themselves accept ``text`` (the form must agree)."""
    from belote.rules.flags import rules_with_flags

    try:
        rules_with_flags(PRESETS[preset], [*text.splitlines(), f"target_score={TARGET}"])
    except ValueError:
        return False
    return True


@pytest.mark.parametrize(("preset", "text", "accepted"), _cases())
def test_random_flags_are_refused_or_the_match_finishes(
    app: Any, client: TestClient, preset: str, text: str, accepted: bool | None
) -> None:
    if accepted is None:
        accepted = _expected(preset, text)
    guest(client, "Ada")
    before = _table_ids(app)
    response = client.post("/tables", data={"preset": preset, "flags": text,
                                            "target": str(TARGET)}, follow_redirects=False)
    assert response.status_code == 303
    location = response.headers["location"]
    if not accepted:
        assert location == "/"
        assert _table_ids(app) == before  # no table created
        lobby = client.get("/").text
        assert "Those rules cannot be played" in lobby
        return
    assert location.startswith("/table/"), (text, location)
    table_id = int(location.rsplit("/", 1)[1])
    assert client.get(location).status_code == 200  # the rule sheet renders
    with connect(client, table_id) as ws:
        players = PRESETS[preset].players  # seed 000: three- and two-player tables too
        sit_with_bots(ws, seat=min(2, players - 1), level="easy", players=players)
        view, _ = play_to_the_end(ws)
    assert view["finished"]
