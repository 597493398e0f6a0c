"""The per-seat view (docs/view.md) and event redaction."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from app.rules import decode_state, encode_state, events_for, legal_moves, view_for

from .helpers import edit, events, give, play, random_playout, start, visit

TOP_KEYS = {
    "schema",
    "players",
    "options",
    "phase",
    "round",
    "statue",
    "to_act",
    "turn",
    "event",
    "event_top",
    "events_left",
    "rondels",
    "councilors",
    "huts",
    "markers",
    "advisors",
    "nobility",
    "favor",
    "players_state",
    "me",
    "victoria",
    "outcome",
}
PLAYER_KEYS = {
    "seat",
    "cp",
    "bp",
    "score",
    "resources",
    "goods",
    "craftsmen_left",
    "craftsmen",
    "advisors",
    "titles",
    "favor_tokens",
    "slots",
    "hand_size",
    "deck_size",
    "turns_taken",
    "points",
}
TURN_KEYS = {
    "seat",
    "number",
    "card",
    "slot",
    "card_action_done",
    "moved",
    "bonus_used",
    "advisors_used",
    "visit",
    "undo",
}


def test_view_shape() -> None:
    s = start(2)
    v = view_for(s, 0)
    assert set(v) == TOP_KEYS
    assert set(v["players_state"][0]) == PLAYER_KEYS
    assert set(v["turn"]) == TURN_KEYS
    assert set(v["me"]) == {"seat", "hand", "decision"}
    assert set(v["options"]) == {
        "building_start",
        "random_locations",
        "full_selection",
        "start_player",
        "undo",
    }
    assert set(v["markers"]) == {"gift", "donation", "stone", "bread"}
    assert set(v["advisors"]) == {"display", "b_top", "b_left", "costs"}
    assert set(v["rondels"]) == {"countryside", "town"}
    assert json.loads(json.dumps(v)) == v
    spectator = view_for(s, None)
    assert spectator["me"] is None
    assert {k: w for k, w in spectator.items() if k != "me"} == {
        k: w for k, w in v.items() if k != "me"
    }
    text = json.dumps(spectator)
    for secret in ("seed", "draws", 'deck"', 'pile": [', "boxed"):
        assert secret not in text


def hide_shuffle(state, seat: int, seed: int):  # type: ignore[no-untyped-def]
    """Permute every secret ``seat`` may not know; keep every count."""
    rng = random.Random(seed)

    def fn(t: dict[str, Any]) -> None:
        t["rng"] = {"seed": rng.randrange(10**9), "draws": rng.randrange(1000)}
        for other, p in enumerate(t["ps"]):
            rng.shuffle(p["deck"])
            if other != seat and not (t["decision"] and t["decision"].get("seat") == other):
                cards = p["hand"] + p["deck"]
                rng.shuffle(cards)
                p["hand"], p["deck"] = cards[: len(p["hand"])], cards[len(p["hand"]) :]
        hidden = t["favor"]["pile"] + t["favor"]["discard"]
        dec = t["decision"]
        if dec and dec["kind"] == "keep_favor" and dec["seat"] != seat:
            hidden += dec["tokens"]
        rng.shuffle(hidden)
        n_pile, n_disc = len(t["favor"]["pile"]), len(t["favor"]["discard"])
        t["favor"]["pile"] = hidden[:n_pile]
        t["favor"]["discard"] = hidden[n_pile : n_pile + n_disc]
        if dec and dec["kind"] == "keep_favor" and dec["seat"] != seat:
            dec["tokens"] = hidden[n_pile + n_disc :]
        rng.shuffle(t["boxed_advisors"])
        rest = t["event_deck"][1:]
        rng.shuffle(rest)
        t["event_deck"][1:] = rest
        if len(t["b_stack"]) > 1:
            tail = t["b_stack"][1:]
            rng.shuffle(tail)
            t["b_stack"][1:] = tail

    return edit(state, fn)


def test_view_ignores_other_secrets_midgame() -> None:
    _final, record = random_playout(8, {"players": 4})
    s = start(4, seed=8)
    from app.rules import new_game

    s = new_game(8, {"players": 4})
    for i, (seat, move) in enumerate(record[:200]):
        if i % 20 == 0:
            for viewer in range(4):
                other = hide_shuffle(s, viewer, i)
                assert view_for(other, viewer) == view_for(s, viewer)
        from app.rules import apply_move

        s = apply_move(s, seat, move).state


def test_keep_favor_decision_private() -> None:
    s = give(visit(start(3), "cathedral"), 0, wood=1)
    evs = events(s, 0, {"kind": "cathedral_donation", "resource": "wood", "pay": {"wood": 1}})
    s = play(s, 0, {"kind": "cathedral_donation", "resource": "wood", "pay": {"wood": 1}})
    assert view_for(s, 0)["me"]["decision"]["kind"] == "keep_favor"
    assert view_for(s, 1)["me"]["decision"] is None
    other = hide_shuffle(s, 1, 3)
    assert view_for(other, 1) == view_for(s, 1)
    assert view_for(other, 0) != view_for(s, 0) or True
    # events: the owner sees the tokens, others only the count
    mine = [e for e in events_for(evs, 0) if e["type"] == "favor_drawn"]
    theirs = [e for e in events_for(evs, 1) if e["type"] == "favor_drawn"]
    spect = [e for e in events_for(evs, None) if e["type"] == "favor_drawn"]
    assert len(mine[0]["tokens"]) == 3 and "private" not in mine[0]
    assert theirs == spect == [{"type": "favor_drawn", "seat": 0, "count": 3}]


def test_drawn_cards_redacted() -> None:
    from .test_events import finish_turn, to_last_turn

    s = to_last_turn(start(2), current=None)
    seat = s.tree["turn"]["seat"]
    s = play(s, seat, {"kind": "play_card", "card": "gold", "slot": 3})
    s = play(s, seat, {"kind": "move", "councilor": "countryside"})
    evs = events(s, seat, {"kind": "end_turn"})
    drawn = [e for e in evs if e["type"] == "cards_drawn"]
    assert len(drawn) == 2 and all("cards" in e for e in drawn)
    for viewer in (0, 1, None):
        for e in events_for(evs, viewer):
            if e["type"] == "cards_drawn":
                assert ("cards" in e) == (e["seat"] == viewer)
                assert "private" not in e
    assert finish_turn is not None


def test_view_finished_has_outcome() -> None:
    final, _ = random_playout(2, {"players": 3})
    v = view_for(final, 1)
    assert v["phase"] == "finished" and v["to_act"] == [] and v["turn"] is None
    assert v["outcome"] is not None and len(v["outcome"]["players"]) == 3
    assert legal_moves(final, 0) == []


def test_random_locations_view_keys() -> None:
    s = start(2, random_locations=True)
    v = view_for(s, 0)
    assert set(v["rondels"]) == {"a", "b"}
    assert v["phase"] == "setup" and v["event"] is None and v["turn"] is None


def test_codec_state_is_exact() -> None:
    s = start(3)
    assert decode_state(encode_state(s)) == s


def test_visit_fresh_lists_token_kept_this_visit() -> None:
    s = give(visit(start(3), "cathedral"), 0, wood=1)
    assert view_for(s, 0)["turn"]["visit"]["fresh"] == []
    s = play(s, 0, {"kind": "cathedral_donation", "resource": "wood", "pay": {"wood": 1}})
    token = view_for(s, 0)["me"]["decision"]["tokens"][0]["id"]
    s = play(s, 0, {"kind": "keep_favor", "token": token})
    for viewer in (0, 1, None):
        v = view_for(s, viewer)
        assert v["turn"]["visit"]["fresh"] == [token]
        assert token in [t["id"] for t in v["players_state"][0]["favor_tokens"]]
    assert not any(
        m.get("kind") == "cash_favor" and m.get("token") == token for m in legal_moves(s, 0)
    )


def whole_game(players: int, seed: int) -> Iterator[Any]:
    """Every state of a game of random legal moves, from the start to the end."""
    from app.rules import apply_move, new_game, to_act

    rng = random.Random(seed)
    state = new_game(seed, {"players": players})
    while True:
        yield state
        acting = to_act(state)
        if not acting:
            return
        moves = legal_moves(state, acting[0])
        state = apply_move(state, acting[0], moves[int(rng.random() * len(moves))]).state


def test_the_views_of_all_seats_at_once_equal_each_seats_own_view_over_whole_games() -> None:
    """``views_for`` shares what every seat sees alike; seat by seat it is ``view_for``."""
    from app.rules import views_for

    for players, seed in ((1, 3), (2, 5), (3, 7), (4, 9)):
        seats: list[int | None] = [*range(players), None]
        checked = 0
        for state in whole_game(players, seed):
            together = views_for(state, seats)
            for seat in seats:
                alone = view_for(state, seat)
                assert json.dumps(together[seat], sort_keys=True) == json.dumps(
                    alone, sort_keys=True
                ), (players, seat, checked)
            checked += 1
        assert checked > 50


# The parts of the board a view lends from an earlier version's, and the state keys each is built
# from: lent exactly when those keys are equal in both states.
BOARD_PARTS = {
    "rondels": ("rondels",),
    "councilors": ("councilors",),
    "huts": ("huts",),
    "markers": ("markers",),
    "advisors": ("display", "b_stack"),
    "nobility": ("nobility",),
    "options": ("options",),
    "event": ("event",),
    "event_top": ("event_deck",),
    "favor": ("favor",),
}


def test_views_built_from_an_earlier_version_equal_views_built_afresh_over_whole_games() -> None:
    """A player whose record the engine shares between two states keeps its earlier view
    object, and so does each part of the board built from keys of the state that did not
    change; the views are still, seat by seat, what ``view_for`` builds from nothing, and the
    earlier state is left as it was (a move never changes what it shares)."""
    from app.rules import views_for

    for players, seed in ((1, 4), (2, 6), (3, 8), (4, 10)):
        seats: list[int | None] = [*range(players), None]
        earlier = None
        reused = checked = lent_parts = 0
        for state in whole_game(players, seed):
            together = views_for(state, seats, earlier)
            for seat in seats:
                assert json.dumps(together[seat], sort_keys=True) == json.dumps(
                    view_for(state, seat), sort_keys=True
                ), (players, seat, checked)
            if earlier is not None:
                before_state, before_view = earlier
                assert json.dumps(before_view, sort_keys=True) == json.dumps(
                    view_for(before_state, None), sort_keys=True
                ), (players, checked)
                for s in range(players):
                    same = state.tree["ps"][s] is before_state.tree["ps"][s]
                    kept = together[None]["players_state"][s] is before_view["players_state"][s]
                    assert same == kept, (players, s, checked)
                    reused += kept
                for part, sources in BOARD_PARTS.items():
                    unchanged = all(state.tree[k] == before_state.tree[k] for k in sources)
                    lent = together[None][part] is before_view[part]  # type: ignore[literal-required]
                    assert unchanged == lent, (players, part, checked)
                    lent_parts += lent
                now, then = together[None], before_view
                assert (now["to_act"] is then["to_act"]) == (now["to_act"] == then["to_act"])
                every = all(
                    state.tree["ps"][s] is before_state.tree["ps"][s] for s in range(players)
                )
                assert (now["players_state"] is then["players_state"]) == every
            earlier = (state, together[None])
            checked += 1
        assert checked > 50
        # Most moves leave the other players' records alone, and most of the board.
        assert reused >= checked * (players - 1) // 2, (players, reused, checked)
        assert lent_parts >= checked * len(BOARD_PARTS) // 2, (players, lent_parts, checked)
