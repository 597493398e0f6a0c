"""My games: every table a profile sits at, the ones waiting for it first; and a server-sent
event stream that says when that list changed."""
