"""`python -m vision plaza|hand|fit|count PHOTO [PHOTO ...] [--json]`."""

from __future__ import annotations

import argparse
import sys

from vision import cards_cli, jigsaw_cli


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision",
                                     description="Check a table from camera photos.")
    commands = parser.add_subparsers(dest="command", required=True)
    cards_cli.add_commands(commands)
    jigsaw_cli.add_commands(commands)
    arguments = parser.parse_args(argv)
    return arguments.run(arguments)


if __name__ == "__main__":
    sys.exit(main())
