"""E-mail, opt-in: a confirmed address per profile; "your turn" (one digest when several tables
wait), "time runs out in 1 hour" and "game over" in the profile's language, one-click
unsubscribe, and a sign-in link for a new device."""
