"""Child process of the crash-mid-backup test: opens a data folder (which takes a backup) and
kills itself with SIGKILL right after the backup has copied COPIES pictures.

`python -m tests.storage.backup_kill_child FOLDER COPIES`
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
from pathlib import Path
from unittest.mock import patch

from storage import open_library
from storage.pictures import PICTURE_SUFFIX
from tests.storage.helpers import games


def main(folder: str, copies: str) -> None:
    copy = shutil.copy2
    copied = 0

    def copy_then_crash(source: Path, target: Path) -> None:
        nonlocal copied
        copy(source, target)
        copied += str(target).endswith(PICTURE_SUFFIX)
        if copied == int(copies):
            os.kill(os.getpid(), signal.SIGKILL)

    with patch("storage.backups.shutil.copy2", copy_then_crash):
        open_library(Path(folder), games)


if __name__ == "__main__":
    main(*sys.argv[1:])
