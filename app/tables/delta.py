"""What changed in a seat's game between two versions, as an RFC 6902 JSON Patch, and the check
that a client's copy is in step (docs/protocol.md, "Deltas").

The patched document is a seat's ``GameDoc``: its view, its legal moves, the score lines, the
table's status, seats and clock — everything of an ``update`` frame that describes the game at a
version (not the version, the seat or the moves that led there). ``diff`` writes only ``add``,
``remove`` and ``replace`` operations: a changed value is replaced, a dictionary is compared key
by key, a list of the same length item by item, a list that only grew gets its new items added at
its end, any other list is replaced whole. Any JSON Patch implementation applies the result; the
tests check every patch with the ``jsonpatch`` library.

Why not ``jsonpatch.make_patch`` itself: it looks for moved and copied items in every list and
took 0.64 ms for one seat's document here against 0.045 ms for ``diff``, which compares with the
C-level ``==`` first and descends only where two values differ (``bench/deltas.py`` prints both).

``digest`` is the check: the CRC-32 (zlib's, as in gzip and PNG) of the UTF-8 bytes of the
canonical JSON of the view and the legal moves (keys sorted, no spaces, non-ASCII as is). The
browser computes the same over its copy (static/js/delta.js); a mismatch makes it ask for a
snapshot.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import Any, Literal, TypedDict

import orjson

from app.engine_types import EncodedMove, View
from app.pace.schemas import ClockOut
from app.tables.schemas import GameSeat


class PatchOp(TypedDict, total=False):
    op: Literal["add", "remove", "replace"]
    path: str
    value: Any


class GameDoc(TypedDict):
    view: View
    legal_moves: list[EncodedMove]
    scores: list[Any]
    status: str
    seats: list[GameSeat]
    clock: ClockOut | None


DOC_FIELDS = ("view", "legal_moves", "scores", "status", "seats", "clock")
# A delta frame carries the digest of the document it leads to when its version is a multiple of
# this (and a client may ask for a snapshot at any time).
DIGEST_EVERY = 8


def _token(key: str) -> str:
    if "~" in key or "/" in key:
        return key.replace("~", "~0").replace("/", "~1")
    return key


def diff(old: Any, new: Any) -> list[PatchOp]:
    """The operations that turn ``old`` into ``new`` (both JSON values)."""
    ops: list[PatchOp] = []
    if not _same(old, new):
        _diff(old, new, "", ops)
    return ops


class SharedDiffs:
    """``diff`` of seats' documents that share parts: the seats' views of one version are shallow
    copies of its public view (app/rules/view.py ``views_for``) with their own ``turn`` and
    ``me``, and the score lines are one list; so are those of the version before. Each part —
    a key of the document, or of its view — is diffed once for the pair of objects it holds in
    both versions, and the operations are reused by every seat whose document holds that very
    pair (documents are never changed once made). The operations are those ``diff`` writes, in
    its order."""

    def __init__(self) -> None:
        # path -> (old part, new part, its operations): held, so the objects stay what they were
        self._known: dict[str, tuple[Any, Any, list[PatchOp]]] = {}

    def diff(self, old: GameDoc, new: GameDoc) -> list[PatchOp]:
        ops: list[PatchOp] = []
        self._dict(old, new, "", ops, 1)
        return ops

    def _dict(self, old: Any, new: Any, path: str, ops: list[PatchOp], deeper: int) -> None:
        """``_diff`` of two dictionaries, each key's value a part (``deeper``: and its view's)."""

        def descend(before: Any, value: Any, where: str, ops: list[PatchOp]) -> None:
            if deeper and where == "/view" and type(before) is dict and type(value) is dict:
                self._dict(before, value, where, ops, deeper - 1)
            else:
                ops.extend(self._part(where, before, value))

        _dict_diff(old, new, path, ops, descend)

    def _part(self, path: str, old: Any, new: Any) -> list[PatchOp]:
        known = self._known.get(path)
        if known is not None and known[0] is old and known[1] is new:
            return known[2]
        ops: list[PatchOp] = []
        if not _same(old, new):
            _diff(old, new, path, ops)
        self._known[path] = (old, new, ops)
        return ops


def _same(a: Any, b: Any) -> bool:
    # Python's ``==`` finds True equal to 1: a container that holds one where the other held
    # the other would be missed. The engine's documents never do that (each place holds one
    # JSON type, app/engine_types.py; tests/ws/test_deltas.py compares the encoded bytes over
    # whole games), and a client's copy that drifted fails the next digest and is resent.
    return a is b or (type(a) is type(b) and a == b)


def _diff(old: Any, new: Any, path: str, ops: list[PatchOp]) -> None:
    """Called only where ``old`` and ``new`` differ."""
    if type(old) is not type(new) or not isinstance(old, dict | list):
        ops.append({"op": "replace", "path": path, "value": new})
        return
    if isinstance(old, dict):
        _dict_diff(old, new, path, ops, _diff_unless_same)
        return
    n = len(old)
    if len(new) == n:
        for i in range(n):
            if not _same(old[i], new[i]):
                _diff(old[i], new[i], f"{path}/{i}", ops)
    elif len(new) > n and new[:n] == old:
        for i in range(n, len(new)):
            ops.append({"op": "add", "path": f"{path}/{i}", "value": new[i]})
    else:
        ops.append({"op": "replace", "path": path, "value": new})


def _diff_unless_same(old: Any, new: Any, path: str, ops: list[PatchOp]) -> None:
    if not _same(old, new):
        _diff(old, new, path, ops)


def _dict_diff(
    old: dict[str, Any],
    new: dict[str, Any],
    path: str,
    ops: list[PatchOp],
    descend: Callable[[Any, Any, str, list[PatchOp]], None],
) -> None:
    """Two dictionaries: their removed keys, their added keys, then ``descend`` into each key
    both hold with values that are not the same object — in the order ``diff`` writes them."""
    for key in old:
        if key not in new:
            ops.append({"op": "remove", "path": f"{path}/{_token(str(key))}"})
    for key, value in new.items():
        if key not in old:
            ops.append({"op": "add", "path": f"{path}/{_token(str(key))}", "value": value})
        elif old[key] is not value:
            descend(old[key], value, f"{path}/{_token(str(key))}", ops)


def canonical(value: Any) -> bytes:
    """The canonical JSON of a value, as UTF-8: keys sorted, no spaces, non-ASCII as is — the
    text of ``json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`` for
    the engine's documents (string keys, integers, no floats), written by orjson at a tenth of
    its cost (tests/ws/test_deltas.py compares the two over whole games)."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def digest(doc: GameDoc) -> str:
    """The check of a document: 8 hex digits over its view and legal moves."""
    data = canonical({"view": doc["view"], "legal_moves": doc["legal_moves"]})
    return f"{zlib.crc32(data):08x}"


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def apply_patch(doc: Any, ops: list[PatchOp]) -> Any:
    """``doc`` with the operations applied (add, remove, replace — what ``diff`` writes), a new
    value: ``doc`` itself is not changed (containers on each operation's path are copied).
    Raises ``ValueError`` on an operation that does not fit the document."""
    for op in ops:
        doc = _apply_one(doc, op)
    return doc


def _apply_one(doc: Any, op: PatchOp) -> Any:
    path = op.get("path", "")
    kind = op.get("op")
    if path == "":
        if kind != "replace":
            raise ValueError(f"cannot {kind} the whole document")
        return op.get("value")
    if not path.startswith("/"):
        raise ValueError(f"bad path {path!r}")
    tokens = [_unescape(t) for t in path[1:].split("/")]
    root = _copy(doc)
    parent = root
    for token in tokens[:-1]:
        if isinstance(parent, dict) and token in parent:
            parent[token] = _copy(parent[token])
            parent = parent[token]
        elif isinstance(parent, list) and token.isdigit() and int(token) < len(parent):
            parent[int(token)] = _copy(parent[int(token)])
            parent = parent[int(token)]
        else:
            raise ValueError(f"no {path!r} in the document")
    last = tokens[-1]
    if isinstance(parent, dict):
        if kind == "add":
            parent[last] = op.get("value")
        elif last not in parent:
            raise ValueError(f"no {path!r} in the document")
        elif kind == "remove":
            del parent[last]
        else:
            parent[last] = op.get("value")
    elif isinstance(parent, list):
        index = len(parent) if last == "-" else int(last) if last.isdigit() else -1
        if kind == "add" and 0 <= index <= len(parent):
            parent.insert(index, op.get("value"))
        elif 0 <= index < len(parent) and kind == "remove":
            del parent[index]
        elif 0 <= index < len(parent) and kind == "replace":
            parent[index] = op.get("value")
        else:
            raise ValueError(f"no {path!r} in the document")
    else:
        raise ValueError(f"no {path!r} in the document")
    return root


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, list):
        return list(value)
    return value
