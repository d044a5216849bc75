"""Tournaments in the room: their tables in the database (``schema``, ``store``), the
organiser's operations (``service``), the online games (``room``) and the pages (``web``).
The formats, pairings and standings themselves are :mod:`belote.tournament` (no I/O)."""
