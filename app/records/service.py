"""Records and replays: export a finished table's record, import a record (checked by replaying
it), and the replay a viewer steps through — one replay id for both (docs/records.md).

Replay ids: a finished table's replay is addressed by the table's own id (12 characters); an
imported replay by the unguessable id made at its import (24 characters). Who may look:
the seated players of the table (or anyone once its host made the replay public), and the
importer of an imported replay. Anyone else is told there is no such replay.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, cast

from anyio import to_thread
from sqlalchemy.exc import IntegrityError

from app.clock import Clock
from app.db.session import Database
from app.errors import AppError, NotFound, NotHost, WrongStatus
from app.isotime import iso
from app.records import repository as repo
from app.records import views
from app.records.cache import ReplayCache
from app.records.canonical import check_canonical, game_digest, imported_replay_id
from app.records.doors import Door, Doors
from app.records.encoded import EncodedCache, Key
from app.records.errors import NotFinished, OutcomeMismatch
from app.records.intake import parse_body, parse_record
from app.records.replay import Replayed, Source, replay_of, stored_record, verify
from app.records.schemas import (
    FORMAT,
    FORMAT_VERSION,
    GameRecord,
    ImportedOut,
    PositionOut,
    ReplayOut,
)
from app.records.shapes import JSONObject, PositionDoc, RecordDoc, ReplayDoc
from app.records.version import rules_version
from app.tables.status import TableStatus

if TYPE_CHECKING:
    from app.db.models import GameTable


TABLE_REPLAY_ID_LENGTH = 12
IMPORTED_REPLAY_ID_LENGTH = 24
# Imported replays one profile may keep.
IMPORTS_PER_PROFILE = 500
# Encoded replay pages and positions a process keeps, in bytes, and the most positions of a
# replay page (the defaults of ``replay_cache_bytes`` and ``replay_page_max``).
REPLAY_CACHE_BYTES = 64 * 1024 * 1024
REPLAY_PAGE_MAX = 400


class TooManyReplays(AppError):
    status = 409
    code = "too_many_replays"


def new_replay_id() -> str:
    return secrets.token_urlsafe(18)  # 24 URL-safe characters


def _iso(moment: datetime | None) -> str | None:
    if moment is not None and moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return iso(moment)


def table_record(s: Any, t: GameTable) -> RecordDoc:
    """The record of a finished table, in JSON form (the caller checked it is finished): the
    moves that stand, without what was taken back (app/records/canonical.py)."""
    assert t.seed is not None and t.state is not None
    from app import rules

    outcome = rules.outcome(rules.decode_state(t.state))
    moves = [
        {"seat": m.seat, "move": m.move, "at": _iso(m.at)}
        for m in repo.standing_moves(s, t.id, t.version)
    ]
    record = GameRecord.model_validate(
        {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "rules_version": rules_version(),
            "options": t.engine_options or {},
            "players": repo.players(s, t.id),
            "seed": t.seed,
            "moves": moves,
            "outcome": outcome,
            "name": t.name,
            "finished_at": _iso(t.updated_at),
        },
        strict=False,
    )
    return cast(RecordDoc, record.model_dump(mode="json"))  # checked by GameRecord just now


def _check_access(s: Any, table_id: str, profile_id: str | None) -> None:
    """The caller may have the table's record or replay (a light read: no state, no log); a
    running game has none."""
    t = repo.table_access(s, table_id)
    if t is None:
        raise NotFound("no such replay")
    seated = profile_id is not None and profile_id in repo.seat_holders(s, table_id)
    if not seated and not t.options.get("public_replay", False):
        raise NotFound("no such replay")
    if t.status != TableStatus.FINISHED or not t.has_game:
        raise NotFinished("the game is not finished: it has no record yet")


def _check_table(s: Any, table_id: str, profile_id: str | None) -> GameTable:
    """The table whose record or replay the caller may have."""
    _check_access(s, table_id, profile_id)
    t = repo.table(s, table_id)
    assert t is not None
    return t


def _encode(model: type[ReplayOut] | type[PositionOut], out: ReplayDoc | PositionDoc) -> bytes:
    """The response's bytes, checked against its contract once (then kept, not re-checked)."""
    return model.model_validate(out).model_dump_json().encode("utf-8")


class RecordService:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        cache: ReplayCache | None = None,
        *,
        id_key: str | None = None,
        cache_bytes: int = REPLAY_CACHE_BYTES,
        page_max: int = REPLAY_PAGE_MAX,
    ) -> None:
        self.db = db
        self.clock = clock
        self.cache = cache or ReplayCache()
        # The key of imported replays' ids (the server's secret key; without one, this
        # process's own: the same game imported again is then the same replay until a restart).
        self.id_key = id_key or secrets.token_urlsafe(32)
        self.encoded = EncodedCache(cache_bytes)
        self.doors = Doors()
        self.page_max = page_max

    # ------------------------------------------------------------------ export
    async def export(self, profile_id: str | None, table_id: str) -> RecordDoc:
        return await to_thread.run_sync(self._export, profile_id, table_id)

    def _export(self, profile_id: str | None, table_id: str) -> RecordDoc:
        with self.db.session() as s:
            return table_record(s, _check_table(s, table_id, profile_id))

    async def set_public(self, profile_id: str, table_id: str, public: bool) -> bool:
        return await to_thread.run_sync(self._set_public, profile_id, table_id, public)

    def _set_public(self, profile_id: str, table_id: str, public: bool) -> bool:
        with self.db.session() as s:
            t = repo.table(s, table_id)
            if t is None:
                raise NotFound("no such table")
            if t.host_profile_id != profile_id:
                if profile_id in repo.seat_holders(s, table_id):
                    raise NotHost("only the host can make the replay public")
                raise NotFound("no such table")
            if t.status == TableStatus.CLOSED:
                raise WrongStatus("the table is closed")
            repo.set_public_replay(s, t, public)
        self.doors.forget(table_id)
        return public

    # ------------------------------------------------------------------ import
    async def import_body(self, profile_id: str, raw: bytes) -> tuple[ImportedOut, bool]:
        """Import the record in ``raw`` (parsed off the event loop): the replay and whether
        it is new (False: the importer keeps this game already, and that is its replay)."""
        return await to_thread.run_sync(self._import_body, profile_id, raw)

    def _import_body(self, profile_id: str, raw: bytes) -> tuple[ImportedOut, bool]:
        return self._import(profile_id, parse_body(raw))

    def _import(self, profile_id: str, body: JSONObject) -> tuple[ImportedOut, bool]:
        record = parse_record(body)
        check_canonical(record)  # before anything is replayed
        replay_id = imported_replay_id(self.id_key, profile_id, game_digest(record))
        kept = self._kept_import(profile_id, replay_id, record)
        if kept is not None:
            return kept, False
        done = verify(record)  # nothing is stored unless it replays exactly
        stored = stored_record(record.model_dump(mode="json"))
        try:
            with self.db.session() as s:
                if repo.count_imported(s, profile_id) >= IMPORTS_PER_PROFILE:
                    raise TooManyReplays(f"at most {IMPORTS_PER_PROFILE} imported replays each")
                repo.add_imported(
                    s, replay_id, profile_id, stored, done.positions, self.clock.utcnow()
                )
        except IntegrityError:  # the same game, imported at the same moment
            kept = self._kept_import(profile_id, replay_id, record)
            if kept is None:
                raise
            return kept, False
        self.cache.put(replay_id, (Source("import", None, stored), done))
        return ImportedOut(replay_id=replay_id, positions=done.positions), True

    def _kept_import(
        self, profile_id: str, replay_id: str, record: GameRecord
    ) -> ImportedOut | None:
        """The importer's replay of this very game, if they keep it (its outcome is then
        checked against the kept one: the moves are the same, so must it be)."""
        with self.db.session() as s:
            row = repo.imported(s, replay_id)
            if row is None or row.owner_profile_id != profile_id:
                return None
            if row.record["outcome"] != record.outcome.model_dump(mode="json"):
                raise OutcomeMismatch("the record's outcome is not the outcome its moves make")
            return ImportedOut(replay_id=replay_id, positions=row.positions)

    # ------------------------------------------------------------------ replay
    async def may_see(self, profile_id: str, replay_id: str) -> bool:
        """The profile sits at the replay's table or imported the replay."""
        door = self.doors.get(replay_id, self.clock.monotonic())
        if door is None:
            door = await to_thread.run_sync(self._door, replay_id)
        return door is not None and door.sees(profile_id)

    def _door(self, replay_id: str) -> Door | None:
        """Who may look at the replay, from the database (then believed for a few seconds)."""
        with self.db.session() as s:
            if len(replay_id) == TABLE_REPLAY_ID_LENGTH:
                t = repo.table_access(s, replay_id)
                if t is None:
                    return None
                door = Door(
                    "table",
                    frozenset(repo.seat_holders(s, replay_id)),
                    bool(t.options.get("public_replay", False)),
                    t.status == TableStatus.FINISHED and t.has_game,
                )
            else:
                owner = repo.imported_owner(s, replay_id)
                if owner is None:
                    return None
                door = Door("import", frozenset({owner}), False, True)
        self.doors.put(replay_id, door, self.clock.monotonic())
        return door

    def _let_in(self, profile_id: str | None, replay_id: str) -> None:
        """Access is checked on every request: from the door believed now, or the database."""
        door = self.doors.get(replay_id, self.clock.monotonic()) or self._door(replay_id)
        if door is None:
            raise NotFound("no such replay")
        door.check(profile_id)

    def _kept_bytes(self, profile_id: str | None, replay_id: str, key: Key) -> bytes | None:
        """A response already encoded, for a caller a believed door lets in: answered on the
        event loop, with no worker thread and no database read (None: work it out)."""
        door = self.doors.get(replay_id, self.clock.monotonic())
        if door is None:
            return None
        door.check(profile_id)
        return self.encoded.peek(key)

    def _load(self, profile_id: str | None, replay_id: str) -> tuple[Source, Replayed]:
        """Access is checked on every call; the replaying is done once per cached replay."""
        self._let_in(profile_id, replay_id)
        cached = self.cache.get(replay_id)
        if cached is not None:
            return cached
        with self.db.session() as s:
            if len(replay_id) == TABLE_REPLAY_ID_LENGTH:
                t = _check_table(s, replay_id, profile_id)
                source = Source("table", t.id, table_record(s, t))
            else:
                row = repo.imported(s, replay_id)
                if row is None or row.owner_profile_id != profile_id:
                    raise NotFound("no such replay")
                source = Source("import", None, stored_record(row.record))
        done = replay_of(source.record)
        self.cache.put(replay_id, (source, done))
        return source, done

    async def replay(self, profile_id: str | None, replay_id: str, eyes: str) -> ReplayDoc:
        """The whole replay (every position in one page), for the analysis."""
        return await to_thread.run_sync(self._replay, profile_id, replay_id, eyes, 0, None)

    async def replay_page(
        self, profile_id: str | None, replay_id: str, eyes: str, offset: int, limit: int | None
    ) -> bytes:
        """One page of a replay (at most ``page_max`` positions), encoded once per (replay,
        eyes, page) and kept; worked out in a worker thread."""
        key: Key = (replay_id, "page", eyes, offset, self._page_limit(limit))
        kept = self._kept_bytes(profile_id, replay_id, key)
        if kept is not None:
            return kept
        return await to_thread.run_sync(
            self._replay_page, profile_id, replay_id, eyes, offset, limit
        )

    def _page_limit(self, limit: int | None) -> int:
        return self.page_max if limit is None else max(1, min(limit, self.page_max))

    def _replay_page(
        self, profile_id: str | None, replay_id: str, eyes: str, offset: int, limit: int | None
    ) -> bytes:
        source, done = self._load(profile_id, replay_id)  # access, every time
        size = self._page_limit(limit)
        return self.encoded.get_or_make(
            (replay_id, "page", eyes, offset, size),
            lambda: _encode(ReplayOut, self._render(replay_id, source, done, eyes, offset, size)),
        )

    def _replay(
        self, profile_id: str | None, replay_id: str, eyes: str, offset: int, limit: int | None
    ) -> ReplayDoc:
        source, done = self._load(profile_id, replay_id)
        size = done.positions if limit is None else limit
        return self._render(replay_id, source, done, eyes, offset, size)

    @staticmethod
    def _render(
        replay_id: str, source: Source, done: Replayed, eyes: str, offset: int, limit: int
    ) -> ReplayDoc:
        rec = source.record
        seat = views.parse_eyes(eyes, int(rec["options"]["players"]))
        return {
            "replay_id": replay_id,
            "source": source.kind,
            "table_id": source.table_id,
            "name": rec.get("name"),
            "options": rec["options"],
            "players": rec["players"],
            "outcome": rec["outcome"],
            "positions": done.positions,
            "eyes": eyes,
            **views.page(done, seat, offset, limit),
            "rules_version": rec["rules_version"],
            "finished_at": rec.get("finished_at"),
        }

    async def position(self, profile_id: str | None, replay_id: str, n: int, eyes: str) -> bytes:
        """The game at position ``n``, encoded once per (replay, eyes, position) and kept."""
        kept = self._kept_bytes(profile_id, replay_id, (replay_id, "position", eyes, n, 0))
        if kept is not None:
            return kept
        return await to_thread.run_sync(self._position, profile_id, replay_id, n, eyes)

    def _position(self, profile_id: str | None, replay_id: str, n: int, eyes: str) -> bytes:
        source, done = self._load(profile_id, replay_id)  # access, every time

        def make() -> bytes:
            seat = views.parse_eyes(eyes, int(source.record["options"]["players"]))
            out: PositionDoc = {
                "replay_id": replay_id,
                "eyes": eyes,
                **views.position(done, n, seat),
            }
            return _encode(PositionOut, out)

        return self.encoded.get_or_make((replay_id, "position", eyes, n, 0), make)
