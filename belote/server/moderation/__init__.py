"""Reports and moderation: players report an account with the context the server saw;
moderators (a role on accounts, granted from the command line) work the queue and warn,
mute, remove from a table, suspend or ban, each action audited and each reversible.

- :mod:`.schema`: the tables (migration 0009);
- :mod:`.store`: reading and writing them, each action with its audit row;
- :mod:`.service`: the checks, the limits and the enforcement in every process.

The pages are :mod:`belote.server.routes.reports` (help and report, from every page) and
:mod:`belote.server.routes.moderation` (the moderators' queue).
"""
