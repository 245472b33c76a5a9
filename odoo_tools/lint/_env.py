"""How linters are started: only the environment Python needs (never the project's secrets),
the interpreter with -P. Standard library only: the early linter processes (``_spares``) use it
before the rest of the package is imported."""

from __future__ import annotations

import os
import sys

# Linters need none of the project's secrets: the child gets only what Python needs to run.
_ENV_KEEP = (
    "PATH",
    "HOME",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "TMPDIR",
    "PYTHONPATH",
    "VIRTUAL_ENV",
    "SYSTEMROOT",
)
LINTER_TIMEOUT_SECONDS = 900.0
# Address space one linter process may map: pylint on a large batch stays under 1.5 GiB; ruff fed a
# 512 MiB file reached 3.1 GiB (such files no longer reach it: ``_inputs``).
LINTER_MEMORY_BYTES = 4 << 30
# How linters are started: from a private working folder (``_safe_config.private_dir``) and, where
# Python has it (3.11+), with -P, so nothing of the project is importable from the current folder.
PYTHON: tuple[str, ...] = (sys.executable, "-P") if sys.version_info >= (3, 11) else (sys.executable,)


def linter_env() -> dict[str, str]:
    env = {key: os.environ[key] for key in _ENV_KEEP if key in os.environ}
    env["PYTHONIOENCODING"] = "utf-8"
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # never drop __pycache__ into the user's addons
    return env
