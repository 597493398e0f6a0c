"""The engine's typed contracts (``app.rules``' ``TypedDict``s) as pydantic takes them.

The engine stays standard library only, and pydantic reads only ``typing_extensions``'
``TypedDict`` before Python 3.12: each contract is mirrored once, field for field (required keys,
nested contracts, unions, lists and dicts followed), closed to other keys. Responses and socket
frames name these, so docs/openapi.json and docs/frames.schema.json describe the engine's view,
moves and events exactly.
"""

from __future__ import annotations

import types
import typing
from typing import Any, Union, get_args, get_origin, get_type_hints

import typing_extensions
from pydantic import ConfigDict

from app import rules

_MIRRORS: dict[type, Any] = {}


def _is_typed_dict(tp: Any) -> bool:
    return typing.is_typeddict(tp) or typing_extensions.is_typeddict(tp)


def mirror(tp: Any) -> Any:
    """``tp`` with every standard-library ``TypedDict`` in it replaced by its mirror."""
    if _is_typed_dict(tp):
        return _mirror_typed_dict(tp)
    origin, args = get_origin(tp), get_args(tp)
    if not args:
        return tp
    mirrored = tuple(mirror(a) for a in args)
    if origin in (Union, types.UnionType):
        return Union[mirrored]  # noqa: UP007 (built from a tuple)
    if origin is list:
        return list[mirrored[0]]  # type: ignore[valid-type]
    if origin is dict:
        return dict[mirrored[0], mirrored[1]]  # type: ignore[valid-type]
    raise TypeError(f"no mirror for {tp!r}")


def _mirror_typed_dict(td: Any) -> Any:
    if td in _MIRRORS:
        return _MIRRORS[td]
    # ``Required[...]`` written under ``from __future__ import annotations`` is missed by
    # ``__required_keys__`` before Python 3.12: the resolved hints say it.
    hints = get_type_hints(td, include_extras=True)
    fields: dict[str, Any] = {}
    for name, hint in hints.items():
        required = name in td.__required_keys__
        if get_origin(hint) in (typing.Required, typing.NotRequired):
            required = get_origin(hint) is typing.Required
            hint = get_args(hint)[0]
        inner = mirror(hint)
        fields[name] = (
            typing_extensions.Required[inner] if required else typing_extensions.NotRequired[inner]
        )
    made: Any = typing_extensions.TypedDict(td.__name__, fields)  # type: ignore[misc]
    made.__doc__ = td.__doc__
    setattr(made, "__pydantic_config__", ConfigDict(extra="forbid"))  # noqa: B010
    _MIRRORS[td] = made
    return made


View: Any = mirror(rules.View)
Outcome: Any = mirror(rules.Outcome)
EngineEvent: Any = mirror(rules.EngineEvent)
EncodedMove: Any = mirror(rules.EncodedMove)
