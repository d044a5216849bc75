"""The moderation's tables (migration 0009), on the room's metadata.

* ``account_roles``: an account's roles (``moderator``), granted from the command line.
* ``reports``: what a player reported, with the context the server captured (the table's
  seats and recent chat lines from its log, never the reporter's claim).  ``open_key``
  (reporter, target, table) is set while the report is open and cleared when it is closed:
  its unique index makes "one open report per reporter, target and table" hold in every
  process, without a read-then-write race.
* ``sanctions``: each action taken on an account (warn, mute, remove, suspend, ban), in
  force from ``created`` until ``until`` (None: without end) unless ``lifted``.
* ``moderation_log``: the audit log, one row per action (a sanction, its lifting, a report
  closed): who, what, on whom, when, why, and the report it answers.
"""

from __future__ import annotations

from sqlalchemy import Column, ForeignKey, Index, Integer, String, Table, Text

from belote.server.persistence.schema import metadata
from belote.server.persistence.utc import UtcDateTime

USERS_ID = "users.id"

account_roles = Table(
    "account_roles",
    metadata,
    Column("account", Integer, ForeignKey(USERS_ID, ondelete="CASCADE"), primary_key=True,
           autoincrement=False),
    Column("role", String(16), primary_key=True),
    Column("granted", UtcDateTime(), nullable=False),
)

reports = Table(
    "reports",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    # Both None once their account is deleted: the report stays, without the person
    # (personal_data/deletion.py; migration 0014).
    Column("reporter", Integer, ForeignKey(USERS_ID, ondelete="SET NULL")),
    Column("target", Integer, ForeignKey(USERS_ID, ondelete="SET NULL")),
    Column("table_id", Integer),  # the table it was made from (None: from a profile)
    Column("reason", String(16), nullable=False),
    Column("text", Text, nullable=False),  # the reporter's own words (may be empty)
    Column("context", Text, nullable=False),  # JSON: seats and chat lines, from the log
    Column("created", UtcDateTime(), nullable=False),
    Column("status", String(16), nullable=False),  # open | resolved | dismissed
    Column("open_key", String(64)),  # "reporter:target:table" while open, else NULL
    Index("reports_open_key", "open_key", unique=True),
    Index("reports_by_status", "status", "created"),
)

sanctions = Table(
    "sanctions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account", Integer, ForeignKey(USERS_ID, ondelete="CASCADE"), nullable=False),
    Column("kind", String(16), nullable=False),  # warn | mute | remove | suspend | ban
    Column("reason", Text, nullable=False),
    Column("created", UtcDateTime(), nullable=False),
    Column("until", UtcDateTime()),  # None: until lifted
    Column("lifted", UtcDateTime()),
    Column("moderator", Integer, ForeignKey(USERS_ID, ondelete="SET NULL")),
    Column("report", Integer, ForeignKey("reports.id", ondelete="SET NULL")),
    Column("table_id", Integer),  # a removal's table
    Column("seen", UtcDateTime()),  # a warning: when its person was told
    Index("sanctions_by_account", "account", "kind"),
)

moderation_log = Table(
    "moderation_log",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", UtcDateTime(), nullable=False),
    Column("moderator", Integer, ForeignKey(USERS_ID, ondelete="SET NULL")),
    Column("action", String(16), nullable=False),  # a sanction's kind, lift, resolved, ...
    Column("account", Integer, ForeignKey(USERS_ID, ondelete="SET NULL")),
    Column("report", Integer, ForeignKey("reports.id", ondelete="SET NULL")),
    Column("sanction", Integer, ForeignKey("sanctions.id", ondelete="SET NULL")),
    Column("reason", Text, nullable=False),
    Index("moderation_log_by_account", "account"),
)
