"""A tournament rebuilt from its events: every change is checked (:meth:`Tournament.check`,
nothing changes on a refusal), stored by the caller, then applied (:meth:`Tournament.apply`).

Event kinds and their data:

=============  ==============================================================================
``created``    :meth:`Settings.to_data`
``registered`` ``entrants``: a list of ``{name, players, club}`` (a Pinasca neighbourhood
               registers its two pairs in one event)
``checked_in`` ``entrant``
``bound``      ``entrant``, ``player`` (its position), ``account``: the account (name key) that
               is that player, bound by an organiser ("" unbinds)
``drawn``      ``round``, ``games``: ``{table, sides, lineup, bye, codes}`` (the pairings
               themselves; ``codes``: each seated player's code, :mod:`.codes`)
``lineup``     ``game``, ``lineup``, ``codes``: the players actually seated (seed 001: "Dopo
               ogni partita si possono sostituire a piacere uno o entrambi i componenti"),
               until the game's result; a new player gets a new code
``codes``      ``game``, ``codes``: codes for a game drawn before games had them
``table``      ``game``, ``table_id``: the room's table that plays it online
``result``     ``game``, ``totals``, ``source``
``corrected``  ``game``, ``totals``, ``reason``, ``was`` (the totals it replaced)
``adjusted``   ``subject``, ``points``, ``reason``
``hand``       ``game``, ``row``, ``side``: one hand entered at a table playing with real
               cards (the scorekeeper's CSV columns; ``row["hand"]``: the hand number the
               scorer meant, so that a second entry of that hand is refused, or ignored when
               identical); ``side`` (0, 1): the side of the player who entered it, pending
               until the other side confirms (:mod:`.claims`); no ``side``: an organiser's
               entry (or an older log's), which counts at once.  The hand that ends the
               game's confirmed hands records its result
``unhand``     ``game``, ``side``: the last hand taken back, never past a recorded result
               (only an organiser changes a result: ``corrected``, with a reason); with a
               ``side``, only that side's own pending hand
``totals``     ``game``, ``totals``, ``side``: final totals typed by a player of ``side`` at
               the score entry, pending until the other side confirms (then the result,
               source ``entry``)
``confirmed``  ``game``, ``side``, ``hands``, ``totals``: a player of ``side`` confirms the
               other side's pending hands and totals as they saw them (``hands``: the count
               of the game's hands, ``totals``: the pending totals or null); they count now.
               ``leg`` (a best-of-3 match's totals): the number of the match's game they
               are, recorded as a ``leg`` of source ``entry`` (a log without it: the result)
``disputed``   ``game``, ``side``, ``hands``, ``totals``, ``reason``: the other side
               disputes them instead: they go to the organiser's queue
``resolved``   ``game``, ``accept``, ``reason``: an organiser decides what was pending or
               disputed: accepted (it counts; ``leg`` as ``confirmed``), or rejected (the
               pending hands and totals are dropped, the table enters them again)
``closed``     ``round``
``forced``     ``round``, ``reason``, ``games``, ``tables``: the round closed by an organiser
               although the games ``games`` (at the tables ``tables``) had no result
               (:mod:`.missing`); they stay unplayed and count for nobody (their pending
               entries are dropped: nothing awaits a confirmation there)
``clock``      ``round``, ``action`` (``start``, ``pause``, ``resume``, ``adjust``),
               ``minutes``: the round clock (:mod:`.clock`; its time is the event's ``at``)
``withdrawn``  ``entrant``, ``reason`` (may be ""), ``round``: the first round it is not
               drawn in; its games stay, it stays in the standings (marked)
``reinstated`` ``entrant``: drawn again from the next draw
``removed``    ``entrant``, ``entrants`` (every id removed: a neighbourhood goes whole),
               ``names``: before the first draw only (a duplicate entry disappears), and
               not while adjustments naming it (or its neighbourhood) add up to anything
``reserve``    ``entrant``: into the reserve pool (never drawn until promoted)
``promoted``   ``entrant``, ``round``: out of the pool, drawn from that round on (checked in)
``late_entry`` ``entrants`` (as ``registered``), ``round``: registered after the first draw;
               the rounds before ``round`` count by ``Settings.late_rule``
``configured`` any of ``check_in``, ``late_rule``, ``tiebreaks``, ``lot_seed``, ``best_of``
               (the last before the first draw): the organiser's settings changed; once a
               result is in, a recorded ``lot_seed`` never changes and a change of
               ``tiebreaks`` or ``late_rule`` carries its ``reason``
``leg``        ``game``, ``totals``, ``source``, ``leg`` (its number): one game of a best-of-3
               match (a ``result`` of such a tournament is stored as a leg)
``leg_fixed``  ``game``, ``leg``, ``totals``, ``reason``, ``was``: a best-of-3 game corrected
               (a ``corrected`` of such a tournament is stored so)
``undrawn``    ``round``, ``reason``: the last draw undone, before any result (an entrant
               that joined while it was open joins that round again; its clock goes)
``reopened``   ``round``, ``reason``: the last round close undone
``standins``   ``game``, ``seats``: ``[side, position]`` of each seat a bot played for its
               absent player at the game's online table (the room, before its result)
``prizes``     :meth:`belote.tournament.prizes.PrizeList.to_data`: the prize list, by place
               and category (replaces the previous list)
=============  ==============================================================================

A ``result``'s ``source``: ``online``, ``entry`` (the score entry page), ``csv`` (the
scorekeeper's CSV), ``console`` (typed by an organiser); logs made before ``console``
stored a typed result as ``organiser``, replayed as ``console``.  A correction's result
has the source ``organiser``, its reason, and the source it replaced.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from belote.rules import PRESETS
from belote.scorekeeper import ScoreSheet, parse_row
from belote.text import TextError, clean_text
from belote.tournament.claims import Claim, Pending
from belote.tournament.clock import RoundClock, check_clock, clock_after
from belote.tournament.codes import valid_codes
from belote.tournament.formats import TournamentFormat, find_format
from belote.tournament.matches import decided_before_last, match_result
from belote.tournament.missing import Missing, missing_games, missing_tables
from belote.tournament.model import (
    BEST_OF,
    LATE_RULES,
    Adjustment,
    AuditEntry,
    Entrant,
    Game,
    Round,
    Settings,
    Source,
    State,
    TournamentError,
)
from belote.tournament.model import Event as Event  # re-exported: callers read it here
from belote.tournament.prizes import PrizeList, check_prizes
from belote.tournament.results import bye_result, judge
from belote.tournament.sheets import sheet_totals, tournament_rules
from belote.tournament.tiebreaks import check_tiebreaks

MAX_NAME = 80
MAX_REASON = 500
# Bounds that keep every figure inside the store's integer columns and a page readable.
MAX_ENTRANTS = 1024
LIMITS = {"target": 100_000, "rounds": 64, "bye_points": 100_000, "deals": 200}
MAX_ADJUSTMENT = 1000
MAX_SEED = 2 ** 63 - 1  # a drawing of lots' seed fits the store's integers
# Settings the organiser may change after creating the tournament (``configured``).
CONFIGURABLE = ("check_in", "late_rule", "tiebreaks", "lot_seed", "best_of")
SOURCES = ("online", "entry", "csv", "console", "organiser")


def _name(value: Any, code: str = "bad_name") -> str:
    """A tournament, entrant, club or player name, through the chat's text checks
    (:func:`belote.text.clean_text`: valid Unicode, NFC, no control character, no
    bidirectional override); a refusal names the field and changes nothing."""
    try:
        return clean_text(str(value or ""), MAX_NAME)
    except TextError as error:
        if error.code in ("bad_unicode", "control"):
            raise TournamentError("bad_text") from None
        raise TournamentError(code, limit=MAX_NAME) from None


def _reason(value: Any) -> str:
    try:
        return clean_text(str(value or ""), MAX_REASON)
    except TextError as error:
        if error.code == "empty":
            raise TournamentError("reason_needed") from None
        if error.code == "too_long":
            raise TournamentError("reason_too_long", limit=MAX_REASON) from None
        raise TournamentError("bad_text") from None


@dataclass
class Tournament:
    settings: Settings | None = None
    entrants: dict[int, Entrant] = field(default_factory=dict)
    rounds: list[Round] = field(default_factory=list)
    adjustments: list[Adjustment] = field(default_factory=list)
    audit: list[AuditEntry] = field(default_factory=list)
    hands: dict[int, list[dict[str, str]]] = field(default_factory=dict)  # score entry
    # Per game, a side's entries awaiting the other side (.claims); none: every hand counts.
    claims: dict[int, Claim] = field(default_factory=dict)
    clock: RoundClock | None = None  # the round clock (frozen: shared by copies)
    removed: dict[int, Entrant] = field(default_factory=dict)  # before the first draw
    prizes: PrizeList = field(default_factory=PrizeList)  # the organiser's prize list

    # ------------------------------------------------------------------ reading
    @classmethod
    def replay(cls, events: list[Event]) -> Tournament:
        tournament = cls()
        for event in events:
            tournament.apply(event)
        return tournament

    def copy(self) -> Tournament:
        """A copy that :meth:`apply` may change without touching this one: the mutable parts
        (entrants, rounds, games, the lists) are copied; what an event never changes once
        made (settings, results, adjustments, audit entries, entered rows) is shared.  Far
        cheaper than a deep copy of a big tournament's audit log."""
        return Tournament(
            settings=self.settings,
            entrants={k: replace(e) for k, e in self.entrants.items()},
            rounds=[Round(r.number, [replace(g) for g in r.games], r.closed)
                    for r in self.rounds],
            adjustments=list(self.adjustments), audit=list(self.audit),
            hands={k: list(v) for k, v in self.hands.items()}, claims=dict(self.claims),
            clock=self.clock, removed=dict(self.removed), prizes=self.prizes)

    @property
    def s(self) -> Settings:
        if self.settings is None:
            raise TournamentError("not_created")
        return self.settings

    @property
    def fmt(self) -> TournamentFormat:
        """Its format's strategy (:mod:`belote.tournament.formats`): what its pages show and
        every rule that differs between formats."""
        return find_format(self.s.format)

    @property
    def state(self) -> State:
        if not self.rounds:
            return "registration"
        return "finished" if self.complete else "running"

    @property
    def complete(self) -> bool:
        """Every planned round closed (a double elimination: one entrant left standing)."""
        if not self.rounds or not self.rounds[-1].closed:
            return False
        return self.fmt.is_complete(self)

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def games(self) -> list[Game]:
        return [game for rnd in self.rounds for game in rnd.games]

    def game(self, game_id: Any) -> Game:
        for game in self.games():
            if game.id == game_id:
                return game
        raise TournamentError("no_game", game=game_id)

    def entrant(self, entrant_id: Any) -> Entrant:
        entrant = self.entrants.get(entrant_id) if isinstance(entrant_id, int) else None
        if entrant is None:
            raise TournamentError("no_entrant", entrant=entrant_id)
        return entrant

    def clubs(self) -> dict[str, list[Entrant]]:
        out: dict[str, list[Entrant]] = {}
        for entrant in self.entrants.values():
            if entrant.club is not None:
                out.setdefault(entrant.club, []).append(entrant)
        return out

    def side_name(self, side: tuple[int, ...]) -> str:
        return " & ".join(self.entrants[e].name for e in side)

    def sheet(self, game_id: int) -> ScoreSheet:
        """The score sheet of a game played with real cards, from its confirmed hands (the
        ones that count: :mod:`.claims`)."""
        return self._sheet_of(self.hands.get(game_id, [])[:self.counted(game_id)])

    def entered_sheet(self, game_id: int) -> ScoreSheet:
        """Every hand entered, the pending ones too (what the table sees, and what the next
        hand follows)."""
        return self._sheet_of(self.hands.get(game_id, []))

    def _sheet_of(self, rows: list[dict[str, str]]) -> ScoreSheet:
        rules = tournament_rules(self.s)
        sheet = ScoreSheet(rules)
        for row in rows:
            sheet.add(parse_row(row, rules))
        return sheet

    def counted(self, game_id: int) -> int:
        """How many of a game's entered hands count (the first ones)."""
        claim = self.claims.get(game_id)
        return claim.confirmed if claim is not None else len(self.hands.get(game_id, []))

    def pending_confirmations(self) -> list[Pending]:
        """The organiser's queue: every game of an open round whose table has entries one
        side made and the other has not confirmed (disputed or not), by game."""
        out = []
        for game_id, claim in sorted(self.claims.items()):
            game = self.game(game_id)
            if game.result is None and not self.rounds[game.round - 1].closed:
                count = len(self.hands.get(game_id, []))
                out.append(Pending(game, claim, tuple(range(claim.confirmed + 1, count + 1))))
        return out

    def disputes(self) -> list[Pending]:
        """The queue's disputed lines: an organiser decides them."""
        return [line for line in self.pending_confirmations() if line.disputed]

    def _sheet_result(self, game_id: int) -> None:
        try:
            totals = sheet_totals(self.sheet(game_id), self.s)
        except TournamentError:
            return  # the game goes on
        self.game(game_id).result = judge(self.s, totals, "entry")

    # ------------------------------------------------------------------ checking
    def check(self, event: Event) -> Event:
        """The event as it will be stored (names tidied, totals judged); raises
        :class:`TournamentError` and changes nothing if the tournament refuses it."""
        kind, data = event.kind, dict(event.data)
        kind = self._best_of_kind(kind)
        if kind == "created":
            data = self._check_created(data)
        elif self.settings is None:
            raise TournamentError("not_created")
        elif kind == "registered":
            data = self._check_registered(data)
        elif kind == "checked_in":
            self.entrant(data.get("entrant"))
        elif kind == "bound":
            entrant = self.entrant(data.get("entrant"))
            position, account = data.get("player"), data.get("account")
            if (not isinstance(position, int) or not 0 <= position < len(entrant.players)
                    or not isinstance(account, str) or len(account) > MAX_NAME):
                raise TournamentError("bad_binding")
        elif kind == "drawn":
            self._check_drawn(data)
        elif kind == "lineup":
            game = self._open_game(data.get("game"))
            if game.result is not None:
                raise TournamentError("already_recorded", game=game.id)
            if game.table_id is not None:
                # Its online table holds the seats of the drawn players.
                raise TournamentError("table_open", game=game.id)
            lineup = data.get("lineup")
            if (not isinstance(lineup, list) or len(lineup) != len(game.sides)
                    or any(not isinstance(side, list) or len(side) != len(game.lineup[n])
                           for n, side in enumerate(lineup))):
                raise TournamentError("bad_lineup")
            data["lineup"] = [[_name(p, "bad_player") for p in side] for side in lineup]
            if "codes" in data and not valid_codes(data["codes"], data["lineup"]):
                raise TournamentError("bad_codes")
        elif kind == "codes":
            game = self._open_game(data.get("game"))
            if game.codes or not valid_codes(data.get("codes"), game.lineup):
                raise TournamentError("bad_codes")
        elif kind == "table":
            self._open_game(data.get("game"))
        elif kind == "result":
            game = self._open_game(data.get("game"))
            if game.result is not None:
                raise TournamentError("already_recorded", game=game.id)
            if data.get("source") not in SOURCES:
                raise TournamentError("bad_source")
            data["totals"] = list(judge(self.s, data.get("totals") or [], data["source"],
                                        plausible=True).totals)
        elif kind == "corrected":
            game = self.game(data.get("game"))
            if game.result is None or game.bye:
                raise TournamentError("nothing_to_correct", game=game.id)
            data["reason"] = _reason(data.get("reason"))
            data["totals"] = list(judge(self.s, data.get("totals") or [], "organiser",
                                        plausible=True).totals)
            data["was"] = list(game.result.totals)
        elif kind == "adjusted":
            data["reason"] = _reason(data.get("reason"))
            subject = str(data.get("subject", ""))
            if subject not in self.fmt.adjustment_subjects(self):
                raise TournamentError("no_subject", subject=subject)
            points = data.get("points")
            if not isinstance(points, int) or points == 0 or abs(points) > MAX_ADJUSTMENT:
                raise TournamentError("bad_points")
        elif kind == "hand":
            data = self._check_hand(data)
        elif kind == "unhand":
            data = self._check_unhand(data)
        elif kind == "totals":
            data = self._check_totals(data)
        elif kind in ("confirmed", "disputed"):
            data = self._check_confirmed(kind, data)
        elif kind == "resolved":
            data = self._check_resolved(data)
        elif kind in ("standins", "prizes"):
            data = self._check_exports(kind, data)
        elif kind == "closed":
            rnd = self.current
            if rnd is None or rnd.closed or data.get("round") != rnd.number:
                raise TournamentError("no_open_round")
            missing = self.missing_games()
            if missing:  # an organiser may force it, with a reason: ``forced``
                raise TournamentError("still_playing", tables=missing_tables(missing))
        elif kind == "forced":
            data = self._check_forced(data)
        elif kind == "clock":
            data = self._check_clock(data, event.at)
        elif kind == "withdrawn":
            data = self._check_withdrawn(data)
        elif kind == "reinstated":
            data = self._check_reinstated(data)
        elif kind == "removed":
            data = self._check_removed(data)
        elif kind == "reserve":
            data = self._check_reserve(data)
        elif kind == "promoted":
            data = self._check_promoted(data)
        elif kind == "late_entry":
            data = self._check_late_entry(data)
        elif kind == "configured":
            data = self._check_configured(data)
        elif kind == "leg":
            data = self._check_leg(data)
        elif kind == "leg_fixed":
            data = self._check_leg_fixed(data)
        elif kind == "undrawn":
            data = self._check_undrawn(data)
        elif kind == "reopened":
            data = self._check_reopened(data)
        else:
            raise TournamentError("unknown_event", kind=kind)
        return Event(kind, data, event.by, event.at)

    def _check_created(self, data: dict[str, Any]) -> dict[str, Any]:
        if self.settings is not None:
            raise TournamentError("already_created")
        fmt = find_format(str(data.get("format", "")))  # unknown: bad_format, listing them
        if data.get("preset") not in PRESETS:
            raise TournamentError("bad_preset", presets=", ".join(sorted(PRESETS)))
        for key in ("target", "rounds", "bye_points"):
            value = data.get(key, 0)
            if not isinstance(value, int) or not 0 <= value <= LIMITS[key]:
                raise TournamentError("bad_number", field=key)
        if data.get("target", 0) < 1 or data.get("rounds", 0) < 1:
            raise TournamentError("bad_number", field="target/rounds")
        deals = data.get("deals")
        if deals is not None and (not isinstance(deals, int)
                                  or not 1 <= deals <= LIMITS["deals"]):
            raise TournamentError("bad_number", field="deals")
        fmt.check_settings(data)
        if data.get("rank_by", "wins") not in ("wins", "points"):
            raise TournamentError("bad_rank_by")
        self._check_new_settings(data)
        data["name"] = _name(data.get("name"))
        return Settings.from_data(data).to_data()

    def _check_registered(self, data: dict[str, Any], late: bool = False) -> dict[str, Any]:
        if self.rounds and not late:
            raise TournamentError("registration_closed")
        fmt = self.fmt
        wanted = fmt.players_per_entrant
        entrants = data.get("entrants")
        if not isinstance(entrants, list) or not entrants:
            raise TournamentError("bad_entrant")
        fmt.check_entrants(entrants)
        if len(self.entrants) + len(entrants) > MAX_ENTRANTS:
            raise TournamentError("too_many_entrants", limit=MAX_ENTRANTS)
        taken = {e.name for e in self.entrants.values()}
        out = []
        for item in entrants:
            players = [_name(p, "bad_player") for p in item.get("players") or []]
            if len(players) != wanted:
                raise TournamentError("players_count", count=wanted)
            name = _name(item.get("name") or " & ".join(players))
            if name in taken:
                raise TournamentError("name_taken", name=name)
            taken.add(name)
            club = None
            if fmt.has_club:
                club = _name(item.get("club"))
                if club in self.clubs():
                    raise TournamentError("name_taken", name=club)
            out.append({"name": name, "players": players, "club": club,
                        "checked_in": bool(item.get("checked_in", False))})
        return {"entrants": out}

    def _check_drawn(self, data: dict[str, Any]) -> None:
        rnd = self.current
        if rnd is not None and not rnd.closed:
            raise TournamentError("round_open", round=rnd.number)
        if self.complete:
            raise TournamentError("tournament_over")
        if data.get("round") != len(self.rounds) + 1:
            raise TournamentError("bad_round")
        seen: set[int] = set()
        for game in data.get("games") or []:
            if "codes" in game and not valid_codes(game["codes"], game.get("lineup") or []):
                raise TournamentError("bad_codes")
            for side in game["sides"]:
                for entrant_id in side:
                    self.entrant(entrant_id)
                    if entrant_id in seen:
                        raise TournamentError("drawn_twice", entrant=entrant_id)
                    seen.add(entrant_id)

    def _open_game(self, game_id: Any) -> Game:
        game = self.game(game_id)
        rnd = self.rounds[game.round - 1]
        if rnd.closed:
            raise TournamentError("round_closed", round=rnd.number)
        if game.bye:
            raise TournamentError("bye_game")
        return game

    # ------------------------------------------------------------------ applying
    def apply(self, event: Event) -> None:
        """Apply a checked (or stored) event; no validation here."""
        kind, data = event.kind, event.data
        if kind == "created":
            self.settings = Settings.from_data(data)
        elif kind == "registered":
            for item in data["entrants"]:
                entrant_id = len(self.entrants) + len(self.removed) + 1
                self.entrants[entrant_id] = Entrant(
                    entrant_id, item["name"], tuple(item["players"]), item.get("club"),
                    bool(item.get("checked_in", False)))
        elif kind == "checked_in":
            self.entrants[data["entrant"]].checked_in = True
        elif kind == "bound":
            entrant = self.entrants[data["entrant"]]
            accounts = [entrant.account(n) for n in range(len(entrant.players))]
            accounts[data["player"]] = data["account"]
            entrant.accounts = tuple(accounts)
        elif kind == "drawn":
            rnd = Round(data["round"])
            first = len(self.games()) + 1
            for index, item in enumerate(data["games"]):
                sides = tuple(tuple(side) for side in item["sides"])
                game = Game(first + index, rnd.number, item["table"], sides,
                            tuple(tuple(side) for side in item.get("lineup") or ()),
                            tuple(tuple(side) for side in item.get("codes") or ()))
                if game.bye:
                    game.result = bye_result(self.s)
                rnd.games.append(game)
            self.rounds.append(rnd)
        elif kind == "lineup":
            game = self.game(data["game"])
            game.lineup = tuple(tuple(side) for side in data["lineup"])
            game.codes = tuple(tuple(side) for side in data.get("codes") or ())
        elif kind == "codes":
            self.game(data["game"]).codes = tuple(tuple(side) for side in data["codes"])
        elif kind == "table":
            self.game(data["game"]).table_id = int(data["table_id"])
        elif kind == "result":
            source: Source = data["source"]
            # Before "console" existed, a typed result was stored as "organiser".
            source = "console" if source == "organiser" else source
            self.game(data["game"]).result = judge(self.s, data["totals"], source)
        elif kind == "corrected":
            game = self.game(data["game"])
            replaced = game.result.source if game.result is not None else None
            game.result = replace(judge(self.s, data["totals"], "organiser"),
                                  reason=data["reason"], replaced=replaced)
        elif kind == "adjusted":
            self.adjustments.append(Adjustment(data["subject"], data["points"],
                                               data["reason"], event.by))
        elif kind == "hand":
            self._apply_hand(event)
        elif kind == "unhand":
            self._apply_unhand(data)
        elif kind == "totals":
            self._apply_totals(event)
        elif kind in ("confirmed", "resolved"):
            self._apply_confirmed(kind, data)
        elif kind == "disputed":
            self._apply_disputed(data)
        elif kind == "closed":
            self.rounds[data["round"] - 1].closed = True
        elif kind == "forced":
            self._apply_forced(data)
        elif kind == "clock":
            self.clock = (None if self.clock is None and data["action"] != "start"
                          else clock_after(self.clock, data, event.at))
        elif kind == "withdrawn":
            self.entrants[data["entrant"]].withdrawn = True
        elif kind == "reinstated":
            self.entrants[data["entrant"]].withdrawn = False
        elif kind == "removed":
            self._apply_removed(data)
        elif kind == "reserve":
            self.entrants[data["entrant"]].reserve = True
        elif kind == "promoted":
            self._apply_promoted(data)
        elif kind == "late_entry":
            self._apply_late_entry(data)
        elif kind == "configured":
            self.settings = Settings.from_data({**self.s.to_data(), **data})
        elif kind == "leg":
            self._apply_leg(data)
        elif kind == "leg_fixed":
            self._apply_leg_fixed(data)
        elif kind == "undrawn":
            self._apply_undrawn(data)
        elif kind == "reopened":
            self.rounds[data["round"] - 1].closed = False
            for game in self.rounds[data["round"] - 1].games:
                # a forced close undone: its games may have results
                game.unplayed, game.unplayed_reason = False, ""
        elif kind in ("standins", "prizes"):
            self._apply_exports(kind, data)
        self.audit.append(AuditEntry(len(self.audit) + 1, kind, data, event.by, event.at))

    # ------------------------------------------------------------------ score entry
    # Hands and totals entered at a table playing with real cards, and their confirmation by
    # the other side (.claims): one block, the check then the apply of each kind.
    def _side(self, data: dict[str, Any], needed: bool = True) -> int | None:
        side = data.get("side")
        if side is None and not needed:
            return None
        if side not in (0, 1) or isinstance(side, bool):
            raise TournamentError("bad_side")
        return int(side)

    def _scored_game(self, data: dict[str, Any]) -> Game:
        game = self._open_game(data.get("game"))
        if game.result is not None:
            raise TournamentError("already_recorded", game=game.id)
        return game

    def _may_enter(self, game: Game, side: int | None) -> None:
        """A side enters while nothing of the other side's awaits it; an organiser (no
        side) while nothing awaits anyone (the queue first)."""
        claim = self.claims.get(game.id)
        if claim is None:
            return
        if claim.disputed:
            raise TournamentError("disputed", table=game.table)
        if side is None:
            raise TournamentError("awaits_confirmation", table=game.table)
        if side != claim.side:
            raise TournamentError("confirm_first")
        if claim.totals is not None:
            raise TournamentError("totals_pending")

    def _check_hand(self, data: dict[str, Any]) -> dict[str, Any]:
        game = self._scored_game(data)
        side = self._side(data, needed=False)
        row = {str(k): str(v) for k, v in dict(data.get("row") or {}).items()}
        rules = tournament_rules(self.s)
        entry = parse_row(row, rules)  # ScoreError: refused
        rows = self.hands.get(game.id, [])
        if entry.number is not None and 1 <= entry.number <= len(rows):
            # Two scorers entered the same hand: stored once.
            stored = parse_row(rows[entry.number - 1], rules)
            if replace(stored, number=None) == replace(entry, number=None):
                raise TournamentError("hand_entered_same", hand=entry.number)
            raise TournamentError("hand_entered", hand=entry.number)
        self._may_enter(game, side)
        sheet = self.entered_sheet(game.id)
        sheet.add(entry)  # ScoreError: refused (a hand number ahead of the sheet, too)
        if self.s.deals is not None and len(sheet.hands) > self.s.deals:
            raise TournamentError("too_many_hands", deals=self.s.deals)
        out: dict[str, Any] = {"game": game.id, "row": row}
        if side is not None:
            out["side"] = side
        return out

    def _apply_hand(self, event: Event) -> None:
        data = event.data
        rows = self.hands.setdefault(data["game"], [])
        if data.get("side") is not None and data["game"] not in self.claims:
            self.claims[data["game"]] = Claim(data["side"], len(rows), since=event.at)
        rows.append(data["row"])
        self._sheet_result(data["game"])

    def _check_unhand(self, data: dict[str, Any]) -> dict[str, Any]:
        game = self._open_game(data.get("game"))
        rows = self.hands.get(game.id)
        if not rows:
            raise TournamentError("nothing_to_correct", game=game.id)
        if game.result is not None:
            # The scorer's undo stops at the result: an organiser corrects it.
            raise TournamentError("result_locked", game=game.id)
        side = self._side(data, needed=False)
        out: dict[str, Any] = {"game": game.id}
        if side is not None:
            # A player takes back only their own side's hand that nobody confirmed yet.
            claim = self.claims.get(game.id)
            if claim is None or claim.side != side or claim.confirmed >= len(rows):
                raise TournamentError("hand_confirmed", hand=len(rows))
            if claim.disputed:
                raise TournamentError("disputed", table=game.table)
            out["side"] = side
        return out

    def _apply_unhand(self, data: dict[str, Any]) -> None:
        game_id = data["game"]
        rows = self.hands[game_id]
        rows.pop()
        self.game(game_id).result = None
        claim = self.claims.get(game_id)
        if claim is not None:
            if claim.confirmed >= len(rows) and claim.totals is None:
                del self.claims[game_id]
            elif claim.confirmed > len(rows):
                self.claims[game_id] = replace(claim, confirmed=len(rows))

    def _check_totals(self, data: dict[str, Any]) -> dict[str, Any]:
        game = self._scored_game(data)
        side = self._side(data)
        claim = self.claims.get(game.id)
        if claim is not None:
            if claim.disputed:
                raise TournamentError("disputed", table=game.table)
            if claim.side != side:
                raise TournamentError("confirm_first")
        totals = judge(self.s, data.get("totals") or [], "entry", plausible=True).totals
        return {"game": game.id, "totals": list(totals), "side": side}

    def _apply_totals(self, event: Event) -> None:
        data = event.data
        game_id = data["game"]
        claim = self.claims.get(game_id) or Claim(
            data["side"], len(self.hands.get(game_id, [])), since=event.at)
        self.claims[game_id] = replace(claim, totals=(data["totals"][0], data["totals"][1]))

    def _check_confirmed(self, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        """A player of the other side confirms (or disputes) what stands, as they saw it."""
        game = self._scored_game(data)
        side = self._side(data)
        claim = self.claims.get(game.id)
        if claim is None:
            raise TournamentError("nothing_pending")
        if claim.side == side:
            raise TournamentError("other_side_confirms")
        if claim.disputed:
            raise TournamentError("disputed", table=game.table)
        seen = data.get("totals")
        totals = None if claim.totals is None else list(claim.totals)
        if data.get("hands") != len(self.hands.get(game.id, [])) or seen != totals:
            raise TournamentError("pending_changed")
        out = {"game": game.id, "side": side, "hands": data["hands"], "totals": totals}
        if kind == "disputed":
            text = str(data.get("reason") or "").strip()
            out["reason"] = _reason(text) if text else ""
        else:
            out.update(self._leg_of(game, claim))
        return out

    def _apply_disputed(self, data: dict[str, Any]) -> None:
        claim = self.claims[data["game"]]
        self.claims[data["game"]] = replace(claim, dispute=data["reason"])

    def _check_resolved(self, data: dict[str, Any]) -> dict[str, Any]:
        """An organiser's decision on the queue's line (the caller checked the role)."""
        game = self._scored_game(data)
        if game.id not in self.claims:
            raise TournamentError("nothing_pending")
        accept = data.get("accept")
        if not isinstance(accept, bool):
            raise TournamentError("bad_form")
        out = {"game": game.id, "accept": accept, "reason": _reason(data.get("reason"))}
        if accept:
            out.update(self._leg_of(game, self.claims[game.id]))
        return out

    def _leg_of(self, game: Game, claim: Claim) -> dict[str, Any]:
        """A best-of-3 match's confirmed totals are one game of the match: the event says
        which (``leg``), and its apply records it as a ``leg`` of source ``entry``.  Without
        ``leg`` (a single game, or a log written before) the totals are the game's result."""
        if self.s.best_of == 1 or claim.totals is None:
            return {}
        return {"leg": len(game.legs) + 1}

    def _apply_confirmed(self, kind: str, data: dict[str, Any]) -> None:
        game_id = data["game"]
        claim = self.claims.pop(game_id)
        if kind == "resolved" and not data["accept"]:
            del self.hands.setdefault(game_id, [])[claim.confirmed:]
            return
        if claim.totals is not None and "leg" in data:
            self._apply_leg({"game": game_id, "totals": list(claim.totals),
                             "source": "entry"})
        elif claim.totals is not None:
            self.game(game_id).result = judge(self.s, claim.totals, "entry")
        else:
            self._sheet_result(game_id)
    # ------------------------------------------------------------------ the round's end
    # (issue 24: the console's missing tables, the forced close, the round clock)
    def missing_games(self) -> list[Missing]:
        """The games of the open round whose result is not in (:mod:`.missing`)."""
        return missing_games(self)

    def _check_forced(self, data: dict[str, Any]) -> dict[str, Any]:
        """An organiser closes the round although results are missing, with a reason;
        the missing games are named in the event (they stay unplayed)."""
        rnd = self.current
        if rnd is None or rnd.closed or data.get("round") != rnd.number:
            raise TournamentError("no_open_round")
        reason = _reason(data.get("reason"))
        missing = self.missing_games()
        if not missing:
            raise TournamentError("nothing_missing")
        return {"round": rnd.number, "reason": reason,
                "games": [m.game.id for m in missing],
                "tables": [m.game.table for m in missing]}

    def _apply_forced(self, data: dict[str, Any]) -> None:
        for game_id in data["games"]:
            game = self.game(game_id)
            game.unplayed, game.unplayed_reason = True, data["reason"]
            # Nothing awaits a confirmation at a game not played: no page offers it.  Its
            # pending hands go with the claim (as a rejection drops them), so that a
            # reopened round never counts them unconfirmed.
            claim = self.claims.pop(game_id, None)
            if claim is not None:
                del self.hands.setdefault(game_id, [])[claim.confirmed:]
        self.rounds[data["round"] - 1].closed = True

    def _check_clock(self, data: dict[str, Any], at: str) -> dict[str, Any]:
        rnd = self.current
        return check_clock(self.clock, None if rnd is None or rnd.closed else rnd.number,
                           data, at)

    # ------------------------------------------------ entrants, settings, matches, undo
    # (issue 24: withdrawals, removal, reserves, late entries, the organiser's settings,
    # best-of-3 matches, undoing a draw or a round's close)
    def _best_of_kind(self, kind: str) -> str:
        """A best-of-3 tournament stores a game's result as one game of its match (a leg),
        and a correction as a leg's; its games are typed (console or CLI, or as final totals
        at the score entry, confirmed by the other side: :meth:`_leg_of`), not played at an
        online table or entered hand by hand, which are refused, saying so."""
        if self.settings is None or self.settings.best_of == 1:
            return kind
        if kind in ("hand", "unhand", "table"):
            raise TournamentError("best_of_typed")
        return {"result": "leg", "corrected": "leg_fixed"}.get(kind, kind)

    def _check_new_settings(self, data: dict[str, Any]) -> None:
        """The settings of issue 24 in ``data`` (created, or merged by ``configured``)."""
        if data.get("check_in") is not None and not isinstance(data["check_in"], bool):
            raise TournamentError("bad_settings", field="check_in")
        if data.get("late_rule", "zero") not in LATE_RULES:
            raise TournamentError("bad_late_rule", rules=", ".join(LATE_RULES))
        best_of = data.get("best_of", 1)
        if best_of not in BEST_OF or isinstance(best_of, bool):
            raise TournamentError("bad_best_of")
        if best_of > 1 and data.get("deals") is not None:
            raise TournamentError("best_of_to_target")
        tiebreaks = data.get("tiebreaks")
        if tiebreaks is not None:
            tiebreaks = check_tiebreaks(tiebreaks)
        seed = data.get("lot_seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)
                                 or not 0 <= seed <= MAX_SEED):
            raise TournamentError("bad_settings", field="lot_seed")
        if tiebreaks is not None and "lot" in tiebreaks and seed is None:
            raise TournamentError("lot_needs_seed")

    def _check_configured(self, data: dict[str, Any]) -> dict[str, Any]:
        given = {key: data[key] for key in CONFIGURABLE if key in data}
        if not given:
            raise TournamentError("bad_settings", field=", ".join(CONFIGURABLE))
        if "best_of" in given and self.rounds and given["best_of"] != self.s.best_of:
            raise TournamentError("best_of_drawn")
        merged = {**self.s.to_data(), **given}
        self._check_new_settings(merged)
        settled = Settings.from_data(merged).to_data()
        out: dict[str, Any] = {key: settled[key] for key in given}
        before = self.s.to_data()
        if self._has_results():
            # The drawing of lots is seeded once and recorded: a new seed would reorder
            # standings already read out.  The tie-breaks and the late rule may change for
            # a reason the log keeps.
            if before["lot_seed"] is not None and settled["lot_seed"] != before["lot_seed"]:
                raise TournamentError("lot_seed_recorded")
            if any(self._in_force(settled, key) != self._in_force(before, key)
                   for key in ("tiebreaks", "late_rule") if key in given):
                if not str(data.get("reason") or "").strip():
                    raise TournamentError("settings_reason")
                out["reason"] = _reason(data["reason"])
        return out

    def _in_force(self, settings: dict[str, Any], key: str) -> Any:
        """A setting as it acts (no tie-breaks chosen: the format's)."""
        value = settings[key]
        if key == "tiebreaks":
            return tuple(self.fmt.default_tiebreaks if value is None else value)
        return value

    def _has_results(self) -> bool:
        """Whether a game (a bye aside) has a result or a game of its match."""
        return any(not game.bye and (game.result is not None or game.legs)
                   for game in self.games())

    def _live_entrant(self, data: dict[str, Any]) -> Entrant:
        """The entrant named by ``data``, of a tournament still to be played."""
        entrant = self.entrant(data.get("entrant"))
        if self.complete:
            raise TournamentError("tournament_over")
        return entrant

    def _has_played(self, entrant_id: int) -> bool:
        return any(entrant_id in side for game in self.games() for side in game.sides)

    def _check_withdrawn(self, data: dict[str, Any]) -> dict[str, Any]:
        entrant = self._live_entrant(data)
        if entrant.withdrawn:
            raise TournamentError("already_withdrawn", name=entrant.name)
        if entrant.reserve:
            raise TournamentError("is_reserve", name=entrant.name)
        reason = _reason(data["reason"]) if str(data.get("reason") or "").strip() else ""
        return {"entrant": entrant.id, "reason": reason, "round": len(self.rounds) + 1}

    def _check_reinstated(self, data: dict[str, Any]) -> dict[str, Any]:
        entrant = self._live_entrant(data)
        if not entrant.withdrawn:
            raise TournamentError("not_withdrawn", name=entrant.name)
        return {"entrant": entrant.id}

    def _check_removed(self, data: dict[str, Any]) -> dict[str, Any]:
        entrant = self.entrant(data.get("entrant"))
        if self.rounds:
            # Its games are part of others' records: a withdrawal keeps them.
            raise TournamentError("remove_after_draw", name=entrant.name)
        group = ([e for e in self.entrants.values() if e.club == entrant.club]
                 if self.fmt.group_size > 1 and entrant.club is not None else [entrant])
        # An adjustment names a subject (a neighbourhood, else an entrant); removing the
        # subject would leave its points to no one (the ranking refuses a stranger): refused
        # while they add up to something (an adjustment cancelled by its opposite does not).
        for subject in {entrant.name, *(e.club for e in group if e.club is not None)}:
            if sum(a.points for a in self.adjustments if a.subject == subject):
                raise TournamentError("remove_adjusted", name=subject)
        return {"entrant": entrant.id, "entrants": [e.id for e in group],
                "names": [e.name for e in group]}

    def _apply_removed(self, data: dict[str, Any]) -> None:
        for entrant_id in data["entrants"]:
            self.removed[entrant_id] = self.entrants.pop(entrant_id)

    def _check_reserve(self, data: dict[str, Any]) -> dict[str, Any]:
        entrant = self._live_entrant(data)
        if self.fmt.has_club:  # a neighbourhood is its two pairs: both play
            raise TournamentError("no_reserves")
        if entrant.reserve or entrant.withdrawn or self._has_played(entrant.id):
            raise TournamentError("cannot_reserve", name=entrant.name)
        return {"entrant": entrant.id}

    def _check_promoted(self, data: dict[str, Any]) -> dict[str, Any]:
        entrant = self._live_entrant(data)
        if not entrant.reserve:
            raise TournamentError("not_reserve", name=entrant.name)
        return {"entrant": entrant.id, "round": len(self.rounds) + 1}

    def _apply_promoted(self, data: dict[str, Any]) -> None:
        entrant = self.entrants[data["entrant"]]
        entrant.reserve = False
        entrant.checked_in = True  # promoted because present
        entrant.joined = int(data["round"])

    def _check_late_entry(self, data: dict[str, Any]) -> dict[str, Any]:
        if not self.rounds:
            raise TournamentError("not_late")  # before the first draw: a registration
        if not self.fmt.allows_late_entry:
            raise TournamentError("no_late_entry")
        if self.complete:
            raise TournamentError("tournament_over")
        out = self._check_registered(data, late=True)
        return {"entrants": out["entrants"], "round": len(self.rounds) + 1}

    def _apply_late_entry(self, data: dict[str, Any]) -> None:
        for item in data["entrants"]:
            entrant_id = len(self.entrants) + len(self.removed) + 1
            self.entrants[entrant_id] = Entrant(
                entrant_id, item["name"], tuple(item["players"]), item.get("club"),
                checked_in=True, joined=int(data["round"]))

    def _check_leg(self, data: dict[str, Any]) -> dict[str, Any]:
        game = self._open_game(data.get("game"))
        if game.result is not None:
            raise TournamentError("already_recorded", game=game.id)
        if data.get("source") not in SOURCES:
            raise TournamentError("bad_source")
        totals = list(judge(self.s, data.get("totals") or [], data["source"],
                            plausible=True).totals)
        return {"game": game.id, "totals": totals, "source": data["source"],
                "leg": len(game.legs) + 1}

    def _apply_leg(self, data: dict[str, Any]) -> None:
        game = self.game(data["game"])
        game.legs = (*game.legs, judge(self.s, data["totals"], data["source"]))
        game.result = match_result(game.legs, self.s.best_of)

    def _check_leg_fixed(self, data: dict[str, Any]) -> dict[str, Any]:
        game = self.game(data.get("game"))
        if not game.legs:
            raise TournamentError("nothing_to_correct", game=game.id)
        number = data.get("leg", len(game.legs))
        if not isinstance(number, int) or not 1 <= number <= len(game.legs):
            raise TournamentError("bad_leg", game=game.id, count=len(game.legs))
        reason = _reason(data.get("reason"))
        fixed = judge(self.s, data.get("totals") or [], "organiser", plausible=True)
        legs = list(game.legs)
        legs[number - 1] = fixed
        closed = self.rounds[game.round - 1].closed
        if decided_before_last(legs, self.s.best_of) or (
                closed and match_result(legs, self.s.best_of) is None):
            raise TournamentError("bad_legs", game=game.id)
        return {"game": game.id, "leg": number, "totals": list(fixed.totals),
                "reason": reason, "was": list(game.legs[number - 1].totals)}

    def _apply_leg_fixed(self, data: dict[str, Any]) -> None:
        game = self.game(data["game"])
        legs = list(game.legs)
        was = legs[data["leg"] - 1]
        legs[data["leg"] - 1] = replace(
            judge(self.s, data["totals"], "organiser"), reason=data["reason"],
            replaced=was.replaced if was.source == "organiser" else was.source)
        game.legs = tuple(legs)
        game.result = match_result(game.legs, self.s.best_of)

    def _check_undrawn(self, data: dict[str, Any]) -> dict[str, Any]:
        rnd = self.current
        if rnd is None or rnd.closed or data.get("round") != rnd.number:
            raise TournamentError("no_open_round")
        started = [g.table for g in rnd.games if not g.bye and (
            g.result is not None or g.legs or self.hands.get(g.id) or g.id in self.claims
            or g.table_id is not None)]
        if started:
            raise TournamentError("draw_started", tables=", ".join(map(str, started)))
        return {"round": rnd.number, "reason": _reason(data.get("reason"))}

    def _apply_undrawn(self, data: dict[str, Any]) -> None:
        number = int(data["round"])
        self.rounds.pop()
        for entrant in self.entrants.values():
            # Joined while the undone round was open (a late entry, a promoted reserve):
            # it joins that round again, drawn in it, not credited it as missed too.
            entrant.joined = min(entrant.joined, number)
        if self.clock is not None and self.clock.round == number:
            self.clock = None  # the undone round's clock: the next draw starts its own

    def _check_reopened(self, data: dict[str, Any]) -> dict[str, Any]:
        rnd = self.current
        if rnd is None or not rnd.closed or data.get("round") != rnd.number:
            raise TournamentError("no_closed_round")
        return {"round": rnd.number, "reason": _reason(data.get("reason"))}

    # ------------------------------------------------ stand-ins and prizes (issue 24)
    def _check_exports(self, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        if kind == "prizes":
            return check_prizes(self, data)
        game = self.game(data.get("game"))
        seats = data.get("seats")
        if not isinstance(seats, list) or any(
                not isinstance(seat, list) or len(seat) != 2
                or not all(isinstance(n, int) for n in seat)
                or not 0 <= seat[0] < len(game.lineup)
                or not 0 <= seat[1] < len(game.lineup[seat[0]]) for seat in seats):
            raise TournamentError("bad_standins")
        return {"game": game.id, "seats": sorted({(a, b) for a, b in seats})}

    def _apply_exports(self, kind: str, data: dict[str, Any]) -> None:
        if kind == "prizes":
            self.prizes = PrizeList.from_data(data)
            return
        game = self.game(data["game"])
        game.standins = tuple(sorted({*game.standins, *(tuple(s) for s in data["seats"])}))

    def do(self, event: Event) -> Event:
        """Check and apply (for a tournament kept in memory, e.g. in tests)."""
        checked = self.check(event)
        self.apply(checked)
        return checked
