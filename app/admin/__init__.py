"""The operator's command line: python -m app.admin --help."""
