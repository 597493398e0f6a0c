"""Server frames are built from their models without losing a field, and the engine's typed
contracts reach pydantic (hence docs/openapi.json and docs/frames.schema.json) exactly."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from app import engine_types, rules
from app.realtime import frames as f
from app.rules.moves import _FIELD_TYPES
from app.tables.frames import game_frame
from app.tables.render import render
from tests.frame_check import problems

GAME = rules.new_game(11, {"players": 3})
SEATS = [{"seat": n, "name": f"p{n}", "bot_level": None} for n in range(3)]


def catch_up(kind: str) -> dict[str, Any]:
    base = {**render(GAME, 4, 1), "status": "playing", "seats": SEATS, "clock": None}
    extra: dict[str, Any] = {"since": 3, "moves": []} if kind == "update" else {}
    return {**base, "holders": {1: "p1"}, "type": kind, **extra}


@pytest.mark.parametrize("kind", ["snapshot", "update"])
def test_a_catch_up_goes_out_whole_but_for_its_holders(kind: str) -> None:
    frame = catch_up(kind)
    sent = json.loads(f.wire(game_frame(frame)))  # type: ignore[arg-type]
    expected = {k: v for k, v in frame.items() if k != "holders"}
    assert sent == json.loads(json.dumps(expected))
    assert problems(f.wire(game_frame(frame))) == []  # type: ignore[arg-type]


def test_an_optional_field_not_given_stays_out_and_one_given_as_null_goes_out() -> None:
    assert json.loads(f.wire(f.error_frame("seat_lost", "gone"))) == {
        "type": "error",
        "code": "seat_lost",
        "message": "gone",
    }
    with_seat = json.loads(f.wire(f.error_frame("seat_lost", "gone", seat=None)))
    assert "seat" in with_seat and with_seat["seat"] is None
    assert json.loads(f.wire(f.ServerPong())) == {"type": "pong"}


def test_the_schema_check_names_what_is_wrong() -> None:
    frame = catch_up("snapshot")
    frame["view"] = {**frame["view"], "seed": 1}  # a secret the view never carries
    found = problems(f.wire(game_frame(frame)))  # type: ignore[arg-type]
    assert found and found[0].startswith("snapshot frame at /view")


def test_the_engine_view_is_checked_field_for_field() -> None:
    view = TypeAdapter(engine_types.View)
    view.validate_python(rules.view_for(GAME, 0))
    view.validate_python(rules.view_for(GAME, None))
    with pytest.raises(ValidationError):
        view.validate_python({**rules.view_for(GAME, 0), "deck": []})
    decision = view.json_schema()["$defs"]["DecisionView"]
    assert decision["required"] == ["kind"] and decision["additionalProperties"] is False


def test_the_encoded_move_names_every_field_of_the_move_vocabulary() -> None:
    fields = rules.EncodedMove.__annotations__
    assert set(fields) == {"kind", *_FIELD_TYPES}
    moves = TypeAdapter(list[engine_types.EncodedMove])
    seat = rules.to_act(GAME)[0]
    legal = [rules.encode_move(m) for m in rules.legal_moves(GAME, seat)]
    assert legal
    moves.validate_python(legal)


def test_a_trusted_frame_encoded_without_its_model_is_the_text_the_model_gives() -> None:
    """``trusted_wire`` (the frames of every move) writes what ``wire(trusted(...))`` writes, for
    every server frame: all its fields or a few, in any order given, an open model's extras;
    and a catch-up as ``game_wire`` is ``wire(game_frame(...))``."""
    from typing import get_args

    from app.frames_schema import ServerFrame
    from app.tables.frames import game_wire

    models = get_args(get_args(ServerFrame)[0])
    assert len(models) > 10
    for model in models:
        names = [n for n in model.model_fields if n != "type"]
        full = {n: f"v-{n}" for n in reversed(names)}  # given in the reverse of the model's order
        few = {n: 1 for n in names[::2]}
        kind = model.model_fields["type"].default
        for fields in (full, few, {}, {**few, "type": kind}, {**few, "not_a_field": 1}):
            expected = f.wire(f.trusted(model, fields))
            assert f.trusted_wire(model, fields) == expected, (model.__name__, fields)
    extra = {"code": "c", "message": "m", "unknown_field": [1], "ref": 3}
    assert f.trusted_wire(f.Error, extra) == f.wire(f.trusted(f.Error, extra))
    assert '"unknown_field":[1]' in f.trusted_wire(f.Error, extra)
    for kind in ("snapshot", "update"):
        frame = catch_up(kind)
        assert game_wire(frame) == f.wire(game_frame(frame))  # type: ignore[arg-type]
