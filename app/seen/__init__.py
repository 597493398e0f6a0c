"""Since you looked: what each seat's person last saw, and what changed after it."""
