"""Friends, invitations and blocks: player search, friend requests, presence, invitations
that reach a person anywhere in the room, and a private block list.

- :mod:`.schema`: the tables (migration 0010);
- :mod:`.store`: every read and write of them, by account id;
- :mod:`.tokens`: the signed, expiring invitation links;
- :mod:`.room`: the feature as the composition wires it (the bus's seats, the personal
  sockets, the news between processes, the limits, the room's seat gate and chat filter).
"""
