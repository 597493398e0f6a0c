"""The web client's server side: its files and page routes, and the security headers."""
