"""Revocation holds across instances: the generation and the device sessions live in Postgres
and every instance checks them on use, so a sign-out-everywhere on one process cuts the old
tokens off on the other at once, for HTTP and for the socket handshake; a recovery signs in its
own device and the others, on any instance, are told."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from websockets.asyncio.client import connect

from app.devtools.players import new_player
from app.devtools.stack import server_errors

pytestmark = pytest.mark.postgres


def _me(client: httpx.Client, token: str) -> int:
    return client.get("/api/profiles/me", headers={"Authorization": f"Bearer {token}"}).status_code


def test_recover_on_b_signs_in_b_and_tells_a(two_servers) -> None:
    a, b = two_servers
    with (
        httpx.Client(base_url=a.base, timeout=10) as ca,
        httpx.Client(base_url=b.base, timeout=10) as cb,
    ):
        r = ca.post("/api/profiles", json={"name": "Ann"})
        assert r.status_code == 201, r.text
        ann = r.json()
        ca.cookies.clear()
        assert _me(ca, ann["token"]) == 200
        rec = cb.post("/api/profiles/recover", json={"code": ann["recovery_code"]})
        assert rec.status_code == 200, rec.text
        cb.cookies.clear()
        # the first device, on the other instance, stays signed in and is told
        me = ca.get("/api/profiles/me", headers={"Authorization": f"Bearer {ann['token']}"})
        assert me.status_code == 200 and me.json()["recovered_elsewhere"] is not None
        assert _me(ca, rec.json()["token"]) == 200
        # the spent code fails on either instance; the new one works once
        assert (
            ca.post("/api/profiles/recover", json={"code": ann["recovery_code"]}).status_code == 404
        )
        again = ca.post("/api/profiles/recover", json={"code": rec.json()["recovery_code"]})
        assert again.status_code == 200
    assert server_errors(a.log_text()) == [] and server_errors(b.log_text()) == []


def test_sign_out_everywhere_on_a_closes_b_and_its_socket(two_servers) -> None:
    a, b = two_servers
    with (
        httpx.Client(base_url=a.base, timeout=10) as ca,
        httpx.Client(base_url=b.base, timeout=10) as cb,
    ):
        ann = new_player(cb)
        t = cb.post("/api/tables", json={"seats": 2}, headers=ann.headers)
        assert t.status_code == 201, t.text
        assert _me(cb, ann.token) == 200
        out = ca.post("/api/profiles/signout-everywhere", headers=ann.headers)
        assert out.status_code == 200, out.text
        ca.cookies.clear()
        assert _me(cb, ann.token) == 401
        assert _me(cb, out.json()["token"]) == 200
        url = f"{b.ws_base}/ws/tables/{t.json()['id']}"

        async def handshake(token: str) -> str:
            ws = await connect(url, additional_headers={"Authorization": f"Bearer {token}"})
            try:
                frame = await asyncio.wait_for(ws.recv(), 10)
            finally:
                await ws.close()
            return str(frame)

        assert '"unauthenticated"' in asyncio.run(handshake(ann.token))
        assert '"welcome"' in asyncio.run(handshake(out.json()["token"]))
