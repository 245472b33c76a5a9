"""All-or-nothing writes across files: stage, journal, commit; the next start finishes the job.

1. Every new content is staged (written and fsynced) to a temporary file beside its target.
2. The journal, the list of renames and deletions, is recorded in the user's own data folder
   (its path and digest, in a folder only this user can use), then written durably as one hidden
   file at the top of a writable root: ``.assista-journal-<pid>-<random>.json``.
3. The steps are carried out in order, then the journal and its record are removed.

A kill before 2 leaves only temporary files: nothing was applied, and the start-up sweep removes
them (their names carry the dead writer's pid). A kill after 2 leaves the journal: the next start
replays it (every step can be repeated), so all was applied. Either way, never half.

Why the journal lives in the addons root: it sits on the same filesystem as the files it names,
and it exists only for the moment of a commit. But a root can come from anyone (a cloned
repository, a model's edits), so a journal is replayed only when this user's record of it is
there and its bytes are the ones recorded: a journal that came with the tree is reported and left
alone, and a replayed one cannot be planted again (its record is gone). Each step is checked once
more right before it runs (``_journal_steps``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import stat
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from odoo_tools.files._journal_steps import Step, StepRefused, carry_out, root_of
from odoo_tools.storage import (
    JOURNAL_NAME,
    JOURNAL_PREFIX,
    LEGACY_TEMP_NAME,
    atomic_write_bytes,
    digest_bytes,
    fsync_dir,
    private_folder,
    stale_temp,
    writer_alive,
)
from odoo_tools.workspace import Workspace

__all__ = ["CommitFailed", "Recovery", "Step", "commit", "discard", "recover_interrupted_writes"]

_VERSION = 1
_RECORDS = "journals"  # in the user's data folder: which journals this user wrote
_MAX_JOURNAL_BYTES = 16 * 1024 * 1024


class CommitFailed(Exception):
    """A step failed part-way: ``done`` steps were carried out (the caller puts them back)."""

    def __init__(self, done: int, cause: OSError) -> None:
        super().__init__(str(cause))
        self.done = done
        self.cause = cause


def commit(ws: Workspace, journal_dir: Path, steps: Sequence[Step]) -> None:
    """Carry out ``steps`` so that a crash at any point ends with all of them or none."""
    name = f"{JOURNAL_PREFIX}{os.getpid()}-{secrets.token_hex(6)}.json"
    journal = journal_dir / name
    record_journal(ws, journal_dir, steps, name=name)
    done = 0
    try:
        for step in steps:
            carry_out(ws.writable_roots, step)
            done += 1
    except OSError as exc:
        discard(steps[done:])
        _forget(ws, journal)
        raise CommitFailed(done, exc) from exc
    _sync_folders(steps)
    _forget(ws, journal)


def record_journal(ws: Workspace, journal_dir: Path, steps: Sequence[Step], *, name: str) -> bytes:
    """Record, then write, the journal of ``steps`` (a journal never exists without its record);
    returns its bytes."""
    journal = journal_dir / name
    data = json.dumps(_encode(steps)).encode("utf-8")
    record = {"journal": str(journal), "digest": digest_bytes(data), "pid": os.getpid()}
    atomic_write_bytes(_record_path(ws, journal), json.dumps(record).encode("utf-8"), mode=0o600)
    atomic_write_bytes(journal, data)
    return data


def discard(steps: Iterable[Step]) -> None:
    """Remove the staged files of ``steps`` (a commit that will not happen)."""
    for step in steps:
        if step.temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(step.temp)


def _sync_folders(steps: Sequence[Step]) -> None:
    for folder in sorted({step.path.parent for step in steps}):
        fsync_dir(folder)


def _forget(ws: Workspace, journal: Path) -> None:
    """The journal, then its record (a record without its journal is harmless and swept)."""
    with contextlib.suppress(OSError):
        os.unlink(journal)
    fsync_dir(journal.parent)
    with contextlib.suppress(OSError):
        os.unlink(_record_path(ws, journal))


def _records(ws: Workspace) -> Path:
    return private_folder(ws.private_dir / _RECORDS)


def _record_path(ws: Workspace, journal: Path) -> Path:
    key = hashlib.blake2b(str(journal).encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()
    return _records(ws) / f"{key}.json"


def _encode(steps: Sequence[Step]) -> dict[str, object]:
    rows = [{"op": s.op, "path": str(s.path), "temp": str(s.temp) if s.temp else None} for s in steps]
    return {"version": _VERSION, "steps": rows}


# -- the next start ----------------------------------------------------------------------------


@dataclass
class Recovery:
    """What a start found: journals replayed or refused, temporary files removed."""

    replayed: list[str]
    refused: list[str]  # not ours (left alone), or a step that could not run safely
    temp_files_removed: int


def recover_interrupted_writes(ws: Workspace) -> Recovery:
    """Finish the commits a killed process of this user left, then remove its temporary files."""
    report = Recovery([], [], 0)
    for root in ws.writable_roots:
        for journal in _journals(root):
            _replay_or_refuse(ws, journal, report)
    for root in ws.writable_roots:
        report.temp_files_removed += _sweep_temps(root)
    _sweep_records(ws)
    return report


def _sweep_records(ws: Workspace) -> None:
    """Records whose journal never got written (a kill between the two) and whose writer is gone."""
    try:
        records = _records(ws)
        names = os.listdir(records)
    except OSError:
        return
    for name in names:
        with contextlib.suppress(OSError, ValueError, KeyError, TypeError, AttributeError):
            record = json.loads(_read_regular(records / name, 4096))
            if not writer_alive(int(record["pid"])) and not os.path.lexists(record["journal"]):
                os.unlink(records / name)


def _journals(root: Path) -> list[Path]:
    """The journals in ``root`` whose writer is gone (a live one is committing right now)."""
    try:
        names = sorted(os.listdir(root))
    except OSError:
        return []
    found = [(n, JOURNAL_NAME.match(n)) for n in names]
    return [root / n for n, m in found if m is not None and not writer_alive(int(m["pid"]))]


def _replay_or_refuse(ws: Workspace, journal: Path, report: Recovery) -> None:
    steps = _recorded_steps(ws, journal)
    if steps is None:
        report.refused.append(journal.name)  # not written by this user: left alone
        return
    try:
        for step in steps:
            carry_out(ws.writable_roots, step)
    except OSError:
        report.refused.append(journal.name)  # ours, but no longer safe to finish: stopped there
    else:
        report.replayed.append(journal.name)
    _sync_folders(steps)
    _forget(ws, journal)


def _recorded_steps(ws: Workspace, journal: Path) -> list[Step] | None:
    """The journal's steps when this user recorded exactly these bytes, else None."""
    try:
        data = _read_regular(journal, _MAX_JOURNAL_BYTES)
        record = json.loads(_read_regular(_record_path(ws, journal), 4096))
        if record.get("journal") != str(journal) or record.get("digest") != digest_bytes(data):
            return None
        raw = json.loads(data)
        rows = raw["steps"] if raw.get("version") == _VERSION else None
        steps = [_step(row) for row in rows or []]
        for step in steps:
            root_of(ws.writable_roots, step)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return steps or None


def _read_regular(path: Path, cap: int) -> bytes:
    """A regular file's bytes, never through a link, never more than ``cap``."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise StepRefused(f"{path} is not a regular file")
        data = handle.read(cap + 1)
    if len(data) > cap:
        raise StepRefused(f"{path} is too large")
    return data


def _step(row: dict[str, str | None]) -> Step:
    op, path, temp = row["op"], row["path"], row["temp"]
    if op not in ("replace", "delete") or not path or (op == "replace") != bool(temp):
        raise ValueError("bad step")
    return Step(op, Path(path), Path(temp) if temp else None)  # type: ignore[arg-type]


_NOISE = frozenset({".git", "node_modules", "__pycache__"})
LEGACY_TEMP_AGE = 3600.0  # temporary files named without a pid: removed once an hour old


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
    if not LEGACY_TEMP_NAME.match(name):
        return False
    try:
        return time.time() - os.lstat(path).st_mtime > LEGACY_TEMP_AGE
    except OSError:
        return False
