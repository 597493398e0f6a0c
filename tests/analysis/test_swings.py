"""Swings are measured costs against the bot's preferred move, well above their noise; chance
is luck, nobody's swing; the same record and bot version give the same numbers."""

from __future__ import annotations

import json
from typing import Any

from app import rules
from app.analysis.bot import StrongBot
from app.analysis.compute import luck, measure_step, swings
from app.analysis.measure import CHANCE_EVENTS, Step, is_chance, plan
from app.analysis.source import replay_of
from app.records.replay import Replayed, replay_record
from tests.analysis.conftest import CountingBot, move_worth

# Near the end of the example game (3 players, 326 positions): move 303 is seat 2's card of
# the last round. The record plays ``take_stone`` on slot 2; ``move1`` there is a poor card.
KNOWN = 302
POOR = {"kind": "play_card", "card": "move1", "slot": 2}


def tiny_bot() -> StrongBot:
    return StrongBot(1, 8, samples=12, budget=1000)


def with_move(example: dict[str, Any], i: int, move: dict[str, Any]) -> Replayed:
    """The example game up to position ``i``, then ``move`` by the seat to act there."""
    options = {k: v for k, v in example["options"].items() if v is not None}
    moves = [(m["seat"], m["move"], None) for m in example["moves"][:i]]
    return replay_record(
        int(example["seed"]), options, [*moves, (example["moves"][i]["seat"], move, None)]
    )


def test_a_deliberately_bad_move_is_a_swing(example: dict[str, Any]) -> None:
    done = with_move(example, KNOWN, POOR)
    bot = tiny_bot()
    measured, preferred = measure_step(done, Step(KNOWN, swing=True), bot, "known")
    assert preferred is not None and preferred["move"] != POOR
    cost, noise = measured["cost"]
    assert cost >= 3 * noise and cost >= 1.0  # well above its own noise
    found = swings({KNOWN: measured}, [seat for seat, _, _ in done.moves], 3)
    assert [(s.seat, s.position) for s in found[2]] == [(2, KNOWN + 1)]
    assert found[2][0].cost == cost


def test_a_move_the_bot_prefers_is_never_a_swing(example: dict[str, Any]) -> None:
    bot = tiny_bot()
    _, preferred = measure_step(with_move(example, KNOWN, POOR), Step(KNOWN, swing=True), bot, "k")
    assert preferred is not None
    done = with_move(example, KNOWN, preferred["move"])
    measured, again = measure_step(done, Step(KNOWN, swing=True), bot, "k")
    assert again is not None and again["move"] == preferred["move"]
    assert measured["cost"] == [0.0, 0.0]
    assert swings({KNOWN: measured}, [seat for seat, _, _ in done.moves], 3) == {
        0: [],
        1: [],
        2: [],
    }


def test_measures_are_the_same_for_the_same_record_and_version(example: dict[str, Any]) -> None:
    done = with_move(example, KNOWN, POOR)
    step = Step(KNOWN, swing=True, luck=(2,))
    first = measure_step(done, step, StrongBot(1, 4, samples=4), "k")
    assert measure_step(done, step, StrongBot(1, 4, samples=4), "k") == first
    # every budget that changes the numbers is in the version
    assert tiny_bot().version != StrongBot(1, 8, samples=13, budget=1000).version
    assert tiny_bot().version != StrongBot(1, 8, samples=12, budget=999).version


def test_the_plan_measures_swing_candidates_and_chance_steps_within_the_budget(
    example: dict[str, Any],
) -> None:
    done = replay_of(example)
    movers = [seat for seat, _, _ in done.moves]
    expected = {n: [float(n % 7), float(n % 5), float(n % 3)] for n in range(done.positions)}
    full = plan(expected, movers, done.events, 3, 4, 10**6, 8)
    assert full == plan(expected, movers, done.events, 3, 4, 10**6, 8)  # deterministic
    candidates = [s for s in full if s.swing]
    assert candidates and all(rules_still_act(movers, s.position) for s in candidates)
    chance = [s for s in full if s.luck]
    assert {s.position for s in chance} == {
        i for i, events in enumerate(done.events) if is_chance(events)
    }
    for step in chance:
        drew = {int(e["seat"]) for e in done.events[step.position] if e["type"] == "cards_drawn"}
        assert movers[step.position] in step.luck and drew <= set(step.luck)
    # a small budget measures fewer positions, the swing candidates first
    small = plan(expected, movers, done.events, 3, 4, 3 * (8 + 8), 8)
    assert [s.position for s in small] == sorted(s.position for s in small)
    assert len(small) == 3 and all(s.swing and not s.luck for s in small)
    assert plan(expected, movers, done.events, 3, 4, 0, 8) == []


def rules_still_act(movers: list[int], i: int) -> bool:
    return i + 1 < len(movers) and movers[i + 1] == movers[i]


def test_chance_steps_are_luck_not_swings(example: dict[str, Any]) -> None:
    """With the stand-in, a seat's measured luck is exactly what the chance step did beyond the
    move's own worth: its tracks after, minus its tracks before, minus the move's worth."""
    done = replay_of(example)
    bot = CountingBot()
    movers = [seat for seat, _, _ in done.moves]
    steps = [i for i, events in enumerate(done.events) if is_chance(events)]
    assert steps
    measured = {}
    for i in steps[:12]:
        step = Step(i, luck=(movers[i],))
        m, preferred = measure_step(done, step, bot, "k")
        assert m["cost"] is None and preferred is None  # no swing measured at a luck step
        seat = movers[i]

        def worth(n: int, seat: int = seat) -> float:
            p = rules.view_for(done.state_at(n), seat)["players_state"][seat]
            return float(p["cp"] + 2 * p["bp"])

        played = dict(rules.encode_move(rules.decode_move(done.moves[i][1])))
        want = worth(i + 1) - worth(i) - move_worth(played)
        assert m["luck"][str(seat)][0] == round(want, 2)
        measured[i] = m
    lucky = luck(measured, 3)
    assert any(lucky.values())
    for seat, found in lucky.items():
        for lk in found:
            assert lk.seat == seat and abs(lk.change) >= max(1.0, 3 * lk.noise)
            assert any(e["type"] in CHANCE_EVENTS for e in done.events[lk.position - 1])
    assert swings(measured, movers, 3) == {0: [], 1: [], 2: []}


class RefusingBot(CountingBot):
    """Every sample refused (a view in which no drawn state allows the move)."""

    def outcomes(self, view: Any, seat: int, mover: int, moves: Any, rng_seed: int) -> Any:
        return [[] for _ in moves]

    def preferred(self, view: Any, legal: Any, rng_seed: int) -> Any:
        return legal[-1]


def test_a_measure_without_samples_keeps_no_number(example: dict[str, Any]) -> None:
    """With fewer than two samples no noise can be told: no cost or luck is kept (a stored
    measure is plain, finite JSON), and nothing is listed."""
    done = replay_of(example)
    movers = [seat for seat, _, _ in done.moves]
    i = next(
        i
        for i, ev in enumerate(done.events)
        if is_chance(ev) and i > 0 and movers[i] == movers[i - 1]
    )
    measured, _ = measure_step(done, Step(i, swing=True, luck=(movers[i],)), RefusingBot(), "k")
    json.dumps(measured, allow_nan=False)
    assert measured["luck"] == {}
    assert swings({i: measured}, movers, 3) == {0: [], 1: [], 2: []}
    assert luck({i: measured}, 3) == {0: [], 1: [], 2: []}
