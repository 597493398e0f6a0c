"""Pace: how fast a table plays (live with a chess clock, or turn-based with move deadlines),
the clock accounting, the stored deadlines, and the sweeper that hands a timed-out seat to a bot."""
