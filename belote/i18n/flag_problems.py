"""Why a rule setting cannot be played, in the host's language.

:mod:`belote.rules.validation` says what is wrong with a flag as data (a
:class:`~belote.rules.validation.Problem`: the flag, its value, a code and the bounds); this
module turns it into a sentence of the catalogs (``rules.problem.<code>``).  Flag names stay
as the rule sheet and ``belote rules`` write them, since that is what a host types.
"""

from __future__ import annotations

from belote.i18n.catalog import translate
from belote.rules.validation import FlagError, Problem, shown


def problem_text(problem: Problem, lang: str) -> str:
    """One bad flag as a sentence in ``lang``."""
    values = {"expected": problem.allowed, **dict(problem.values)}
    return translate(lang, f"rules.problem.{problem.code}", flag=problem.flag,
                     value=shown(problem.value), **values)


def refusal_detail(error: ValueError, lang: str) -> str:
    """What is wrong with a host's rule texts: each flag's sentence for a :class:`FlagError`,
    else the parser's own words (an unknown flag name, text that is not NAME=VALUE)."""
    if isinstance(error, FlagError):
        return " ".join(problem_text(p, lang) for p in error.problems)
    return str(error)
