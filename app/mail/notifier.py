"""Game notifications by e-mail: queued after the commit, sent when due, once.

A background subscriber of the hub (its own bounded queue and task, like Web Push): a game notice
published in this process is looked at in a worker thread, and what it means goes into the
``email_outbox`` table: "your turn" (turn-based tables only) due a little later, so that several
tables waiting at once go out as one digest and a move made meanwhile cancels it; "game over" at
once. A ticker on the injected clock adds "time runs out in 1 hour" for turn-based deadlines, and
sends what is due.

Exactly once across instances: an outbox row's ``dedupe`` key is unique (a second insert does
nothing), and a due row is claimed with a conditional update (``WHERE status = 'pending'``; on
Postgres the rows are read ``FOR UPDATE SKIP LOCKED``), in the transaction that decides it. The
messages go to the SMTP queue after that commit. At most one "your turn" per table and profile
per window.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict, defaultdict
from typing import Any, Required, TypedDict, cast

from anyio import to_thread
from sqlalchemy.orm import Session

from app import rules
from app.clock import Clock
from app.db.models import EmailOutbox
from app.db.session import Database
from app.invitations.service import Invited
from app.mail import messages as msg
from app.mail import repository as repo
from app.mail.compose import Outgoing, letter
from app.mail.links import Links
from app.mail.postman import Postman
from app.mail.texts import lang_of
from app.mail.tokens import UnsubscribeSigner
from app.pace import clock as pc
from app.realtime.hub import Hub, Notice, NoticeKind, NoticeQueue
from app.tables.options import TableOptionsDoc, options_of
from app.tables.status import TableStatus

log = logging.getLogger("emara.mail")

REMEMBERED = 10_000
QUIET_TABLE_SECONDS = 60.0
BATCH = 200
KEEP_DONE_SECONDS = 7 * 86400.0


class MailFacts(TypedDict, total=False):
    """What a notification says about its table, as it still holds when the mail goes out; a
    "game over" mail also the finished game's score (none when it cannot be told)."""

    table: Required[msg.TableWords]
    left: Required[float | None]  # seconds left for the move, where the table has a deadline
    rank: int
    score: int
    standings: list[msg.Standing]
    ended: float


class MailNotifier:
    def __init__(
        self,
        db: Database,
        hub: Hub,
        clock: Clock,
        postman: Postman,
        links: Links,
        signer: UnsubscribeSigner,
        gather: float,
        window: float,
        reminder: float,
        interval: float,
    ) -> None:
        self.db = db
        self.hub = hub
        self.clock = clock
        self.postman = postman
        self.links = links
        self.signer = signer
        self.gather = gather
        self.window = window
        self.reminder = reminder
        self.interval = interval
        self.inbox = NoticeQueue("emara-mail", self._on_notice)
        self.seen: OrderedDict[tuple[str, int | None], None] = OrderedDict()
        self.quiet: OrderedDict[str, float] = OrderedDict()
        self.tasks: set[asyncio.Task[None]] = set()
        self._ticker: asyncio.Task[None] | None = None
        self.postgres = db.engine.dialect.name == "postgresql"

    # ------------------------------------------------------------------ lifecycle
    @property
    def enabled(self) -> bool:
        return self.postman.enabled

    def offer(self, notice: Notice) -> None:
        if notice.kind == NoticeKind.GAME:
            self.inbox.offer(notice)

    def start(self) -> None:
        if not self.enabled:
            return
        if self not in self.hub.background:
            self.hub.background.append(self)
        self.inbox.start()
        if self.interval > 0 and self._ticker is None:
            self._ticker = asyncio.get_running_loop().create_task(
                self._tick(), name="emara-mail-tick"
            )

    async def stop(self) -> None:
        if self in self.hub.background:
            self.hub.background.remove(self)
        await self.inbox.stop()
        task, self._ticker = self._ticker, None
        for t in [task, *self.tasks]:
            if t is not None:
                t.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await t

    async def idle(self) -> None:
        """Wait until every heard notice is in the outbox and every queued mail was sent."""
        await self.inbox.drained()
        while self.tasks:
            await asyncio.gather(*list(self.tasks), return_exceptions=True)
        await self.postman.idle()

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self.sweep()
            except Exception:
                log.exception("mail sweep failed; trying again at the next one")

    async def sweep(self, now: float | None = None) -> int:
        """Short deadlines into the outbox, then what is due out of it; the mails queued."""
        now = self.clock.now() if now is None else now
        await to_thread.run_sync(self.remind_once, now)
        messages = await to_thread.run_sync(self.flush_once, now)
        for m in messages:
            self.postman.post(m)
        return len(messages)

    # ------------------------------------------------------------------ notices -> outbox
    async def _on_notice(self, notice: Notice) -> None:
        key = (notice.table_id, notice.version)
        if key in self.seen:
            return
        self.seen[key] = None
        while len(self.seen) > REMEMBERED:
            self.seen.popitem(last=False)
        since = self.quiet.get(notice.table_id)
        if since is not None and self.clock.now() - since < QUIET_TABLE_SECONDS:
            return
        listening = await to_thread.run_sync(self.queue_for, notice.table_id, notice.version)
        if listening:
            self.quiet.pop(notice.table_id, None)
            return
        self.quiet[notice.table_id] = self.clock.now()
        while len(self.quiet) > REMEMBERED:
            self.quiet.popitem(last=False)

    def queue_for(self, table_id: str, version: int | None) -> bool:
        """Queue what the table at ``version`` means for the people seated there who want
        e-mail; False when nobody there does."""
        now = self.clock.now()
        with self.db.session() as s:
            if not repo.listening_at(s, table_id):
                return False
            t = repo.table(s, table_id)
            if t is None or t.state is None or (version is not None and t.version != version):
                return True
            seats = repo.seats(s, table_id)
            state = rules.decode_state(t.state)
            if t.status == TableStatus.FINISHED:
                result = rules.outcome(state)
                places = {p["seat"]: p["rank"] for p in result["players"]} if result else {}
                # solo: the place beside Victoria's, as the engine ranked them
                of = len(places) + (1 if result and result["victoria"] is not None else 0)
                for x in seats:
                    if x.address and x.profile_id and x.seat in places:
                        params = {"place": places[x.seat], "of": of}
                        key = f"over:{table_id}:{x.profile_id}"
                        repo.enqueue(s, x.profile_id, table_id, "game_over", key, now, params)
            elif t.status == TableStatus.PLAYING and _turn_based(options_of(t)):
                mover = repo.mover(s, table_id, t.version)
                acting = set(rules.to_act(state))
                for x in seats:
                    if (
                        x.seat in acting
                        and x.address
                        and x.profile_id
                        and not x.bot_level
                        and x.seat != mover
                    ):
                        key = f"turn:{table_id}:{x.profile_id}:{t.version}"
                        due = now + self.gather
                        repo.enqueue(s, x.profile_id, table_id, "your_turn", key, due, {})
            return True

    def remind_once(self, now: float) -> None:
        """ "Time runs out in 1 hour" for every person whose turn-based deadline is that near."""
        with self.db.session() as s:
            for row in repo.deadlines_before(s, now + self.reminder, BATCH):
                blob = cast(pc.ClockBlob | None, row.clock)
                if blob is None or blob["mode"] != "turn" or blob["window"] <= self.reminder:
                    continue
                seats = {x.seat: x for x in repo.seats(s, row.id)}
                humans = {n for n, x in seats.items() if x.profile_id and not x.bot_level}
                for seat, at in pc.seat_deadlines(blob, humans).items():
                    x = seats[seat]
                    if now < at <= now + self.reminder and x.address and x.profile_id:
                        key = f"short:{row.id}:{seat}:{int(at)}"
                        params = {"deadline": at, "seat": seat}
                        repo.enqueue(s, x.profile_id, row.id, "time_short", key, now, params)

    # ------------------------------------------------------------------ outbox -> mails
    def flush_once(self, now: float) -> list[Outgoing]:
        """Claim what is due, decide it (sent or dropped) in one transaction; the messages."""
        out: list[Outgoing] = []
        with self.db.session() as s:
            rows = repo.due(s, now, BATCH, lock=self.postgres)
            by_profile: dict[str, list[EmailOutbox]] = defaultdict(list)
            for row in rows:
                by_profile[row.profile_id].append(row)
            for profile_id, items in by_profile.items():
                out.extend(self._decide(s, profile_id, items, now))
            repo.prune_outbox(s, now - KEEP_DONE_SECONDS)
            repo.prune_tokens(s, now)
        return out

    def _decide(
        self, s: Session, profile_id: str, items: list[EmailOutbox], now: float
    ) -> list[Outgoing]:
        addr = repo.address_of(s, profile_id)
        name = repo.profile_name(s, profile_id) or "?"
        keep: list[tuple[EmailOutbox, MailFacts]] = []
        turns_seen: set[str] = set()
        for row in items:
            info = None
            if addr is not None and addr.notify and row.table_id is not None:
                info = self._still_true(s, row, profile_id, now, turns_seen)
            status = repo.OutboxStatus.SENT if info is not None else repo.OutboxStatus.DROPPED
            if repo.close(s, row.id, status, now) and info is not None:
                keep.append((row, info))
        if addr is None or not keep:
            return []
        lang = lang_of(addr.lang)
        token = self.signer.issue(profile_id, addr.address)
        page, one_click = self.links.unsubscribe_page(token), self.links.one_click(token)

        def mail(kind: str, subject: str, text: str) -> Outgoing:
            body = letter(lang, name, text, page)
            return Outgoing(addr.address, kind, subject, body, one_click, page)

        messages = []
        turns = [i for r, i in keep if r.kind == "your_turn"]
        if len(turns) == 1:
            words = msg.your_turn(lang, turns[0]["table"], turns[0]["left"])
            messages.append(mail("your_turn", words.subject, words.text))
        elif turns:
            words = msg.digest(lang, [(i["table"], i["left"]) for i in turns])
            messages.append(mail("digest", words.subject, words.text))
        for row, info in keep:
            if row.kind == "time_short":
                words = msg.time_short(lang, info["table"])
                messages.append(mail("time_short", words.subject, words.text))
            elif row.kind == "game_over" and info.get("rank") is not None:
                words = msg.game_over(
                    lang,
                    info["table"],
                    info["ended"],
                    info["rank"],
                    info["score"],
                    info["standings"],
                )
                messages.append(mail("game_over", words.subject, words.text))
        return messages

    def _still_true(
        self, s: Session, row: EmailOutbox, profile_id: str, now: float, turns_seen: set[str]
    ) -> MailFacts | None:
        """What to say about the row's table, or None when it no longer holds."""
        assert row.table_id is not None
        t = repo.table(s, row.table_id)
        if t is None:
            return None
        seats = repo.seats(s, t.id)
        mine = next((x for x in seats if x.profile_id == profile_id), None)
        if mine is None:
            return None
        host = next((x.name for x in seats if x.profile_id == t.host_profile_id), None)
        info: MailFacts = {
            "table": msg.TableWords(t.name, host, self.links.table(t.id)),
            "left": None,
        }
        if row.kind == "game_over":
            ok = t.status == TableStatus.FINISHED
            if ok and t.state is not None:
                _add_final(info, t, seats, mine.seat, row.due_at)  # queued as it ended
        elif t.status != TableStatus.PLAYING or t.state is None or mine.bot_level:
            ok = False
        elif row.kind == "your_turn":
            acting = mine.seat in rules.to_act(rules.decode_state(t.state))
            told = repo.told_since(s, profile_id, t.id, "your_turn", now - self.window)
            ok = acting and not told and t.id not in turns_seen
            turns_seen.add(t.id)
            blob = cast(pc.ClockBlob | None, t.clock)
            humans = {x.seat for x in seats if x.profile_id and not x.bot_level}
            at = pc.seat_deadlines(blob, humans).get(mine.seat)
            if at is not None and blob is not None and not blob["paused"]:
                info["left"] = max(0.0, at - now)
        else:  # time_short: the same deadline still runs
            blob = cast(pc.ClockBlob | None, t.clock)
            humans = {x.seat for x in seats if x.profile_id and not x.bot_level}
            at = pc.seat_deadlines(blob, humans).get(mine.seat)
            ok = (
                at is not None
                and int(at) == int((row.params or {}).get("deadline", -1))
                and at > now
            )
        if not ok:
            return None
        return info

    # ------------------------------------------------------------------ invitations
    def invited(self, inv: Invited) -> None:
        """An invitations listener (after its commit, on the loop)."""
        if not self.enabled:
            return
        task = asyncio.get_running_loop().create_task(self._invited(inv))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _invited(self, inv: Invited) -> None:
        message = await to_thread.run_sync(self.invitation_message, inv)
        if message is not None:
            self.postman.post(message)

    def invitation_message(self, inv: Invited) -> Outgoing | None:
        with self.db.session() as s:
            addr = repo.address_of(s, inv.profile_id)
            if addr is None or not addr.notify:
                return None
            name = repo.profile_name(s, inv.profile_id) or "?"
            lang = lang_of(addr.lang)
            token = self.signer.issue(inv.profile_id, addr.address)
        page = self.links.unsubscribe_page(token)
        table = msg.TableWords(inv.table_name, inv.inviter_name, self.links.table(inv.table_id))
        words = msg.invitation(lang, inv.kind, inv.inviter_name, table)
        subject, body = words.subject, letter(lang, name, words.text, page)
        return Outgoing(
            addr.address, "invitation", subject, body, self.links.one_click(token), page
        )


def _turn_based(options: TableOptionsDoc | None) -> bool:
    pace = (options or {}).get("pace") or {}
    return isinstance(pace, dict) and pace.get("mode") == "turn"


def _add_final(info: MailFacts, t: Any, seats: list[Any], seat: int, ended: float) -> None:
    """The finished game's final score as the "game over" mail tells it: the reader's rank and
    score, everyone's (Victoria's too in a solo game), and when it ended."""
    result = rules.outcome(rules.decode_state(t.state))
    if result is None:
        return
    names = {x.seat: x.name if x.profile_id else None for x in seats}
    standings = [
        msg.Standing(p["rank"], names.get(p["seat"]), p["score"], p["seat"] == seat)
        for p in result["players"]
    ]
    if result["victoria"] is not None:
        v = result["victoria"]
        standings.append(msg.Standing(v["rank"], "Victoria", v["score"]))
    me = next((p for p in result["players"] if p["seat"] == seat), None)
    if me is None:
        return
    info.update({"rank": me["rank"], "score": me["score"], "standings": standings, "ended": ended})
