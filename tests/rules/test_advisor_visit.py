"""An advisor's ability used during a visit does not end the visit (rules contract §3, RULING).

Rules contract §3: "RULING: an advisor ability is not an action — using one during an open visit
does not end the visit (bake bread with the Baker at the construction site, then deliver it in
the same visit)." Rulebook (cs), Advisors: "Jednou za tah (i bezprostředně po najmutí): Baker
(pekař): Zaplaťte 1 látku a 1 obilí a vezměte si 1 chléb …" — "Once per turn (even right after
hiring): Baker: pay 1 cloth and 1 grain and take 1 bread …"; the rulebook names no moment in the
turn, so the ability may come between a location's actions.
"""

from __future__ import annotations

from app.rules import view_for

from .helpers import advisors, clear, events, give, kinds, play, player, set_event, start, visit


def test_baker_at_the_construction_site_then_deliver_the_bread() -> None:
    s = set_event(advisors(give(clear(start(2), 0), 0, cloth=1, grain=2), 0, ["baker"]), None)
    s = visit(s, "construction_site")
    assert "deliver_bread" not in kinds(s, 0)
    bake = {"kind": "use_advisor", "advisor": "baker", "bread": 2, "pay": {"cloth": 1, "grain": 2}}
    evs = events(s, 0, bake)
    assert not [e for e in evs if e["type"] == "visit_closed"]
    s = play(s, 0, bake)
    visit_view = view_for(s, 0)["turn"]["visit"]  # type: ignore[index]
    assert visit_view is not None and visit_view["location"] == "construction_site"
    assert "deliver_bread" in kinds(s, 0)
    cp = player(s, 0)["cp"]
    s = play(s, 0, {"kind": "deliver_bread", "count": 2})
    assert player(s, 0)["goods"]["bread"] == 0 and player(s, 0)["cp"] > cp


def test_chamberlain_and_merchant_keep_the_market_visit_open() -> None:
    s = set_event(advisors(give(clear(start(2), 0), 0, ring=1), 0, ["chamberlain"]), None)
    s = visit(s, "market")
    assert "market_gold" not in kinds(s, 0)
    s = play(s, 0, {"kind": "use_advisor", "advisor": "chamberlain", "give": "ring"})
    assert view_for(s, 0)["turn"]["visit"] is not None  # type: ignore[index]
    assert "end_visit" in kinds(s, 0)


def test_bonus_actions_still_end_the_visit() -> None:
    """Not an ability: a bonus action (here raising a title) still closes the open visit."""
    s = set_event(give(clear(start(2), 0), 0, gold=5, ring=5, wood=3), None)
    s = visit(s, "construction_site")
    evs = events(s, 0, {"kind": "raise_title"})
    assert [e for e in evs if e["type"] == "visit_closed"]
    s = play(s, 0, {"kind": "raise_title"})
    assert view_for(s, 0)["turn"]["visit"] is None  # type: ignore[index]
    assert "deliver_wood" not in kinds(s, 0)
