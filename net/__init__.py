"""The protocol layer: wire encoding, identities, fair randomness, sessions and peers."""
