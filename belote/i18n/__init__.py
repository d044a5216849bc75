"""Translated text: message catalogs (it, es, fr, en), card names and event announcements.

Text is translated, never concatenated: every sentence comes from a gettext catalog
(``locale/<lang>/LC_MESSAGES/<domain>.po``, read with Babel) filled with named placeholders.
Message ids are symbolic and grouped by prefix:

=================  ===============================================================
``card.*``         ranks (``card.rank.*``), ranks with article (``card.the.*``), suits
                   (``card.suit.*``) and the ``card.name`` pattern ("{rank} of {suit}")
``trump.*``        the whole-hand modes (no trump / all trump)
``seat.*``         default seat names (North..West) and ``seat.you``
``team.*``         North-South, East-West
``preset.*``       names of the rule presets
``announce.*``     the words "belote" and "rebelote"
``list.*``         the list separator
``action.*``       short labels of actions (menus, brief announcements); auction contracts
                   (``action.contract``: "{level} {suit}")
``declaration.*``  names of declarations ("sequence_4", "carre_J", spoken "cinquante")
``event.*``        one sentence per event kind; ``.you`` when the listener is the player,
                   ``.brief`` for the brief verbosity
``ui.*``           the terminal table: help lines, prompts, status answers
``error.*``        answers to bad input, one per reason
``sheet.*``        the rule sheet (``belote rules``): ``sheet.FLAG.VALUE`` or ``sheet.FLAG``
                   with ``{value}``, section headings ``sheet.section.*``
=================  ===============================================================

>>> card_name(4, "it")
'fante di cuori'
>>> translate("en", "ui.status.trump", suit=suit_name(3, "en"))
'Trump is spades.'
"""

from belote.i18n.announce import describe_event
from belote.i18n.catalog import (
    LANGUAGES,
    has_message,
    messages,
    placeholders,
    translate,
)
from belote.i18n.names import (
    action_name,
    card_name,
    cards_text,
    contract_name,
    declaration_name,
    join_list,
    preset_name,
    rank_name,
    seat_name,
    suit_name,
    team_name,
    trump_name,
)
from belote.i18n.parse import parse_card_name

__all__ = [
    "LANGUAGES",
    "action_name",
    "card_name",
    "cards_text",
    "contract_name",
    "declaration_name",
    "describe_event",
    "has_message",
    "join_list",
    "messages",
    "parse_card_name",
    "placeholders",
    "preset_name",
    "rank_name",
    "seat_name",
    "suit_name",
    "team_name",
    "translate",
    "trump_name",
]
