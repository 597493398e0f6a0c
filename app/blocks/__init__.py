"""Blocking a person: they cannot invite you or find you among the people they play with, their
chat is hidden from you at every table, and a new table of theirs cannot seat you by invitation.
The checks other features make (``checks``) and the block list a person keeps (``service``)."""
