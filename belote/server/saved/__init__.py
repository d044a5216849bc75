"""Saved games: a table its people pause, kept for their accounts, resumed later from any
device (docs/room.md, "Saved games").  The table's side (the vote, the kept seats) is in
:mod:`belote.server.save_vote` and the table; this package stores and lists saved tables
and reopens one."""
