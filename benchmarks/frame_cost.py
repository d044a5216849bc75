"""Frame cost: what one table change costs the room to render for its connections.

Plays one match (a seeded deal source; four bots of ``--level`` choose every move, as at a
table where nobody waits) and keeps every change the room would broadcast: the game as it
stood after it, and its items (events and notices).  Then each change is rendered for the
table's connections, ``4`` seats (one language each: it, es, fr, en) and ``--spectators``
spectators (the four languages in turn), in two ways,
timed in the same run, interleaved, ``--repeat`` times (the median is printed):

* ``old``: the path before frames were shared: the whole view rendered once per connection,
  with the six information sentences (T, O, P, W, Y, U) in every frame, and encoded;
* ``new``: the room's path (``belote.server.frames.SharedFrames``): one frame per kind of
  viewer (seat or spectator, language, verbosity), the same string sent to every connection
  of that kind, no information sentence in it (a key asks for its answer: ``info_frame``).

It prints the ratio first, then per change and per connection the milliseconds of each path,
the frames built per change, the share of the old cost that was the information sentences,
and what one answer to an information key costs when asked.

    .venv/bin/python benchmarks/frame_cost.py                    # 4 seats + 8 spectators
    .venv/bin/python benchmarks/frame_cost.py --spectators 40 --preset coinche
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from belote.engine.dealing import seeded_deck_source
from belote.engine.state import CHANCE, Game
from belote.i18n.catalog import LANGUAGES
from belote.i18n.table_info import INFO_QUESTIONS, info_text
from belote.rules import Rules, find_preset
from belote.server import protocol as P
from belote.server.bots import think
from belote.server.frames import SharedFrames
from belote.server.seats import Seat, seat_names
from belote.server.view import Item, Viewer, info_frame, table_view, texts


@dataclass
class Snapshot:
    """What rendering reads of a table (``view.TableState``), at one change."""

    game: Game | None
    version: int
    rules: Rules
    seats: list[Seat]
    id: int = 1
    preset: str = "classic"
    finished: bool = False
    score_history: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = field(
        default_factory=list)
    name: str = ""
    private: bool = False
    code: str = ""
    waiting_next: bool = False
    ready: set[int] = field(default_factory=set)
    rematch: int | None = None


def record_match(preset: str, level: str, seed: int, target: int | None,
                 limit: int) -> list[tuple[Snapshot, list[Item]]]:
    """Every change of one match, with the table as it stood after it (at most ``limit``)."""
    rules = find_preset(preset)
    if target is not None:
        rules = rules.with_flags(target_score=target)
    seats = [Seat("bot", level=level) for _ in range(rules.players)]
    game = Game(rules, first_dealer=seed % rules.players)
    decks = seeded_deck_source(seed)
    changes: list[tuple[Snapshot, list[Item]]] = []
    while not game.is_terminal() and len(changes) < limit:
        mover = game.current_player()
        if mover == CHANCE:
            items: list[Item] = list(game.deal(decks()))
        else:
            legal = game.legal_actions()
            action = think(level, game.observation(mover))
            items = list(game.apply(action if action in legal else legal[0]))
        changes.append((Snapshot(game.clone(), len(changes) + 1, rules, seats, preset=preset),
                        items))
    return changes


def viewers(players: int, spectators: int) -> list[Viewer]:
    """The connections: each seat in its own language, then the spectators."""
    langs = list(LANGUAGES)
    seated = [Viewer(seat, langs[seat % len(langs)]) for seat in range(players)]
    watching = [Viewer(None, langs[n % len(langs)])
                for n in range(spectators)]
    return seated + watching


def old_frame(table: Snapshot, items: Sequence[Item], viewer: Viewer) -> str:
    """The frame as the room built it for each connection before frames were shared: the
    whole view with the six information sentences in it."""
    names = seat_names(table.seats, viewer.lang)
    view = table_view(table, viewer, names)
    game = table.game
    if game is not None:
        obs = game.observation(viewer.seat) if viewer.seat is not None else \
            game.spectator_view()
        view["info"] = {q: info_text(q, obs, viewer.lang, names) for q in INFO_QUESTIONS}
    return P.encode_message(P.Update(texts(table, items, viewer), view), table.version)


def old_path(changes: list[tuple[Snapshot, list[Item]]], conns: list[Viewer]) -> int:
    sent = 0
    for table, items in changes:
        for viewer in conns:
            sent += len(old_frame(table, items, viewer))
    return sent


def new_path(changes: list[tuple[Snapshot, list[Item]]], conns: list[Viewer]) -> int:
    sent = 0
    for table, items in changes:
        frames = SharedFrames(table, "update", items)
        for viewer in conns:
            sent += len(frames.frame(viewer))
    return sent


def info_only(changes: list[tuple[Snapshot, list[Item]]], conns: list[Viewer]) -> int:
    """The six information sentences of every old frame, alone (their share of the cost)."""
    made = 0
    for table, _ in changes:
        game = table.game
        if game is None:
            continue
        for viewer in conns:
            obs = game.observation(viewer.seat) if viewer.seat is not None else \
                game.spectator_view()
            names = seat_names(table.seats, viewer.lang)
            made += sum(len(info_text(q, obs, viewer.lang, names)) for q in INFO_QUESTIONS)
    return made


def one_answer(changes: list[tuple[Snapshot, list[Item]]], conns: list[Viewer]) -> int:
    """One information key asked at every change by the first seat (``info_frame``)."""
    made = 0
    for n, (table, _) in enumerate(changes):
        made += len(info_frame(table, conns[0], INFO_QUESTIONS[n % len(INFO_QUESTIONS)]))
    return made


def same_but_info(changes: list[tuple[Snapshot, list[Item]]], conns: list[Viewer]) -> bool:
    """Whether both paths say the same, the information sentences apart (like for like)."""
    for table, items in changes:
        frames = SharedFrames(table, "update", items)
        for viewer in conns:
            old = json.loads(old_frame(table, items, viewer))
            old["d"]["view"].pop("info", None)
            if old != json.loads(frames.frame(viewer)):
                return False
    return True


def timed(runs: dict[str, Callable[[], int]], repeat: int) -> dict[str, float]:
    """Median seconds of each run, interleaved (the order rotates each repeat)."""
    seconds: dict[str, list[float]] = {name: [] for name in runs}
    names = list(runs)
    for r in range(repeat):
        for name in names[r % len(names):] + names[:r % len(names)]:
            start = time.perf_counter()
            runs[name]()
            seconds[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in seconds.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--spectators", type=int, default=8,
                        help="spectators' connections (the four languages in turn)")
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--level", default="normal", help="the bots that play the match")
    parser.add_argument("--target", type=int, default=None, help="match target (the preset's)")
    parser.add_argument("--changes", type=int, default=400, help="changes rendered, at most")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    if args.spectators < 0 or args.repeat < 1 or args.changes < 1:
        parser.error("--spectators >= 0, --repeat >= 1 and --changes >= 1")
    changes = record_match(args.preset, args.level, args.seed, args.target, args.changes)
    players = changes[0][0].rules.players
    conns = viewers(players, args.spectators)
    kinds = len(set(conns))
    if not same_but_info(changes, conns):
        print("the new frames differ from the old ones by more than the information "
              "sentences", file=sys.stderr)
        return 1
    median = timed({"old": lambda: old_path(changes, conns),
                    "new": lambda: new_path(changes, conns),
                    "info": lambda: info_only(changes, conns),
                    "answer": lambda: one_answer(changes, conns)}, args.repeat)
    n, c = len(changes), len(conns)
    old_ms, new_ms = 1000 * median["old"] / n, 1000 * median["new"] / n
    print(f"ratio old/new: {old_ms / new_ms:.1f}x less time to render one change for "
          f"{c} connections ({players} seats + {args.spectators} spectators, "
          f"{kinds} kinds of viewer)")
    print(f"old (whole view with the information sentences, per connection): "
          f"{old_ms:.2f} ms per change, {old_ms / c:.3f} ms per connection")
    print(f"new (one frame per kind of viewer, shared): {new_ms:.2f} ms per change, "
          f"{new_ms / c:.3f} ms per connection, {new_ms / kinds:.3f} ms per frame built "
          f"({kinds} built per change instead of {c})")
    print(f"the information sentences were {100 * median['info'] / median['old']:.0f}% of the "
          f"old cost; one answer to an information key, asked: "
          f"{1000 * median['answer'] / n:.3f} ms")
    print(f"{n} changes of one {args.preset} match ({args.level} bots, seed {args.seed}), "
          f"median of {args.repeat} interleaved runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
