"""The rules reference: the engine's component numbers, read-only, for the /rules page."""
