"""Start Tablemate: `python3 main.py [--web] [--host H] [--port P] [--data-dir DIR]`.

The first run sets itself up: it makes a virtual environment in `.venv` beside this file,
installs the dependencies listed in pyproject.toml, and restarts itself inside it.
This module's top level uses the standard library only, so that it can run before that.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
VENV_PYTHON = VENV / "bin" / "python"
DEFAULT_PORT = 8550


def _requirements(extras: tuple[str, ...]) -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = list(project["dependencies"])
    for extra in extras:
        wanted += project["optional-dependencies"][extra]
    return wanted


def ensure_environment(extras: tuple[str, ...] = ()) -> None:
    """Re-run this process inside `.venv`, creating it and installing what is missing first.

    A stamp file lists the requirements already installed, so an unchanged set costs nothing.
    """
    requirements = _requirements(extras)
    stamp = VENV / ".tablemate-installed.json"
    if not VENV_PYTHON.exists():
        print("Tablemate: first run, creating a virtual environment in .venv ...", flush=True)
        venv.create(VENV, with_pip=True)
    installed = set(json.loads(stamp.read_text())) if stamp.exists() else set()
    if not set(requirements) <= installed:
        print("Tablemate: installing dependencies (once) ...", flush=True)
        subprocess.run(
            [str(VENV_PYTHON), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
             *requirements],
            check=True,
        )
        stamp.write_text(json.dumps(sorted(installed | set(requirements))))
    if Path(sys.prefix).resolve() != VENV.resolve():
        os.execv(str(VENV_PYTHON), [str(VENV_PYTHON), *sys.orig_argv[1:]])


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="main.py", description="Tablemate, the game-table companion.")
    parser.add_argument("--web", action="store_true",
                        help="serve the web app instead of opening a desktop window")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to serve on (default 127.0.0.1; 0.0.0.0 shares on the network)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"web port (default {DEFAULT_PORT})")
    parser.add_argument("--data-dir", type=Path, default=None,
                        help="where games are kept (default: the platform's user data folder)")
    return parser.parse_args(argv)


if __name__ == "__main__":
    arguments = parse_args()  # before the set-up, so that --help and bad flags answer at once
    ensure_environment()
    from companion.ui.launcher import launch

    launch(web=arguments.web, host=arguments.host, port=arguments.port, data_dir=arguments.data_dir)
