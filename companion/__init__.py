"""Tablemate's app: pure game logic in `core` and `games`, the Flet screens in `ui`."""
