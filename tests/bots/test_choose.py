"""The bot's choice: only its own view and legal moves go in, a legal move comes out."""

from __future__ import annotations

import inspect
import random
from typing import Any

import pytest

from app import rules
from app.bots import LEVELS, BotError, choose_move
from app.bots.sample import determinize


def _legal(state: Any, seat: int) -> list[dict[str, Any]]:
    return [
        m if isinstance(m, dict) else rules.encode_move(m) for m in rules.legal_moves(state, seat)
    ]


def _walk(seed: int, options: dict[str, Any], steps: int) -> Any:
    """A position `steps` random moves into a game."""
    rng = random.Random(seed)
    state = rules.new_game(seed, options)
    for _ in range(steps):
        if rules.outcome(state) is not None:
            break
        seat = rules.to_act(state)[0]
        state = rules.apply_move(state, seat, rng.choice(_legal(state, seat))).state
    return state


def test_signature_takes_only_a_view_and_legal_moves() -> None:
    params = list(inspect.signature(choose_move).parameters)
    # `clock` says which clock the budget is read from, nothing about the game
    assert params == ["view", "legal", "level", "rng_seed", "budget", "playouts", "clock"]


def test_rejects_bad_input() -> None:
    state = rules.new_game(1, {"players": 2})
    seat = rules.to_act(state)[0]
    view = rules.view_for(state, seat)
    legal = _legal(state, seat)
    with pytest.raises(BotError) as err:
        choose_move(view, legal, "genius", 1, 0.01)
    assert err.value.code == "bad_level"
    with pytest.raises(BotError) as err:
        choose_move(view, [], "greedy", 1, 0.01)
    assert err.value.code == "no_legal_move"
    with pytest.raises(BotError) as err:
        choose_move(rules.view_for(state, None), legal, "greedy", 1, 0.01)
    assert err.value.code == "not_a_seat_view"


def _no_undo(view: Any) -> Any:
    """The view without what concerns taking moves back: a sampled position has no history to
    go back to and never allows it (bots do not undo)."""
    out = dict(view)
    out["options"] = {k: v for k, v in view["options"].items() if k != "undo"}
    if view["turn"] is not None:
        out["turn"] = {k: v for k, v in view["turn"].items() if k != "undo"}
    return out


@pytest.mark.parametrize("players", [1, 2, 4])
def test_sampled_state_shows_the_same_view(players: int) -> None:
    """The hidden parts a bot samples agree with everything its view shows."""
    for i, steps in enumerate((0, 7, 23, 41, 66, 90, 130, 170)):
        state = _walk(100 * players + i, {"players": players}, steps)
        if rules.outcome(state) is not None:
            continue
        seat = rules.to_act(state)[0]
        view = rules.view_for(state, seat)
        for k in range(3):
            sampled = determinize(view, random.Random(k))
            assert _no_undo(rules.view_for(sampled, seat)) == _no_undo(view)
            assert rules.undo_points(sampled, seat) == []
            # Never a move the real game would refuse (a just-drawn favor token may be held back).
            real = _legal(state, seat)
            assert all(m in real for m in _legal(sampled, seat))


@pytest.mark.parametrize("options", [{"players": 3}, {"players": 4, "random_locations": True}])
def test_a_seat_not_to_act_samples_a_state_with_the_same_view(options: dict[str, Any]) -> None:
    """From any seat, while another decides outside the turns (an end-of-round event, a set-up
    choice), the sampled state has the same decision pending and the same legal moves for it."""
    seen: set[str] = set()
    for seed in range(6):
        rng = random.Random(seed)
        state = rules.new_game(seed, {**options, "undo": False})
        while rules.outcome(state) is None:
            acting = rules.to_act(state)
            if state.phase != "turns":
                for seat in range(state.players):
                    view = rules.view_for(state, seat)
                    sampled = determinize(view, random.Random(seat))
                    assert rules.view_for(sampled, seat) == view
                    assert sorted(map(str, _legal(sampled, acting[0]))) == sorted(
                        map(str, _legal(state, acting[0]))
                    )
                    seen.add(state.phase)
            state = rules.apply_move(state, acting[0], rng.choice(_legal(state, acting[0]))).state
    assert "end_of_round" in seen
    assert "setup" in seen or not options.get("random_locations")


def test_sampled_hands_of_others_vary() -> None:
    """Other seats' hands are guessed afresh, not copied from anywhere."""
    state = rules.new_game(5, {"players": 3})
    seat = rules.to_act(state)[0]
    view = rules.view_for(state, seat)
    other = (seat + 1) % 3
    hands = {
        tuple(sorted(rules.view_for(determinize(view, random.Random(k)), other)["me"]["hand"]))
        for k in range(12)
    }
    assert len(hands) > 1


@pytest.mark.parametrize("level", LEVELS)
def test_each_level_plays_a_game_to_the_end(level: str) -> None:
    state = rules.new_game(11, {"players": 2})
    levels = [level, "random"]
    n = 0
    while rules.outcome(state) is None:
        seat = rules.to_act(state)[0]
        legal = _legal(state, seat)
        move = choose_move(rules.view_for(state, seat), legal, levels[seat], n, 0.02)
        assert move in legal
        state = rules.apply_move(state, seat, move).state
        n += 1
        assert n < 2000
    assert rules.outcome(state)["players"]


def test_same_view_same_seed_same_move() -> None:
    state = _walk(3, {"players": 2}, 9)
    seat = rules.to_act(state)[0]
    view = rules.view_for(state, seat)
    legal = _legal(state, seat)
    assert choose_move(view, legal, "greedy", 42, 0.05) == choose_move(
        view, legal, "greedy", 42, 0.05
    )


def test_quick_value_matches_the_full_view() -> None:
    from app.bots.onestep import own_part
    from app.bots.value import estimate

    for players in (1, 3):
        for steps in (0, 30, 80, 400):
            state = _walk(7 + steps, {"players": players}, steps)
            for seat in range(players):
                full = estimate(rules.view_for(state, seat), seat)
                assert estimate(own_part(state, seat), seat) == full


def test_sampled_state_keeps_only_the_fresh_token_back() -> None:
    """After a donation, an older cathedral token may still be cashed; the one just kept not."""
    from app.rules import data
    from tests.rules.helpers import edit, give, play, start, visit

    s = give(visit(start(3), "cathedral"), 0, wood=1)
    older = next(t for t in encode_pile(s) if data.FAVOR_TOKENS[t]["location"] == "cathedral")

    def hold(tree: dict[str, Any]) -> None:
        tree["favor"]["pile"].remove(older)
        tree["ps"][0]["favor"] = sorted([*tree["ps"][0]["favor"], older])

    s = edit(s, hold)
    s = play(s, 0, {"kind": "cathedral_donation", "resource": "wood", "pay": {"wood": 1}})
    drawn = rules.view_for(s, 0)["me"]["decision"]["tokens"]
    kept = next((t["id"] for t in drawn if t["location"] == "cathedral"), drawn[0]["id"])
    s = play(s, 0, {"kind": "keep_favor", "token": kept})
    view = rules.view_for(s, 0)
    assert view["turn"]["visit"]["fresh"] == [kept]
    real = sorted((m["token"] for m in _legal(s, 0) if m["kind"] == "cash_favor"), key=int)
    assert older in real and kept not in real
    for k in range(3):
        sampled = determinize(view, random.Random(k))
        assert _no_undo(rules.view_for(sampled, 0)) == _no_undo(view)
        got = sorted((m["token"] for m in _legal(sampled, 0) if m["kind"] == "cash_favor"), key=int)
        assert got == real


def encode_pile(state: Any) -> list[int]:
    return list(rules.encode_state(state)["favor"]["pile"])


def test_bots_never_take_moves_back() -> None:
    """Mid-turn, with undo points in its view, no level picks an undo, even one passed in."""
    state = rules.new_game(3, {"players": 2, "start_player": 0})
    seat = 0
    state = rules.apply_move(state, seat, _legal(state, seat)[0]).state
    view = rules.view_for(state, seat)
    assert view["turn"] is not None and view["turn"]["undo"]
    undo = {"kind": "undo", "to": view["turn"]["undo"][-1]["to"]}
    legal = _legal(state, seat)
    assert undo not in legal
    for level in LEVELS:
        for k in range(5):
            picked = choose_move(view, [undo, *legal], level, k, 0.02)
            assert picked in legal
    with pytest.raises(BotError) as err:
        choose_move(view, [undo], "greedy", 1, 0.01)
    assert err.value.code == "no_legal_move"
    sampled = determinize(view, random.Random(1))
    with pytest.raises(rules.IllegalMoveError) as refused:
        rules.apply_move(sampled, seat, undo)
    assert refused.value.code == "undo_not_allowed"
