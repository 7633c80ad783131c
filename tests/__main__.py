"""Run every test: `python3 -m tests [pytest arguments]`.

Sets itself up like main.py (virtual environment, dependencies with the test extras), installs
Debian's Chromium for the browser tests and the fonts of the unseen Plaza renders when they are
missing and this machine allows it, then runs pytest. Where Chromium cannot be had, the browser
tests are skipped with the reason.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from main import ROOT, ensure_environment

CHROMIUM = "/usr/bin/chromium"
# Fonts the reader was never trained on, for the independent Plaza renderer's tests
# (tests/vision/render_plaza_unseen.py); without them those tests are skipped.
UNSEEN_FONTS = ("fonts-urw-base35", "fonts-freefont-ttf", "fonts-texgyre",
                "fonts-crosextra-caladea", "fonts-crosextra-carlito", "fonts-noto-core")


def _installed(package: str) -> bool:
    status = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package],
                            capture_output=True, text=True)
    return status.stdout.endswith("install ok installed")


def ensure_debian_packages() -> str | None:
    """Install Chromium (browser tests) and the unseen fonts where missing and this machine
    allows it, in one apt-get run. Return None when Chromium is ready, else why the browser
    tests cannot run."""
    if shutil.which("apt-get") is None or os.geteuid() != 0:
        return None if os.path.exists(CHROMIUM) else (
            "Chromium is not installed and this user cannot install it (apt-get install chromium)")
    missing = [package for package in ("chromium", *UNSEEN_FONTS) if not _installed(package)]
    if missing:
        print(f"tests: installing Debian's {', '.join(missing)} ...", flush=True)
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.STDOUT}
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], env=env, **quiet)
        subprocess.run(["apt-get", "install", "-y", "-qq", *missing], env=env, **quiet)
    return None if os.path.exists(CHROMIUM) else "apt-get install chromium failed"


if __name__ == "__main__":
    ensure_environment(extras=("test",))
    missing_browser = ensure_debian_packages()
    if missing_browser:
        os.environ["TABLEMATE_NO_BROWSER"] = missing_browser
    os.chdir(ROOT)
    sys.exit(subprocess.call([sys.executable, "-m", "pytest", *sys.argv[1:]]))
