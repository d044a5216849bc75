"""The tournament pages: the organisers' console (:mod:`.console`, its changes in
:mod:`.actions`), the public standings and histories (:mod:`.public`), the seat codes
(:mod:`.codes`) and the score entry of a table playing with real cards (:mod:`.scores`).

Every change goes through the tournament's event log, which is its audit log.  Forms work
without scripts; two small scripts only add the live standings and the check of each field
as it is typed.
"""

from starlette.routing import Route

from belote.server.routes.tournaments import codes, console, entrants, public, scores

routes = [
    Route("/tournaments", console.index, methods=["GET"]),
    Route("/tournaments", console.create, methods=["POST"]),
    Route("/tournaments/{tid:id}", console.console, methods=["GET"]),
    Route("/tournaments/{tid:id}/do/{action}", console.change, methods=["POST"]),
    Route("/tournaments/{tid:id}/manage/{action}", entrants.change, methods=["POST"]),
    Route("/tournaments/{tid:id}/standings", public.standings_page, methods=["GET"]),
    Route("/tournaments/{tid:id}/entrants/{eid:id}", public.history, methods=["GET"]),
    Route("/tournaments/{tid:id}/sheets", public.sheets, methods=["GET"]),
    Route("/tournaments/{tid:id}/cards", console.cards, methods=["GET"]),
    Route("/tournaments/{tid:id}/games/{gid:id}/code", codes.code_page, methods=["GET"]),
    Route("/tournaments/{tid:id}/games/{gid:id}/code", codes.code_post, methods=["POST"]),
    Route("/tournaments/{tid:id}/results.csv", console.export, methods=["GET"]),
    Route("/tournaments/{tid:id}/games/{gid:id}/claim", codes.claim, methods=["POST"]),
    Route("/tournaments/{tid:id}/games/{gid:id}/entry", scores.entry_page, methods=["GET"]),
    Route("/tournaments/{tid:id}/games/{gid:id}/entry", scores.entry_post, methods=["POST"]),
    Route("/tournaments/{tid:id}/games/{gid:id}/check", scores.entry_check, methods=["GET"]),
]

__all__ = ["routes"]
