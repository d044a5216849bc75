"""The key under which look-alike names are one name (see :mod:`belote.server.auth.names`).

A leaf module: the store (a default key for a new account) and the sign-in checks both use it,
and neither imports the other.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from confusable_homoglyphs.confusables import confusables_data  # type: ignore[import-untyped]

_BIDI_MARKS = dict.fromkeys(map(ord, "\u200e\u200f"))


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
