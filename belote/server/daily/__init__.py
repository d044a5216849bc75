"""The daily duplicate: every day the same deals for every entrant, each played against the
room's bots, each scored against everyone who played it (docs/room.md, "The daily
duplicate")."""
