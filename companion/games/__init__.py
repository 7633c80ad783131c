"""The rules of each game, as pure logic on the shared match model (companion.core)."""
