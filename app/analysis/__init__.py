"""Analysis after the game: the strong bot's estimate of every player's expected final score at
every position of a finished game's replay, computed by a background job (docs/analysis.md)."""
