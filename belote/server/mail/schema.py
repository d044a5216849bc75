"""The e-mail tables (migration 0008), on the room's metadata.

An address is private: it is shown to its account alone (the account page, the data export)
and sent nowhere else.  A link's token is random (256 bits) and stored only as its SHA-256
digest: a copy of the database gives no usable link.  A token is used once; a newer token of
the same purpose for the same account voids the older ones (marked used).
"""

from __future__ import annotations

from sqlalchemy import Column, ForeignKey, Index, Integer, String, Table

from belote.server.persistence.schema import metadata
from belote.server.persistence.utc import UtcDateTime

ADDRESS_CHARS = 254  # the longest address SMTP carries (RFC 5321's path limit, less <>)

account_emails = Table(
    "account_emails",
    metadata,
    Column("account", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("address", String(ADDRESS_CHARS), nullable=False),  # as typed
    Column("address_key", String(ADDRESS_CHARS), nullable=False),  # lower case: look-ups
    Column("verified", UtcDateTime()),  # when its link was followed; NULL: not yet
    Column("changed", UtcDateTime(), nullable=False),
    Index("account_emails_by_address", "address_key"),
)

mail_tokens = Table(
    "mail_tokens",
    metadata,
    Column("digest", String(64), primary_key=True),  # SHA-256 of the token, hex
    Column("account", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("purpose", String(8), nullable=False),  # verify | reset
    Column("address", String(ADDRESS_CHARS), nullable=False),  # where it was sent
    Column("expires", UtcDateTime(), nullable=False),
    Column("used", UtcDateTime()),  # followed, or voided by a newer one; NULL: still valid
    Index("mail_tokens_by_account", "account", "purpose"),
)
