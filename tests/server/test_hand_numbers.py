"""One rule numbers the hands everywhere: the hands scored, from 1; a deal everyone passed is
the same hand dealt again ("Hand 2, redeal 1"), never a new number.

Trials found the speech and the replay saying "hand 24" where the score history had 12 rows:
the redeals after four passes were counted by one and not the other.  Here a seeded match
with all-pass redeals is played through a table's log, and the numbers it says (the deals'
sentences), shows (the score history) and replays (the stepping replay, the deals' page)
must agree, with the engine's own records (``Game.hand_number``) as the source.
"""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any, cast

from belote.engine import actions as A
from belote.engine.events import AllPassed, HandScored, HandStarted
from belote.engine.state import CHANCE, Game
from belote.records import to_record
from belote.server.persistence import LogEntry
from belote.server.replay import replay_frames, replay_hands
from belote.server.seats import Seat
from belote.server.table import Table
from belote.server.view import Viewer, table_view, texts

# The hands (numbered as the rule says) whose first deals everyone passes, and how many times.
PASSED = {1: 1, 3: 2}
TARGET = 400  # a short match: a few hands


def _match_log(seed: int) -> tuple[list[LogEntry], Game]:
    """A classic match to ``TARGET`` as a table's log: every bid passed on the deals
    PASSED names, otherwise seeded random moves (taking whenever the bidding allows)."""
    rng = random.Random(seed)
    rules = Table(1, "classic", {"target_score": TARGET}, cast(Any, None),
                  cast(Any, None)).rules
    game = Game(rules, first_dealer=0)
    entries = [LogEntry(1, "start", {"first_dealer": 0})]
    passes_left = dict(PASSED)
    hand = 1
    while not game.is_terminal():
        if game.current_player() == CHANCE:
            deck = list(range(32))
            rng.shuffle(deck)
            data: dict[str, Any] = {"deck": deck}
            kind = "deal"
            events = game.deal(deck)
            hand = game.hand_number()[0]
        else:
            seat = game.current_player()
            legal = game.legal_actions()
            if A.PASS in legal and passes_left.get(hand, 0):
                action = A.PASS
            elif A.PASS in legal and len(legal) > 1:
                action = rng.choice([a for a in legal if a != A.PASS])
            else:
                action = rng.choice(legal)
            events = game.apply(action, seat)
            data, kind = {"seat": seat, "action": action}, "act"
            if any(isinstance(e, AllPassed) for e in events):
                passes_left[hand] -= 1
        entries.append(LogEntry(len(entries) + 1, kind, data))
    return entries, game


def _table(entries: list[LogEntry]) -> Table:
    table = Table(1, "classic", {"target_score": TARGET}, cast(Any, None), cast(Any, None))
    table.seats = [Seat("bot") for _ in range(4)]
    asyncio.run(table.restore(entries))
    return table


def test_speech_score_history_and_replay_number_the_hands_alike() -> None:
    entries, game = _match_log(seed=7)
    assert game.deal_no == game.hands_scored + sum(PASSED.values())  # redeals did happen
    table = _table(entries)
    assert table.game is not None and table.game.is_terminal()

    # Speech: each deal says its hand, a redeal says which.
    viewer = Viewer(None, "en")
    said = [s["text"] for s in texts(table, [item for _, item in table.recent], viewer)]
    deals = [m.groups() for s in said if (m := re.match(r"Hand (\d+)(?:, redeal (\d+))?:", s))]
    spoken = [(int(hand), int(redeal or 0)) for hand, redeal in deals]
    hands = game.hands_scored
    expected = [(n, r) for n in range(1, hands + 1) for r in range(PASSED.get(n, 0) + 1)]
    assert spoken == expected

    # The score history: one row per hand scored, numbered as the speech numbers them.
    history = table_view(table, viewer)["history"]
    assert [row["hand"] for row in history] == list(range(1, hands + 1))
    scored = [item.hand_no for _, item in table.recent if isinstance(item, HandScored)]
    assert scored == list(range(1, hands + 1))
    assert [item.deal_no for _, item in table.recent if isinstance(item, HandScored)][-1] \
        == game.deal_no  # the deal's own count, redeals included, is kept beside it
    started = [(item.hand_no, item.redeal) for _, item in table.recent
               if isinstance(item, HandStarted)]
    assert started == expected

    # The replay: the steps and the deals' page say the same numbers.
    record = to_record(game, preset="classic")
    frames = replay_frames(record, "en")
    positions = [f["position"] for f in frames if f["kind"] == "deal"]
    assert positions == [f"Hand {n}, the deal" if not r else f"Hand {n}, redeal {r}, the deal"
                         for n, r in expected]
    assert sorted({f["hand"] for f in frames}) == list(range(1, hands + 1))
    assert [f["deal"] for f in frames if f["kind"] == "deal"] == list(
        range(1, len(expected) + 1))  # the keys still step deal by deal
    headings = [h["number"] for h in replay_hands(record, "en")]
    assert headings == [str(n) if not r else f"{n}, redeal {r}" for n, r in expected]


def test_a_hand_number_counts_scored_hands_and_its_redeals() -> None:
    entries, game = _match_log(seed=11)
    replayed = Game(game.rules, first_dealer=0)
    numbers = []
    for entry in entries[1:]:
        if entry.kind == "deal":
            replayed.deal(entry.data["deck"])
            numbers.append(replayed.hand_number())
        else:
            replayed.apply(entry.data["action"], entry.data["seat"])
    assert numbers[:4] == [(1, 0), (1, 1), (2, 0), (3, 0)]
    assert numbers[4:6] == [(3, 1), (3, 2)]
    assert Game(game.rules).hand_number() == (1, 0)  # before any deal: the first hand
