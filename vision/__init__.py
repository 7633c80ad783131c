"""Camera checks: pure functions from image arrays to frozen result dataclasses.

Usable without the UI, and from the command line: `python -m vision --help`.
"""
