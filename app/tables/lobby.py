"""The lobby: open a table, look at it, join, leave, start, list one's tables; who is looking.

Seats are judged in the database, not in a process: every act that changes a table's seats, or
judges by them (a start), reads the table first with the seats' lock
(``repository.LOBBY_TABLE_FOR_CHANGE``) and its seats after it, in one transaction; so on any
number of instances such acts run one after another, each judging the seats the last one left (a
leave after a start is refused, a start after a leave sees the empty seat). Every seat change
advances the table's ``seats_version`` in the same transaction (see ``repository.bump_seats``),
the start deals only for the ``seats_version`` it read, and each is announced by a lobby notice
after the commit. The per-process locks (``KeyedLocks``) only spare the database waits.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import timedelta

from anyio import to_thread
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app import rules
from app.db.models import GameTable, Seat, utcnow
from app.db.session import Database
from app.errors import (
    NameSeated,
    NotFound,
    NotHost,
    RateLimited,
    SeatsNotFilled,
    TableFull,
    WrongStatus,
)
from app.pace.book import PaceBook
from app.profiles import suspension
from app.realtime.hub import Hub, Notice, NoticeKind
from app.tables import lobby_repository as lobby_repo
from app.tables import repository as repo
from app.tables.answers import LobbyAnswer
from app.tables.locks import KeyedLocks
from app.tables.options import TableOptionsDoc, engine_options, options_of
from app.tables.preview import seat_of_name
from app.tables.removals import refuse_removed
from app.tables.status import TableStatus
from app.tables.types import Viewer
from app.tables.visibility import lobby_of, seats_and_names, viewer_of, visible, visible_rows


def new_id() -> str:
    return secrets.token_urlsafe(9)


def new_seed() -> int:
    return secrets.randbits(62)


def insert_table(
    s: Session,
    host_id: str,
    seat_count: int,
    options: TableOptionsDoc,
    host_seat: int = 0,
    name: str | None = None,
    table_id: str | None = None,
) -> GameTable:
    """A new table in the lobby with its host seated (in the caller's transaction)."""
    t = GameTable(
        id=table_id or new_id(),
        invite_code=new_id(),
        host_profile_id=host_id,
        seat_count=seat_count,
        options=options,
        status=TableStatus.LOBBY,
        version=0,
        seats_version=0,
        name=name,
    )
    s.add(t)
    s.flush()
    s.add(Seat(table_id=t.id, seat=host_seat, profile_id=host_id))
    return t


def seat_person(s: Session, t: GameTable, profile_id: str, wanted: int | None) -> int:
    """Seat ``profile_id`` at a lobby table (in the caller's transaction): at ``wanted`` when it
    is free, else at the first seat nobody holds or is invited to. The seat number. The table
    is read again with the seats' lock first, whatever the caller read before."""
    t = _for_change(s, t.id)
    if t.status != TableStatus.LOBBY:
        raise not_open(t.status)
    seats = lobby_repo.seats(s, t.id)
    mine = next((x.seat for x in seats if x.profile_id == profile_id), None)
    if mine is not None:
        return mine
    held = {x.seat for x in seats}
    if wanted is None or wanted in held or not 0 <= wanted < t.seat_count:
        free = sorted(set(range(t.seat_count)) - held - lobby_repo.reserved_seats(s, t.id))
        if not free:
            raise TableFull("every seat is taken")
        wanted = free[0]
    s.add(Seat(table_id=t.id, seat=wanted, profile_id=profile_id))
    try:
        s.flush()
    except IntegrityError as exc:
        raise TableFull("every seat is taken") from exc
    lobby_repo.bump_seats(s, t.id)
    t.updated_at = utcnow()
    return wanted


def lobby_table(s: Session, table_id: str) -> GameTable:
    """A table by id, whoever asks (the caller judged the right to act on it)."""
    t = repo.table(s, table_id)
    if t is None:
        raise NotFound("no such table")
    return t


def not_open(status: str) -> WrongStatus:
    """Why a table takes nobody new: its game began or ended, or everybody left before it."""
    if status == TableStatus.CLOSED:
        return WrongStatus("the table is closed")
    if status == TableStatus.FINISHED:
        return WrongStatus("the game is over")
    return WrongStatus("the game has already started")


def _for_change(s: Session, table_id: str) -> GameTable:
    """The table read again with the seats' lock (``repository.table_for_change``)."""
    t = lobby_repo.table_for_change(s, table_id)
    if t is None:
        raise NotFound("no such table")
    return t


def free_seat(s: Session, t: GameTable) -> int | None:
    """The first seat of a lobby table that nobody holds and nobody is invited to, judged with
    the seats' lock (the table read again first: a seat joined meanwhile is not offered)."""
    t = _for_change(s, t.id)
    if t.status != TableStatus.LOBBY:
        raise not_open(t.status)
    held = {x.seat for x in lobby_repo.seats(s, t.id)} | lobby_repo.reserved_seats(s, t.id)
    free = sorted(set(range(t.seat_count)) - held)
    return free[0] if free else None


# Options a person consents to for one game, as a rematch starts them (until chosen again):
# ``public_replay`` shows the record to anyone (docs/records.md). The rest is copied.
CHOSEN_AGAIN: TableOptionsDoc = {"public_replay": False}


def rematch_options(options: TableOptionsDoc) -> TableOptionsDoc:
    """A finished table's options as its rematch starts with them (``CHOSEN_AGAIN`` reset)."""
    return {**options, **CHOSEN_AGAIN}


def open_rematch(s: Session, t: GameTable, host_id: str, host_seat: int) -> GameTable | None:
    """The rematch of a finished table (in the caller's transaction): the same options (but
    those chosen again, ``CHOSEN_AGAIN``) and name, ``host_id`` at their old seat, the table's
    own bots at theirs. None when another player opened it first (``t.rematch_id`` names it)."""
    table_id = new_id()
    if not lobby_repo.claim_rematch(s, t.id, table_id):
        return None
    options = rematch_options(options_of(t))
    new = insert_table(s, host_id, t.seat_count, options, host_seat, t.name, table_id)
    for x in lobby_repo.seats(s, t.id):
        if x.profile_id is None and x.bot_level is not None and x.seat != host_seat:
            s.add(Seat(table_id=new.id, seat=x.seat, profile_id=None, bot_level=x.bot_level))
    s.flush()
    return new


class Lobby:
    def __init__(
        self, db: Database, hub: Hub, locks: KeyedLocks, pace: PaceBook | None = None
    ) -> None:
        self.db = db
        self.hub = hub
        self.locks = locks
        self.pace = pace or PaceBook()
        # (count, seconds): at most count tables opened per profile in that window; None = off.
        self.table_create_limit: tuple[int, float] | None = None
        # Where a game's seed comes from: 62 secret random bits (tests inject a fixed one).
        self.new_seed: Callable[[], int] = new_seed

    def _changed(self, table_id: str) -> None:
        self.hub.publish(Notice(table_id, NoticeKind.LOBBY))

    # ------------------------------------------------------------------ open
    async def create_table(
        self, profile_id: str, seat_count: int, options: TableOptionsDoc
    ) -> LobbyAnswer:
        table_id = await to_thread.run_sync(self.create_sync, profile_id, seat_count, options)
        if seat_count == 1:
            # A solo table is a one-seat table that starts at once.
            return await self.start(profile_id, table_id)
        return await self.lobby(profile_id, table_id, None)

    def create_sync(self, profile_id: str, seat_count: int, options: TableOptionsDoc) -> str:
        """Insert the table (the caller seated as host); the creation limit is counted in the
        same transaction, after taking the profile's lock, so concurrent creations cannot all
        pass the count."""
        with self.db.session() as s:
            suspension.check(s, profile_id)
            if self.table_create_limit and self.table_create_limit[0] > 0:
                limit, window = self.table_create_limit
                lobby_repo.lock_profile(s, profile_id)
                since = utcnow() - timedelta(seconds=window)
                if lobby_repo.tables_opened_since(s, profile_id, since) >= limit:
                    raise RateLimited(
                        f"at most {limit} new tables per {int(window)} seconds", limit=limit
                    )
            return insert_table(s, profile_id, seat_count, options).id

    # ------------------------------------------------------------------ look
    async def lobby(
        self, profile_id: str | None, table_id: str, invite_code: str | None
    ) -> LobbyAnswer:
        return await to_thread.run_sync(self._lobby, profile_id, table_id, invite_code)

    def _lobby(self, profile_id: str | None, table_id: str, invite_code: str | None) -> LobbyAnswer:
        with self.db.read() as conn:
            t, seats, names = visible_rows(conn, profile_id, table_id, invite_code)
            return lobby_of(conn, t, seats, profile_id, names)

    async def viewer(
        self, profile_id: str | None, table_id: str, invite_code: str | None
    ) -> Viewer:
        return await to_thread.run_sync(self._viewer, profile_id, table_id, invite_code)

    def _viewer(self, profile_id: str | None, table_id: str, invite_code: str | None) -> Viewer:
        with self.db.read() as conn:
            t, seats, _ = visible_rows(conn, profile_id, table_id, invite_code)
            return viewer_of(t, seats, profile_id)

    async def lobby_and_viewer(
        self, profile_id: str | None, table_id: str, invite_code: str | None
    ) -> tuple[LobbyAnswer, Viewer]:
        """``lobby`` and ``viewer`` read together (one transaction, one worker thread): what a
        table socket sends and who it speaks for, as of the same seats."""

        def work() -> tuple[LobbyAnswer, Viewer]:
            with self.db.read() as conn:
                t, seats, names = visible_rows(conn, profile_id, table_id, invite_code)
                viewer = viewer_of(t, seats, profile_id)
                return lobby_of(conn, t, seats, profile_id, names), viewer

        return await to_thread.run_sync(work)

    async def my_tables(self, profile_id: str) -> list[LobbyAnswer]:
        return await to_thread.run_sync(self._my_tables, profile_id)

    def _my_tables(self, profile_id: str) -> list[LobbyAnswer]:
        with self.db.read_session() as s:
            return [
                lobby_of(s, t, lobby_repo.seats(s, t.id), profile_id)
                for t in lobby_repo.tables_of(s, profile_id)
            ]

    # ------------------------------------------------------------------ name
    async def rename(self, profile_id: str, table_id: str, name: str | None) -> LobbyAnswer:
        """The host names the table (None: no name); every viewer hears of it."""
        async with self.locks[table_id]:
            out = await to_thread.run_sync(self._rename, profile_id, table_id, name)
        self._changed(table_id)
        return out

    def _rename(self, profile_id: str, table_id: str, name: str | None) -> LobbyAnswer:
        with self.db.session() as s:
            t, seats = visible(s, profile_id, table_id, None, for_change=True)
            if t.host_profile_id != profile_id:
                raise NotHost("only the host can name the table")
            if t.status == TableStatus.CLOSED:
                raise WrongStatus("the table is closed")
            t.name = name
            t.updated_at = utcnow()
            s.flush()
            return lobby_of(s, t, seats, profile_id)

    # ------------------------------------------------------------------ seats
    async def join(
        self, profile_id: str, table_id: str, invite_code: str, another_person: bool = False
    ) -> LobbyAnswer:
        async with self.locks[table_id]:
            out = await to_thread.run_sync(
                self._join, profile_id, table_id, invite_code, another_person
            )
        self._changed(table_id)
        return out

    def _join(
        self, profile_id: str, table_id: str, invite_code: str, another_person: bool
    ) -> LobbyAnswer:
        # Core statements built once, in one transaction (three joins start every table); the
        # table read first, with the seats' lock.
        with self.db.begin() as conn:
            t, seats, names = visible_rows(conn, None, table_id, invite_code, for_change=True)
            if any(x.profile_id == profile_id for x in seats):
                return lobby_of(conn, t, seats, profile_id, names)
            refuse_removed(conn, t.id, profile_id)  # removed by the host: no seat by the link
            # A name is not an identity, but a second seat under a seated name is most often
            # that person signed out: said first, unless the joiner says they are someone else.
            if not another_person:
                mine = lobby_repo.names(conn, [profile_id]).get(profile_id)
                seat = seat_of_name(seats, mine)
                if seat is not None:
                    raise NameSeated(f"someone called {mine} sits at this table", seat=seat)
            if t.status != TableStatus.LOBBY:
                raise not_open(t.status)
            # A seat kept for an invited person (app/invitations) is not free for a link.
            taken = {x.seat for x in seats} | lobby_repo.reserved_seats(conn, t.id)
            free = sorted(set(range(t.seat_count)) - taken)
            if not free:
                raise TableFull("every seat is taken")
            try:
                lobby_repo.take_seat(conn, t.id, free[0], profile_id)
            except IntegrityError as exc:
                raise TableFull("every seat is taken") from exc
            lobby_repo.bump_seats(conn, t.id)
            seats, names = seats_and_names(repo.lobby_seats(conn, t.id))
            return lobby_of(conn, t, seats, profile_id, names)

    async def leave(self, profile_id: str, table_id: str) -> LobbyAnswer:
        async with self.locks[table_id]:
            out = await to_thread.run_sync(self._leave, profile_id, table_id)
        self._changed(table_id)
        return out

    def _leave(self, profile_id: str, table_id: str) -> LobbyAnswer:
        with self.db.session() as s:
            t, seats = visible(s, profile_id, table_id, None, for_change=True)
            if t.status != TableStatus.LOBBY:
                raise WrongStatus("a started game cannot be left")
            mine = next(x for x in seats if x.profile_id == profile_id)
            s.delete(mine)
            rest = [x for x in seats if x is not mine]
            if t.host_profile_id == profile_id:
                humans = [x for x in rest if x.profile_id]
                if humans:
                    t.host_profile_id = humans[0].profile_id  # type: ignore[assignment]
                else:
                    t.status = TableStatus.CLOSED
            t.updated_at = utcnow()
            s.flush()
            lobby_repo.bump_seats(s, t.id)
            return lobby_of(s, t, rest, profile_id)

    async def start(self, profile_id: str, table_id: str, seed: int | None = None) -> LobbyAnswer:
        """Deal the game; `seed`: a fixed deal (the guided first game), else a secret one."""
        async with self.locks[table_id]:
            out = await to_thread.run_sync(self._start, profile_id, table_id, seed)
        self._changed(table_id)
        self.hub.publish(Notice(table_id, NoticeKind.GAME, out["version"]))
        return out

    def _start(self, profile_id: str, table_id: str, fixed: int | None = None) -> LobbyAnswer:
        with self.db.session() as s:
            t, seats = visible(s, profile_id, table_id, None, for_change=True)
            if t.host_profile_id != profile_id:
                raise NotHost("only the host can start the game")
            if t.status != TableStatus.LOBBY:
                raise not_open(t.status)
            if len(seats) != t.seat_count:
                raise SeatsNotFilled("every seat must be taken")
            seed = self.new_seed() if fixed is None else fixed
            chosen = options_of(t)
            options = engine_options(t.seat_count, chosen)
            state = rules.new_game(seed, options)
            clock, deadline = self.pace.on_start(
                chosen.get("pace"),
                t.seat_count,
                state,
                [{"seat": x.seat, "bot_level": x.bot_level} for x in seats],
            )
            blob = rules.encode_state(state)
            at = utcnow()
            if not lobby_repo.start_game(
                s,
                t.id,
                seed,
                options,
                blob,
                at,
                t.seats_version,
                clock,
                deadline,
            ):
                raise WrongStatus("the table changed while the game was dealt: look again")
            s.refresh(t)
            return lobby_of(s, t, seats, profile_id)
