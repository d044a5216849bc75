"""The replay board's card faces (issue 25): each step the server sends carries the card
codes the board draws, beside its sentences, and no card the sentences do not name.

The board is aria-hidden: the lines say everything, so a code is only ever a card a line
already names (a hand, the table, the turned card said at the deal).  A three-player
deal's monte, which no line names, never appears.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from starlette.testclient import TestClient

from belote.cards import cards_in
from belote.i18n import translate
from belote.i18n.names import card_name, cards_text
from belote.notation import parse_card
from belote.records import record_rules, replay_steps
from tests.server.test_replay_analysis import finished_record, store_finished
from tests.server.test_replay_fewer_seats import finished, stored

FRAME_KEYS = {"kind", "hand", "deal", "trick", "position", "text", "hands", "table", "points",
              "played", "turned"}


def page_frames(client: TestClient, table_id: int, lang: str = "en") -> list[dict[str, Any]]:
    page = client.get(f"/replay/{table_id}", headers={"accept-language": lang})
    assert page.status_code == 200, page.text
    found = re.search(r'data-frames="([^"]*)"', page.text)
    assert found is not None
    frames: list[dict[str, Any]] = json.loads(html.unescape(found.group(1)))
    return frames


def names(codes: list[str], lang: str) -> str:
    return cards_text([parse_card(code) for code in codes], lang)


def check_codes_match_text(frames: list[dict[str, Any]], lang: str) -> None:
    empty_hand = translate(lang, "replays.no_cards")
    empty_table = translate(lang, "replays.table.empty")
    said_turned: str | None = None  # the turned card the deal's sentence named
    for n, frame in enumerate(frames):
        assert set(frame) == FRAME_KEYS, n
        if frame["kind"] == "deal":
            said_turned = frame["text"]
        for hand in frame["hands"]:
            assert set(hand) == {"who", "cards", "codes"}
            # the same cards, in the same order, as the hand's line
            assert hand["cards"] == (names(hand["codes"], lang) if hand["codes"] else empty_hand)
        codes = [card["code"] for card in frame["played"]]
        assert frame["table"] == (translate(lang, "replays.table.cards",
                                            cards=names(codes, lang)) if codes else empty_table)
        seats = len(frame["hands"])
        for k, card in enumerate(frame["played"][1:], start=1):  # in play order, seat by seat
            assert card["seat"] == (frame["played"][0]["seat"] + k) % seats
        if frame["kind"] == "card" and frame["played"]:
            # the card just played lies at the seat whose name the sentence says played it
            last = frame["played"][-1]
            played = card_name(parse_card(last["code"]), lang)
            assert played in frame["text"] and frame["hands"][last["seat"]]["who"] in frame["text"]
        if frame["turned"] is not None:
            assert frame["kind"] in ("deal", "bid"), n
            assert said_turned is not None
            assert card_name(parse_card(frame["turned"]), lang) in said_turned, n
        # no card is drawn twice (a hand and the table never share one)
        drawn = {c for hand in frame["hands"] for c in hand["codes"]} | set(codes)
        assert len(drawn) == sum(len(h["codes"]) for h in frame["hands"]) + len(codes)


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_frames_carry_the_codes_of_the_cards_their_lines_name(
        app: Any, client: TestClient, lang: str) -> None:
    frames = page_frames(client, store_finished(app, finished_record()), lang)
    check_codes_match_text(frames, lang)
    # the turned card is drawn during the auction of the deals that turn one, then no more
    turned = [f for f in frames if f["turned"]]
    assert turned and all(f["kind"] in ("deal", "bid") for f in turned)
    assert not any(f["turned"] for f in frames if f["kind"] == "card")
    # the tricks are drawn card by card, up to a full table
    assert max(len(f["played"]) for f in frames) == 3  # the fourth card closes the trick


@pytest.mark.parametrize("preset", ["valdostana3", "valdostana2"])
def test_fewer_seats_draw_no_card_of_the_monte(
        app: Any, client: TestClient, preset: str) -> None:
    record = finished(preset)
    frames = page_frames(client, stored(app, preset, record))
    check_codes_match_text(frames, "en")
    assert len(frames[0]["hands"]) == record_rules(record).players
    monte_seen = False
    for frame, (game, _step) in zip(frames, replay_steps(record), strict=True):
        drawn = {parse_card(c) for h in frame["hands"] for c in h["codes"]}
        drawn |= {parse_card(card["code"]) for card in frame["played"]}
        if frame["turned"]:
            drawn.add(parse_card(frame["turned"]))
        assert not drawn & set(cards_in(game.widow)), frame["position"]
        monte_seen = monte_seen or bool(game.widow)
    # three players leave a monte of two cards each deal; two players hold all 32 cards
    assert monte_seen == (preset == "valdostana3")
