"""Speech pace: the words a player hears per minute of play, at the room's default settings.

Starts ``python -m belote serve`` with its defaults (bot delay, bot workers, pauses: nothing is
overridden but the port, a fresh SQLite file and the per-address limits) and plays one whole
match of the lobby form's default table (the first preset, its own target) with one scripted
human at South and three bots of the middle level.  The human answers at once when its turn
comes (``--think`` adds a pause), so the figures are the fastest a real player would hear.

The same person listens through eight sockets, one per language (it, es, fr, en) and
verbosity (full, brief): each socket is opened after the session's preferences were set, so
each gets the sentences the room sends to that language and verbosity, on one match's
timeline.  What a socket "hears" is what the table page (``static/table.js``) puts in its
polite live region at the default table settings: every event's and notice's sentence of an
``update`` frame, and "Your turn." with the turn's prompt at each new turn of the player.

Words are counted as a screen reader says them (tokens with a letter or digit), from the
match's first sentence to its last; minutes are wall-clock minutes of the same span.  It
prints, per language, the words a minute at full and brief verbosity and the brief/full word
ratio, then "goal met" only when every language is at most 350 words a minute at the
defaults (full sentences) and brief says at most half the words of full.

    .venv/bin/python benchmarks/speech_pace.py               # a whole match, ~10 minutes
    .venv/bin/python benchmarks/speech_pace.py --target 200  # a short run (not the figures)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import html
import json
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin

from belote.i18n import translate
from belote.i18n.catalog import LANGUAGES
from belote.notation import parse_card
from belote.rules import PRESETS

GOAL_WPM = 350.0
GOAL_RATIO = 0.5
VERBOSITIES = ("normal", "brief")  # the room's names: "normal" is "full sentences"
SEAT = 2  # South
WORD = re.compile(r"\w", re.UNICODE)


def words(text: str) -> int:
    """Words as a screen reader says them: tokens with a letter or a digit."""
    return sum(1 for token in text.split() if WORD.search(token))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


PACED_KINDS = {"card_played", "bid_made"}
ENDS_KINDS = {"trick_won", "hand_scored"}  # the next move waits 2 paces (a hand's end: 3)


@dataclass
class Listener:
    """One socket's ears: what the table page would speak, with the time it would.

    Frames go through the page's pace as ``static/table.js`` applies it (``drain``): a frame
    carrying a card or a bid is shown no sooner than ``pace`` seconds after the previous
    such frame, in order, except the player's own move (one that arrives while the last
    view that came was the player's turn); the move that ends a trick holds the next one two
    paces, the end of a hand three."""

    lang: str
    verbosity: str
    pace: float
    said: list[tuple[float, str, str]] = field(default_factory=list)  # (time, kind, text)
    announced_step: int | None = None
    started: float | None = None
    ended: float | None = None
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    arrived: dict[str, Any] | None = None
    paced_at: float = 0.0
    gap: int = 1
    errors: list[str] = field(default_factory=list)

    def arrive(self, frame: dict[str, Any]) -> None:
        if frame.get("t") == "error":
            self.errors.append(frame["d"].get("code", ""))
            print(f"refused ({self.lang}, {self.verbosity}): {frame['d']}", file=sys.stderr)
            return
        view = frame.get("d", {}).get("view")
        if view is not None:
            last = self.arrived
            frame["own"] = bool(last and last.get("seat") is not None and
                                last.get("turn") == last.get("seat") and
                                not last.get("finished"))
            self.arrived = view
        self.queue.put_nowait(frame)

    async def drain(self, shown: Any) -> None:
        while True:
            frame = await self.queue.get()
            kinds = {e["kind"] for e in frame["d"]["events"]} if frame.get("t") == "update" \
                else set()
            move = bool(kinds & PACED_KINDS)
            wait = self.paced_at + self.gap * self.pace - time.monotonic()
            if self.pace > 0 and move and not frame.get("own") and wait > 0:
                await asyncio.sleep(wait)
            ends = bool(kinds & ENDS_KINDS)
            if move or ends:
                self.paced_at = time.monotonic()
                self.gap = 3 if "hand_scored" in kinds else 2 if ends else 1
            self.hear(time.monotonic(), frame)
            await shown(frame)

    def hear(self, at: float, frame: dict[str, Any]) -> None:
        if frame.get("t") != "update":
            return  # a sync (joining) is read, not spoken as news; errors: none here
        data = frame["d"]
        for item in data["events"]:
            kind = item["kind"]
            self.said.append((at, kind, item["text"]))
            if kind == "match_over":
                self.ended = at
        view = data["view"]
        if self.started is None and view.get("started"):
            self.started = at
        mine = (view.get("turn") is not None and view.get("turn") == view.get("seat")
                and not view.get("finished"))
        if mine and view.get("step") != self.announced_step:
            self.announced_step = view.get("step")
            prompt = view.get("prompt") or ""
            if view.get("phase") in ("bidding", "cut") and prompt:
                self.said.append((at, "prompt", prompt))
            else:
                turn = translate(self.lang, "web.js.your_turn_brief" if self.verbosity ==
                                 "brief" else "web.js.your_turn")
                self.said.append((at, "prompt", " ".join(t for t in (turn, prompt) if t)))
        if not mine:
            self.announced_step = None

    def span(self) -> tuple[float, float]:
        assert self.started is not None and self.ended is not None
        return self.started, self.ended

    def words_in_play(self) -> int:
        start, end = self.span()
        return sum(words(text) for at, _, text in self.said if start <= at <= end)

    def by_kind(self) -> Counter[str]:
        start, end = self.span()
        counts: Counter[str] = Counter()
        for at, kind, text in self.said:
            if start <= at <= end:
                counts[kind] += words(text)
        return counts


class Session:
    """The human's session: an HTTP client and its cookie (sent by hand: it is Secure)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.cookie = ""
        self.http = httpx.AsyncClient(base_url=base, timeout=30)

    async def post(self, path: str, data: dict[str, str]) -> httpx.Response:
        response = await self.http.post(path, data=data, follow_redirects=False, headers={
            "origin": self.base, **({"cookie": self.cookie} if self.cookie else {})})
        for header in response.headers.get_list("set-cookie"):
            if header.startswith("sala="):
                self.cookie = header.split(";", 1)[0]
        self.http.cookies.clear()
        if response.status_code != 303:
            raise RuntimeError(f"{path} refused: {response.status_code} {response.text[:200]}")
        return response

    def socket(self, table_id: int) -> Any:
        ws_base = self.base.replace("http://", "ws://")
        return connect(f"{ws_base}/ws/table/{table_id}", origin=Origin(self.base),
                       additional_headers={"cookie": self.cookie}, max_size=2**22,
                       open_timeout=30, ping_interval=None)


def choose(view: dict[str, Any], rng: random.Random) -> int:
    """A legal move from the view: a random choice (bid, cut...) or a random playable card."""
    if view.get("choices"):
        return int(rng.choice(view["choices"])["action"])
    playable = [card for card in view["hand"] if card["playable"]]
    card = rng.choice(playable)
    return parse_card(card["code"]) + (32 if card.get("announce") else 0)


async def play(args: argparse.Namespace, base: str) -> list[Listener]:
    session = Session(base)
    await session.post("/guest", {"name": "Ada"})
    preset = args.preset or next(iter(PRESETS))
    response = await session.post("/tables", {
        "preset": preset, "flags": "", "target": "" if args.target is None else str(args.target)})
    table_id = int(response.headers["location"].rsplit("/", 1)[1])
    # The pace the table page gets at the default settings (its body's data-settings).
    page = await session.http.get(f"/table/{table_id}", headers={"cookie": session.cookie})
    found = re.search(r"data-settings='([^']*)'", page.text)
    pace = float(json.loads(html.unescape(found.group(1)))["pace"]) if found else 0.0
    print(f"table {table_id}: {preset}, the page's default pace {pace} s")
    listeners: list[Listener] = []
    sockets: list[ClientConnection] = []
    for lang in LANGUAGES:
        for verbosity in VERBOSITIES:
            await session.post("/preferences", {"lang": lang, "verbosity": verbosity,
                                                "next": "/"})
            sockets.append(await session.socket(table_id).__aenter__())
            listeners.append(Listener(lang, verbosity, pace))
    actor = sockets[0]
    rng = random.Random(args.seed)
    done = asyncio.Event()

    acted: list[Any] = [None]  # the step the human last answered (once a step, as a person)

    def shown_by(ws: ClientConnection, ear: Listener, acts: bool) -> Any:
        async def shown(frame: dict[str, Any]) -> None:
            """The page shows ``frame``: the human (one socket) answers its turn."""
            if ear.ended is not None:
                done.set()
            if not acts or frame.get("t") not in ("update", "sync"):
                return
            view = frame["d"]["view"]
            if not view.get("started") or view.get("finished"):
                return
            if view.get("belote") and view.get("turn") != SEAT:
                await ws.send(json.dumps({"t": "act", "d": {"a": 72}}))
            elif (view.get("turn") == SEAT and view.get("seat") == SEAT
                  and (view.get("step"), view.get("phase")) != acted[0]):
                acted[0] = (view.get("step"), view.get("phase"))
                if args.think:
                    await asyncio.sleep(args.think)
                await ws.send(json.dumps({"t": "act", "d": {"a": choose(view, rng)},
                                          "v": frame["v"]}))
        return shown

    async def read(ws: ClientConnection, ear: Listener) -> None:
        async for message in ws:
            ear.arrive(json.loads(message))

    readers = [asyncio.create_task(read(ws, ear)) for ws, ear in zip(sockets, listeners,
                                                                      strict=True)]
    readers += [asyncio.create_task(ear.drain(shown_by(ws, ear, ws is actor)))
                for ws, ear in zip(sockets, listeners, strict=True)]
    await actor.send(json.dumps({"t": "sit", "d": {"seat": SEAT}}))
    for seat in range(4):
        if seat != SEAT:
            await actor.send(json.dumps({"t": "bot", "d": {"seat": seat, "level": "normal"}}))
    await asyncio.sleep(0.5)
    await actor.send(json.dumps({"t": "start", "d": {}}))
    await asyncio.wait_for(done.wait(), timeout=args.limit)
    await asyncio.sleep(1.0)  # the other sockets' last frames
    for task in readers:
        task.cancel()
    for ws in sockets:
        with contextlib.suppress(Exception):
            await ws.close()
    await session.http.aclose()
    return listeners


def report(listeners: list[Listener], defaults: bool) -> bool:
    print(f"{'lang':<5} {'full wpm':>9} {'brief wpm':>10} {'full words':>11} "
          f"{'brief words':>12} {'brief/full':>11} {'minutes':>8}")
    met = True
    for lang in LANGUAGES:
        full = next(e for e in listeners if e.lang == lang and e.verbosity == "normal")
        brief = next(e for e in listeners if e.lang == lang and e.verbosity == "brief")
        start, end = full.span()
        minutes = (end - start) / 60
        full_words, brief_words = full.words_in_play(), brief.words_in_play()
        ratio = brief_words / full_words
        print(f"{lang:<5} {full_words / minutes:>9.0f} {brief_words / minutes:>10.0f} "
              f"{full_words:>11} {brief_words:>12} {ratio:>11.2f} {minutes:>8.2f}")
        met = met and full_words / minutes <= GOAL_WPM and ratio <= GOAL_RATIO
    en = next(e for e in listeners if e.lang == "en" and e.verbosity == "normal")
    print("words by kind (en, full):", dict(en.by_kind().most_common()))
    en_brief = next(e for e in listeners if e.lang == "en" and e.verbosity == "brief")
    print("words by kind (en, brief):", dict(en_brief.by_kind().most_common()))
    refused = sum(len(e.errors) for e in listeners)
    if refused:
        print(f"refusals the human got: {sorted({c for e in listeners for c in e.errors})}")
    if not defaults:
        print("not the room's defaults (--target, --preset or --think): no verdict")
        return False
    print(f"goal (<= {GOAL_WPM:.0f} wpm at the defaults in every language, brief <= "
          f"{GOAL_RATIO} of full): {'goal met' if met else 'NOT met'}")
    return met


async def main(args: argparse.Namespace) -> int:
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="speech-pace-"))
    log = (folder / "server.log").open("wb")
    server = subprocess.Popen(
        [sys.executable, "-m", "belote", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", f"sqlite:///{folder / 'sala.db'}", "--guests-per-hour", "1000"],
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(base_url=base) as probe:
            for _ in range(300):
                with contextlib.suppress(httpx.HTTPError):
                    if (await probe.get("/")).status_code == 200:
                        break
                await asyncio.sleep(0.2)
        listeners = await play(args, base)
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
    if args.dump:
        Path(args.dump).write_text(json.dumps(
            [{"lang": e.lang, "verbosity": e.verbosity, "said": e.said} for e in listeners],
            ensure_ascii=False, indent=0))
    defaults = args.target is None and args.preset is None and not args.think
    return 0 if report(listeners, defaults) else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", type=int, default=None, help="a shorter match (dev runs)")
    parser.add_argument("--preset", default=None, help="another preset (dev runs)")
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds the human waits before answering (0: at once)")
    parser.add_argument("--seed", type=int, default=21, help="the human's choices")
    parser.add_argument("--limit", type=float, default=3600.0, help="seconds at most")
    parser.add_argument("--dump", default=None, help="write every sentence heard (JSON)")
    sys.exit(asyncio.run(main(parser.parse_args())))
