"""Presets: named sets of flag values (RULES.md).  Data only.

``classic`` is the Spanish rules page of the accessible room (seed 002).  The card-play
obligation flags of the other presets are recorded here already (RULES.md table), so that a
later preset is data only; presets still missing their bidding and scoring strategies are
listed in ``PLANNED`` and are not offered for play.
"""

from __future__ import annotations

from belote.rules.base import Rules

CLASSIC = Rules(
    name="classic",
    direction="clockwise",
    bidding="take_or_pass",
    must_trump=True,
    partner_master_frees=True,  # seed 002: "excepto si su compañero es el dueño de la baza"
    must_overtrump=True,  # seed 002: "está obligado a jugar triunfo y a subir el triunfo"
    must_undertrump=True,  # RULES.md: classic undertrumps
    belote_king_first=True,  # seed 002: "jugar la dama y luego el rey no es válido"
    belote_window="next_card",  # seed 002: "antes de que el siguiente jugador juegue"
    taker_min_points=82,  # seed 002: "el número de puntos mínimo necesario es siempre de 82"
    target_score=1000,  # seed 002: "Una partida de belote se juega a menudo a 1000 puntos"
)

# Card-play obligations of every preset (RULES.md "Card play obligations" table).
PLAY_OBLIGATIONS: dict[str, dict[str, bool]] = {
    "classic": dict(must_trump=True, partner_master_frees=True, must_overtrump=True,
                    must_undertrump=True),
    "pinasca": dict(must_trump=True, partner_master_frees=False, must_overtrump=True,
                    must_undertrump=True),
    "italian": dict(must_trump=True, partner_master_frees=False, must_overtrump=True,
                    must_undertrump=True),
    "valdostana": dict(must_trump=True, partner_master_frees=True, must_overtrump=True,
                       must_undertrump=True),
    "coinche": dict(must_trump=True, partner_master_frees=True, must_overtrump=True,
                    must_undertrump=True),
}

PRESETS: dict[str, Rules] = {"classic": CLASSIC}
PLANNED: tuple[str, ...] = ("pinasca", "italian", "valdostana", "coinche")
