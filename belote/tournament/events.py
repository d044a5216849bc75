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
``hand``       ``game``, ``row``: one hand entered at a table playing with real cards (the
               scorekeeper's CSV columns); the hand that ends the game records its result
``unhand``     ``game``: the last hand taken back, never past a recorded result (only an
               organiser changes a result: ``corrected``, with a reason)
``closed``     ``round``
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
from belote.tournament.codes import valid_codes
from belote.tournament.formats import TournamentFormat, find_format
from belote.tournament.model import (
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

MAX_NAME = 80
MAX_REASON = 500
# Bounds that keep every figure inside the store's integer columns and a page readable.
MAX_ENTRANTS = 1024
LIMITS = {"target": 100_000, "rounds": 64, "bye_points": 100_000, "deals": 200}
MAX_ADJUSTMENT = 1000
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
            hands={k: list(v) for k, v in self.hands.items()}, prizes=self.prizes)

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
        """The score sheet of a game played with real cards, from its entered hands."""
        rules = tournament_rules(self.s)
        sheet = ScoreSheet(rules)
        for row in self.hands.get(game_id, []):
            sheet.add(parse_row(row, rules))
        return sheet

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
            data["totals"] = list(judge(self.s, data.get("totals") or [], "entry").totals)
        elif kind == "corrected":
            game = self.game(data.get("game"))
            if game.result is None or game.bye:
                raise TournamentError("nothing_to_correct", game=game.id)
            data["reason"] = _reason(data.get("reason"))
            data["totals"] = list(judge(self.s, data.get("totals") or [], "organiser").totals)
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
            game = self._open_game(data.get("game"))
            if game.result is not None:
                raise TournamentError("already_recorded", game=game.id)
            row = {str(k): str(v) for k, v in dict(data.get("row") or {}).items()}
            sheet = self.sheet(game.id)
            sheet.add(parse_row(row, tournament_rules(self.s)))  # ScoreError: refused
            if self.s.deals is not None and len(sheet.hands) > self.s.deals:
                raise TournamentError("too_many_hands", deals=self.s.deals)
            data["row"] = row
        elif kind == "unhand":
            game = self._open_game(data.get("game"))
            if not self.hands.get(game.id):
                raise TournamentError("nothing_to_correct", game=game.id)
            if game.result is not None:
                # The scorer's undo stops at the result: an organiser corrects it.
                raise TournamentError("result_locked", game=game.id)
        elif kind in ("standins", "prizes"):
            data = self._check_exports(kind, data)
        elif kind == "closed":
            rnd = self.current
            if rnd is None or rnd.closed or data.get("round") != rnd.number:
                raise TournamentError("no_open_round")
            playing = [g.table for g in rnd.games if g.playing]
            if playing:
                raise TournamentError("still_playing", tables=", ".join(map(str, playing)))
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
        data["name"] = _name(data.get("name"))
        return Settings.from_data(data).to_data()

    def _check_registered(self, data: dict[str, Any]) -> dict[str, Any]:
        if self.rounds:
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
                entrant_id = len(self.entrants) + 1
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
            self.hands.setdefault(data["game"], []).append(data["row"])
            self._sheet_result(data["game"])
        elif kind == "unhand":
            self.hands[data["game"]].pop()
            self.game(data["game"]).result = None
        elif kind == "closed":
            self.rounds[data["round"] - 1].closed = True
        elif kind in ("standins", "prizes"):
            self._apply_exports(kind, data)
        self.audit.append(AuditEntry(len(self.audit) + 1, kind, data, event.by, event.at))

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
