"""Solo games: start one (campaign or high score), record its result once, build the record sheet.

A solo table is an ordinary one-seat table of the table service (created and started at once);
this module adds a ``solo_game`` row that knows its mode and building start value, and fills in
the result when the game is over. Recording happens inside the transaction of the move that ends
the game (``record_in``, a finish hook of the move path): the result commits with the last move or
not at all. Reading a record sheet also records, lazily, any finished game not recorded yet (one
finished before this code, or whose recording failed), and the guarded ``UPDATE … WHERE
finished_at IS NULL`` makes it happen exactly once. A one-seat table opened another way (the table
form, a rematch) is adopted when it ends, as a high-score game.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, cast

from anyio import to_thread
from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app import rules
from app.db.session import Database
from app.errors import AppError
from app.rules import data as rules_data
from app.solo import repository as repo
from app.solo.campaign import CampaignRules, SoloResult, record_sheet
from app.solo.models import SoloGame
from app.solo.schemas import Mode, OpenSoloOut, SoloSheetOut, SoloStartOut
from app.tables import published
from app.tables.locks import KeyedLocks
from app.tables.options import TableOptionsDoc
from app.tables.schemas import LobbyOut
from app.tables.service import TableService
from app.tables.status import TableStatus

if TYPE_CHECKING:
    from app.db.models import GameTable


log = logging.getLogger(__name__)


class CampaignBusy(AppError):
    status = 409
    code = "campaign_busy"


class BadSoloOptions(AppError):
    status = 422
    code = "bad_options"


def campaign_rules() -> CampaignRules:
    """The campaign's numbers, from the ``solo`` section of the engine's components data."""
    return CampaignRules.from_components(rules_data.RAW)


def _result_of(row: SoloGame) -> SoloResult:
    assert row.finished_at is not None
    return SoloResult(
        finished_at=row.finished_at,
        mode=row.mode,  # type: ignore[arg-type]
        building_start=row.building_start,
        cp=row.cp or 0,
        bp=row.bp or 0,
        score=row.score or 0,
        victoria_score=row.victoria_score or 0,
        won=bool(row.won),
        table_id=row.table_id,
    )


class SoloService:
    def __init__(self, db: Database, tables: TableService) -> None:
        self.db = db
        self.tables = tables
        self.rules = campaign_rules()
        self._locks = KeyedLocks()

    # ------------------------------------------------------------------ start
    async def start(self, profile_id: str, mode: Mode, building_start: int | None) -> SoloStartOut:
        """Create and start a solo table; a campaign game still open is resumed instead."""
        async with self._locks[profile_id]:
            if mode == "campaign":
                if building_start is not None:
                    raise BadSoloOptions(
                        "a campaign game starts at the campaign's next start value"
                    )
                open_id = await to_thread.run_sync(self._open_campaign_game, profile_id)
                if open_id is not None:
                    return await self._started(profile_id, open_id, resumed=True)
                building_start = await to_thread.run_sync(self._next_campaign_start, profile_id)
            options: TableOptionsDoc = {"start_player": 0}
            if building_start is not None:
                options["building_start"] = building_start
            try:
                rules.new_game(0, {"players": 1, **options})
            except rules.BadOptionsError as exc:
                raise BadSoloOptions(str(exc)) from exc
            lobby = await self.tables.create_table(profile_id, 1, options)
            if await to_thread.run_sync(self._register, lobby["id"], profile_id, mode):
                return await self._started(profile_id, lobby["id"], resumed=False)
            # Another process registered this profile's campaign game first (the database allows
            # one open campaign game per profile): drop the table just made, resume that game.
            await to_thread.run_sync(self._discard, lobby["id"])
            open_id = await to_thread.run_sync(self._open_campaign_game, profile_id)
            if open_id is None:
                raise CampaignBusy("a campaign game is being started; try again")
            return await self._started(profile_id, open_id, resumed=True)

    async def _started(self, profile_id: str, table_id: str, resumed: bool) -> SoloStartOut:
        lobby = await self.tables.lobby(profile_id, table_id, None)
        mode, building_start = await to_thread.run_sync(self._row, table_id)
        return SoloStartOut(
            table_id=table_id,
            mode=mode,
            building_start=building_start,
            resumed=resumed,
            table=LobbyOut.model_validate(lobby),
        )

    def _row(self, table_id: str) -> tuple[Mode, int]:
        """The solo game's mode and building start value."""
        with self.db.session() as s:
            row = s.get(SoloGame, table_id)
            assert row is not None
            return cast(Mode, row.mode), row.building_start

    def _open_campaign_game(self, profile_id: str) -> str | None:
        with self.db.session() as s:
            self._reconcile(s, profile_id)
            return repo.open_campaign_game(s, profile_id)

    def _next_campaign_start(self, profile_id: str) -> int:
        with self.db.session() as s:
            sheet = record_sheet(self.rules, self._results(s, profile_id))
            return int(sheet["campaign"]["next_start"])

    def _register(self, table_id: str, profile_id: str, mode: str) -> bool:
        """Record the new table as a solo game; False if the profile already has an open
        campaign game (the unique index refused a second one)."""
        try:
            with self.db.session() as s:
                t = published.table(s, table_id)
                if t is None or t.state is None:
                    raise AppError("the solo table did not start")
                # The start value the engine used (the top event card's when none was asked).
                view = rules.view_for(rules.decode_state(t.state), None)
                s.add(
                    SoloGame(
                        table_id=table_id,
                        profile_id=profile_id,
                        mode=mode,
                        building_start=int(view["options"]["building_start"]),
                    )
                )
                s.flush()
        except IntegrityError:
            if mode != "campaign":
                raise
            return False
        return True

    def _discard(self, table_id: str) -> None:
        """Delete a solo table that was created but lost the race to register (no move yet)."""
        with self.db.session() as s:
            # Kept if played already (it never is: nobody else knows it yet).
            published.delete_unplayed(s, table_id)

    # ------------------------------------------------------------------ record
    def record_in(self, conn: Connection, table_id: str) -> None:
        """A finish hook of the move path: record the solo result inside the transaction of the
        move that ended the game. In a savepoint of its own: a failure here is logged and leaves
        the move committed (the next sheet read records the result)."""
        try:
            with Session(bind=conn, join_transaction_mode="create_savepoint") as s:
                self._record(s, table_id)
                s.commit()
        except Exception:
            log.exception("recording the solo result of table %s failed", table_id)

    async def record(self, table_id: str) -> bool:
        """Record the result of a finished solo table; True only for the call that recorded it."""
        return await to_thread.run_sync(self._record_one, table_id)

    def _record_one(self, table_id: str) -> bool:
        with self.db.session() as s:
            return self._record(s, table_id)

    def _record(self, s: Session, table_id: str) -> bool:
        row = s.get(SoloGame, table_id)
        if row is not None and row.finished_at is not None:
            return False
        # Cheap look first: most notices are moves of games still running or with more seats.
        head = published.seat_count_and_status(s, table_id)
        if head is None or head.seat_count != 1 or head.status != TableStatus.FINISHED:
            return False
        t = published.table(s, table_id)
        if t is None or t.state is None or t.seat_count != 1:
            return False
        state = rules.decode_state(t.state)
        outcome = rules.outcome(state)
        victoria = None if outcome is None else outcome["victoria"]
        if outcome is None or victoria is None:
            return False
        if row is None:
            # A one-seat table opened some other way (the table form, a rematch): a solo game
            # all the same, kept as a high-score result at its start value.
            row = self._adopt(s, t, state)
            if row is None:
                return False
        me = outcome["players"][0]
        finished_at = published.last_move_at(s, table_id)
        done = repo.record_result(
            s,
            table_id,
            finished_at or t.updated_at,
            {
                "cp": int(me["cp"]),
                "bp": int(me["bp"]),
                "score": int(me["score"]),
                "victoria_cp": int(victoria["cp"]),
                "victoria_score": int(victoria["score"]),
                "won": bool(outcome["won"]),
            },
        )
        s.expire(row)
        return done

    @staticmethod
    def _adopt(s: Session, t: GameTable, state: Any) -> SoloGame | None:
        profile_id = published.profile_at(s, t.id, 0)
        if profile_id is None:
            return None
        view = rules.view_for(state, None)
        row = SoloGame(
            table_id=t.id,
            profile_id=profile_id,
            mode="high_score",
            building_start=int(view["options"]["building_start"]),
            created_at=t.created_at,
        )
        try:
            with s.begin_nested():
                s.add(row)
        except IntegrityError:
            return s.get(SoloGame, t.id)  # adopted at the same moment elsewhere
        return row

    def _reconcile(self, s: Session, profile_id: str) -> None:
        """Record every finished solo game of the profile not recorded yet."""
        for table_id in repo.unrecorded_finished(s, profile_id):
            self._record(s, table_id)

    def _results(self, s: Session, profile_id: str) -> list[SoloResult]:
        self._reconcile(s, profile_id)
        return [_result_of(r) for r in repo.finished_games(s, profile_id)]

    # ------------------------------------------------------------------ read
    async def sheet(self, profile_id: str) -> SoloSheetOut:
        return await to_thread.run_sync(self._sheet, profile_id)

    def _sheet(self, profile_id: str) -> SoloSheetOut:
        with self.db.session() as s:
            sheet = record_sheet(self.rules, self._results(s, profile_id))
            open_rows = repo.open_games(s, profile_id)
            games: list[OpenSoloOut] = [
                {
                    "table_id": r.table_id,
                    "mode": cast(Mode, r.mode),
                    "building_start": r.building_start,
                    "created_at": r.created_at.isoformat(),
                }
                for r in open_rows
            ]
            return {**sheet, "open": games}
