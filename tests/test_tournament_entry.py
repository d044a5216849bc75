"""Score entry at the tables (issue 24, items 1 and 10): side codes, hands and totals pending
until the other side confirms, disputes in the organiser's queue, a hand entered twice stored
once, and plausible totals only."""

from __future__ import annotations

import random

import pytest

from belote.i18n import translate
from belote.scorekeeper import ScoreError, entry_row, parse_row
from belote.tournament.codes import ALPHABET, issue_codes, seat_of, side_code, side_of
from belote.tournament.events import Event, Tournament
from belote.tournament.formats import draw
from belote.tournament.model import TournamentError
from belote.tournament.plausible import hand_maximum
from belote.tournament.results import judge
from belote.tournament.sheets import tournament_rules
from belote.tournament.text import error_text

HAND_NS = {"taker": "ns", "trump": "h", "tricks_ns": "152", "tricks_ew": "10"}


def create(fmt: str = "pinasca", **kw: object) -> Tournament:
    data: dict[str, object] = {"name": "Entry", "format": fmt, "preset": "pinasca",
                               "target": 1500, "rounds": 3}
    data.update(kw)
    t = Tournament()
    t.do(Event("created", data, "org"))
    return t


def drawn(fmt: str = "pinasca", **kw: object) -> Tournament:
    """Two Pinasca neighbourhoods (or four concours pairs), round 1 drawn with codes."""
    t = create(fmt, **kw)
    if fmt == "pinasca":
        for n in range(2):
            t.do(Event("registered", {"entrants": [
                {"players": [f"A{n}", f"B{n}"], "club": f"Q{n}"},
                {"players": [f"C{n}", f"D{n}"], "club": f"Q{n}"}]}))
    else:
        for n in range(4):
            t.do(Event("registered", {"entrants": [
                {"players": [f"P{n}", f"R{n}"], "checked_in": True}]}))
    event = draw(t, random.Random(1))
    data = issue_codes(t.game, "drawn", event.data)
    t.do(Event(event.kind, data, "org"))
    return t


def hand(t: Tournament, side: int | None, number: int | None = None,
         row: dict[str, str] | None = None) -> Event:
    data: dict[str, object] = {"game": 1, "row": dict(row or HAND_NS)}
    if number is not None:
        data["row"]["hand"] = str(number)  # type: ignore[index]
    if side is not None:
        data["side"] = side
    return t.do(Event("hand", data, "scorer"))


def refused(t: Tournament, kind: str, data: dict[str, object]) -> str:
    with pytest.raises(TournamentError) as info:
        t.do(Event(kind, data, "someone"))
    return info.value.code


# ---------------------------------------------------------------- side codes
def test_each_side_has_a_short_code_of_its_own_that_a_seat_code_also_opens() -> None:
    t = drawn()
    game = t.game(1)
    codes = [side_code(game, side) for side in (0, 1)]
    assert all(len(code) == 6 and set(code) <= set(ALPHABET) for code in codes)
    assert codes[0] != codes[1] and side_code(game, 0) == codes[0]  # stable: a digest
    assert side_of(game, codes[1]) == 1 and side_of(game, f"{codes[0][:3]}-{codes[0][3:]}") == 0
    assert side_of(game, game.codes[1][1]) == 1 and side_of(game, "AAAAAA") is None
    assert seat_of(game, codes[0]) is None  # a side code takes no online seat


def test_a_substitution_gives_the_side_a_new_code() -> None:
    t = drawn()
    game = t.game(1)
    before = side_code(game, 0), side_code(game, 1)
    lineup = [list(side) for side in game.lineup]
    lineup[0][0] = "Sostituto"
    data = issue_codes(t.game, "lineup", {"game": 1, "lineup": lineup})
    t.do(Event("lineup", data, "org"))
    assert side_code(game, 0) != before[0] and side_code(game, 1) == before[1]
    assert side_of(game, before[0]) is None


# ---------------------------------------------------------------- confirmation
def test_a_players_hand_counts_only_once_the_other_side_confirms() -> None:
    t = drawn()
    hand(t, 0, 1)
    assert len(t.hands[1]) == 1 and t.counted(1) == 0 and t.sheet(1).hands == ()
    assert t.entered_sheet(1).totals == (152, 10)
    [line] = t.pending_confirmations()
    assert line.game.id == 1 and line.hands == (1,) and not line.disputed
    assert refused(t, "confirmed", {"game": 1, "side": 0, "hands": 1,
                                    "totals": None}) == "other_side_confirms"
    assert refused(t, "hand", {"game": 1, "side": 1, "row": {**HAND_NS, "hand": "2"}}) \
        == "confirm_first"
    assert refused(t, "confirmed", {"game": 1, "side": 1, "hands": 2,
                                    "totals": None}) == "pending_changed"
    t.do(Event("confirmed", {"game": 1, "side": 1, "hands": 1, "totals": None}, "other"))
    assert t.counted(1) == 1 and t.sheet(1).totals == (152, 10)
    assert t.pending_confirmations() == []


def test_the_result_is_recorded_at_the_confirmation_of_the_hand_that_ends_the_game() -> None:
    t = drawn()
    for number in range(1, 11):  # 1520 to 100, all pending
        hand(t, 0, number)
    assert t.game(1).result is None and t.entered_sheet(1).finished
    with pytest.raises(ScoreError):  # the sheet, pending hands included, is over
        t.do(Event("hand", {"game": 1, "side": 0, "row": {**HAND_NS, "hand": "11"}}))
    t.do(Event("confirmed", {"game": 1, "side": 1, "hands": 10, "totals": None}, "other"))
    result = t.game(1).result
    assert result is not None and result.totals == (1520, 100) and result.source == "entry"
    assert refused(t, "closed", {"round": 2}) == "no_open_round"


def test_a_dispute_goes_to_the_organisers_queue_who_accepts_or_rejects() -> None:
    t = drawn()
    hand(t, 1, 1)
    hand(t, 1, 2)
    t.do(Event("disputed", {"game": 1, "side": 0, "hands": 2, "totals": None,
                            "reason": "hand 2 was ours"}, "other"))
    [line] = t.disputes()
    assert line.claim.dispute == "hand 2 was ours" and line.hands == (1, 2)
    # Nobody enters more until an organiser decides, and the round cannot close.
    assert refused(t, "hand", {"game": 1, "side": 1, "row": {**HAND_NS, "hand": "3"}}) \
        == "disputed"
    assert refused(t, "unhand", {"game": 1, "side": 1}) == "disputed"
    assert refused(t, "resolved", {"game": 1, "accept": False, "reason": ""}) \
        == "reason_needed"
    t.do(Event("resolved", {"game": 1, "accept": False, "reason": "re-enter"}, "org"))
    assert t.hands[1] == [] and t.claims == {} and t.disputes() == []
    hand(t, 1, 1)
    t.do(Event("resolved", {"game": 1, "accept": True, "reason": "E-W left"}, "org"))
    assert t.counted(1) == 1 and t.claims == {}


def test_typed_final_totals_wait_for_the_other_side_too() -> None:
    t = drawn()
    t.do(Event("totals", {"game": 1, "side": 0, "totals": [1500, 1200]}, "scorer"))
    assert t.game(1).result is None and t.pending_confirmations()[0].claim.totals == (
        1500, 1200)
    assert refused(t, "confirmed", {"game": 1, "side": 1, "hands": 0,
                                    "totals": [1500, 1100]}) == "pending_changed"
    t.do(Event("confirmed", {"game": 1, "side": 1, "hands": 0, "totals": [1500, 1200]},
               "other"))
    result = t.game(1).result
    assert result is not None and result.scores == (3800, 1200) and result.source == "entry"


def test_a_player_undoes_only_their_sides_pending_hand_an_organiser_any() -> None:
    t = drawn()
    hand(t, 0, 1)
    t.do(Event("confirmed", {"game": 1, "side": 1, "hands": 1, "totals": None}, "other"))
    hand(t, 0, 2)
    assert refused(t, "unhand", {"game": 1, "side": 1}) == "hand_confirmed"
    t.do(Event("unhand", {"game": 1, "side": 0}, "scorer"))
    assert len(t.hands[1]) == 1 and t.claims == {}
    assert refused(t, "unhand", {"game": 1, "side": 0}) == "hand_confirmed"
    t.do(Event("unhand", {"game": 1}, "org"))  # an organiser, as before issue 24
    assert t.hands[1] == []


def test_an_organisers_hand_counts_at_once_but_waits_for_the_queue() -> None:
    t = drawn()
    hand(t, None, 1)
    assert t.counted(1) == 1 and t.claims == {}
    hand(t, 0, 2)
    assert refused(t, "hand", {"game": 1, "row": {**HAND_NS, "hand": "3"}}) \
        == "awaits_confirmation"


def test_an_old_log_of_hands_with_no_confirmation_replays_as_confirmed() -> None:
    t = drawn()
    events = [Event(a.kind, a.data, a.by, a.at) for a in t.audit]
    events += [Event("hand", {"game": 1, "row": HAND_NS}, "scorer") for _ in range(10)]
    old = Tournament.replay(events)
    assert old.counted(1) == 10 and old.claims == {}
    result = old.game(1).result
    assert result is not None and result.totals == (1520, 100)


# ---------------------------------------------------------------- the same hand twice
def test_the_same_hand_entered_twice_is_stored_once() -> None:
    t = drawn()
    hand(t, 0, 1)
    assert refused(t, "hand", {"game": 1, "side": 1, "row": {**HAND_NS, "hand": "1"}}) \
        == "hand_entered_same"
    other = {**HAND_NS, "tricks_ns": "100", "tricks_ew": "62", "hand": "1"}
    code = refused(t, "hand", {"game": 1, "side": 0, "row": other})
    assert code == "hand_entered" and len(t.hands[1]) == 1
    message = error_text("en", TournamentError(code, hand=1))
    assert "Hand 1 was already entered" in message
    # Words in another language are the same hand.
    rules = tournament_rules(t.s)
    italian = entry_row(parse_row({**HAND_NS, "hand": "1"}, rules), rules, "it")
    assert refused(t, "hand", {"game": 1, "side": 0, "row": italian}) == "hand_entered_same"


# ---------------------------------------------------------------- plausible totals
def test_the_hand_maximum_follows_the_rules() -> None:
    classic = tournament_rules(create(preset="classic", target=1000).s)
    assert hand_maximum(classic) == 162 + 90 + 20  # no declarations: capot and belote
    pinasca = tournament_rules(create().s)
    assert hand_maximum(pinasca) > hand_maximum(classic)


@pytest.mark.parametrize("totals", [(15000, 1200), (1500, 12000), (99999, 0)])
def test_totals_past_what_a_game_to_1500_allows_are_refused_with_the_bound(
        totals: tuple[int, int]) -> None:
    t = drawn()
    with pytest.raises(TournamentError) as info:
        t.do(Event("result", {"game": 1, "totals": list(totals), "source": "organiser"}))
    error = info.value
    assert error.code == "implausible_target" and t.game(1).result is None
    limit = error.values["limit"]
    assert limit == 1499 + 2 * error.values["hand"] and limit < 12000
    assert str(limit) in error_text("en", error) and "1500" in error_text("it", error)
    # The same bound refuses the score entry's typed totals and an organiser's correction.
    with pytest.raises(TournamentError):
        t.do(Event("totals", {"game": 1, "side": 0, "totals": list(totals)}))
    t.do(Event("result", {"game": 1, "totals": [1620, 1200], "source": "organiser"}))
    with pytest.raises(TournamentError):
        t.do(Event("corrected", {"game": 1, "totals": list(totals), "reason": "typo"}))


def test_a_four_deal_game_cannot_reach_3000() -> None:
    t = drawn("concours", preset="classic", deals=4)
    for totals in ([3000, 0], [99999, 10], [600, 600]):
        with pytest.raises(TournamentError) as info:
            t.do(Event("result", {"game": 1, "totals": totals, "source": "entry"}))
        assert info.value.code == "implausible_deals"
        assert info.value.values["limit"] == 4 * 272
    text = error_text("en", TournamentError("implausible_deals", total=3000, deals=4,
                                            limit=1088, hand=272))
    assert "4 × 272" in text and "1088" in text
    t.do(Event("result", {"game": 1, "totals": [700, 388], "source": "entry"}))
    # An online table whose deals left the sides level plays one more: its report passes.
    t.do(Event("result", {"game": 2, "totals": [800, 500], "source": "online"}))


def test_a_true_result_is_plausible_and_an_old_log_with_an_implausible_one_still_loads() -> None:
    s = create().s
    assert judge(s, [1500, 1200], "entry", plausible=True).scores == (3800, 1200)
    t = drawn()
    events = [Event(a.kind, a.data, a.by, a.at) for a in t.audit]
    events.append(Event("result", {"game": 1, "totals": [99999, 0], "source": "organiser"}))
    old = Tournament.replay(events)  # stored before the bound: replayed as it was
    assert old.game(1).result is not None and old.game(1).result.totals == (99999, 0)


def test_every_new_message_is_in_the_four_languages() -> None:
    for lang in ("it", "es", "fr", "en"):
        for code in ("implausible_target", "hand_entered_same", "confirm_first", "disputed"):
            assert not translate(lang, f"tournament.error.{code}", table=1, hand=1,
                                 total=1, target=1, limit=1, hand_max=1).startswith(
                "tournament.")
