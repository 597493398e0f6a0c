"""What changed on the board between two views of the same seat ("since you looked").

``changes_between(before, after)`` compares two views, field by field, and lists every
difference as a ``Change`` naming the board element with a stable ``key`` the browser can match
to an SVG element or DOM id (docs/view.md, "Since you looked"). It reads nothing but the two
views, so it can never show more than that seat was already sent.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from copy import deepcopy
from typing import Any, Required, TypedDict

from .contracts import MarkerView, PlayerView, View


# Every change is ``before`` -> ``after``; the other fields say which element it concerns.
class Change(TypedDict, total=False):
    kind: Required[str]
    key: Required[str]
    before: Required[Any]
    after: Required[Any]
    seat: int
    rondel: str
    location: str
    hut: int
    marker: str
    resource: str | None
    advisor: str
    title: str
    token: int
    slot: int
    track: str
    item: str
    field: str


_PLAYER_COUNTS = ("craftsmen_left", "hand_size", "deck_size", "turns_taken")
_TOP_VALUES = ("phase", "round", "statue", "to_act", "event", "event_top", "events_left")


class ViewMismatchError(ValueError):
    """The two views are not of the same seat and table."""


def _set_diff(before: Iterable[Any], after: Iterable[Any]) -> tuple[list[Any], list[Any]]:
    """Items gone from ``before`` and new in ``after`` (multisets, each in its list's order)."""
    rest = list(after)
    gone: list[Any] = []
    for item in before:
        if item in rest:
            rest.remove(item)
        else:
            gone.append(item)
    return gone, rest


def _marker_changes(before: View, after: View) -> list[Change]:
    out: list[Change] = []

    def one(marker: str, resource: str | None, b: MarkerView, a: MarkerView) -> None:
        if b != a:
            key = f"marker:{marker}" if resource is None else f"marker:{marker}:{resource}"
            out.append(
                {
                    "kind": "marker",
                    "key": key,
                    "marker": marker,
                    "resource": resource,
                    "before": dict(b),
                    "after": dict(a),
                }
            )

    for marker in ("gift", "donation"):
        bm: Mapping[str, MarkerView] = before["markers"][marker]
        am: Mapping[str, MarkerView] = after["markers"][marker]
        for res in am:
            one(marker, res, bm[res], am[res])
    one("stone", None, before["markers"]["stone"], after["markers"]["stone"])
    one("bread", None, before["markers"]["bread"], after["markers"]["bread"])
    return out


def _board_changes(before: View, after: View) -> list[Change]:
    out: list[Change] = []
    for seat, (bc, ac) in enumerate(zip(before["councilors"], after["councilors"], strict=True)):
        for rondel, loc in ac.items():
            if bc.get(rondel) != loc:
                out.append(
                    {
                        "kind": "councilor_moved",
                        "key": f"councilor:{seat}:{rondel}",
                        "seat": seat,
                        "rondel": rondel,
                        "before": bc.get(rondel),
                        "after": loc,
                    }
                )
    for loc, huts in after["huts"].items():
        for i, hut in enumerate(huts):
            was = before["huts"][loc][i]["occupant"]
            if was != hut["occupant"]:
                out.append(
                    {
                        "kind": "hut",
                        "key": f"hut:{loc}:{i}",
                        "location": loc,
                        "hut": i,
                        "before": was,
                        "after": hut["occupant"],
                    }
                )
    out.extend(_marker_changes(before, after))
    for loc, shown in after["advisors"]["display"].items():
        gone, new = _set_diff(before["advisors"]["display"][loc], shown)
        for adv in gone:
            out.append(
                {
                    "kind": "advisor_gone",
                    "key": f"display:{loc}:{adv}",
                    "location": loc,
                    "advisor": adv,
                    "before": loc,
                    "after": None,
                }
            )
        for adv in new:
            out.append(
                {
                    "kind": "advisor_shown",
                    "key": f"display:{loc}:{adv}",
                    "location": loc,
                    "advisor": adv,
                    "before": None,
                    "after": loc,
                }
            )
    b_before = {"top": before["advisors"]["b_top"], "left": before["advisors"]["b_left"]}
    b_after = {"top": after["advisors"]["b_top"], "left": after["advisors"]["b_left"]}
    if b_before != b_after:
        out.append(
            {"kind": "b_stack", "key": "advisors:b_stack", "before": b_before, "after": b_after}
        )
    for bt, at in zip(before["nobility"], after["nobility"], strict=True):
        b = {"top": bt["top"], "left": bt["left"]}
        a = {"top": at["top"], "left": at["left"]}
        if b != a:
            out.append(
                {
                    "kind": "title_stack",
                    "key": f"nobility:{at['id']}",
                    "title": at["id"],
                    "before": b,
                    "after": a,
                }
            )
    if before["favor"] != after["favor"]:
        out.append(
            {
                "kind": "favor_pile",
                "key": "favor:pile",
                "before": dict(before["favor"]),
                "after": dict(after["favor"]),
            }
        )
    return out


def _player_changes(b: PlayerView, a: PlayerView) -> list[Change]:
    seat = a["seat"]
    out: list[Change] = []
    for track in ("cp", "bp", "score"):
        if b[track] != a[track]:
            out.append(
                {
                    "kind": "track",
                    "key": f"player:{seat}:{track}",
                    "seat": seat,
                    "track": track,
                    "before": b[track],
                    "after": a[track],
                }
            )
    for group in ("resources", "goods"):
        bh: dict[str, int] = b[group]
        ah: dict[str, int] = a[group]
        for item, n in ah.items():
            if bh.get(item, 0) != n:
                out.append(
                    {
                        "kind": "holding",
                        "key": f"player:{seat}:{item}",
                        "seat": seat,
                        "item": item,
                        "before": bh.get(item, 0),
                        "after": n,
                    }
                )
    for field in _PLAYER_COUNTS:
        if b[field] != a[field]:  # type: ignore[literal-required]
            out.append(
                {
                    "kind": "count",
                    "key": f"player:{seat}:{field}",
                    "seat": seat,
                    "field": field,
                    "before": b[field],  # type: ignore[literal-required]
                    "after": a[field],  # type: ignore[literal-required]
                }
            )
    gone, new = _set_diff(b["advisors"], a["advisors"])
    for adv, kind, before, after in [(x, "advisor_lost", True, False) for x in gone] + [
        (x, "advisor_hired", False, True) for x in new
    ]:
        out.append(
            {
                "kind": kind,
                "key": f"player:{seat}:advisor:{adv}",
                "seat": seat,
                "advisor": adv,
                "before": before,
                "after": after,
            }
        )
    bt = {t["id"]: t["cp"] for t in b["titles"]}
    at = {t["id"]: t["cp"] for t in a["titles"]}
    for title in list(bt) + [t for t in at if t not in bt]:
        if bt.get(title) != at.get(title):
            out.append(
                {
                    "kind": "title",
                    "key": f"player:{seat}:title:{title}",
                    "seat": seat,
                    "title": title,
                    "before": bt.get(title),
                    "after": at.get(title),
                }
            )
    btok = {t["id"]: t for t in b["favor_tokens"]}
    atok = {t["id"]: t for t in a["favor_tokens"]}
    for tid in list(btok) + [t for t in atok if t not in btok]:
        if (tid in btok) != (tid in atok):
            out.append(
                {
                    "kind": "favor_token_gone" if tid in btok else "favor_token_taken",
                    "key": f"player:{seat}:favor:{tid}",
                    "seat": seat,
                    "token": tid,
                    "before": dict(btok[tid]) if tid in btok else None,
                    "after": dict(atok[tid]) if tid in atok else None,
                }
            )
    if b["points"] != a["points"]:
        out.append(
            {
                "kind": "points",
                "key": f"player:{seat}:points",
                "seat": seat,
                "before": deepcopy(b["points"]),
                "after": deepcopy(a["points"]),
            }
        )
    for slot, card in a["slots"].items():
        if b["slots"].get(slot) != card:
            out.append(
                {
                    "kind": "slot",
                    "key": f"player:{seat}:slot:{slot}",
                    "seat": seat,
                    "slot": int(slot),
                    "before": b["slots"].get(slot),
                    "after": card,
                }
            )
    return out


def _value(key: str, before: Any, after: Any) -> list[Change]:
    if before == after:
        return []
    return [{"kind": "value", "key": key, "before": deepcopy(before), "after": deepcopy(after)}]


def changes_between(before: View, after: View) -> list[Change]:
    """Every difference between two views of one seat, in board order (docs/view.md)."""
    b_me, a_me = before["me"], after["me"]
    b_seat = None if b_me is None else b_me["seat"]
    a_seat = None if a_me is None else a_me["seat"]
    if b_seat != a_seat or before["players"] != after["players"]:
        raise ViewMismatchError("both views must be of the same seat at the same table")
    out: list[Change] = []
    for key in _TOP_VALUES:
        out.extend(_value(key, before[key], after[key]))  # type: ignore[literal-required]
    b_turn, a_turn = before["turn"], after["turn"]
    out.extend(
        _value(
            "turn:seat",
            None if b_turn is None else b_turn["seat"],
            None if a_turn is None else a_turn["seat"],
        )
    )
    out.extend(_value("turn", b_turn, a_turn))
    out.extend(_value("rondels", before["rondels"], after["rondels"]))
    out.extend(_value("options", before["options"], after["options"]))
    out.extend(_board_changes(before, after))
    for bp, ap in zip(before["players_state"], after["players_state"], strict=True):
        out.extend(_player_changes(bp, ap))
    b_vic, a_vic = before["victoria"], after["victoria"]
    out.extend(
        _value(
            "victoria:cp",
            None if b_vic is None else b_vic["cp"],
            None if a_vic is None else a_vic["cp"],
        )
    )
    out.extend(
        _value(
            "victoria:titles",
            None if b_vic is None else b_vic["titles"],
            None if a_vic is None else a_vic["titles"],
        )
    )
    if b_me is not None and a_me is not None:
        out.extend(_value("me:hand", b_me["hand"], a_me["hand"]))
        out.extend(_value("me:decision", b_me["decision"], a_me["decision"]))
    out.extend(_value("outcome", before["outcome"], after["outcome"]))
    return out
