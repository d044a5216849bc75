"""The wire codec of the information keys: ``info`` asks for one answer, strictly read."""

from __future__ import annotations

import json

import pytest

from belote.i18n.table_info import INFO_QUESTIONS
from belote.server import protocol as P


@pytest.mark.parametrize("key", INFO_QUESTIONS)
def test_every_information_key_is_read(key: str) -> None:
    assert P.decode(json.dumps({"t": "info", "d": {"key": key}})) == P.AskInfo(key)


@pytest.mark.parametrize("data", [
    {}, {"key": None}, {"key": 3}, {"key": ["team"]}, {"key": "hand"}, {"key": "TEAM"},
    {"key": "team "}, {"key": "x" * 200}, {"question": "team"},
])
def test_a_malformed_information_request_is_refused(data: dict[str, object]) -> None:
    with pytest.raises(P.ProtocolError) as refused:
        P.decode(json.dumps({"t": "info", "d": data}))
    assert (refused.value.code, refused.value.detail) == ("bad_field", "key")


def test_the_answer_names_its_key_and_carries_the_version() -> None:
    frame = json.loads(P.encode_message(P.InfoAnswer("team", "You are South."), 7))
    assert frame == {"t": "info", "d": {"key": "team", "text": "You are South."}, "v": 7}
