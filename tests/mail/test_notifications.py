"""Game notifications by e-mail, read back from a real SMTP server on loopback: "your turn" at
turn-based tables (one digest when several wait, once per table per window, cancelled by a move
made meanwhile), "time runs out in 1 hour" claimed once, "game over", a rematch invitation, and
the one-click unsubscribe (RFC 8058)."""

from __future__ import annotations

from urllib.parse import urlsplit

from fastapi.testclient import TestClient

from app.clock import ManualClock
from tests.conftest import Player
from tests.invitations.helpers import play_to_end
from tests.mail.conftest import PUBLIC, START, add_address, settle, sweep
from tests.mail.smtpserver import Inbox
from tests.pace.conftest import end_turn, open_game

GATHER = 120.0


def turn_game(tc: TestClient, players: list[Player], hours: int = 24, **options: object) -> str:
    t = open_game(tc, players, {"mode": "turn", "hours": hours}, **options)
    return str(t["id"])


def test_your_turn_comes_once_per_table_and_several_tables_come_as_one_digest(
    tc: TestClient, ada: Player, ben: Player, inbox: Inbox, clock: ManualClock
) -> None:
    add_address(tc, ada, inbox, "ada@example.org", lang="cs")
    before = len(inbox.received)
    one = turn_game(tc, [ben, ada])  # Ben (the host) starts both
    two = turn_game(tc, [ben, ada])
    live = open_game(tc, [ben, ada], {"mode": "live", "clock": "10+20"})["id"]
    for table in (one, two, live):
        end_turn(tc, table, ben)
    settle(tc)
    sweep(tc, START + GATHER - 1)
    assert len(inbox.received) == before  # gathered first
    sweep(tc, START + GATHER)
    (digest,) = inbox.received[before:]
    assert digest.rcpt == ["ada@example.org"]
    assert digest.subject == "Čekají na vás 2 hry"
    assert f"{PUBLIC}/t/{one}" in digest.text and f"{PUBLIC}/t/{two}" in digest.text
    assert f"/t/{live}" not in digest.text  # a live table: no e-mail
    assert "stůl hráče Ben" in digest.text
    # Each table with the time left for the move (24 hours, a few minutes gone).
    assert digest.text.count("(na tah máte ještě asi 24 hodin): ") == 2, digest.text
    # One-click unsubscribe headers (RFC 8058), and the link in the text.
    unsubscribe = digest.message["List-Unsubscribe"]
    assert unsubscribe.startswith(f"<{PUBLIC}/api/email/unsubscribe/one-click?token=")
    assert digest.message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert f"{PUBLIC}/email/unsubscribe#" in digest.text
    # Ada plays at table one; Ben's next turn there is within the window: no second mail.
    end_turn(tc, one, ada)
    end_turn(tc, one, ben)
    settle(tc)
    sweep(tc, START + 2 * GATHER + 1)
    assert len(inbox.received) == before + 1
    # A third table, told alone; but a move made before it is due cancels it.
    three = turn_game(tc, [ben, ada], start_player=0)
    four = turn_game(tc, [ben, ada], start_player=0)
    end_turn(tc, three, ben)
    end_turn(tc, four, ben)
    settle(tc)
    end_turn(tc, four, ada)  # Ada was quicker than the e-mail
    sweep(tc, START + 4 * GATHER)
    (single,) = inbox.received[before + 1 :]
    assert single.subject.startswith("Jste na tahu: ") and f"/t/{three}" in single.text
    assert "u stolu hráče Ben jste na tahu. Na tah máte ještě asi 24 hodin." in single.text
    assert f"/t/{four}" not in single.text


def test_one_click_unsubscribe_stops_the_notifications(
    tc: TestClient, ada: Player, ben: Player, inbox: Inbox
) -> None:
    add_address(tc, ada, inbox, "ada@example.org")
    table = turn_game(tc, [ben, ada])
    end_turn(tc, table, ben)
    settle(tc)
    sweep(tc, START + GATHER)
    mail = inbox.received[-1]
    assert mail.subject.startswith("Your turn: ")
    url = mail.message["List-Unsubscribe"].strip("<>")
    parts = urlsplit(url)
    path = f"{parts.path}?{parts.query}"
    # A one-click POST must say so (RFC 8058); a forged token is refused.
    assert tc.post(path, content=b"").status_code == 422
    forged = tc.post(
        path[:-4] + "AAAA",
        content=b"List-Unsubscribe=One-Click",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert forged.status_code == 404
    r = tc.post(
        path,
        content=b"List-Unsubscribe=One-Click",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert r.status_code == 200 and r.json() == {"done": True}
    assert tc.get("/api/email", headers=ada.headers).json()["notify"] is False
    told = len(inbox.received)
    other = turn_game(tc, [ben, ada])
    end_turn(tc, other, ben)
    settle(tc)
    sweep(tc, START + 10 * GATHER)
    assert len(inbox.received) == told
    # Wanted again from the profile page.
    r = tc.patch("/api/email", json={"notify": True}, headers=ada.headers)
    assert r.status_code == 200 and r.json()["notify"] is True


def test_time_runs_out_in_an_hour_once_across_instances(
    tc: TestClient, ada: Player, ben: Player, inbox: Inbox, clock: ManualClock
) -> None:
    add_address(tc, ada, inbox, "ada@example.org", lang="de")
    turn_game(tc, [ada, ben], hours=12)  # Ada starts: her deadline is START + 12 h
    settle(tc)
    sweep(tc, START + GATHER)
    assert inbox.received[-1].subject.startswith("Du bist am Zug")
    told = len(inbox.received)
    sweep(tc, START + 11 * 3600 - 1)
    assert len(inbox.received) == told  # not yet
    mailer = tc.app.state.mailer  # type: ignore[attr-defined]
    # Two instances look at the same moment: one row, one message.
    at = START + 11 * 3600 + 5
    mailer.remind_once(at)
    mailer.remind_once(at)
    first, second = mailer.flush_once(at), mailer.flush_once(at)
    assert [m.kind for m in first] == ["time_short"] and second == []
    assert first[0].subject.startswith("Deine Zeit läuft in einer Stunde ab")
    sweep(tc, at + 60)
    assert len(inbox.received) == told  # claimed before: nothing more


def test_game_over_and_a_rematch_invitation_come_by_mail(
    tc: TestClient, ada: Player, ben: Player, inbox: Inbox
) -> None:
    add_address(tc, ben, inbox, "ben@example.org")
    table = turn_game(tc, [ada, ben], hours=72)
    play_to_end(tc, table, [ada, ben])
    settle(tc)
    sweep(tc, START + GATHER)
    over = [m for m in inbox.to("ben@example.org") if m.subject.startswith("The game is over")]
    (text,) = [m.text for m in over]
    result = tc.get(f"/api/tables/{table}/game", headers=ben.headers).json()["view"]["outcome"]
    scores = {p["seat"]: (p["rank"], p["score"]) for p in result["players"]}
    rank, score = scores[1]
    place = {1: "1st", 2: "2nd"}[rank]
    assert f"You finished {place} of 2 with {score} point" in text, text
    assert "Final score:" in text and "ended on Friday, 15 January 2027." in text
    assert f"{scores[0][0]}. Ada: {scores[0][1]}" in text
    assert f"{rank}. Ben (you): {score}" in text
    r = tc.post(f"/api/tables/{table}/rematch", headers=ada.headers)
    assert r.status_code == 200
    settle(tc)
    invitation = inbox.received[-1]
    assert invitation.subject == "Ada asks for a rematch"
    # The link opens the new table (where Ben accepts), with no invite code in it.
    new = r.json()["table_id"]
    assert f"{PUBLIC}/t/{new}\r\n" in invitation.text and f"{PUBLIC}/games" not in invitation.text
    assert "invite=" not in invitation.text
    assert invitation.message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_the_game_over_mail_of_a_solo_game_counts_victoria(
    tc: TestClient, ada: Player, inbox: Inbox
) -> None:
    from tests.pace.test_my_games import play_solo_to_the_end

    add_address(tc, ada, inbox, "ada@example.org")
    tid = play_solo_to_the_end(tc, ada)
    settle(tc)
    sweep(tc, START + GATHER)
    over = [m for m in inbox.to("ada@example.org") if m.subject.startswith("The game is over")]
    game = tc.get(f"/api/tables/{tid}/game", headers=ada.headers).json()
    place = 1 if game["view"]["outcome"]["won"] else 2
    ordinal = {1: "1st", 2: "2nd"}[place]
    score = next(p["score"] for p in game["view"]["outcome"]["players"])
    assert len(over) == 1 and f"You finished {ordinal} of 2 with {score} point" in over[0].text
    assert "Victoria: " in over[0].text
