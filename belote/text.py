"""Text from users, checked at the edge: valid Unicode, NFC, no control characters, a length.

Everything a person types that other people will see (chat lines, table names, nicknames, rule
texts) goes through :func:`clean_text` before it is stored or shown.  A lone surrogate (which
JSON lets a client send as ``"\\ud800"``) cannot be encoded as UTF-8: stored, it would break
every frame that carries it, so it is refused here.  Control characters and the bidirectional
overrides are refused too: they can hide or reorder what others read.
"""

from __future__ import annotations

import unicodedata

# Explicit bidirectional embeddings, overrides and isolates: they reorder the text around them.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Categories never allowed: controls, surrogates, private use.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Co"})


class TextError(ValueError):
    """Text refused; ``code`` names the reason (``bad_unicode``, ``control``, ``empty``,
    ``too_long``)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def clean_text(text: str, max_length: int, *, multiline: bool = False) -> str:
    """``text`` made safe to store and show, or :class:`TextError`.

    Returns the NFC form with runs of spaces collapsed (and, unless ``multiline``, line breaks
    turned into spaces).  Refuses lone surrogates, control and bidirectional-override
    characters, and texts that are empty or longer than ``max_length`` characters.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise TextError("bad_unicode") from None
    text = unicodedata.normalize("NFC", text)
    if multiline:
        lines = [" ".join(line.split()) for line in text.splitlines()]
        text = "\n".join(line for line in lines if line)
    else:
        text = " ".join(text.split())
    for char in text:
        if char == "\n":
            continue
        if char in _BIDI_CONTROLS or unicodedata.category(char) in _REFUSED_CATEGORIES:
            raise TextError("control")
    if not text:
        raise TextError("empty")
    if len(text) > max_length:
        raise TextError("too_long")
    return text


def printable(text: str) -> str:
    """``text`` that can always be encoded: lone surrogates replaced (for rows stored before
    texts were checked, so that one old line can never break a frame)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")
    return text
