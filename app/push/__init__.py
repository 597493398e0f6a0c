"""Web Push: VAPID keys, browser subscriptions per profile, and the messages a player gets when
the tab is closed (your turn, your time ran out, the game is over)."""
