"""Invitation links: signed with the room's key, good for a while, naming a table and who
invited.

A link is ``/invite/TOKEN``; the token is the table's id and the inviter's account, signed
(itsdangerous, salted for this use alone: a settings cookie or a known-device token is never
taken for an invitation) with a time stamp.  Any process of the room reads it (the one
key is in the database).  Opened by someone not signed in, it offers to come in as a guest
or to sign in, then leads to the table; a private table lets in whoever comes with it, as
its invitation code does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from itsdangerous import BadData, URLSafeTimedSerializer

SALT = "sala-invitation"
MAX_TOKEN = 200  # characters of a token looked at (a longer one is not ours)


@dataclass(frozen=True, slots=True)
class Invitation:
    table_id: int
    inviter: int  # the inviting account


class InvitationLinks:
    def __init__(self, key: Callable[[], str], max_age: int) -> None:
        """``key`` gives the room's signing key (read when the room opens)."""
        self.key = key
        self.max_age = max_age

    def _signer(self) -> URLSafeTimedSerializer:
        return URLSafeTimedSerializer(self.key(), salt=SALT)

    def make(self, invitation: Invitation) -> str:
        return str(self._signer().dumps([invitation.table_id, invitation.inviter]))

    def read(self, token: str) -> Invitation | None:
        """The invitation, or None: forged, expired, malformed or too long."""
        if not token or len(token) > MAX_TOKEN:
            return None
        try:
            data = self._signer().loads(token, max_age=self.max_age)
        except BadData:
            return None
        if (not isinstance(data, list) or len(data) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in data)):
            return None
        return Invitation(int(data[0]), int(data[1]))
