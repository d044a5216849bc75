"""The replay page's content: each deal of a finished match, told as sentences.

A match is over, so the replay shows every deal's four hands, then the whole deal as a
spectator heard it (nobody's private cards are announced twice).

Telling a match costs some milliseconds per deal (each deal is replayed and every event
described), so the room never does it on its event loop: :func:`replay_page` and
:func:`record_file` run in the heavy-work process (:mod:`belote.server.heavy`) and give
finished strings, escaped, that the page only inserts.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import escape

from belote.cards import cards_in
from belote.engine import actions as A
from belote.engine.events import CardsDealt
from belote.engine.state import Game, Phase
from belote.errors import InvalidNotationError
from belote.i18n import describe_event, translate
from belote.i18n.names import cards_text, hand_label, seat_name
from belote.notation import parse_action, to_card
from belote.records import record_rules, replay_steps


def replay_hands(record: dict[str, Any], lang: str) -> list[dict[str, Any]]:
    players = record.get("players") or []
    names = ([str(p) for p in players] if len(players) == record_rules(record).players
             else None)
    hands: list[dict[str, Any]] = []
    for game, step in replay_steps(record):
        if step.action_index is None:
            # Numbered as the table said it: by hands scored, a redeal marked as such.
            hands.append({"id": step.deal_index, "number": hand_label(*game.hand_number(), lang),
                          "lines": [], "cards": [0] * game.rules.players})
        current = hands[-1]
        for event in step.events:
            if isinstance(event, CardsDealt):
                current["cards"][event.seat] |= event.cards
            text = describe_event(event, lang, None, names, "normal", game.rules)
            if text is not None:
                current["lines"].append(text)
    for hand in hands:
        hand["hands"] = [(seat_name(s, lang, names), cards_text(cards_in(c), lang))
                         for s, c in enumerate(hand.pop("cards"))]
    return hands


def _kind(deal: dict[str, Any], index: int | None, before: Phase) -> str:
    """What a step is: the deal itself, a call of the auction, a card, or something else
    said at the table (a cut, a belote, a declaration)."""
    if index is None:
        return "deal"
    text = str(deal["actions"][index - 1][1])
    if before == Phase.BIDDING:
        return "bid"
    if before == Phase.PLAYING and A.is_play(_action(text)):
        return "card"
    return "other"


def _action(text: str) -> int:
    try:
        return parse_action(text)
    except InvalidNotationError:
        return -1


def replay_frames(record: dict[str, Any], lang: str) -> list[dict[str, Any]]:
    """Every step of a FINISHED match as the stepping replay shows it: where it is (hand,
    trick, card), what happened (as a spectator heard it) and the table after it, the four
    hands included (the match is over: nothing is hidden any more), with the codes of the
    cards those lines name for the board's drawing (:func:`_faces`).  The caller checks that
    the match is finished; this function does not know."""
    players = record.get("players") or []
    names = ([str(p) for p in players] if len(players) == record_rules(record).players
             else None)
    frames: list[dict[str, Any]] = []
    phase = Phase.DEAL
    calls = 0
    number, hand = 1, "1"
    for game, step in replay_steps(record):
        deal = record["deals"][step.deal_index - 1]
        kind = _kind(deal, step.action_index, phase)
        if kind == "deal":
            # Numbered as the table said it: by hands scored, a redeal marked as such.
            number, redeal = game.hand_number()
            hand = hand_label(number, redeal, lang)
            calls = 0
            position = translate(lang, "replays.pos.deal", hand=hand)
        elif kind == "bid":
            calls += 1
            position = translate(lang, "replays.pos.bid", hand=hand, number=calls)
        elif kind == "card":
            # the card is in the trick just finished when it was the last of it
            on_table = len(game.trick) or game.rules.players
            trick = game.trick_no + (1 if game.trick else 0)
            position = translate(lang, "replays.pos.card" if game.rules.players == 4
                                 else "replays.pos.card_of", hand=hand, trick=trick,
                                 card=on_table, cards=game.rules.players)
        else:
            trick = game.trick_no + (1 if game.trick else 0)
            position = translate(lang, "replays.pos.other", hand=hand, trick=max(trick, 1))
        said = [text for event in step.events
                if (text := describe_event(event, lang, None, names, "normal", game.rules))]
        text = " ".join(said)
        frames.append({
            "kind": kind,
            "hand": number,
            "deal": step.deal_index,  # the keys' groups: a redeal is a deal of its own
            "trick": trick if kind in ("card", "other") else 0,
            "position": position,
            "text": translate(lang, "replays.step", position=position, said=text) if text
            else position,
            "hands": [{"who": seat_name(s, lang, names),
                       "cards": cards_text(cards_in(game.hands[s]), lang) if game.hands[s]
                       else translate(lang, "replays.no_cards"),
                       "codes": [to_card(c) for c in cards_in(game.hands[s])]}
                      for s in range(game.rules.players)],
            "table": translate(lang, "replays.table.cards", cards=cards_text(game.trick, lang))
            if game.trick else translate(lang, "replays.table.empty"),
            **_faces(game),
            "points": translate(lang, "replays.points", p0=game.card_points[0],
                                p1=game.card_points[1], t0=game.totals[0], t1=game.totals[1]),
        })
        phase = game.phase
    return frames


def _faces(game: Game) -> dict[str, Any]:
    """The card codes the replay board draws (aria-hidden) beside the sentences: the trick by
    seat, in the order of the "table" line, and the turned card while the auction can still
    see it (the deal step said it aloud).  Nothing the sentences do not say: the monte of a
    three-player deal stays out, as it does from the text."""
    players = game.rules.players
    return {
        "played": [{"seat": (game.leader + n) % players, "code": to_card(card)}
                   for n, card in enumerate(game.trick)],
        "turned": to_card(game.turned)
        if game.phase == Phase.BIDDING and game.turned >= 0 else None,
    }


_ENV = Environment(loader=FileSystemLoader(Path(__file__).resolve().parent / "templates"),
                   autoescape=select_autoescape(["html"]))


@dataclass(frozen=True, slots=True)
class ReplayPage:
    """The heavy parts of a replay page in one language, as HTML already escaped and
    encoded (UTF-8): ``deals`` (every deal's hands and sentences) and ``frames`` (the
    stepping replay's steps as JSON, escaped for an attribute).  Bytes, so that the event
    loop only splices them into the page (:func:`splice`): a long match's are 4 MB, whose
    joining and encoding by the template cost the loop milliseconds."""

    deals: bytes
    frames: bytes

    @property
    def size(self) -> int:
        return len(self.deals) + len(self.frames)


# Where the page's template is given the heavy parts: marks that no page text contains
# (ASCII, so that they are found in the encoded page as they were written).
DEALS_MARK = "\x00replay-deals\x00"
FRAMES_MARK = "\x00replay-frames\x00"


def replay_page(record: dict[str, Any], lang: str) -> ReplayPage:
    """The replay page's deals and steps for a FINISHED match (the caller checks)."""
    deals = _ENV.get_template("_replay_deals.html").render(
        hands=replay_hands(record, lang), t=partial(translate, lang))
    frames = str(escape(json.dumps(replay_frames(record, lang), ensure_ascii=False)))
    return ReplayPage(deals.encode(), frames.encode())


def splice(body: bytes, page: ReplayPage) -> bytes:
    """The rendered page ``body`` (its template given the two marks) with ``page``'s parts
    in their places.  A mark missing or repeated is a bug of the template: ValueError."""
    spots = []
    for mark, part in ((DEALS_MARK.encode(), page.deals), (FRAMES_MARK.encode(), page.frames)):
        if (count := body.count(mark)) != 1:
            raise ValueError(f"the replay page has {count} marks {mark!r}, not 1")
        spots.append((body.index(mark), len(mark), part))
    # Found in the template's page only (never in the parts), and joined once.
    pieces, end = [], 0
    for at, length, part in sorted(spots):
        pieces += [body[end:at], part]
        end = at + length
    pieces.append(body[end:])
    return b"".join(pieces)


def record_file(record: dict[str, Any]) -> str:
    """The record as the downloaded JSON file."""
    return json.dumps(record, ensure_ascii=False, indent=1) + "\n"
