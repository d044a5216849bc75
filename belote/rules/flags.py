"""Rule flags as text: ``NAME=VALUE`` (the command line's ``--flag``, a table host's form).

:func:`parse_flag` reads one text; :func:`rules_with_flags` applies several to a rules object
with :meth:`Rules.with_flags`, which checks the names, the types and every value
(:mod:`belote.rules.validation`).  Every error is a ``ValueError`` naming the bad flag.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from belote.rules.base import Rules


def parse_flag(text: str) -> tuple[str, Any]:
    """``"name=value"`` -> (name, value); the value is JSON (``true``, ``2``, ``[3, 2, 3]``,
    ``null``) or else a plain word (``counterclockwise``)."""
    name, sep, raw = text.partition("=")
    name, raw = name.strip(), raw.strip()
    if not sep or not name:
        raise ValueError(f"bad flag {text!r}: expected NAME=VALUE")
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return name, value


def parse_flags(texts: Iterable[str]) -> dict[str, Any]:
    """Several ``NAME=VALUE`` texts as a mapping; a flag given twice is an error."""
    flags: dict[str, Any] = {}
    for text in texts:
        name, value = parse_flag(text)
        if name in flags and flags[name] != value:
            raise ValueError(f"flag {name!r} is given twice, with different values")
        flags[name] = value
    return flags


def rules_with_flags(rules: Rules, texts: Iterable[str]) -> Rules:
    """``rules`` with the ``NAME=VALUE`` flags applied; ValueError names a bad one."""
    flags = parse_flags(texts)
    return rules.with_flags(**flags) if flags else rules


__all__ = ["parse_flag", "parse_flags", "rules_with_flags"]
