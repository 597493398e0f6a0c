"""My games plugged in: the list, and a server-sent event stream per profile that hears the hub
(and the people a host removed from a lobby: their My games hears of it)."""

from __future__ import annotations

from app.db.session import Database
from app.mygames import endpoints
from app.mygames.events import MeFeed
from app.mygames.service import MyGames
from app.parts import Parts
from app.plug import Core, Feature, Work
from app.tables.removals import removed_from


def plug(core: Core, parts: Parts) -> Feature:
    s, db = core.settings, core.db
    feed = MeFeed(
        db,
        core.clock,
        s.me_events_per_profile,
        s.me_events_heartbeat_seconds,
        s.me_events_max_seconds,
    )
    core.hub.watchers.append(feed.heard)
    feed.also.append(lambda table_id: _removed_from(db, table_id))
    return Feature(
        "mygames",
        parts={"my_games": MyGames(db), "me_feed": feed},
        routers=[endpoints.router],
        work=[Work("my games", feed.start, feed.stop)],
    )


def _removed_from(db: Database, table_id: str) -> list[str]:
    """The people a host removed from the table lately (a worker thread's read)."""
    with db.read() as conn:
        return removed_from(conn, table_id)
