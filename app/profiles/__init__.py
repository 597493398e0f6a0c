"""Profiles and the sessions a person controls: create, recover (one-time codes), who am I,
sign out, sign out everywhere."""
