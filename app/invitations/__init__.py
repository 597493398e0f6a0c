"""Play again with the same group: a rematch seats the same people once each accepts, and a host
invites the people they play with to a new table; the invitation waits in the invitee's My games."""
