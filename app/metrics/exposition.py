"""The Prometheus text of one scrape, built from what was read (``readings``) and the tallies:
the families are made at scrape time (prometheus_client's custom collector), nothing in between."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector

from app.metrics.readings import DatabaseCounts, LoopReadings
from app.tally import MOVE_BUCKETS, MoveTally, RefusalTally

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


@dataclass(frozen=True, eq=False)  # (identity-hashed: the registry keys its collectors)
class Scrape(Collector):
    moves: MoveTally
    limits: RefusalTally
    loop: LoopReadings
    rows: DatabaseCounts

    def collect(self) -> Iterator[Metric]:
        m = self.moves
        yield CounterMetricFamily(
            "emara_moves_accepted", "Moves committed (HTTP, sockets and bots).", value=m.accepted
        )
        yield CounterMetricFamily(
            "emara_moves_repeated",
            "Moves sent again with a move_id played already (answered, not played again).",
            value=m.repeated,
        )
        refused = CounterMetricFamily(
            "emara_moves_refused", "Moves refused, by reason (the error code).", labels=["reason"]
        )
        for reason, n in sorted(m.refused.items()):
            refused.add_metric([reason], n)
        yield refused
        cumulative, running = [], 0
        for bound, n in zip((*map(str, MOVE_BUCKETS), "+Inf"), m.buckets, strict=True):
            running += n
            cumulative.append((bound, running))
        yield HistogramMetricFamily(
            "emara_move_seconds",
            "Time from a move's submission to its acknowledgement (accepted moves).",
            buckets=cumulative,
            sum_value=m.seconds,
        )
        limited = CounterMetricFamily(
            "emara_rate_limit_refusals",
            "Requests and socket frames refused by a rate limit, by limit name.",
            labels=["limit"],
        )
        for name, n in sorted(self.limits.by_limit.items()):
            limited.add_metric([name], n)
        limited.add_metric(["socket_frames"], self.loop.socket_frames_refused)
        yield limited

        loop = self.loop
        sockets = GaugeMetricFamily(
            "emara_open_sockets", "Connections held open by this process.", labels=["kind"]
        )
        sockets.add_metric(["table_socket"], loop.table_sockets)
        sockets.add_metric(["my_games_stream"], loop.my_games_streams)
        yield sockets
        queues = GaugeMetricFamily(
            "emara_queue_length",
            "Work waiting: this process's e-mail and push senders; the database's e-mail "
            "notifications and analyses (every instance's).",
            labels=["queue"],
        )
        queues.add_metric(["email_sender"], loop.email_queue)
        queues.add_metric(["push_sender"], loop.push_queue)
        queues.add_metric(["email_outbox"], self.rows.email_outbox_pending)
        for status, n in sorted(self.rows.analysis_jobs.items()):
            queues.add_metric([f"analysis_{status}"], n)
        yield queues
        tables = GaugeMetricFamily(
            "emara_tables", "Tables in the database, by state.", labels=["state"]
        )
        for state, n in sorted(self.rows.tables.items()):
            tables.add_metric([state], n)
        yield tables
        threads = GaugeMetricFamily(
            "emara_worker_threads", "Worker threads for blocking work.", labels=["use"]
        )
        threads.add_metric(["busy"], loop.worker_threads_busy)
        threads.add_metric(["limit"], loop.worker_threads_total)
        yield threads
        if loop.pool is not None:
            pool = GaugeMetricFamily(
                "emara_db_pool_connections",
                "The database connection pool of this process.",
                labels=["use"],
            )
            pool.add_metric(["checked_out"], loop.pool.checked_out)
            pool.add_metric(["size"], loop.pool.size)
            pool.add_metric(["overflow"], loop.pool.overflow)
            yield pool


def text_of(scrape: Scrape) -> bytes:
    registry = CollectorRegistry(auto_describe=False)
    registry.register(scrape)
    return generate_latest(registry)
