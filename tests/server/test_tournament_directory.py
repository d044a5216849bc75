"""Tournaments drive the room's tables by id alone (belote/server/directory.py,
``TournamentTables``): a game's table is opened, its seats held for the drawn players, each
seat claimed with its code and the match started, every question and answer plain data that
a wire between processes could carry (tests/server/wire_bus.py, ``PlainDataDirectory``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from belote.server import app as app_module
from belote.server.app import create_app
from belote.server.composition import build
from belote.server.config import Settings
from tests.server.conftest import client_for, make_settings
from tests.server.helpers import Identities
from tests.server.test_tournament_day import give_code
from tests.server.test_tournament_http import tournament
from tests.server.test_tournament_review import two_marcos
from tests.server.wire_bus import PlainDataDirectory


def test_a_tournament_opens_holds_and_starts_its_table_by_id_with_plain_data(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[PlainDataDirectory] = []

    def plain_tournaments(settings: Settings, offload: Any = None) -> Any:
        services = build(settings, offload)
        services.tournaments.directory = PlainDataDirectory(services.room)
        asked.append(services.tournaments.directory)
        return services

    monkeypatch.setattr(app_module, "build", plain_tournaments)
    app = create_app(make_settings(tmp_path))
    with client_for(app) as client:
        people = Identities(client)
        tid = two_marcos(people)
        game = tournament(client, tid).game(1)
        table = app.state.room.tables[game.table_id]
        (north, south), (east, west) = game.lineup  # which pair sits N-S: the draw's
        assert [s.name for s in table.seats] == [north, east, south, west]
        assert sorted(s.name for s in table.seats) == ["Anna", "Luca", "Marco", "Marco"]
        assert table.game is None  # no stand-ins: it waits for its four players
        for side, seat, who in ((0, 0, "Marco NS"), (1, 0, "Marco EW"), (0, 1, south),
                                (1, 1, west)):
            people.guest(who)
            give_code(people, who, tid, 1, game.codes[side][seat])
            response = people.use(who).post(f"/tournaments/{tid}/games/1/claim",
                                            follow_redirects=False)
            assert response.headers["location"] == f"/table/{game.table_id}"
        assert table.game is not None  # the last claim started the match
        assert not any(s.owner.startswith("tournament:") for s in table.seats)
    assert {name for name, n in asked[0].asked.items() if n} == {
        "open_table", "hold_seats", "claim_seat", "table_status"}
    assert asked[0].asked["claim_seat"] == 4
