"""The guided first game: open it (a real table, the person in seat 0, two easy bots, started at
once), the hint for the person's seat, and the profile's record of having got past it."""

from __future__ import annotations

from typing import Final

from anyio import to_thread

from app.bots.runner import BotRunner
from app.bots.service import BotSeats
from app.db.session import Database
from app.errors import AppError, NotYourSeat, WrongStatus
from app.tables.answers import LobbyAnswer
from app.tables.options import TableOptionsDoc
from app.tables.schemas import TableOptions
from app.tables.service import TableService
from app.tables.status import TableStatus
from app.tutorial import repository as repo
from app.tutorial.hints import Hint, Step, hint_for
from app.tutorial.status import GuideStatus

SEATS = 3  # the person and two bots
BOT_SEATS = (1, 2)
BOT_LEVEL = "greedy"  # the weakest level that still plays sensibly (docs/bots.md)
# The normal game (the rules offer no shorter one), with the first-game building start value and
# the person starting, so the first hint is theirs.
OPTIONS = TableOptions(start_player=0, building_start=35)
GUIDED: Final = "guided"  # the table option that marks a guided table
# Every guided game is dealt the same: with the bots' choices a function of what they see, a
# person who follows the hints meets the same game each time — one in which a delivery at the
# construction site, a title, an end-of-round event's offer and books sold at the market all
# come up within the first two rounds (tests/tutorial/test_hints.py checks it).
GUIDED_SEED = 33


class NotGuided(AppError):
    """Hints are served only at a guided table."""

    status = 409
    code = "not_guided"


def guided_options() -> TableOptionsDoc:
    return {**OPTIONS.doc(), GUIDED: True}


class Tutorial:
    def __init__(
        self, db: Database, tables: TableService, bot_seats: BotSeats, runner: BotRunner
    ) -> None:
        self.db = db
        self.tables = tables
        self.bot_seats = bot_seats
        self.runner = runner

    async def start(self, profile_id: str) -> LobbyAnswer:
        """A new guided table, its bots seated and the game started; the lobby."""
        lobby = await self.tables.create_table(profile_id, SEATS, guided_options())
        table_id = str(lobby["id"])
        for seat in BOT_SEATS:
            await self.bot_seats.put(profile_id, table_id, seat, BOT_LEVEL)
        out = await self.tables.start(profile_id, table_id, GUIDED_SEED)
        self.runner.kick(table_id)
        return out

    async def hint(
        self, profile_id: str, table_id: str, invite: str | None
    ) -> tuple[Hint, int, int]:
        """The hint for the caller's seat, the game version it was read at, and the seat. When
        the hints let go (the game is over), the profile is marked as having finished."""
        viewer = await self.tables.viewer(profile_id, table_id, invite)
        lobby = await self.tables.lobby(profile_id, table_id, invite)
        if not (lobby.get("options") or {}).get(GUIDED):
            raise NotGuided("this table is not a guided game")
        if viewer.seat is None:
            raise NotYourSeat("hints are for the seat's own player")
        if lobby["status"] == TableStatus.LOBBY:
            raise WrongStatus("the game has not started")
        game = await self.tables.game(viewer, 1)
        hint = hint_for(game["view"], game["legal_moves"])
        if hint.step is Step.DONE:
            await self.record(profile_id, GuideStatus.FINISHED)
        return hint, int(game["version"]), viewer.seat

    async def record(self, profile_id: str, value: GuideStatus) -> GuideStatus | None:
        def work() -> GuideStatus | None:
            with self.db.session() as s:
                repo.set_status(s, profile_id, value)
                return repo.status(s, profile_id)

        return await to_thread.run_sync(work)

    async def status(self, profile_id: str) -> GuideStatus | None:
        def work() -> GuideStatus | None:
            with self.db.session() as s:
                return repo.status(s, profile_id)

        return await to_thread.run_sync(work)
