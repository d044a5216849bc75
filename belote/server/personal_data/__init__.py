"""What the room holds about an account, for its owner: the export of it all (a JSON file)
and the deletion of the account (:mod:`.export`, :mod:`.deletion`; docs/room.md, "E-mail and
your account", says what a deletion keeps and why)."""
