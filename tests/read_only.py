"""A folder nobody may create files in, for tests of refused writes."""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[Path]:
    """``folder`` made read-only: by its mode for a normal user, by the immutable attribute for
    root (whom modes do not stop); restored afterwards."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            yield folder
        finally:
            folder.chmod(0o755)
        return
    subprocess.run(["chattr", "+i", str(folder)], check=True)
    try:
        yield folder
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)
