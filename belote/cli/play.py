"""`belote play`: a human against three bots, one line at a time, for screen readers.

No full-screen UI: every event is one sentence on its own line, in the chosen language, and
the keys mirror the seed's room (seed 002, "Resumen de los atajos de teclado"): c cards on
the table, a trump, f lead suit, s scores, b or space belote/rebelote, a number or a card
name then Enter to play, ? help.  Bad input gets a message and changes nothing.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from belote.ai import DECLINE, make_bot
from belote.ai.base import Player
from belote.ai.registry import check_seatable
from belote.cards import cards_in
from belote.engine import actions as A
from belote.engine.dealing import secure_deck_source, seeded_deck_source
from belote.engine.events import Event
from belote.engine.observation import Observation
from belote.engine.state import Game
from belote.errors import InvalidNotationError
from belote.i18n import (
    LANGUAGES,
    action_name,
    card_name,
    describe_event,
    join_list,
    preset_name,
    seat_name,
    translate,
)
from belote.i18n.bids import (
    BidNotAllowed,
    BidNotUnderstood,
    bid_examples,
    parse_bid,
    refused_bid_text,
)
from belote.i18n.parse import parse_card_play
from belote.i18n.refusals import explain
from belote.i18n.status import status_text
from belote.records import save_record, to_record
from belote.rules import find_preset
from belote.sim.match import play_step

HUMAN_SEAT = 2  # South; the partner is North (seat 0)
STATUS_KEYS = ("c", "a", "f", "s", "h", "?")
HELP_KEYS = ("cards", "trump", "lead", "scores", "hand", "belote", "play", "help", "quit")


class Quit(Exception):
    """The player typed q (or closed the input)."""


class TerminalPlayer:
    """The human seat: reads commands, answers status keys, returns legal actions."""

    def __init__(self, game: Game, lang: str, stdin: TextIO, stdout: TextIO,
                 names: list[str], seat: int = HUMAN_SEAT) -> None:
        self.name = names[seat]
        self.game = game
        self.lang = lang
        self.stdin = stdin
        self.stdout = stdout
        self.names = names
        self.belote_armed = False
        self.contracts: list[int] = []

    def say(self, text: str) -> None:
        print(text, file=self.stdout, flush=True)

    def t(self, key: str, **values: object) -> str:
        return translate(self.lang, key, **values)

    def notify(self, event: Event) -> None:
        pass  # the table's listener speaks every event

    # ------------------------------------------------------------------ status keys
    def status(self, key: str, obs: Observation) -> str:
        lang = self.lang
        if key == "?":
            lines = [self.t("ui.help.title")] + [self.t(f"ui.help.{k}") for k in HELP_KEYS]
            return "\n".join(lines)
        if key == "h":
            return self.t("ui.hand", cards=self._cards(cards_in(obs.hand)))
        question = {"c": "table", "a": "trump", "f": "lead"}.get(key, "scores")
        return status_text(question, obs, lang, self.names)

    def _cards(self, cards: object) -> str:
        sep = translate(self.lang, "list.separator")
        return sep.join(card_name(c, self.lang) for c in cards)  # type: ignore[attr-defined]

    # ------------------------------------------------------------------ input
    def read(self) -> str:
        self.stdout.write("> ")
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            raise Quit
        return line.rstrip("\r\n")

    def choose(self, obs: Observation) -> int:
        legal = obs.legal_actions
        if legal == (A.ANNOUNCE_BELOTE,):
            return self._after_card()
        rules = self.game.rules
        contracts = [a for a in legal if A.CONTRACT_BASE <= a < A.CONTRACT_END]
        if legal[0] >= A.PASS:
            options = [a for a in legal if a != A.ANNOUNCE_BELOTE and a not in contracts]
            labels = [action_name(a, self.lang, rules) for a in options]
            prompt = self.t("ui.prompt.bid", options=self._numbered(labels))
            if contracts and rules.auction is not None:
                # Hundreds of contracts are never read out: the player types one.
                levels = rules.auction.levels
                low = levels[A.contract_level_index(contracts[0])]
                prompt += " " + self.t("ui.prompt.contract", low=low, high=levels[-1],
                                       example=action_name(contracts[0], self.lang, rules))
        else:
            options = [a for a in legal if a < A.PLAY_ANNOUNCE_BASE]
            extras = [a for a in legal if A.is_table_talk(a)]
            labels = [card_name(a, self.lang) for a in options]
            prompt = self.t("ui.prompt.your_turn", cards=self._numbered(labels))
            if extras:
                prompt += " " + self.t(
                    "ui.prompt.announce",
                    options=self._numbered([action_name(a, self.lang, rules) for a in extras],
                                           start=len(options) + 1))
                options += extras
                labels += [action_name(a, self.lang, rules) for a in extras]
        self.contracts = contracts
        self.say(prompt)
        while True:
            line = self.read()
            action = self._interpret(line, obs, options, labels)
            if action is not None:
                return action

    def _after_card(self) -> int:
        self.say(self.t("ui.prompt.after_card"))
        line = self.read()
        if line.strip().lower() == "b" or (line and not line.strip()):
            return A.ANNOUNCE_BELOTE
        if line.strip().lower() == "q":
            raise Quit
        return DECLINE

    def _numbered(self, labels: list[str], start: int = 1) -> str:
        sep = translate(self.lang, "list.separator")
        return sep.join(self.t("ui.numbered", number=i, item=label)
                        for i, label in enumerate(labels, start=start))

    def _interpret(self, line: str, obs: Observation, options: list[int],
                   labels: list[str]) -> int | None:
        """The action a line asks for, or None after answering it (status, help, error)."""
        word = line.strip().lower()
        if line and not word:
            word = "b"  # the space bar
        if not word:
            return None
        if word == "q":
            raise Quit
        if word in STATUS_KEYS:
            self.say(self.status(word, obs))
            return None
        if word == "b":
            return self._belote_key(obs)
        if word.isdigit():
            number = int(word)
            if 1 <= number <= len(options):
                return self._with_belote(options[number - 1], obs)
            self.say(self.t("error.bad_number", number=number))
            return None
        assert obs.seat is not None
        try:  # one parser for bids, here and in the web room's command box
            return self._with_belote(parse_bid(line, [*options, *self.contracts], self.game.rules),
                                     obs)
        except BidNotAllowed as refused:  # the room's sentence: the reason and the range
            self.say(refused_bid_text(self.game, obs.seat, refused, self.lang))
            return None
        except BidNotUnderstood:
            pass
        try:  # one parser for cards too ("JH", "fante di cuori", "KH belote")
            play = parse_card_play(line, self.lang)
        except InvalidNotationError:
            unknown = self.t("error.unknown_input", text=line.strip())
            if options[0] >= A.PASS:  # bidding: a few calls that may be made now
                legal = obs.legal_actions
                unknown += " " + bid_examples(legal, self.game.rules, self.lang)
            self.say(unknown.strip())
            return None
        if options[0] >= A.PASS:
            self.say(self.t("error.bidding_in_progress"))
            return None
        if play in obs.legal_actions:  # the numbered options leave out "KH belote"
            return self._with_belote(play, obs)
        assert obs.seat is not None
        self.say(explain(self.game, play, obs.seat, self.lang))
        return None

    def _belote_key(self, obs: Observation) -> int | None:
        if any(A.announces(a) for a in obs.legal_actions):
            self.belote_armed = True
            self.say(self.t("ui.belote_armed"))
        else:
            self.say(self.t("error.no_belote_to_announce"))
        return None

    def _with_belote(self, action: int, obs: Observation) -> int:
        if A.announces(action):  # typed with its belote ("KH belote"): armed or not
            self.belote_armed = False
            return action
        if self.belote_armed and A.is_play(action):
            combined = A.PLAY_ANNOUNCE_BASE + action
            if combined in obs.legal_actions:
                self.belote_armed = False
                return combined
        return action


def run_terminal_game(lang: str = "en", preset: str = "classic", bots: str = "heuristic",
                      seed: int | None = None, save: str | None = None, name: str = "",
                      stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run one match in the terminal; returns the process exit code."""
    out = stdout or sys.stdout
    if lang not in LANGUAGES:
        print(translate("en", "error.unknown_language", language=lang), file=out)
        return 2
    try:
        rules = find_preset(preset)
        seats = rules.players  # seed 000: four, or three or two with no partner
        # With fewer seats the human sits South too where there is one (seat 2), else seat 0.
        me = HUMAN_SEAT if seats > HUMAN_SEAT else 0
        others = [s for s in range(seats) if s != me]
        names_given = [b.strip() for b in bots.split(",") if b.strip()]
        if len(names_given) not in (1, len(others)):
            raise ValueError(f"--bots takes one bot for the other seats, or {len(others)}: "
                             + ("partner (North), East, West" if seats == 4
                                else "one per seat in seat order"))
        per_seat = names_given * len(others) if len(names_given) == 1 else names_given
        chosen = dict(zip(others, per_seat, strict=True))
        bot_players = [make_bot(chosen.get(s, per_seat[0]), None if seed is None else seed + s)
                       for s in range(seats)]
        for s in others:
            check_seatable(bot_players[s], rules)
    except ValueError as exc:
        print(f"error: {exc}", file=out)
        return 2
    names = [seat_name(s, lang) for s in range(seats)]
    if name:
        names[me] = name
    game = Game(rules, first_dealer=0)
    human = TerminalPlayer(game, lang, stdin or sys.stdin, out, names, me)
    players: list[Player] = [*bot_players]
    players[me] = human
    deck_source = secure_deck_source() if seed is None else seeded_deck_source(seed)

    def speak(_game: Game, events: list[Event]) -> None:
        for event in events:
            sentence = describe_event(event, lang, me, names, rules=rules)
            if sentence:
                human.say(sentence)

    if seats == 4:
        human.say(translate(lang, "ui.welcome", preset=preset_name(preset, lang),
                            seat=names[me], partner=names[(me + 2) % 4]))
    else:
        human.say(translate(lang, "ui.welcome.alone", preset=preset_name(preset, lang),
                            seat=names[me], bots=join_list((names[s] for s in others), lang)))
    try:
        while not game.is_terminal():
            play_step(game, players, deck_source, speak)
    except (Quit, KeyboardInterrupt):
        human.say(translate(lang, "ui.bye"))
    if save:
        path = Path(save)
        save_record(to_record(game, [p.name for p in players], seed=seed), path)
        human.say(translate(lang, "ui.saved", path=path))
    return 0
