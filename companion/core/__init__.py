"""The match model every game shares: pure Python, no Flet, no I/O."""
