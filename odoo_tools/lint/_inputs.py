"""Which modules the linters may be given: only those whose files are all regular, whose links
stay inside their addons root, and whose source files are under the size cap the index uses
(``MAX_SOURCE_BYTES``).

Linters walk a module's folder themselves and open what they find: a named pipe called ``x.py``
hung ``check_module`` until the linter timeout, and a 512 MiB sparse ``.py`` (a few KB in git)
drove ruff to 3.1 GiB, and a ``models/x.py`` linking out of the repository had ruff read and
name a file elsewhere on the machine (the index and the file tools refuse such links). A module
holding such a file is not given to any linter; each such file is an error finding instead (the
module was not checked, so the check may not pass).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from odoo_tools.addons import Addon
from odoo_tools.findings import Finding
from odoo_tools.storage import MAX_SOURCE_BYTES

FILE_TOO_LARGE = "file-too-large"
NOT_A_REGULAR_FILE = "not-a-regular-file"
LINK_OUTSIDE_ROOT = "link-outside-root"
LEADS_OUT = "is a link leading out of its addons root"
SOURCE = "lint"
# What pylint, flake8, ruff and the OCA hooks open (Python, data, translations, web and docs files).
LINTED_SUFFIXES = frozenset({".py", ".pyi", ".xml", ".csv", ".po", ".pot", ".js", ".rst", ".md", ".html"})


def unfit_inputs(addon: Addon) -> list[Finding]:
    """One finding per file of ``addon`` no linter may be given (none: lint it as usual)."""
    found: list[Finding] = []
    root = os.path.realpath(addon.path.parent)
    for folder, folders, names in os.walk(addon.path):  # like the linters: never into a linked folder
        for name in sorted(folders):
            path = Path(folder, name)
            if _leads_out(path, root):
                found.append(_finding(addon, path, LINK_OUTSIDE_ROOT, LEADS_OUT))
        for name in sorted(names):
            path = Path(folder, name)
            try:
                info = path.stat()  # a link is judged by what it leads to; stat never opens it
            except OSError:
                continue  # a dangling link: nothing for a linter to open
            if _leads_out(path, root):
                found.append(_finding(addon, path, LINK_OUTSIDE_ROOT, LEADS_OUT))
            elif not stat.S_ISREG(info.st_mode):
                found.append(
                    _finding(
                        addon, path, NOT_A_REGULAR_FILE, "is not a regular file (a pipe, socket or device)"
                    )
                )
            elif path.suffix in LINTED_SUFFIXES and info.st_size > MAX_SOURCE_BYTES:
                size = f"{info.st_size} bytes, over the {MAX_SOURCE_BYTES}-byte cap for a source file"
                found.append(_finding(addon, path, FILE_TOO_LARGE, f"is too large to lint ({size})"))
    return found


def _leads_out(path: Path, root: str) -> bool:
    """``path`` is a link to something outside ``root`` (a folder or a file)."""
    return path.is_symlink() and os.path.commonpath([os.path.realpath(path), root]) != root


def _finding(addon: Addon, path: Path, code: str, what: str) -> Finding:
    return Finding(
        source=SOURCE,
        code=code,
        severity="error",
        module=addon.name,
        path=addon.rel(path),
        message=f"{addon.rel(path)} {what}: no linter was run on this module, so it was not checked.",
        hint="Remove the file or replace it with a regular file of a sensible size, then check again.",
    )
