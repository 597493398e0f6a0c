"""The guided first game: a real table against two easy bots, with hints through the whole game."""
