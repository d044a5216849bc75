"""The room as several processes on one PostgreSQL database (issue 26).

- :mod:`.leases`: which process runs a table (an advisory lock per table);
- :mod:`.wire`: messages between processes (LISTEN/NOTIFY);
- :mod:`.bus`: the table-event bus over the wire; :mod:`.node`: questions to the process
  running a table, and news for all;
- :mod:`.relay`: a table's pages and socket reach its process from any process;
- :mod:`.supervisor`: ``belote serve --processes N``.
"""
