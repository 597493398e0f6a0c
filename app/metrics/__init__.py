"""What an operator measures (docs/operations.md "Metrics"): ``/metrics`` in the Prometheus text
format, counted on the event loop as plain integers and read with the gauges at scrape time."""
