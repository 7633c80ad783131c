"""Run every test: `python3 -m tests [pytest arguments]`.

Sets itself up like main.py (virtual environment, dependencies with the test extras), installs
Debian's Chromium for the browser tests when it is missing and this machine allows it, then runs
pytest. Where Chromium cannot be had, the browser tests are skipped with the reason.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from main import ROOT, ensure_environment

CHROMIUM = "/usr/bin/chromium"


def ensure_chromium() -> str | None:
    """Return None when Chromium is ready, else why the browser tests cannot run."""
    if os.path.exists(CHROMIUM):
        return None
    if shutil.which("apt-get") is None or os.geteuid() != 0:
        return "Chromium is not installed and this user cannot install it (apt-get install chromium)"
    print("tests: installing Debian's chromium for the browser tests ...", flush=True)
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.STDOUT}
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], env=env, **quiet)
    installed = subprocess.run(["apt-get", "install", "-y", "-qq", "chromium"], env=env, **quiet)
    if installed.returncode != 0 or not os.path.exists(CHROMIUM):
        return "apt-get install chromium failed"
    return None


if __name__ == "__main__":
    ensure_environment(extras=("test",))
    missing_browser = ensure_chromium()
    if missing_browser:
        os.environ["TABLEMATE_NO_BROWSER"] = missing_browser
    os.chdir(ROOT)
    sys.exit(subprocess.call([sys.executable, "-m", "pytest", *sys.argv[1:]]))
