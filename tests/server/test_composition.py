"""The composition root: the room knows no feature, the base schema no feature's tables;
the composition builds, wires and orders them."""

from __future__ import annotations

import ast
import asyncio
import json
from pathlib import Path

import pytest

import belote.server.persistence.schema as base_schema
import belote.server.room as room_module
from belote.server.composition import build, metadata
from belote.server.events import MatchStarted, TableFinished

FEATURES = ("belote.server.lobby", "belote.server.ratings", "belote.server.tournament")


def imports_of(module_file: str | None) -> set[str]:
    assert module_file is not None
    tree = ast.parse(Path(module_file).read_text(encoding="utf-8"))
    found = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    found |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    return found


@pytest.mark.parametrize("module", [room_module, base_schema])
def test_the_room_and_the_base_schema_import_no_feature(module: object) -> None:
    imported = imports_of(getattr(module, "__file__", None))
    assert not [m for m in imported if m.startswith(FEATURES)]


def test_the_whole_schema_has_every_features_tables() -> None:
    assert {"tables", "users", "match_results", "ratings", "tournaments",
            "tournament_games"} <= set(metadata.tables)


def test_a_finished_table_reaches_ratings_and_tournaments_through_the_bus(
        tmp_path: Path) -> None:
    from tests.server.conftest import make_settings
    from tests.server.test_ratings import finished_record

    finished = TableFinished(77, 9, "classic", (1, 0), (), json.dumps(finished_record()))

    async def main() -> tuple[set[int], set[int], int]:
        services = build(make_settings(tmp_path))
        await services.open()
        try:
            services.bus.publish(MatchStarted(77, 1, 0))  # heard by the lobby: not listed
            services.bus.publish(finished)
            services.bus.publish(finished)  # heard twice: handled once
            await services.bus.flush()
            return (set(services.ratings._seen), set(services.tournaments._reported),
                    sum(services.bus.failures.values()))
        finally:
            await services.close()

    seen, reported, failures = asyncio.run(main())
    assert seen == reported == {77} and failures == 0
