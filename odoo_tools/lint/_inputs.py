"""Which files the linters may be given: regular files, links that stay inside their addons
root, source files under the size cap the index uses (``MAX_SOURCE_BYTES``).

Linters walk a module's folder themselves and open what they find: a named pipe called ``x.py``
hung ``check_module`` until the linter timeout, and a 512 MiB sparse ``.py`` (a few KB in git)
drove ruff to 3.1 GiB, and a ``models/x.py`` linking out of the repository had ruff read and
name a file elsewhere on the machine (the index and the file tools refuse such links). Each such
file is an error finding (it was not checked, so the check may not pass) and is left out of
every linter's walk (``linter_skips``: pylint's ``--ignore-paths``, ruff's and flake8's
``--extend-exclude``), so the rest of the module is still linted: a pipe must not hide a syntax
error in another file. The module is set aside only for a linter that cannot leave the file out
(the OCA hooks read every data file the manifest names) or when its path cannot be written as
an exclusion pattern (a comma, a backslash or a caret in it).
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Sequence
from pathlib import Path

from odoo_tools.addons import Addon
from odoo_tools.findings import Finding
from odoo_tools.storage import MAX_SOURCE_BYTES

FILE_TOO_LARGE = "file-too-large"
NOT_A_REGULAR_FILE = "not-a-regular-file"
LINK_OUTSIDE_ROOT = "link-outside-root"
LEADS_OUT = "is a link leading out of its addons root"
BROKEN_LINK = (NOT_A_REGULAR_FILE, "is a broken link (it leads to nothing)")
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
                if path.is_symlink():  # a linter still tries it: ruff named its target (/nonexistent)
                    code, what = (LINK_OUTSIDE_ROOT, LEADS_OUT) if _leads_out(path, root) else BROKEN_LINK
                    found.append(_finding(addon, path, code, what))
                continue
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
        message=f"{addon.rel(path)} {what}: it was left out of the linters, so it was not checked.",
        hint="Remove the file or replace it with a regular file of a sensible size, then check again.",
    )


# What the OCA hooks read of a module besides its Python: they cannot be told to leave one out.
OCA_READS = frozenset({".xml", ".csv", ".po", ".pot"})
_UNPATTERNABLE = re.compile(r"[,\\^\n\r]")  # no exclusion pattern of ours can name such a path


def linter_skips(addons: Sequence[Addon]) -> list[Path]:
    """The files (and linked folders) of ``addons`` that no linter may open, absolute."""
    return [addon.root / f.path for addon in addons for f in unfit_inputs(addon)]


def set_aside_for(check: str, addon: Addon, found: Sequence[Finding]) -> bool:
    """Whether ``check`` must skip the whole module: it cannot leave one of ``found``'s files out."""
    paths = [addon.root / f.path for f in found]
    if any(_UNPATTERNABLE.search(str(p)) for p in paths):
        return True
    return check == "oca-hooks" and any(
        p.suffix in OCA_READS
        or p.name.startswith("__manifest__")
        or (f.code == LINK_OUTSIDE_ROOT and p.is_dir())
        for p, f in zip(paths, found, strict=True)
    )


def ignore_paths_option(skips: Sequence[Path]) -> list[str]:
    """pylint's ``--ignore-paths`` for ``skips``: a regex per path, each character outside
    ``[A-Za-z0-9/_-]`` in a class of its own (pylint reads backslashes as Windows separators)."""
    if not skips:
        return []
    patterns = ["^" + "".join(_literal(c) for c in str(p)) + "(/.*)?$" for p in skips]
    return ["--ignore-paths=" + ",".join(patterns)]


def exclude_option(skips: Sequence[Path]) -> list[str]:
    """ruff's and flake8's ``--extend-exclude`` for ``skips``: globs naming exactly those paths."""
    if not skips:
        return []
    return ["--extend-exclude=" + ",".join("".join(_literal(c) for c in str(p)) for p in skips)]


def _literal(char: str) -> str:
    return char if char.isalnum() or char in "/_-" else f"[{char}]"
