"""Web Push end to end: subscriptions (validated, bounded, SSRF-safe), messages sent after the
commit to a push service on loopback that checks the VAPID JWT and decrypts the payload; a 410
removes the subscription, a 500 is tried again a bounded number of times."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.clock import ManualClock
from app.db.models import PushSubscription
from tests.conftest import assert_replays, make_settings, new_player, wipe
from tests.pace.conftest import START, end_turn, open_game
from tests.push.pushservice import PushService, push_service


@pytest.fixture
def service() -> Iterator[PushService]:
    with push_service() as s:
        yield s


@pytest.fixture
def pushy(database_url: str, tmp_path: Path) -> Iterator[Any]:
    from app.main import create_app

    wipe(database_url)
    application = create_app(
        make_settings(
            database_url,
            tmp_path,
            deadline_sweep_seconds=0,
            push_allow_loopback_http=True,
            push_retry_seconds=0,
        ),
        clock=ManualClock(START),
    )
    yield application
    assert_replays(application)
    application.state.db.dispose()


@pytest.fixture
def tc(pushy: Any, service: PushService) -> Iterator[TestClient]:
    with TestClient(pushy) as c:
        service.server_key = c.get("/api/push/key").json()["key"]
        yield c


def settle(tc: TestClient) -> None:
    tc.portal.call(tc.app.state.push.idle)  # type: ignore[union-attr, attr-defined]


def subscriptions(app: Any) -> int:
    with app.state.db.session() as s:
        return int(s.scalar(select(func.count()).select_from(PushSubscription)) or 0)


def test_your_turn_reaches_the_browser_in_its_language_and_a_410_unsubscribes(
    tc: TestClient, pushy: Any, service: PushService
) -> None:
    ada, ben = new_player(tc, "Ada"), new_player(tc, "Ben")
    for who, lang in ((ada, "en"), (ben, "cs")):
        sub = service.browser(who.name).subscription(lang)
        r = tc.post("/api/push/subscriptions", json=sub, headers=who.headers)
        assert r.status_code == 201, r.text
    t = open_game(tc, [ada, ben], {"mode": "live", "clock": "10+20"})
    settle(tc)
    assert service.received == [
        (
            "Ada",
            {
                "title": "Your turn",
                "body": "Your turn at Ada's table",
                "url": f"/t/{t['id']}",
                "tag": f"emara-{t['id']}",
                "kind": "your_turn",
                "params": {"table_id": t["id"], "host": "Ada"},
            },
        )
    ]
    end_turn(tc, t["id"], ada)
    settle(tc)
    name, payload = service.received[-1]
    assert name == "Ben" and payload["kind"] == "your_turn"
    assert (
        payload["title"] == "Jste na tahu" and payload["body"] == "Jste na tahu u stolu hráče Ada"
    )
    assert len(service.received) == 2  # Ada's own moves within her turn told nobody
    assert service.refused == []
    # Ben's browser is gone: the push service answers 410, and the subscription is removed.
    service.answers = [410]
    end_turn(tc, t["id"], ben)  # Ada's turn: she hears it
    end_turn(tc, t["id"], ada)  # Ben's turn: 410
    settle(tc)
    assert subscriptions(pushy) == 1
    assert service.refused == []


def test_a_failing_push_service_is_tried_again_a_bounded_number_of_times(
    tc: TestClient, pushy: Any, service: PushService
) -> None:
    ada, ben = new_player(tc, "Ada"), new_player(tc, "Ben")
    tc.post(
        "/api/push/subscriptions", json=service.browser("Ada").subscription(), headers=ada.headers
    )
    service.answers = [500, 503]
    open_game(tc, [ada, ben], {"mode": "live"})
    settle(tc)
    assert [o for _, o in pushy.state.push.sent] == ["retry", "retry", "sent"]
    assert len(service.received) == 1
    # Always failing: given up after the attempts (3), the subscription kept.
    service.answers = [500] * 10
    t = open_game(tc, [ada, ben], {"mode": "live"})
    settle(tc)
    assert [o for _, o in pushy.state.push.sent][3:] == ["retry"] * 3
    assert service.answers == [500] * 7 and subscriptions(pushy) == 1
    assert t


def test_a_timed_out_seat_and_the_end_of_a_game_are_told(
    tc: TestClient, pushy: Any, service: PushService
) -> None:
    ada, ben = new_player(tc, "Ada"), new_player(tc, "Ben")
    tc.post(
        "/api/push/subscriptions",
        json=service.browser("Ben").subscription("de"),
        headers=ben.headers,
    )
    t = open_game(tc, [ada, ben], {"mode": "turn", "hours": 1})
    end_turn(tc, t["id"], ada)
    settle(tc)
    tc.portal.call(pushy.state.sweeper.sweep, START + 3600)
    settle(tc)
    kinds = [p["kind"] for _, p in service.received]
    assert kinds[:2] == ["your_turn", "seat_timed_out"]
    timed = service.received[1][1]
    assert timed["title"] == "Deine Zeit ist abgelaufen"
    assert timed["params"] == {"table_id": t["id"], "host": "Ada", "seat": 1}
    # Words for a finished game: the place, per language.
    from app.push.sender import Message, payload_for

    over = Message(ben.id, t["id"], "game_over", {"host": "Ada", "place": 2, "of": 2})
    assert payload_for(over, "en")["body"] == "The game is over at Ada's table: you are 2nd"
    assert payload_for(over, "de")["body"].endswith("du bist auf Platz 2")
    assert payload_for(over, "cs")["body"].endswith("jste na 2. místě")


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://push.example.com/x",
        "https://10.0.0.7/push",
        "https://169.254.169.254/latest",
        "https://localhost/push",
        "https://user:pw@push.example.com/x",
        "ftp://push.example.com/x",
        "not a url at all",
    ],
)
def test_push_endpoints_must_be_public_https(
    tc: TestClient, pushy: Any, service: PushService, endpoint: str
) -> None:
    ada = new_player(tc, "Ada")
    sub = service.browser("Ada").subscription()
    sub["endpoint"] = endpoint
    r = tc.post("/api/push/subscriptions", json=sub, headers=ada.headers)
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] in ("bad_push_endpoint", "malformed")
    assert subscriptions(pushy) == 0


def test_subscriptions_are_bounded_per_profile_and_can_be_removed(
    tc: TestClient, pushy: Any, service: PushService
) -> None:
    ada = new_player(tc, "Ada")
    subs = [service.browser(f"d{n}").subscription() for n in range(11)]
    for sub in subs[:10]:
        assert tc.post("/api/push/subscriptions", json=sub, headers=ada.headers).status_code == 201
    r = tc.post("/api/push/subscriptions", json=subs[10], headers=ada.headers)
    assert r.status_code == 409 and r.json()["error"]["code"] == "too_many_subscriptions"
    # The same device again only updates it.
    again = {**subs[0], "lang": "de"}
    assert (
        tc.post("/api/push/subscriptions", json=again, headers=ada.headers).json()["lang"] == "de"
    )
    r = tc.request(
        "DELETE",
        "/api/push/subscriptions",
        json={"endpoint": subs[0]["endpoint"]},
        headers=ada.headers,
    )
    assert r.status_code == 204
    assert subscriptions(pushy) == 9
    r = tc.request(
        "DELETE",
        "/api/push/subscriptions",
        json={"endpoint": subs[0]["endpoint"]},
        headers=ada.headers,
    )
    assert r.status_code == 404
    bad = {**subs[1], "keys": {"p256dh": "short", "auth": "x"}}
    assert tc.post("/api/push/subscriptions", json=bad, headers=ada.headers).status_code == 422
    assert tc.post("/api/push/subscriptions", json=subs[1]).status_code == 401


def test_the_end_of_a_game_tells_my_place(tc: TestClient, pushy: Any, service: PushService) -> None:
    from tests.pace.test_my_games import play_solo_to_the_end

    ada = new_player(tc, "Ada")
    sub = service.browser("Ada").subscription()
    assert tc.post("/api/push/subscriptions", json=sub, headers=ada.headers).status_code == 201
    tid = play_solo_to_the_end(tc, ada)
    settle(tc)
    # the game's start told Ada her turn too; the two are sent by different workers, in either
    # order: the end of the game is the one message about it
    (last,) = [m for name, m in service.received if name == "Ada" and m["kind"] == "game_over"]
    # a solo game: the place beside Victoria's, first only with a win
    game = tc.get(f"/api/tables/{tid}/game", headers=ada.headers).json()
    place = 1 if game["view"]["outcome"]["won"] else 2
    assert last["params"] == {"table_id": tid, "host": "Ada", "place": place, "of": 2}
    ordinal = "1st" if place == 1 else "2nd"
    assert last["body"] == f"The game is over at Ada's table: you are {ordinal}"
