"""Nicknames: what a name may be, and the key under which look-alike names are one name.

``name_key`` folds a name so that names a person would read as the same get the same key:
NFKC (fullwidth ``Ａｄａ`` is ``Ada``), case folding (``ADA`` is ``ada``), and the Unicode
confusables of UTS #39 (Cyrillic ``а`` is Latin ``a``), from the data of the
``confusable-homoglyphs`` package.  Accounts store the key in a unique column; live guests hold
theirs in :class:`GuestNames`.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from confusable_homoglyphs.confusables import confusables_data  # type: ignore[import-untyped]

NAME = re.compile(r"^[\w][\w .'-]{1,23}$")
MIN_PASSWORD = 8
_BIDI_MARKS = dict.fromkeys(map(ord, "\u200e\u200f"))


class AuthError(Exception):
    """Refused: ``code`` names the ``error.web.*`` message."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def check_name(name: str) -> str:
    name = " ".join(name.split())
    if not NAME.match(name):
        raise AuthError("bad_name")
    return name


def check_password(password: str) -> str:
    if len(password) < MIN_PASSWORD or len(password) > 256:
        raise AuthError("bad_password")
    return password


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype (its representative in its class).

    The package stores Unicode's ``confusables.txt`` (``source -> prototype``) both ways, as a
    graph in which each prototype is the centre of a star: a character with several neighbours
    is a prototype, one with a single neighbour maps to that neighbour when the neighbour is a
    prototype (several neighbours, or a sequence such as ``rn``).  A lone pair has no telling
    centre: both map to the smaller one, which keeps one key per class all the same.
    """
    graph = {key.translate(_BIDI_MARKS): [e["c"].translate(_BIDI_MARKS) for e in entries]
             for key, entries in confusables_data.items()}
    mapping: dict[str, str] = {}
    for char, neighbours in graph.items():
        if len(char) != 1 or len(neighbours) != 1:
            continue  # a prototype (or a sequence): it stays
        other = neighbours[0]
        if len(other) != 1 or len(graph.get(other, ())) > 1 or other < char:
            mapping[char] = other
    return mapping


def name_key(name: str) -> str:
    """The key of ``name``: equal keys are names that read alike."""
    folded = unicodedata.normalize("NFKC", " ".join(name.split())).casefold()
    prototypes = _prototypes()
    skeleton = "".join(prototypes.get(c, c) for c in folded)
    return unicodedata.normalize("NFKC", skeleton).casefold()


class GuestNames:
    """The keys held by live guest sessions: two guests never share one at the same time.

    In memory only: a guest's name lives as long as its session, which releases it when it
    ends (sign-out, another sign-in) or expires.
    """

    def __init__(self) -> None:
        self._holder: dict[str, str] = {}  # key -> session id
        self._key: dict[str, str] = {}  # session id -> key

    def __len__(self) -> int:
        return len(self._holder)

    def holder(self, key: str) -> str | None:
        return self._holder.get(key)

    def claim(self, key: str, session_id: str) -> bool:
        """Hold ``key`` for ``session_id``; False if another session holds it."""
        holder = self._holder.get(key)
        if holder is not None and holder != session_id:
            return False
        self.release(session_id)
        self._holder[key], self._key[session_id] = session_id, key
        return True

    def release(self, session_id: str) -> None:
        key = self._key.pop(session_id, None)
        if key is not None and self._holder.get(key) == session_id:
            del self._holder[key]
