"""The Flet screens: a thin layer over the game logic, storage and vision."""
