"""All-or-nothing writes across files: stage, journal, commit; the next start finishes the job.

1. Every new content is staged (written and fsynced) to a temporary file beside its target.
2. The journal, the list of renames and deletions, is written durably as one hidden file at the
   top of a writable root: ``.assista-journal-<pid>-<random>.json``.
3. The steps are carried out in order, then the journal is removed.

A kill before 2 leaves only temporary files: nothing was applied, and the start-up sweep removes
them (their names carry the dead writer's pid). A kill after 2 leaves the journal: the next start
replays it (every step can be repeated), so all was applied. Either way, never half.

Why the journal lives in the addons root and not in the cache dir: recovery then needs only the
roots, which every entry point has (the server, the agent, the CI gate), whatever cache dir each
was given; and it sits on the same filesystem as the files it names. It exists only for the
moment of a commit. Because a root can come from anyone (a cloned repository), a journal is
replayed only if every path it names is inside a writable root and every staged file is one of
our temporary files beside its target.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from odoo_tools.storage import atomic_write_json, fsync_dir, stale_temp, temp_prefix, writer_alive
from odoo_tools.workspace import Workspace

JOURNAL_PREFIX = ".assista-journal-"
_VERSION = 1


@dataclass(frozen=True)
class Step:
    op: Literal["replace", "delete"]
    path: Path  # the file replaced or deleted
    temp: Path | None = None  # replace: the staged content


class CommitFailed(Exception):
    """A step failed part-way: ``done`` steps were carried out (the caller puts them back)."""

    def __init__(self, done: int, cause: OSError) -> None:
        super().__init__(str(cause))
        self.done = done
        self.cause = cause


def commit(journal_dir: Path, steps: Sequence[Step]) -> None:
    """Carry out ``steps`` so that a crash at any point ends with all of them or none."""
    journal = journal_dir / f"{JOURNAL_PREFIX}{os.getpid()}-{secrets.token_hex(6)}.json"
    atomic_write_json(journal, _encode(steps), durable=True)
    done = 0
    try:
        for step in steps:
            _carry_out(step)
            done += 1
    except OSError as exc:
        discard(steps[done:])
        _forget(journal)
        raise CommitFailed(done, exc) from exc
    _sync_folders(steps)
    _forget(journal)


def discard(steps: Iterable[Step]) -> None:
    """Remove the staged files of ``steps`` (a commit that will not happen)."""
    for step in steps:
        if step.temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(step.temp)


def _carry_out(step: Step) -> None:
    if step.op == "delete":
        with contextlib.suppress(FileNotFoundError):  # replayed: already gone
            os.unlink(step.path)
    elif step.temp is not None and os.path.lexists(step.temp):  # absent when replayed: done
        os.replace(step.temp, step.path)


def _sync_folders(steps: Sequence[Step]) -> None:
    for folder in sorted({step.path.parent for step in steps}):
        fsync_dir(folder)


def _forget(journal: Path) -> None:
    with contextlib.suppress(OSError):
        os.unlink(journal)
    fsync_dir(journal.parent)


def _encode(steps: Sequence[Step]) -> dict[str, object]:
    rows = [{"op": s.op, "path": str(s.path), "temp": str(s.temp) if s.temp else None} for s in steps]
    return {"version": _VERSION, "steps": rows}


# -- the next start ----------------------------------------------------------------------------


@dataclass
class Recovery:
    """What a start found: journals replayed or refused, temporary files removed."""

    replayed: list[str]
    refused: list[str]
    temp_files_removed: int


def recover_interrupted_writes(ws: Workspace) -> Recovery:
    """Finish the commits a killed process left, then remove its temporary files."""
    report = Recovery([], [], 0)
    for root in ws.writable_roots:
        for journal in _journals(root):
            _replay_or_refuse(ws, journal, report)
    for root in ws.writable_roots:
        report.temp_files_removed += _sweep_temps(root)
    return report


_JOURNAL_NAME = re.compile(r"^\.assista-journal-(?P<pid>\d+)-[0-9a-f]{12}\.json$")


def _journals(root: Path) -> list[Path]:
    """The journals in ``root`` whose writer is gone (a live one is committing right now)."""
    try:
        names = sorted(os.listdir(root))
    except OSError:
        return []
    found = [(n, _JOURNAL_NAME.match(n)) for n in names]
    return [root / n for n, m in found if m is not None and not writer_alive(int(m["pid"]))]


def _replay_or_refuse(ws: Workspace, journal: Path, report: Recovery) -> None:
    steps = _decode(ws, journal)
    if steps is None:
        report.refused.append(journal.name)
        with contextlib.suppress(OSError):
            journal.rename(journal.with_name(journal.name + ".refused"))
        return
    for step in steps:
        with contextlib.suppress(OSError):
            _carry_out(step)
    _sync_folders(steps)
    _forget(journal)
    report.replayed.append(journal.name)


def _decode(ws: Workspace, journal: Path) -> list[Step] | None:
    """The journal's steps, or None when it is damaged or names anything it may not touch."""
    try:
        raw = json.loads(journal.read_text(encoding="utf-8"))
        rows = raw["steps"] if raw.get("version") == _VERSION else None
        steps = [_step(row) for row in rows or []]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    if not rows or not all(_allowed(ws, step) for step in steps):
        return None
    return steps


def _step(row: dict[str, str | None]) -> Step:
    op, path, temp = row["op"], row["path"], row["temp"]
    if op not in ("replace", "delete") or not path or (op == "replace") != bool(temp):
        raise ValueError("bad step")
    return Step(op, Path(path), Path(temp) if temp else None)  # type: ignore[arg-type]


def _allowed(ws: Workspace, step: Step) -> bool:
    roots = ws.writable_roots
    folder = Path(os.path.realpath(step.path.parent))
    if not step.path.is_absolute() or not any(folder.is_relative_to(r) for r in roots):
        return False
    if step.temp is None:
        return True
    return step.temp.parent == step.path.parent and step.temp.name.startswith(temp_prefix(step.path))


_NOISE = frozenset({".git", "node_modules", "__pycache__"})
# Earlier versions named temporary files without the writer's pid: removed once an hour old.
_LEGACY_TEMP = re.compile(r"^\..+\.[0-9a-f]{12}\.tmp$")
LEGACY_TEMP_AGE = 3600.0


def _sweep_temps(root: Path) -> int:
    """Remove temporary files of writers that are gone (live writers' files are left alone)."""
    removed = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in _NOISE]
        for name in files:
            if name.endswith(".tmp") and _abandoned(os.path.join(folder, name), name):
                with contextlib.suppress(OSError):
                    os.unlink(os.path.join(folder, name))
                    removed += 1
    return removed


def _abandoned(path: str, name: str) -> bool:
    if stale_temp(name):
        return True
    if not _LEGACY_TEMP.match(name):
        return False
    try:
        return time.time() - os.lstat(path).st_mtime > LEGACY_TEMP_AGE
    except OSError:
        return False
