"""Two released wheels of one module as the task's patches and statement words.

A wheel is untrusted input: only regular members under ``odoo/addons/<module>/`` are written, each
checked to land inside the destination (no absolute path, no ``..``, no link)."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import zipfile
from pathlib import Path

CODE_SUFFIXES = (".py", ".xml", ".csv")
README_PARTS = ("readme/HISTORY.md", "readme/DESCRIPTION.md", "readme/USAGE.md", "readme/CONFIGURE.md")


def unpack_module(wheel: Path, module: str, dest: Path) -> None:
    """``odoo/addons/<module>/…`` of ``wheel`` into ``dest/<module>/``."""
    prefix = f"odoo/addons/{module}/"
    top = dest.resolve()
    with zipfile.ZipFile(wheel) as archive:
        for info in archive.infolist():
            if not info.filename.startswith(prefix) or info.is_dir():
                continue
            if stat.S_ISLNK(info.external_attr >> 16):
                raise ValueError(f"{wheel.name}: {info.filename} is a link")
            target = (dest / module / info.filename[len(prefix) :]).resolve()
            if os.path.commonpath([top, target]) != str(top):
                raise ValueError(f"{wheel.name}: {info.filename} leaves the module folder")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(archive.read(info))


def module_patches(root: Path, module: str, noise: tuple[str, ...]) -> tuple[str, str, list[str]]:
    """(code patch, test patch, code files) between ``root/before/<module>`` and ``root/after/<module>``,
    with paths as in an addons folder (``a/<module>/…``); the noise paths are left out."""
    done = subprocess.run(
        ["git", "diff", "--no-index", "--no-renames", "--no-color", f"before/{module}", f"after/{module}"],
        cwd=root,
        capture_output=True,
        text=True,
    )
    if done.returncode not in (0, 1):
        raise RuntimeError(done.stderr.strip())
    code, tests, files = [], [], []
    for chunk in re.split(r"(?m)^(?=diff --git )", done.stdout):
        if not chunk.startswith("diff --git "):
            continue
        chunk = re.sub(r"(?m)^(diff --git |--- |\+\+\+ )?(.*)$", _header, chunk)
        path = chunk.split("\n", 1)[0].split(" b/", 1)[-1]
        inner = path[len(module) + 1 :]
        if inner.startswith("tests/"):
            tests.append(chunk)
        elif not inner.startswith(noise):
            code.append(chunk)
            if inner.endswith(CODE_SUFFIXES):
                files.append(inner)
    return "".join(code), "".join(tests), files


def _header(match: re.Match[str]) -> str:
    if not match.group(1):
        return match.group(0)
    line = match.group(2).replace("a/before/", "a/").replace("b/after/", "b/")
    return match.group(1) + line.replace("a/after/", "a/").replace("b/before/", "b/")


def readme_words(root: Path, module: str, tests: list[str]) -> tuple[str, str]:
    """(subject, body) of the statement: what the newer release adds to its readme (history,
    description, usage, configuration), else the behaviours its new tests name, in words."""
    added: list[str] = []
    for part in README_PARTS:
        old, new = root / "before" / module / part, root / "after" / module / part
        before = set(old.read_text(encoding="utf-8").splitlines()) if old.is_file() else set()
        if new.is_file():
            lines = new.read_text(encoding="utf-8").splitlines()
            added += [
                line.strip("-* ").strip() for line in lines if line not in before and line.strip("-*# ")
            ]
    if added:
        return added[0], "\n".join(added[1:])
    said = sorted(
        {t.split(".")[-1].removeprefix("test_").lstrip("_0123456789").replace("_", " ") for t in tests}
    )
    return "make the module behave as follows: " + "; ".join(s for s in said if s), ""
