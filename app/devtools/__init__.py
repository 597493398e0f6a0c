"""Tools for developers: a real server stack on loopback for the tests and the benchmarks."""
