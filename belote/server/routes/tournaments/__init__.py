"""The tournament pages: the organisers' console (:mod:`.console`, its changes in
:mod:`.actions`), the public standings and histories (:mod:`.public`), the seat codes
(:mod:`.codes`), the score entry of a table playing with real cards (:mod:`.scores`), the
exports and the audit log in words (:mod:`.exports`), the prize list (:mod:`.prizes`) and the
seasons (:mod:`.seasons`).

Every change goes through the tournament's event log, which is its audit log.  Forms work
without scripts; two small scripts only add the live standings and the check of each field
as it is typed.
"""

from starlette.routing import Route

from belote.server.routes.tournaments import (
    codes,
    console,
    exports,
    prizes,
    public,
    scores,
    seasons,
)

routes = [
    Route("/tournaments", console.index, methods=["GET"]),
    Route("/tournaments", console.create, methods=["POST"]),
    Route("/tournaments/{tid:id}", console.console, methods=["GET"]),
    Route("/tournaments/{tid:id}/do/{action}", console.change, methods=["POST"]),
    Route("/tournaments/{tid:id}/standings", public.standings_page, methods=["GET"]),
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
