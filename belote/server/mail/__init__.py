"""E-mail for accounts: an address per account (private), verified by a link sent to it, and
a password reset by a link sent to a verified address.

- :mod:`.schema`: the addresses and the links' tokens (migration 0008);
- :mod:`.store`: their reads and writes (a token is stored as its digest, used once);
- :mod:`.sender`: the SMTP client, off the event loop, with a timeout; failures counted;
- :mod:`.letters`: the mails' words, in the account's language;
- :mod:`.service`: the two flows, with their limits.

docs/room.md, "E-mail and your account", says what a player and an administrator see.
"""
