"""The strong bot's fitted table value (`tracks.json`, written by `bench/fit_tracks.py`)."""
