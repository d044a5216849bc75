"""The wire codec: every inbound message type, and every way a frame can be bad."""

from __future__ import annotations

import json

import pytest

from belote.server import protocol as P


@pytest.mark.parametrize("frame,message", [
    ({"t": "hello", "d": {"since": 12}}, P.Hello(12)),
    ({"t": "hello"}, P.Hello(0)),
    ({"t": "act", "d": {"a": 65}}, P.Act(65)),
    ({"t": "sit", "d": {"seat": 3}}, P.Sit(3)),
    ({"t": "stand", "d": {}}, P.Stand()),
    ({"t": "bot", "d": {"seat": 1, "level": "expert"}}, P.AddBot(1, "expert")),
    ({"t": "bot", "d": {"seat": 1}}, P.AddBot(1, P.DEFAULT_LEVEL)),  # a form's too
    ({"t": "unbot", "d": {"seat": 0}}, P.RemoveBot(0)),
    ({"t": "start"}, P.Start()),
    ({"t": "chat", "d": {"text": "  ciao   a tutti "}}, P.Chat("ciao a tutti")),
    ({"t": "ping"}, P.Ping()),
])
def test_decode_reads_every_inbound_type(frame: dict[str, object], message: P.Inbound) -> None:
    assert P.decode(json.dumps(frame)) == message


@pytest.mark.parametrize("text,code", [
    ("x" * (P.MAX_FRAME + 1), "too_large"),
    ("{not json", "not_json"),
    ("[1, 2]", "no_type"),
    ('{"d": {}}', "no_type"),
    ('{"t": 5}', "no_type"),
    ('{"t": "act", "d": []}', "bad_field"),
    ('{"t": "act", "d": {"a": "65"}}', "bad_field"),
    ('{"t": "act", "d": {"a": true}}', "bad_field"),
    ('{"t": "act", "d": {"a": -1}}', "bad_field"),
    ('{"t": "sit", "d": {"seat": 4}}', "bad_field"),
    ('{"t": "bot", "d": {"seat": 1, "level": "godlike"}}', "bad_field"),
    ('{"t": "bot", "d": {"seat": 1, "level": ["normal"]}}', "bad_field"),
    ('{"t": "sit", "d": {"seat": "2"}}', "bad_field"),
    ('{"t": "chat", "d": {"text": "   "}}', "bad_chat"),
    ('{"t": "chat", "d": {"text": "' + "a" * (P.MAX_CHAT + 1) + '"}}', "bad_chat"),
    ('{"t": "explode"}', "unknown_type"),
])
def test_decode_refuses_bad_frames_with_a_code(text: str, code: str) -> None:
    with pytest.raises(P.ProtocolError) as refused:
        P.decode(text)
    assert refused.value.code == code


def test_binary_frames_are_refused() -> None:
    with pytest.raises(P.ProtocolError, match="binary"):
        P.decode(b'{"t": "ping"}')


def test_every_outbound_frame_carries_its_version() -> None:
    assert json.loads(P.encode("pong", {}, 42)) == {"t": "pong", "d": {}, "v": 42}
