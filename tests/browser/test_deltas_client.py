"""The browser's half of the deltas (static/js/delta.js): it applies the server's patches to the
documents the server rendered and computes the server's digest, names with accents, quotes and
control characters included; a patch that does not fit is refused, and nothing it was given is
changed."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from app import rules
from app.tables.delta import diff, digest
from app.tables.render import render
from tests.browser.modules import own_modules
from tests.browser.test_play import VIEWPORT
from tests.conftest import pick_move

pytestmark = [pytest.mark.browser]


def documents() -> list[dict[str, Any]]:
    """A game's documents for seat 1, version after version, as the feed renders them."""
    state = rules.new_game(23, {"players": 3})
    rng = random.Random(2)
    docs = []
    for version in range(60):
        r = render(state, version, 1)
        seats = [{"seat": 0, "name": 'Žofie "Ž" \\ ~/', "bot_level": None},
                 {"seat": 1, "name": "Bo\u0007\n", "bot_level": None},
                 {"seat": 2, "name": "😀 Ann", "bot_level": "greedy"}]  # fmt: skip
        docs.append({"view": r["view"], "legal_moves": r["legal_moves"], "scores": r["scores"],
                     "status": "playing", "seats": seats, "clock": None})  # fmt: skip
        seat = rules.to_act(state)[0]
        state = rules.apply_move(
            state,
            seat,
            pick_move([rules.encode_move(m) for m in rules.legal_moves(state, seat)], rng),
        ).state
    return docs


def test_the_page_applies_the_servers_patches_and_computes_its_digests(
    server: Any, browser: Any
) -> None:
    docs = documents()
    steps = [
        {"patch": diff(a, b), "digest": digest(b)}  # type: ignore[arg-type]
        for a, b in itertools.pairwise(docs)
    ]
    ctx = browser.new_context(viewport=VIEWPORT)
    try:
        page = ctx.new_page()
        page.goto(server.url("/"))
        page.get_by_test_id("create-table").wait_for(timeout=10000)
        out = page.evaluate(
            own_modules("""async ([first, steps]) => {
                 const d = await import('/js/delta.js');
                 let doc = first;
                 const frozen = JSON.stringify(first);
                 const docs = [], digests = [];
                 for (const s of steps) {
                   doc = d.applyPatch(doc, s.patch);
                   docs.push(doc);
                   digests.push(d.digest(doc));
                 }
                 let refused = false;
                 try { d.applyPatch(first, [{op: 'replace', path: '/view/nowhere/0', value: 1}]); }
                 catch (e) { refused = true; }
                 return {docs, digests, untouched: JSON.stringify(first) === frozen, refused,
                         firstDigest: d.digest(first)};
               }"""),
            [docs[0], steps],
        )
    finally:
        ctx.close()
    assert out["docs"] == docs[1:]
    assert out["digests"] == [s["digest"] for s in steps]
    assert out["firstDigest"] == digest(docs[0])  # type: ignore[arg-type]
    assert out["untouched"] and out["refused"]
    assert sum(len(s["patch"]) for s in steps) > len(steps)  # the game did change
