"""The table service: every change a player (or a bot) makes goes through here.

One transaction per call: load → check → apply (the rules engine judges) → persist with optimistic
concurrency → commit; only after the commit is the change published to the hub. Database work is
synchronous SQLAlchemy run in a worker thread; the public coroutine wraps it and publishes.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from anyio import to_thread
from sqlalchemy import Connection, Table, bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app import rules
from app.auth import TokenSigner
from app.db.models import GameTable, MoveRecord, Profile, Seat, utcnow
from app.db.session import Database
from app.errors import (
    BotPlaysSeat,
    Forbidden,
    IllegalMove,
    Malformed,
    NoBotSeat,
    NotFound,
    NotHost,
    NotYourSeat,
    RateLimited,
    SeatsNotFilled,
    StaleVersion,
    TableFull,
    WrongStatus,
)
from app.realtime.hub import Hub, Notice
from app.tables.locks import KeyedLocks

# A client that is further behind than this gets a fresh snapshot instead of the missed moves.
MAX_CATCH_UP = 200
# Tables a process remembers (the state it last committed or read, about 11 kB each); the table
# that moved least recently is forgotten first and read from the database when it moves again.
FRESH_TABLES = 2000
ENGINE_OPTION_KEYS = ("building_start", "random_locations", "full_selection", "start_player")


# The hot path (a move, a catch-up) speaks Core to these tables: no ORM identity map or unit of
# work per move.
_TABLE: Table = GameTable.__table__  # type: ignore[assignment]
_MOVE: Table = MoveRecord.__table__  # type: ignore[assignment]
# Built once: a statement built per call costs more Python than its round trip to Postgres.
_ADVANCE = (
    update(_TABLE)
    .where(
        _TABLE.c.id == bindparam("p_id"),
        _TABLE.c.version == bindparam("p_expected"),
        _TABLE.c.status == "playing",
    )
    .values(
        state=bindparam("p_state", type_=_TABLE.c.state.type),
        version=bindparam("p_version", type_=_TABLE.c.version.type),
        status=bindparam("p_status", type_=_TABLE.c.status.type),
        updated_at=bindparam("p_at", type_=_TABLE.c.updated_at.type),
    )
)
_LOG = insert(_MOVE)
_SNAPSHOT = select(_TABLE.c.status, _TABLE.c.version, _TABLE.c.state).where(
    _TABLE.c.id == bindparam("p_id")
)


@dataclass(frozen=True)
class LogRow:
    """One move-log line as the hot path keeps it (the fields of ``MoveRecord`` a client sees)."""

    version: int
    seat: int
    move: dict[str, Any]
    events: list[Any]
    created_at: datetime


@dataclass(frozen=True)
class Fresh:
    """A table as this process last committed it."""

    version: int
    state: Any
    status: str
    entry: LogRow
    seats: list[dict[str, Any]]


class _Prior(Exception):
    """Carries the earlier result of a move_id out of the transaction (which then rolls back)."""

    def __init__(self, result: dict[str, Any]) -> None:
        super().__init__("duplicate move_id")
        self.result = result


@dataclass(frozen=True)
class Viewer:
    """Who is looking at a table: a seat, or a spectator (seat None)."""

    table_id: str
    seat: int | None
    profile_id: str | None
    bot: bool = False  # a server-side bot playing the seat (see ``seat_viewer``)


def _new_id() -> str:
    return secrets.token_urlsafe(9)


def _invite_code() -> str:
    return secrets.token_urlsafe(9)


def iso(moment: datetime | None) -> str | None:
    """ISO 8601 in UTC (SQLite hands back naive datetimes, stored as UTC)."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.isoformat()


def scores_of(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Both tracks of every player (and Victoria in solo), from a view."""
    out = [
        {"seat": p.get("seat"), "cp": p.get("cp"), "bp": p.get("bp"), "score": p.get("score")}
        for p in view.get("players_state") or []
    ]
    victoria = view.get("victoria")
    if victoria:
        out.append({"seat": None, "victoria": True, "cp": victoria.get("cp")})
    return out


class TableService:
    def __init__(self, db: Database, hub: Hub, signer: TokenSigner) -> None:
        self.db = db
        self.hub = hub
        self.signer = signer
        # One lock per table in this process: spares the database most lost races. Kept only
        # while in use (see KeyedLocks), so it does not grow with every table ever played.
        self._locks = KeyedLocks()
        # (count, seconds): at most count tables opened per profile in that window; None = off.
        self.table_create_limit: tuple[int, float] | None = None
        # The last committed move of each table in this process: the next move starts from its
        # state, and the sockets of the table catch up from it, without reading the database.
        self._fresh: OrderedDict[str, Fresh] = OrderedDict()  # least recently moved first
        # Seats change only through the lobby, and every such change is announced by a lobby
        # notice (in this process or relayed from another): it makes the remembered seat list
        # of the table stale. A move that overlaps a lobby notice remembers nothing.
        self._lobby_epoch = 0
        hub.watchers.append(self._heard)
        # Catch-ups reading a table from the database right now: later ones wait for that read.
        self._loading: dict[str, asyncio.Future[None]] = {}

    def _heard(self, notice: Notice) -> None:
        if notice.kind == "lobby":
            self._lobby_epoch += 1
            self._fresh.pop(notice.table_id, None)

    def _lock(self, table_id: str) -> asyncio.Lock:
        return self._locks[table_id]

    # ------------------------------------------------------------------ lobby
    async def create_table(
        self, profile_id: str, seat_count: int, options: dict[str, Any]
    ) -> dict[str, Any]:
        table_id = await to_thread.run_sync(self._create_table, profile_id, seat_count, options)
        if seat_count == 1:
            # A solo table is a one-seat table that starts at once.
            return await self.start(profile_id, table_id)
        return await self.lobby(profile_id, table_id, None)

    def _create_table(self, profile_id: str, seat_count: int, options: dict[str, Any]) -> str:
        with self.db.session() as s:
            if self.table_create_limit and self.table_create_limit[0] > 0:
                limit, window = self.table_create_limit
                since = utcnow() - timedelta(seconds=window)
                recent = s.scalar(
                    select(func.count())
                    .select_from(GameTable)
                    .where(GameTable.host_profile_id == profile_id, GameTable.created_at > since)
                )
                if (recent or 0) >= limit:
                    raise RateLimited(
                        f"at most {limit} new tables per {int(window)} seconds", limit=limit
                    )
            t = GameTable(
                id=_new_id(),
                invite_code=_invite_code(),
                host_profile_id=profile_id,
                seat_count=seat_count,
                options=options,
                status="lobby",
                version=0,
            )
            s.add(t)
            s.flush()
            s.add(Seat(table_id=t.id, seat=0, profile_id=profile_id))
            return t.id

    async def lobby(
        self, profile_id: str | None, table_id: str, invite_code: str | None
    ) -> dict[str, Any]:
        return await to_thread.run_sync(self._lobby_checked, profile_id, table_id, invite_code)

    def _lobby_checked(
        self, profile_id: str | None, table_id: str, invite_code: str | None
    ) -> dict[str, Any]:
        with self.db.session() as s:
            t, seats = self._visible(s, profile_id, table_id, invite_code)
            return self._lobby_dict(s, t, seats, profile_id)

    def _visible(
        self, s: Session, profile_id: str | None, table_id: str, invite_code: str | None
    ) -> tuple[GameTable, list[Seat]]:
        """The table and its seats, if the caller holds a seat or the invite code; else 404."""
        t = s.get(GameTable, table_id)
        if t is None:
            raise NotFound("no such table")
        seats = list(s.scalars(select(Seat).where(Seat.table_id == t.id).order_by(Seat.seat)))
        seated = profile_id is not None and any(x.profile_id == profile_id for x in seats)
        # Compared as bytes: compare_digest refuses non-ASCII str (a 500 on a hostile code).
        if not seated and not (
            invite_code and secrets.compare_digest(invite_code.encode(), t.invite_code.encode())
        ):
            raise NotFound("no such table")
        return t, seats

    def _lobby_dict(
        self, s: Session, t: GameTable, seats: list[Seat], profile_id: str | None
    ) -> dict[str, Any]:
        ids = [x.profile_id for x in seats if x.profile_id]
        names: dict[str, str] = {}
        if ids:
            for pid, name in s.execute(select(Profile.id, Profile.name).where(Profile.id.in_(ids))):
                names[pid] = name
        by_seat = {x.seat: x for x in seats}
        seat_list = []
        for n in range(t.seat_count):
            x = by_seat.get(n)
            seat_list.append(
                {
                    "seat": n,
                    "taken": x is not None,
                    "name": names.get(x.profile_id) if x and x.profile_id else None,
                    "bot_level": x.bot_level if x else None,
                    "host": bool(x and x.profile_id == t.host_profile_id),
                    "you": bool(x and profile_id is not None and x.profile_id == profile_id),
                }
            )
        my_seat = next((x.seat for x in seats if profile_id and x.profile_id == profile_id), None)
        outcome = None
        if t.status == "finished" and t.state is not None:
            outcome = rules.outcome(rules.decode_state(t.state))
        return {
            "id": t.id,
            "invite_code": t.invite_code if my_seat is not None else None,
            "status": t.status,
            "seats": seat_list,
            "seat_count": t.seat_count,
            "options": t.options,
            "host": my_seat is not None and t.host_profile_id == profile_id,
            "my_seat": my_seat,
            "version": t.version,
            "outcome": outcome,
            "created_at": iso(t.created_at),
        }

    async def join(self, profile_id: str, table_id: str, invite_code: str) -> dict[str, Any]:
        async with self._lock(table_id):
            out = await to_thread.run_sync(self._join, profile_id, table_id, invite_code)
        await self.hub.publish(Notice(table_id, "lobby"))
        return out

    def _join(self, profile_id: str, table_id: str, invite_code: str) -> dict[str, Any]:
        with self.db.session() as s:
            t, seats = self._visible(s, None, table_id, invite_code)
            if any(x.profile_id == profile_id for x in seats):
                return self._lobby_dict(s, t, seats, profile_id)
            if t.status != "lobby":
                raise WrongStatus("the game has already started")
            free = sorted(set(range(t.seat_count)) - {x.seat for x in seats})
            if not free:
                raise TableFull("every seat is taken")
            s.add(Seat(table_id=t.id, seat=free[0], profile_id=profile_id))
            try:
                s.flush()
            except IntegrityError as exc:
                raise TableFull("every seat is taken") from exc
            seats = list(s.scalars(select(Seat).where(Seat.table_id == t.id).order_by(Seat.seat)))
            return self._lobby_dict(s, t, seats, profile_id)

    async def leave(self, profile_id: str, table_id: str) -> dict[str, Any]:
        async with self._lock(table_id):
            out = await to_thread.run_sync(self._leave, profile_id, table_id)
        await self.hub.publish(Notice(table_id, "lobby"))
        return out

    def _leave(self, profile_id: str, table_id: str) -> dict[str, Any]:
        with self.db.session() as s:
            t, seats = self._visible(s, profile_id, table_id, None)
            if t.status != "lobby":
                raise WrongStatus("a started game cannot be left")
            mine = next(x for x in seats if x.profile_id == profile_id)
            s.delete(mine)
            rest = [x for x in seats if x is not mine]
            if t.host_profile_id == profile_id:
                humans = [x for x in rest if x.profile_id]
                if humans:
                    t.host_profile_id = humans[0].profile_id  # type: ignore[assignment]
                else:
                    t.status = "closed"
            t.updated_at = utcnow()
            s.flush()
            return self._lobby_dict(s, t, rest, profile_id)

    async def start(self, profile_id: str, table_id: str) -> dict[str, Any]:
        async with self._lock(table_id):
            out = await to_thread.run_sync(self._start, profile_id, table_id)
        await self.hub.publish(Notice(table_id, "lobby"))
        await self.hub.publish(Notice(table_id, "game", out["version"]))
        return out

    def _start(self, profile_id: str, table_id: str) -> dict[str, Any]:
        with self.db.session() as s:
            t, seats = self._visible(s, profile_id, table_id, None)
            if t.host_profile_id != profile_id:
                raise NotHost("only the host can start the game")
            if t.status != "lobby":
                raise WrongStatus("the game has already started")
            if len(seats) != t.seat_count:
                raise SeatsNotFilled("every seat must be taken")
            seed = secrets.randbits(62)
            engine_options = self.engine_options(t.seat_count, t.options)
            state = rules.new_game(seed, engine_options)
            n = s.execute(  # type: ignore[attr-defined]
                update(GameTable)
                .where(GameTable.id == t.id, GameTable.status == "lobby")
                .values(
                    status="playing",
                    seed=seed,
                    engine_options=engine_options,
                    state=rules.encode_state(state),
                    version=0,
                    updated_at=utcnow(),
                )
            ).rowcount
            if n != 1:
                raise WrongStatus("the game has already started")
            s.refresh(t)
            return self._lobby_dict(s, t, seats, profile_id)

    @staticmethod
    def engine_options(seat_count: int, options: dict[str, Any]) -> dict[str, Any]:
        out = {k: options[k] for k in ENGINE_OPTION_KEYS if k in options}
        out["players"] = seat_count
        if out.get("start_player", "random") == "random":
            out["start_player"] = secrets.randbelow(seat_count)
        if out.get("building_start") is None:
            out.pop("building_start", None)
        return out

    async def my_tables(self, profile_id: str) -> list[dict[str, Any]]:
        return await to_thread.run_sync(self._my_tables, profile_id)

    def _my_tables(self, profile_id: str) -> list[dict[str, Any]]:
        with self.db.session() as s:
            tables = list(
                s.scalars(
                    select(GameTable)
                    .join(Seat, Seat.table_id == GameTable.id)
                    .where(Seat.profile_id == profile_id, GameTable.status != "closed")
                    .order_by(GameTable.updated_at.desc())
                    .limit(100)
                )
            )
            out = []
            for t in tables:
                seats = list(
                    s.scalars(select(Seat).where(Seat.table_id == t.id).order_by(Seat.seat))
                )
                out.append(self._lobby_dict(s, t, seats, profile_id))
            return out

    # ------------------------------------------------------------------ game
    async def viewer(
        self, profile_id: str | None, table_id: str, invite_code: str | None
    ) -> Viewer:
        return await to_thread.run_sync(self._viewer, profile_id, table_id, invite_code)

    def _viewer(self, profile_id: str | None, table_id: str, invite_code: str | None) -> Viewer:
        with self.db.session() as s:
            t, seats = self._visible(s, profile_id, table_id, invite_code)
            seat = next((x.seat for x in seats if profile_id and x.profile_id == profile_id), None)
            if seat is None and not t.options.get("spectators", True):
                raise Forbidden("this table does not allow spectators")
            return Viewer(t.id, seat, profile_id)

    @staticmethod
    def seat_viewer(table_id: str, seat: int) -> Viewer:
        """A server-side actor (a bot) holding ``seat``: pass it to ``submit_move``."""
        return Viewer(table_id, seat, None, bot=True)

    async def game(self, viewer: Viewer) -> dict[str, Any]:
        return await to_thread.run_sync(self._game, viewer)

    def _game(self, viewer: Viewer) -> dict[str, Any]:
        with self.db.session() as s:
            t = s.get(GameTable, viewer.table_id)
            if t is None:
                raise NotFound("no such table")
            if t.state is None:
                raise WrongStatus("the game has not started")
            records = list(
                s.scalars(
                    select(MoveRecord)
                    .where(MoveRecord.table_id == t.id)
                    .order_by(MoveRecord.version)
                )
            )
            state = rules.decode_state(t.state)
            out = self._render(state, t.version, viewer.seat)
            out["status"] = t.status
            out["seats"] = self._seat_list(s, t.id)
            out["log"] = [self._log_entry(r, viewer.seat) for r in records]
            return out

    @staticmethod
    def _seat_list(s: Session | Connection, table_id: str) -> list[dict[str, Any]]:
        """Who holds each seat of a started table: the player's name, and the bot level if a bot
        plays the seat (a bot of its own has no name; a seat handed to a bot keeps the name)."""
        rows = list(
            s.execute(
                select(Seat.seat, Profile.name, Seat.bot_level)
                .outerjoin(Profile, Profile.id == Seat.profile_id)
                .where(Seat.table_id == table_id)
                .order_by(Seat.seat)
            )
        )
        return [{"seat": seat, "name": name, "bot_level": level} for seat, name, level in rows]

    @staticmethod
    def _render(state: Any, version: int, seat: int | None) -> dict[str, Any]:
        view = rules.view_for(state, seat)
        legal = (
            [] if seat is None else [rules.encode_move(m) for m in rules.legal_moves(state, seat)]
        )
        return {
            "version": version,
            "seat": seat,
            "view": view,
            "legal_moves": legal,
            "scores": scores_of(view),
        }

    @staticmethod
    def _log_entry(r: Any, seat: int | None) -> dict[str, Any]:
        """A log line from anything with the move log's fields (an ORM row, a Core row, a
        ``LogRow``), redacted for ``seat``."""
        return {
            "version": r.version,
            "seat": r.seat,
            "move": r.move,
            "events": rules.events_for(r.events, seat),
            "at": iso(r.created_at),
        }

    async def submit_move(
        self,
        viewer: Viewer,
        move: Any,
        expected_version: int,
        move_id: str,
        on_commit: Callable[[dict[str, Any]], Awaitable[None]] | None = None,
    ) -> dict[str, Any]:
        """Apply one move for the viewer's seat. The single entry point for HTTP, WS and bots.

        ``on_commit`` (optional) hears the result after the commit and before the broadcast: the
        socket uses it so that the mover's ``accepted`` frame precedes the ``update``.
        """
        if viewer.seat is None:
            raise NotYourSeat("you do not hold a seat at this table")
        if not isinstance(move, dict):
            raise Malformed("move must be an object")
        async with self._lock(viewer.table_id):
            out, _fresh = await to_thread.run_sync(
                self._submit,
                viewer.table_id,
                viewer.seat,
                move,
                expected_version,
                move_id,
                viewer.bot,
            )
        if on_commit is not None:
            await on_commit(out)
        # Also on a duplicate: the first attempt may have committed without being announced.
        await self.hub.publish(Notice(viewer.table_id, "game", out["version"]))
        return out

    def _submit(
        self,
        table_id: str,
        seat: int,
        move: dict[str, Any],
        expected: int,
        move_id: str,
        bot: bool = False,
    ) -> tuple[dict[str, Any], bool]:
        """One Core transaction: (read the snapshot) → judge → conditional update → log insert.

        The snapshot is read from the database unless this process committed version
        ``expected`` itself: a table's state at a version never changes (the conditional update
        lets exactly one move follow each version), so the remembered state is the truth as long
        as the update below still finds the table at ``expected``. A ``move_id`` seen before is
        caught by the log's unique key, which rolls the whole transaction back. A person cannot
        move for a seat that has been handed to a bot, nor a ``bot`` for a seat no bot holds.
        """
        epoch = self._lobby_epoch
        try:
            with self.db.begin() as conn:
                remembered = self._fresh.get(table_id)
                state = self._state_at(conn, remembered, table_id, expected, move_id, seat)
                if remembered is not None and remembered.state is state:
                    seats = remembered.seats
                else:
                    seats = self._seat_list(conn, table_id)
                bot_seat = any(x["seat"] == seat and x["bot_level"] for x in seats)
                if bot_seat and not bot:
                    raise BotPlaysSeat(
                        "a bot plays this seat: take it back first", version=expected
                    )
                if bot and not bot_seat:
                    # The bot thought while its seat was taken back.
                    raise NoBotSeat("no bot plays this seat any more", version=expected)
                try:
                    tr = rules.apply_move(state, seat, move)
                except rules.IllegalMoveError as exc:
                    # Judged against version ``expected``: make sure that is still the table's.
                    self._raise_if_moved_on(conn, table_id, expected, move_id, seat)
                    raise IllegalMove(
                        str(getattr(exc, "message", exc)),
                        engine_code=getattr(exc, "code", "illegal"),
                        version=expected,
                    ) from exc
                finished = rules.outcome(tr.state) is not None
                status = "finished" if finished else "playing"
                new_version = expected + 1
                now = utcnow()
                n = conn.execute(
                    _ADVANCE,
                    {
                        "p_id": table_id,
                        "p_expected": expected,
                        "p_state": rules.state_blob(tr.state),
                        "p_version": new_version,
                        "p_status": status,
                        "p_at": now,
                    },
                ).rowcount
                if n != 1:
                    # Lost a race: to a retry of this very move (same move_id), or to another.
                    self._raise_if_moved_on(conn, table_id, expected, move_id, seat, always=True)
                raw_events = list(tr.events)
                entry = LogRow(
                    version=new_version,
                    seat=seat,
                    move=rules.encode_move(rules.decode_move(move)),
                    events=raw_events,
                    created_at=now,
                )
                conn.execute(
                    _LOG,
                    {
                        "table_id": table_id,
                        "version": new_version,
                        "seat": seat,
                        "move": entry.move,
                        "events": raw_events,
                        "move_id": move_id,
                        "created_at": now,
                    },
                )
        except _Prior as found:
            return found.result, False
        except IntegrityError:
            # This move_id is in the log already (a retry, or a concurrent request with the same
            # move_id won the race), or another move took the version first.
            with self.db.begin() as conn:
                prior = self._prior(conn, table_id, move_id, seat)
                if prior is not None:
                    return prior, False
                current = conn.scalar(select(_TABLE.c.version).where(_TABLE.c.id == table_id))
            raise StaleVersion("the table has moved on", version=current) from None
        # Committed (the transaction block is closed).
        self._remember(table_id, Fresh(new_version, tr.state, status, entry, seats), epoch)
        return (
            {
                "version": new_version,
                "move_id": move_id,
                "events": rules.events_for(raw_events, seat),
                "duplicate": False,
            },
            True,
        )

    def _state_at(
        self,
        conn: Connection,
        fresh: Fresh | None,
        table_id: str,
        expected: int,
        move_id: str,
        seat: int,
    ) -> Any:
        """The table's state at version ``expected``; else what ``_refuse`` says."""
        if fresh is not None and fresh.version == expected and fresh.status == "playing":
            return fresh.state
        row = conn.execute(_SNAPSHOT, {"p_id": table_id}).first()
        if row is None:
            raise NotFound("no such table")
        if row.status != "playing" or row.state is None or row.version != expected:
            self._refuse(conn, row, table_id, move_id, seat)
        return rules.decode_state(row.state)

    def _raise_if_moved_on(
        self,
        conn: Connection,
        table_id: str,
        expected: int,
        move_id: str,
        seat: int,
        always: bool = False,
    ) -> None:
        """When the table is no longer at ``expected`` (or ``always``): what ``_refuse`` says."""
        row = conn.execute(
            select(_TABLE.c.status, _TABLE.c.version).where(_TABLE.c.id == table_id)
        ).first()
        if row is None:
            raise NotFound("no such table")
        if always or row.version != expected or row.status != "playing":
            self._refuse(conn, row, table_id, move_id, seat)

    def _refuse(self, conn: Connection, row: Any, table_id: str, move_id: str, seat: int) -> None:
        """The table (``row``: its status and version) is not where the move expected it: the
        earlier result of this very move_id, as ``_Prior`` (the retry of a move that landed,
        perhaps the one that ended the game), or the typed error that says where the table is."""
        prior = self._prior(conn, table_id, move_id, seat)
        if prior is not None:
            raise _Prior(prior)
        if row.status != "playing":
            raise WrongStatus("the game is not in play", status=row.status, version=row.version)
        raise StaleVersion("the table has moved on", version=row.version)

    @staticmethod
    def _prior(
        s: Session | Connection, table_id: str, move_id: str, seat: int
    ) -> dict[str, Any] | None:
        r = s.execute(
            select(_MOVE.c.version, _MOVE.c.events).where(
                _MOVE.c.table_id == table_id, _MOVE.c.move_id == move_id
            )
        ).first()
        if r is None:
            return None
        return {
            "version": r.version,
            "move_id": move_id,
            "events": rules.events_for(r.events, seat),
            "duplicate": True,
        }

    async def catch_up(
        self, viewer: Viewer, since: int | None, force: bool = False
    ) -> dict[str, Any] | None:
        """What a listener at ``since`` needs: the missed moves, or a snapshot.

        None when there is no game yet, or when ``since`` is current (unless ``force``).
        """
        frame = self._fresh_update(viewer, since, force)
        if frame is not None:
            return frame
        table_id = viewer.table_id
        pending = self._loading.get(table_id)
        if pending is not None and not force:
            # Another socket of this table is reading it already (a move committed by another
            # process reaches all of them at once): one read serves them all.
            await asyncio.shield(pending)
            frame = self._fresh_update(viewer, since, force)
            if frame is not None:
                return frame
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._loading.setdefault(table_id, done)
        try:
            return await to_thread.run_sync(self._catch_up, viewer, since, force)
        finally:
            if self._loading.get(table_id) is done:
                del self._loading[table_id]
            done.set_result(None)

    def _fresh_update(
        self, viewer: Viewer, since: int | None, force: bool
    ) -> dict[str, Any] | None:
        """The update for a listener one move behind, when this process committed that move:
        rendered from memory, with no database round trip and no worker thread. (If the table has
        moved on since, the next notice brings the socket further.)"""
        fresh = self._fresh.get(viewer.table_id)
        if fresh is None or force or since is None or fresh.version != since + 1:
            return None
        out = self._render(fresh.state, fresh.version, viewer.seat)
        out["type"] = "update"
        out["status"] = fresh.status
        out["seats"] = [dict(x) for x in fresh.seats]
        out["since"] = since
        out["moves"] = [self._log_entry(fresh.entry, viewer.seat)]
        return out

    def _catch_up(self, viewer: Viewer, since: int | None, force: bool) -> dict[str, Any] | None:
        frame = self._fresh_update(viewer, since, force)
        if frame is not None:
            return frame
        epoch = self._lobby_epoch
        with self.db.begin() as conn:
            t = conn.execute(_SNAPSHOT, {"p_id": viewer.table_id}).first()
            if t is None or t.state is None:
                return None
            if since is not None and since == t.version and not force:
                return None
            state = rules.decode_state(t.state)
            out = self._render(state, t.version, viewer.seat)
            out["status"] = t.status
            out["seats"] = self._seat_list(conn, viewer.table_id)
            if since is None or since > t.version or t.version - since > MAX_CATCH_UP:
                out["type"] = "snapshot"
                return out
            records = conn.execute(
                select(
                    _MOVE.c.version, _MOVE.c.seat, _MOVE.c.move, _MOVE.c.events, _MOVE.c.created_at
                )
                .where(
                    _MOVE.c.table_id == viewer.table_id,
                    _MOVE.c.version > since,
                    _MOVE.c.version <= t.version,
                )
                .order_by(_MOVE.c.version)
            ).all()
            out["type"] = "update"
            out["since"] = since
            out["moves"] = [self._log_entry(r, viewer.seat) for r in records]
        if records and records[-1].version == t.version:
            # Remember the table as read (another process committed it): the other sockets of
            # the table here, and the next move made here, start from it.
            last = records[-1]
            entry = LogRow(last.version, last.seat, last.move, last.events, last.created_at)
            seats = [dict(x) for x in out["seats"]]
            self._remember(viewer.table_id, Fresh(t.version, state, t.status, entry, seats), epoch)
        return out

    def _remember(self, table_id: str, fresh: Fresh, epoch: int) -> None:
        """Keep ``fresh`` as the table's latest known state, unless a lobby notice came since
        ``epoch`` (the seats may have changed) or a later version is known already."""
        if self._lobby_epoch != epoch:
            self._fresh.pop(table_id, None)
            return
        known = self._fresh.get(table_id)
        if known is not None and known.version >= fresh.version:
            return
        self._fresh[table_id] = fresh
        self._fresh.move_to_end(table_id)
        while len(self._fresh) > FRESH_TABLES:
            self._fresh.popitem(last=False)

    # ------------------------------------------------------------------ audit
    def replay_matches(self, table_id: str) -> bool:
        """Replaying the move log from the seed reproduces the stored snapshot exactly.

        The log is read up to the snapshot's version: a move committed between the two reads (they
        see different snapshots of the database) belongs to a later snapshot, not to this one.
        """
        with self.db.session() as s:
            t = s.get(GameTable, table_id)
            if t is None or t.state is None or t.seed is None:
                return True
            records = list(
                s.scalars(
                    select(MoveRecord)
                    .where(MoveRecord.table_id == t.id, MoveRecord.version <= t.version)
                    .order_by(MoveRecord.version)
                )
            )
            versions = [r.version for r in records]
            if versions != list(range(1, t.version + 1)):
                return False
            record = [(r.seat, r.move) for r in records]
            state = rules.replay(t.seed, t.engine_options or {}, record)
            return bool(rules.encode_state(state) == t.state)

    def count_moves(self, table_id: str) -> int:
        with self.db.session() as s:
            return int(s.scalar(select(func.count()).where(MoveRecord.table_id == table_id)) or 0)
