"""Players protect themselves at a table: report a chat message or a name to the operator, block
the person behind a seat or a message (app/blocks keeps the block), and the operator's queue of
reports (python -m app.admin reports)."""
