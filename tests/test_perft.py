"""Perft-style golden counts of legal action sequences, one file per preset (as python-chess).

For every preset of ``belote.rules.PRESETS``, from a seeded deal (``seeded_deck_source(seed)``,
dealer 0) and a scripted auction that reaches card play (``SCENARIOS``: take, a named suit,
senza, tutte or an auction contract), count the sequences of the first 4 and 8 plies.  A ply
is one action of the player to move: card plays 0..31, the combined play+announce ids 32..63,
declarations 78..82 and the ottava 83.  The announce-only action 72 (which a seat may also
take out of turn) is left out, so every ply is the mover's.  The table talk of seed 000 (ask
to show 85, refute 86, an equal sequence 87: ``A.is_table_talk``) is left out too: it moves no
card, and tests/test_rules_seed_show.py checks where it is offered.

The golden numbers in ``tests/data/perft/<preset>.perft`` are generated with the engine
(:func:`engine_perft`, which walks ``legal_actions``/``clone``/``apply``) and cross-checked
by two counts that share no code with it:

* :func:`reference_perft`, a brute force written from the rules text (RULES.md "Card play
  obligations", "Belote / rebelote", "Declarations"), which deals the deck itself and reads
  only the preset's flags, never ``belote.engine``; it checks every row (4 and 8 plies);
* :func:`apply_undo_perft`, which never calls ``legal_actions``: it offers ``Game.apply``
  every action id in turn, counts those accepted and takes each back with ``Game.undo``; it
  checks the 4-ply rows.

Each file's header says how it was verified.  Regenerate with::

    python tests/test_perft.py --regen
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

if __name__ == "__main__":  # run as a script: make the checkout's package importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from belote.engine import actions as A
from belote.engine.dealing import seeded_deck_source
from belote.engine.state import Game, Phase
from belote.errors import IllegalActionError
from belote.rules import PRESETS, Rules, find_preset

PERFT_DIR = Path(__file__).parent / "data" / "perft"
PLIES = (4, 8)
# Fewer players hold more cards (10 or 16), so the tree is much wider: fewer plies there
# (the first depth is the one the apply/undo count checks).
PRESET_PLIES = {"valdostana3": (4, 6), "valdostana2": (3, 5)}


def plies_of(preset: str) -> tuple[int, ...]:
    return PRESET_PLIES.get(preset, PLIES)

# Scripted auctions, per preset: (seed, bids).  Seat 1, after dealer 0, speaks first.
TAKE = (A.TAKE,)
ROUND_2 = (A.PASS,) * 4  # everyone passes round 1 of take_or_pass


def _auction(level_index: int, suit: int, players: int = 4) -> tuple[int, ...]:
    """A contract and a pass from every other player (seed 000: fewer players, fewer passes)."""
    return (A.contract_bid(level_index, suit), *(A.PASS,) * (players - 1))


SCENARIOS: dict[str, tuple[tuple[int, tuple[int, ...]], ...]] = {
    # seed 0: seat 3 holds belote; seed 28: seat 1, the leader, holds it.
    "classic": ((0, TAKE), (1, TAKE), (28, TAKE)),
    # 22: seats 0 1 2 may declare; 28: the leader holds belote and three seats may declare;
    # 14: clubs named in round 2 (hearts turned), seats 1 and 3 may declare.
    "pinasca": ((22, TAKE), (28, TAKE), (14, (*ROUND_2, A.name_suit(2)))),
    # 28: take, belote and declarations; 22: senza (no belote); 14: tutte (belote in any suit).
    "italian": ((28, TAKE), (22, (*ROUND_2, A.SENZA)), (14, (*ROUND_2, A.TUTTE))),
    # 39: a cinquante and a carré said by name; 31: a cent, belote of the leader; 28: tierces.
    "valdostana": ((39, _auction(5, 0)), (31, _auction(0, 3)), (28, _auction(0, 2))),
    # 1: the leader holds belote; 14: seat 0 holds it; 17: seat 2 holds it, a 160 contract.
    "coinche": ((1, _auction(0, 1)), (14, _auction(2, 2)), (17, _auction(8, 1))),
    # Three players, 10 cards each (seed 000 "a tre"): 3 and 5, a contract in spades and in
    # hearts; 12, clubs.  Two players, 16 cards each ("a due").
    "valdostana3": ((3, _auction(0, 3, 3)), (5, _auction(2, 0, 3)), (12, _auction(1, 2, 3))),
    "valdostana2": ((3, _auction(0, 3, 2)), (5, _auction(2, 0, 2)), (12, _auction(1, 2, 2))),
}


def random_hand_bids(preset: str, seed: int) -> tuple[int, ...]:
    """An auction valid on any deal, reaching card play with seat 1 leading."""
    rules = find_preset(preset)
    if rules.bidding == "auction":
        return _auction(seed % 3, seed % 4, rules.players)
    calls = [TAKE]
    if rules.allow_senza:
        calls.append((*ROUND_2, A.SENZA))
    if rules.allow_tutte:
        calls.append((*ROUND_2, A.TUTTE))
    return calls[seed % len(calls)]


NO_TRUMP = "none"  # senza
ALL_TRUMP = "all"  # tutte


def perft_file(preset: str) -> Path:
    return PERFT_DIR / f"{preset}.perft"


def header(preset: str) -> str:
    return f"# Source: RULES.md {preset} rules; generated by tests/test_perft.py --regen"


# ----------------------------------------------------------------------------- reference
# Written from the text only.  A card is a string such as "10H"; its index in the deck is
# suit * 8 + rank with suits H D C S and ranks 7 8 9 10 J Q K A (belote/cards.py docstring).
# Seats are numbered in playing order (RULES.md: direction is presentation only).

RANKS = ["7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = "HDCS"
TRUMP_ORDER = ["J", "9", "A", "10", "K", "Q", "8", "7"]  # RULES.md, high to low
PLAIN_ORDER = ["A", "10", "K", "Q", "J", "9", "8", "7"]
DECLARE_NAMES = ("tierce", "cinquante", "cent", "carre")


def name(index: int) -> str:
    return RANKS[index % 8] + SUITS[index // 8]


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


@dataclass(frozen=True)
class Position:
    hands: tuple[frozenset[str], ...]
    trump: str  # a suit letter, NO_TRUMP or ALL_TRUMP
    trick: tuple[tuple[int, str], ...]  # (seat, card), leader first
    to_play: int
    belote: tuple[tuple[str, int, str], ...]  # (suit, holder, "unplayed" | "said" | "over")
    offers: tuple[tuple[int, ...], ...]  # per seat: declaration actions still open to it
    tricks_done: int
    over: bool  # the ottava ended the match


def is_trump(card_suit: str, trump: str) -> bool:
    return trump == ALL_TRUMP or card_suit == trump


def deal_reference(deck: list[int], rules: Rules, bids: tuple[int, ...]) -> Position:
    """Deal from the player after dealer 0 in the preset's packets; with a turned card (take
    or pass) the taker gets it and 2 more, everyone else 3 more (RULES.md "Bidding systems"),
    from the taker where the rules say so (seed 002).  A cut is a knock (the deck as dealt).
    The contract is read off the scripted ``bids``: the last suit, senza or tutte call."""
    cards = [name(i) for i in deck]
    players = rules.players  # seed 000: four, or "a tre o addirittura a due"
    order = [(1 + i) % players for i in range(players)]
    hands: dict[int, list[str]] = {seat: [] for seat in order}
    position = 0
    for packet in rules.deal_packets:
        for seat in order:
            hands[seat] += cards[position:position + packet]
            position += packet
    last = max(i for i, bid in enumerate(bids) if bid != A.PASS)
    taker, call = order[last % players], bids[last]
    if sum(rules.deal_packets) == 5:  # take or pass: a turned card, then the rest of the deck
        turned = cards[position]
        position += 1
        hands[taker].append(turned)
        if rules.deal_rest_from_taker:  # seed 002: "se reanuda a partir del tomador"
            order = [(taker + i) % 4 for i in range(4)]
        for seat in order:
            n = 2 if seat == taker else 3
            hands[seat] += cards[position:position + n]
            position += n
        trump = {A.TAKE: suit(turned), A.SENZA: NO_TRUMP, A.TUTTE: ALL_TRUMP}.get(
            call, SUITS[call - A.NAME_SUIT_BASE] if A.NAME_SUIT_BASE <= call < A.SENZA else "?"
        )
    else:
        trump = SUITS[(call - A.CONTRACT_BASE) % 4]
    # Fewer than four players: the cards left over (the monte) are in no hand.
    size = 8 if players == 4 else sum(rules.deal_packets)
    assert position <= 32 and all(len(hand) == size for hand in hands.values())
    belote_suits = [] if trump == NO_TRUMP else [s for s in SUITS if is_trump(s, trump)]
    belote = tuple(
        (s, seat, "unplayed")
        for s in belote_suits for seat in range(players)
        if {"K" + s, "Q" + s} <= set(hands[seat])
    ) if rules.belote_enabled else ()
    return Position(
        hands=tuple(frozenset(hands[s]) for s in range(players)),
        trump=trump,
        trick=(),
        to_play=order[0],
        belote=belote,
        offers=tuple(declaration_offers(frozenset(hands[s]), rules) for s in range(players)),
        tricks_done=0,
        over=False,
    )


def declaration_offers(hand: frozenset[str], rules: Rules) -> tuple[int, ...]:
    """The declaration actions a hand may take in the first trick, before its card: one
    "declare all" (78) if it holds a scoring sequence (3+ cards in a row, natural order) or
    carré (J 9 A K Q, 10 where the flag says so; never 7 or 8), or, where only the name is
    said, one action per name held (tierce 3, cinquante 4, cent 5+, carré; a sequence also
    offers the shorter names inside it)."""
    decl = rules.declarations
    if decl is None:
        return ()
    names = set()
    min_run = decl.sequence_points[0][0] if decl.sequence_points else 99
    for s in SUITS:
        run = 0
        for r in [*RANKS, None]:
            if r is not None and r + s in hand:
                run += 1
                continue
            if run >= min_run:
                # A longer sequence may also be announced as a shorter one inside it (seed 000,
                # "l'accuso di una combinazione di valore +basso").
                names.update(DECLARE_NAMES[:min(run, 5) - 2])
            run = 0
    for r in ("J", "9", "A", "K", "Q", *(("10",) if decl.carre_of_tens else ())):
        if all(r + s in hand for s in SUITS):
            names.add("carre")
    if not names:
        return ()
    if decl.name_only:
        return tuple(A.DECLARE_NAME_BASE + DECLARE_NAMES.index(n) for n in sorted(names))
    return (A.DECLARE,)


def strength(card: str, trump: str) -> int:
    order = TRUMP_ORDER if is_trump(suit(card), trump) else PLAIN_ORDER
    return 8 - order.index(rank(card))


def beats(challenger: str, best: str, led: str, trump: str) -> bool:
    """Whether ``challenger`` beats ``best``, the card now winning a trick led in ``led``.
    In tutte and senza no suit beats another: only the led suit counts."""
    one_trump = trump not in (NO_TRUMP, ALL_TRUMP)
    if one_trump and suit(challenger) == trump:
        return suit(best) != trump or strength(challenger, trump) > strength(best, trump)
    if (one_trump and suit(best) == trump) or suit(challenger) != led:
        return False
    return strength(challenger, trump) > strength(best, trump)


def winning(trick: tuple[tuple[int, str], ...], trump: str) -> tuple[int, str]:
    led = suit(trick[0][1])
    best = trick[0]
    for entry in trick[1:]:
        if beats(entry[1], best[1], led, trump):
            best = entry
    return best


def reference_legal(hand: frozenset[str], trick: tuple[tuple[int, str], ...], trump: str,
                    seat: int, rules: Rules) -> set[str]:
    """RULES.md "Card play obligations": follow the led suit; else trump, unless the partner
    is master (where ``partner_master_frees``); when a trump is on the table, trump higher if
    able (``must_overtrump``), else still trump (``must_undertrump``); discard only with
    neither led suit nor trump.  Tutte: beat the best card of the led suit when able."""
    if not trick:
        return set(hand)
    led = suit(trick[0][1])
    master_seat, master = winning(trick, trump)
    same = {card for card in hand if suit(card) == led}
    if trump == NO_TRUMP:
        return same or set(hand)
    if trump == ALL_TRUMP:
        higher = {card for card in same if beats(card, master, led, trump)}
        return higher or same or set(hand)
    trumps = {card for card in hand if suit(card) == trump}
    higher = {card for card in trumps if beats(card, master, led, trump)}
    if same:
        if led == trump and rules.must_overtrump:
            return higher or same
        return same
    if not trumps or not rules.must_trump:
        return set(hand)
    # Only four players sit in partnerships (the partner faces you).
    if rules.partner_master_frees and rules.players == 4 and master_seat == (seat + 2) % 4:
        return set(hand)
    if suit(master) == trump:
        if rules.must_overtrump and higher:
            return higher
        return trumps if rules.must_undertrump else set(hand)
    return trumps


def reference_moves(pos: Position, rules: Rules) -> list[tuple[str, bool] | int]:
    """(card, announces) pairs, plus the declaration and ottava actions of the first trick.
    A belote holder may announce with the first of trump K and Q it plays (with the king only
    where ``belote_king_first``), and with the second if it announced the first."""
    if pos.over:
        return []
    seat = pos.to_play
    moves: list[tuple[str, bool] | int] = []
    if pos.tricks_done == 0:
        hand = pos.hands[seat]
        if rules.ottava and any(all(r + s in hand for r in RANKS) for s in SUITS):
            moves.append(A.OTTAVA)
        moves.extend(pos.offers[seat])
    for card in sorted(reference_legal(pos.hands[seat], pos.trick, pos.trump, seat, rules)):
        moves.append((card, False))
        for belote_suit, holder, stage in pos.belote:
            if holder != seat or suit(card) != belote_suit or rank(card) not in "KQ":
                continue
            if stage == "said" or (
                stage == "unplayed" and not (rules.belote_king_first and rank(card) == "Q")
            ):
                moves.append((card, True))
    return moves


def reference_play(pos: Position, move: tuple[str, bool] | int) -> Position:
    seat = pos.to_play
    if move == A.OTTAVA:
        return replace(pos, over=True)
    if isinstance(move, int):  # a declaration: the seat has declared, it still plays a card
        offers = list(pos.offers)
        offers[seat] = ()
        return replace(pos, offers=tuple(offers))
    card, announce = move
    hands = list(pos.hands)
    hands[seat] = hands[seat] - {card}
    belote = tuple(
        (s, holder, ("said" if announce and stage == "unplayed" else "over"))
        if holder == seat and s == suit(card) and rank(card) in "KQ" else (s, holder, stage)
        for s, holder, stage in pos.belote
    )
    offers = list(pos.offers)
    offers[seat] = ()  # declarations are made before one's card of the first trick
    trick = (*pos.trick, (seat, card))
    players = len(pos.hands)
    if len(trick) == players:
        leader = winning(trick, pos.trump)[0]
        return replace(pos, hands=tuple(hands), trick=(), to_play=leader, belote=belote,
                       offers=tuple(offers), tricks_done=pos.tricks_done + 1)
    return replace(pos, hands=tuple(hands), trick=trick, to_play=(seat + 1) % players,
                   belote=belote, offers=tuple(offers))


def reference_perft(pos: Position, rules: Rules, depth: int) -> int:
    if depth == 0:
        return 1
    moves = reference_moves(pos, rules)
    if depth == 1:
        return len(moves)
    return sum(reference_perft(reference_play(pos, m), rules, depth - 1) for m in moves)


def reference_start(preset: str, seed: int, bids: tuple[int, ...]) -> Position:
    return deal_reference(seeded_deck_source(seed)(), find_preset(preset), bids)


# ----------------------------------------------------------------------------- engine


def engine_start(preset: str, seed: int, bids: tuple[int, ...]) -> Game:
    game = Game(find_preset(preset), first_dealer=0)
    game.deal(seeded_deck_source(seed)())
    if game.phase == Phase.CUT:
        game.apply(A.KNOCK)  # the cutter trusts the dealer: the deck is dealt as shuffled
    for bid in bids:
        game.apply(bid)
    assert game.phase == Phase.PLAYING and game.current_player() == 1
    return game


# Never counted: the announce-only id and the table talk (see the module's doc).
LEFT_OUT = frozenset({A.ANNOUNCE_BELOTE, A.REQUEST_SHOW, A.REFUTE, A.BLUFF})


def engine_perft(game: Game, depth: int) -> int:
    """The generator: walks ``legal_actions`` with ``clone`` and ``apply``."""
    if depth == 0:
        return 1
    actions = [a for a in game.legal_actions() if a not in LEFT_OUT]
    if depth == 1:
        return len(actions)
    total = 0
    for action in actions:
        child = game.clone()
        child.apply(action)
        total += engine_perft(child, depth - 1)
    return total


def accepted_actions(game: Game) -> Iterator[int]:
    """Every action id below the contract range's end that ``apply`` accepts from the player
    to move, each taken back with ``undo`` before the next is tried (72 left out)."""
    for action in range(A.CONTRACT_END):
        if action in LEFT_OUT:
            continue
        try:
            game.apply(action)
        except IllegalActionError:
            continue
        yield action
        game.undo()


def apply_undo_perft(game: Game, depth: int) -> int:
    """An independent count: no ``legal_actions`` and no ``clone``, only apply and undo."""
    if depth == 0:
        return 1
    total = 0
    for _ in accepted_actions(game):
        total += 1 if depth == 1 else apply_undo_perft(game, depth - 1)
    return total


# ----------------------------------------------------------------------------- golden files


def read_golden(preset: str) -> list[tuple[int, int, int]]:
    lines = perft_file(preset).read_text(encoding="utf-8").splitlines()
    assert lines[0] == header(preset)
    rows = []
    for line in lines[1:]:
        if line.strip() and not line.startswith("#"):
            seed, plies, count = (int(field) for field in line.split())
            rows.append((seed, plies, count))
    return rows


def _bid_names(preset: str, bids: tuple[int, ...]) -> str:
    auction = find_preset(preset).auction
    names = {A.PASS: "pass", A.TAKE: "take", A.SENZA: "senza", A.TUTTE: "tutte"}
    words = []
    for bid in bids:
        if bid in names:
            words.append(names[bid])
        elif A.NAME_SUIT_BASE <= bid < A.SENZA:
            words.append(f"name-{SUITS[bid - A.NAME_SUIT_BASE]}")
        else:
            assert auction is not None
            level = auction.levels[A.contract_level_index(bid)]
            words.append(f"{level}{SUITS[A.contract_suit(bid)]}")
    return " ".join(words)


def regenerate(preset: str) -> None:
    lines = [
        header(preset),
        "# Deal: seeded_deck_source(seed)(), dealer 0; seat 1 speaks and leads first.",
        "# Counted: plays 0..31, play+announce 32..63, declarations 78..82, ottava 83;",
        "# announce-only 72 excluded.",
        "# Verified: the rules-text brute force (reference_perft) at every row; the",
        f"# apply/undo count over every action id (no legal_actions) at {plies_of(preset)[0]}"
        " plies.",
    ]
    lines += [
        f"# Auction, seed {seed}: {_bid_names(preset, bids)}" for seed, bids in SCENARIOS[preset]
    ]
    lines.append("# seed plies count")
    for seed, bids in SCENARIOS[preset]:
        game = engine_start(preset, seed, bids)
        start = reference_start(preset, seed, bids)
        for plies in plies_of(preset):
            count = engine_perft(game, plies)
            assert count == reference_perft(start, find_preset(preset), plies), (seed, plies)
            lines.append(f"{seed} {plies} {count}")
    perft_file(preset).parent.mkdir(parents=True, exist_ok=True)
    perft_file(preset).write_text("\n".join(lines) + "\n", encoding="utf-8")


def _cases() -> list[tuple[str, int, tuple[int, ...], int, int]]:
    cases = []
    for preset, scenarios in SCENARIOS.items():
        bids_of = dict(scenarios)
        if perft_file(preset).exists():
            for seed, plies, count in read_golden(preset):
                cases.append((preset, seed, bids_of[seed], plies, count))
    return cases


CASES = _cases()
IDS = [f"{preset}-seed{seed}-plies{plies}" for preset, seed, _, plies, _ in CASES]


def test_every_preset_has_scenarios() -> None:
    assert set(SCENARIOS) == set(PRESETS)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_golden_file_covers_every_seed_and_depth(preset: str) -> None:
    assert sorted((seed, plies) for seed, plies, _ in read_golden(preset)) == sorted(
        (seed, plies) for seed, _ in SCENARIOS[preset] for plies in plies_of(preset)
    )


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_reference_deal_matches_engine_deal(preset: str) -> None:
    for seed, bids in SCENARIOS[preset]:
        ref = reference_start(preset, seed, bids)
        game = engine_start(preset, seed, bids)
        for s in range(game.players):
            engine_hand = {name(i) for i in range(32) if game.hands[s] >> i & 1}
            assert engine_hand == set(ref.hands[s])
        trump = {4: NO_TRUMP, 5: ALL_TRUMP}.get(game.trump) or SUITS[game.trump]
        assert trump == ref.trump


@pytest.mark.parametrize(("preset", "seed", "bids", "plies", "count"), CASES, ids=IDS)
def test_perft_engine_matches_golden(
    preset: str, seed: int, bids: tuple[int, ...], plies: int, count: int
) -> None:
    assert engine_perft(engine_start(preset, seed, bids), plies) == count


@pytest.mark.parametrize(("preset", "seed", "bids", "plies", "count"), CASES, ids=IDS)
def test_perft_reference_matches_golden(
    preset: str, seed: int, bids: tuple[int, ...], plies: int, count: int
) -> None:
    start = reference_start(preset, seed, bids)
    assert reference_perft(start, find_preset(preset), plies) == count


SHALLOW_CASES = [case for case in CASES if case[3] == plies_of(case[0])[0]]


@pytest.mark.parametrize(
    ("preset", "seed", "bids", "plies", "count"),
    SHALLOW_CASES,
    ids=[IDS[CASES.index(case)] for case in SHALLOW_CASES],
)
@pytest.mark.no_cover
def test_perft_apply_undo_matches_golden(
    preset: str, seed: int, bids: tuple[int, ...], plies: int, count: int
) -> None:
    assert apply_undo_perft(engine_start(preset, seed, bids), plies) == count


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_engine_legal_plays_match_reference_on_random_hands(preset: str) -> None:
    """Beyond the first two tricks: the engine's legal cards equal the reference's at every
    play of 100 seeded random deals per preset, played out with random legal cards."""
    rules = find_preset(preset)
    for seed in range(100):
        rng = random.Random(seed)
        bids = random_hand_bids(preset, seed)
        game = engine_start(preset, seed, bids)
        trump = reference_start(preset, seed, bids).trump
        while game.phase == Phase.PLAYING:
            seat = game.current_player()
            hand = frozenset(name(i) for i in range(32) if game.hands[seat] >> i & 1)
            trick = tuple(
                ((game.leader + i) % game.players, name(card))
                for i, card in enumerate(game.trick)
            )
            expected = reference_legal(hand, trick, trump, seat, rules)
            legal = {name(i) for i in range(32) if game.legal_plays() >> i & 1}
            assert legal == expected, (seed, hand, trick)
            game.apply(rng.choice([a for a in game.legal_actions() if A.is_play(a)]))


if __name__ == "__main__":
    if "--regen" in sys.argv[1:]:
        for preset in SCENARIOS:
            regenerate(preset)
            print(perft_file(preset).read_text(encoding="utf-8"), end="")
    else:
        print(__doc__)
