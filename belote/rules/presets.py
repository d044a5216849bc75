"""Presets: named sets of flag values (RULES.md).  Data only: no preset has code of its own.

| preset | source |
|---|---|
| ``classic`` | seed 002, the Spanish rules page of the accessible room |
| ``pinasca`` | seed 001, the Pinasca tournament regulation |
| ``italian`` | seed 000 part 1, Italian Wikipedia (senza, tutte) |
| ``valdostana`` | seed 000 part 2, "La belote valdostana" (auction, accusi) |
| ``coinche`` | RULES.md (the room of seed 002 says it lacks contrée) |
| ``valdostana3``, ``valdostana2`` | seed 000 part 2, three or two players (our readings) |
"""

from __future__ import annotations

import dataclasses

from belote.rules.base import AuctionRules, Rules
from belote.rules.declarations import (
    ITALIAN_DECLARATIONS,
    PINASCA_DECLARATIONS,
    VALDOSTANA_DECLARATIONS,
)

CLASSIC = Rules(
    name="classic",
    direction="clockwise",
    bidding="take_or_pass",
    # Seed 002: "la distribución de las cartas restantes (3 por jugador) se reanuda a partir
    # del tomador"; RULES.md is silent on the order, so the seed decides.
    deal_rest_from_taker=True,
    partner_master_frees=True,  # seed 002: "excepto si su compañero es el dueño de la baza"
    must_overtrump=True,  # seed 002: "está obligado a jugar triunfo y a subir el triunfo"
    must_undertrump=True,  # RULES.md: classic undertrumps
    belote_king_first=True,  # seed 002: "jugar la dama y luego el rey no es válido"
    belote_window="next_card",  # seed 002: "antes de que el siguiente jugador juegue"
    failed_takers_keep_belote=True,  # seed 002: belote counts "en cualquier caso"
    taker_min_points=82,  # seed 002: "el número de puntos mínimo necesario es siempre de 82"
    target_score=1000,  # seed 002: "Una partida de belote se juega a menudo a 1000 puntos"
)

PINASCA = Rules(
    name="pinasca",
    direction="counterclockwise",  # seed 001: "Si gioca in senso antiorario"
    bidding="take_or_pass",
    partner_master_frees=False,  # seed 001 names no partner exception
    belote_king_first=False,  # seed 001: "la prima di queste due carte ... 'Belote'"
    declarations=PINASCA_DECLARATIONS,
    taker_min_points=0,  # RULES.md: "more than defenders, declarations counted"
    declarations_count_for_contract=True,
    # Seed 001: "Se vince l'altra squadra, quest'ultima si vede assegnare tutti i punti delle
    # prese e i punti di tutte le dichiarazioni ... la squadra che perde non riceve alcun punto"
    failed_defenders_take_all_declarations=True,
    failed_takers_keep_belote=False,
    tie_rule="prigione",  # seed 001: "si dice in gergo che si sta in prigione"
    # Reading: "la coppia che non aveva dichiarato la briscola, segna i suoi punti,
    # l'aggiudicazione dei punti restanti è demandata alla mano che segue" is silent on the
    # takers' belote; it scores at once, as in seed 002 (flag).
    tie_freezes_belote=False,
    target_score=1500,  # seed 001: "Le partite si vinceranno all'arrivo ai 1500 punti"
)

ITALIAN = Rules(
    name="italian",
    direction="clockwise",  # seed 000: "in senso orario come nel poker"
    bidding="take_or_pass",  # "mando" / "via"
    allow_senza=True,
    allow_tutte=True,  # seed 000: "'senza briscole' (dicendo 'senza') o 'tutte briscole'"
    senza_override=True,  # seed 000: "quest'ultimo può imporre la propria scelta"
    jack_oblige=False,  # seed 000: "In altre varianti ... è obbligatorio" (a flag)
    partner_master_frees=False,  # seed 000 part 1 names no partner exception
    belote_window="trick",  # seed 000: "prima che l'ultimo giocatore appoggi la carta"
    declarations=ITALIAN_DECLARATIONS,
    ottava=True,  # seed 000: "il giocatore può mostrare le carte e vincere ... la partita"
    taker_min_points=0,  # seed 000: "deve farne più della metà"
    declarations_count_for_contract=False,  # RULES.md: "added afterwards and do not count"
    failed_defenders_take_all_declarations=True,  # "punteggio pieno ... comprese le scale"
    failed_takers_keep_belote=False,
    capot_all_points=True,  # seed 000: "riesca ad effettuare tutti i punti possibili"
    senza_multiplier=2,  # seed 000: "30x4 ... + 10 ..., il tutto moltiplicato per due"
    # Reading: "variano di conseguenza anche i punteggi per il 'cappotto'": the capot bonus is
    # doubled with the rest (flag).
    senza_capot_multiplied=True,
    target_score=751,
    target_strict=True,  # seed 000: "Vince la coppia che per prima supera i 751 punti"
)

VALDOSTANA = Rules(
    name="valdostana",
    direction="counterclockwise",  # seed 000: "in senso antiorario il mazziere distribuisce"
    deal_packets=(3, 2, 3),  # seed 000: "8 carte a testa in tre giri (prima 3 poi 2 poi 3"
    # "pone al giocatore alla sua sinistra il taglio del mazzo, decidendo di tagliare o
    # fidarsi bussando sul mazzo".
    cut_deck=True,
    bidding="auction",
    auction=AuctionRules(
        levels=tuple(range(82, 803, 10)),  # seed 000: "minimo è di 82, il massimo è di 802"
        pass_words=True,  # "PASSO/PASSE (non ho Assi) - ASPETTO (ho almeno un Asso)"
        support_calls=True,  # "ANCORA (due carte ...) - ALZO (almeno tre carte ...)"
        # "si omette il numero (si dice solo il seme)"; "DO 10 ... ALZO 20"
        conventional_bids=True,
    ),
    partner_master_frees=True,  # RULES.md: takes the French rules (reading)
    belote_king_first=False,  # "Belote" per la prima e "Re Belote" per la seconda
    declarations=VALDOSTANA_DECLARATIONS,
    taker_min_points=0,  # the contract level decides
    declarations_count_for_contract=True,  # "Punti Linea": mano + accusi + belote + bien joué
    failed_defenders_points=162,  # "Punti Mano (max 162) sommati ai Punti Accusi validi"
    failed_takers_keep_belote=False,  # "zero punti alla Linea Attaccante"
    # Reading: "alla Linea Difendente vanno attribuiti i Punti Mano (max 162) sommati ai Punti
    # Accusi validi (anche la Belote)": the defenders' own valid accusi (flag: true gives them
    # the attackers' valid accusi and belote too).
    failed_defenders_take_all_declarations=False,
    # Reading: a failed surcontro pays "Tipo B" points as a failed contro (the seed writes
    # "Tipo A"; flag).
    surcontro_failed_points="type_b",
    doubled_tie="last_caller_loses",  # contro: attackers win ties; surcontro: defenders do
    multiplier_scope="lines",  # "la Linea Vincente si aggiudica il bottino" (reading)
    target_score=2000,  # "Vince la coppia che raggiunge per prima i 2000 punti"
    # "In genere fra i giocatori di livello è prediletto il NO Gradimento"
    discard_signals="no_gradimento",
)

COINCHE = Rules(
    name="coinche",
    direction="clockwise",
    deal_packets=(3, 2, 3),
    bidding="auction",
    auction=AuctionRules(
        levels=(*range(80, 161, 10), 250),  # RULES.md: 80..160 by 10, then capot
        capot_level=250,
        pass_words=False,
        support_calls=False,
    ),
    partner_master_frees=True,
    belote_king_first=False,
    taker_min_points=0,  # the contract level decides
    taker_must_beat_defenders=False,  # RULES.md: "contract level"
    made_adds_contract=True,  # RULES.md: "contract + own points"
    failed_defenders_points=160,  # RULES.md: "defenders 160 + contract"
    failed_adds_contract=True,
    failed_takers_keep_belote=True,
    multiplier_scope="contract",  # RULES.md: "x2 / x4 on the contract"
    target_score=2000,
)

# Seed 000: "è possibile giocare anche con numero ridotto a tre o addirittura a due
# (ovviamente alcune regole distribuzionali e di gioco subiranno delle variazioni)".  The seed
# gives no variation, so each is our reading (docs/rules-2-3-players.md), each a flag.
VALDOSTANA3 = dataclasses.replace(
    VALDOSTANA,
    name="valdostana3",
    players=3,  # each player is his own side: no partner, no ancora/alzo
    deal_packets=(3, 3, 4),  # reading: 10 cards each in three rounds, 2 to the monte
    widow="last_trick",  # reading: the monte goes, unseen, to the last trick's winner
)

VALDOSTANA2 = dataclasses.replace(
    VALDOSTANA,
    name="valdostana2",
    players=2,
    deal_packets=(3, 2, 3, 3, 2, 3),  # reading: the 3-2-3 deal twice, 16 cards each
)

PRESETS: dict[str, Rules] = {
    rules.name: rules
    for rules in (CLASSIC, PINASCA, ITALIAN, VALDOSTANA, COINCHE, VALDOSTANA3, VALDOSTANA2)
}

# Card-play obligations of every preset (RULES.md "Card play obligations" table), read back
# from the presets themselves for documentation and tests.
PLAY_OBLIGATIONS: dict[str, dict[str, bool]] = {
    name: {
        "must_trump": rules.must_trump,
        "partner_master_frees": rules.partner_master_frees,
        "must_overtrump": rules.must_overtrump,
        "must_undertrump": rules.must_undertrump,
    }
    for name, rules in PRESETS.items()
}
