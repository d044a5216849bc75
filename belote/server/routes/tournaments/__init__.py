"""The tournament pages: the organisers' console (:mod:`.console`, its changes in
:mod:`.actions`; the end of a round and the round clock in :mod:`.round_end`), the public
standings and histories (:mod:`.public`), the projector view (:mod:`.projector`), the wall
lists of a round (:mod:`.wall`), the seat codes, table cards and side codes (:mod:`.codes`),
the score entry of a table playing with real cards, its confirmation by the other side and
the organiser's queue (:mod:`.scores`), the entrants' changes (:mod:`.entrants`), the
exports and the audit log in words (:mod:`.exports`), the prize list (:mod:`.prizes`) and
the seasons (:mod:`.seasons`).

Every change goes through the tournament's event log, which is its audit log.  Forms work
without scripts; two small scripts only add the live standings and the check of each field
as it is typed.
"""

from starlette.routing import Route

from belote.server.routes.tournaments import (
    codes,
    console,
    entrants,
    exports,
    prizes,
    projector,
    public,
    round_end,
    scores,
    seasons,
    wall,
)

routes = [
    Route("/tournaments", console.index, methods=["GET"]),
    Route("/tournaments", console.create, methods=["POST"]),
    Route("/tournaments/{tid:id}", console.console, methods=["GET"]),
    Route("/tournaments/{tid:id}/do/{action}", console.change, methods=["POST"]),
    Route("/tournaments/{tid:id}/manage/{action}", entrants.change, methods=["POST"]),
    Route("/tournaments/{tid:id}/standings", public.standings_page, methods=["GET"]),
    Route("/tournaments/{tid:id}/live", round_end.live, methods=["GET"]),
    Route("/tournaments/{tid:id}/projector", projector.projector, methods=["GET"]),
    Route("/tournaments/{tid:id}/rounds/{number:id}/wall", wall.wall, methods=["GET"]),
    Route("/tournaments/{tid:id}/entrants/{eid:id}", public.history, methods=["GET"]),
    Route("/tournaments/{tid:id}/sheets", public.sheets, methods=["GET"]),
    Route("/tournaments/{tid:id}/cards", console.cards, methods=["GET"]),
    Route("/tournaments/{tid:id}/games/{gid:id}/code", codes.code_page, methods=["GET"]),
    Route("/tournaments/{tid:id}/games/{gid:id}/code", codes.code_post, methods=["POST"]),
    Route("/tournaments/{tid:id}/results.csv", exports.results_csv, methods=["GET"]),
    Route("/tournaments/{tid:id}/games/{gid:id}/claim", codes.claim, methods=["POST"]),
    Route("/tournaments/{tid:id}/games/{gid:id}/entry", scores.entry_page, methods=["GET"]),
    Route("/tournaments/{tid:id}/games/{gid:id}/entry", scores.entry_post, methods=["POST"]),
    Route("/tournaments/{tid:id}/games/{gid:id}/check", scores.entry_check, methods=["GET"]),
    Route("/tournaments/{tid:id}/table-cards", codes.table_cards, methods=["GET"]),
    Route("/tournaments/{tid:id}/enter", codes.enter_page, methods=["GET"]),
    Route("/tournaments/{tid:id}/enter", codes.enter_post, methods=["POST"]),
    Route("/tournaments/{tid:id}/games/{gid:id}/resolve", scores.resolve, methods=["POST"]),
    # Issue 24: exports, the printed standings, the audit log in words, prizes, seasons.
    Route("/tournaments/{tid:id}/exports", exports.exports_page, methods=["GET"]),
    Route("/tournaments/{tid:id}/export", exports.export_file, methods=["GET"]),
    Route("/tournaments/{tid:id}/standings/print", exports.print_standings, methods=["GET"]),
    Route("/tournaments/{tid:id}/log", exports.log_page, methods=["GET"]),
    Route("/tournaments/{tid:id}/prizes", prizes.prizes_page, methods=["GET"]),
    Route("/tournaments/{tid:id}/prizes", prizes.prizes_post, methods=["POST"]),
    Route("/seasons", seasons.index, methods=["GET"]),
    Route("/seasons", seasons.create, methods=["POST"]),
    Route("/seasons/{sid:id}", seasons.page, methods=["GET"]),
    Route("/seasons/{sid:id}", seasons.change, methods=["POST"]),
]

__all__ = ["routes"]
