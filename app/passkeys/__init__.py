"""Passkeys (WebAuthn): a signed-in profile adds one, and signs in with it on any device."""
