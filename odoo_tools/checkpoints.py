"""Checkpoints and undo for agent turns, kept in a private git object database.

Before the first write of a turn to a file, its bytes (or its absence) are stored as a blob in a
private bare repository under the user's data dir; at the end of the turn the new state is
recorded too. Undo restores the "before" state byte for byte, but only when every file is still
exactly as the turn left it: work someone did after the turn is never overwritten. The user's own
repository, branch, index and stash are never touched (``commit_to_user_repo`` is opt-in).
"""

from __future__ import annotations

import difflib
import hashlib
import io
import json
import os
import time
import uuid
from pathlib import Path

from git import Repo
from git.exc import InvalidGitRepositoryError, NoSuchPathError
from gitdb import IStream
from pydantic import BaseModel, Field

from odoo_tools.errors import EditConflict, NotFound


class FileState(BaseModel):
    path: str
    before: str | None = Field(description="blob sha of the content before the turn; None: absent")
    after: str | None = None
    mode: int | None = None


class TurnRecord(BaseModel):
    id: str
    label: str = ""
    session_id: str = ""
    started: float
    ended: float | None = None
    undone: bool = False
    files: dict[str, FileState] = Field(default_factory=dict)

    @property
    def changed(self) -> list[FileState]:
        return [f for f in self.files.values() if f.before != f.after]


def blob_sha(data: bytes) -> str:
    """The git blob id of ``data`` (what ``git hash-object`` prints)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


class CheckpointStore:
    def __init__(self, state_dir: Path) -> None:
        self.state_dir = state_dir
        self.state_dir.mkdir(parents=True, exist_ok=True)
        git_dir = state_dir / "objects.git"
        self.repo = Repo(git_dir) if git_dir.exists() else Repo.init(git_dir, bare=True)
        self.journal = state_dir / "turns.json"

    # -- recording ---------------------------------------------------------------------------

    def begin_turn(self, label: str = "", session_id: str = "") -> TurnRecord:
        turn = TurnRecord(id=uuid.uuid4().hex[:12], label=label, session_id=session_id, started=time.time())
        self._save([*self._load(), turn])
        return turn

    def record_before_write(self, turn_id: str, path: Path) -> None:
        """Snapshot ``path`` unless this turn already did (the first state is the one to restore)."""
        turns = self._load()
        turn = _find(turns, turn_id)
        key = str(path)
        if key in turn.files:
            return
        data = _read(path)
        turn.files[key] = FileState(
            path=key,
            before=None if data is None else self._store(data),
            mode=os.stat(path).st_mode & 0o7777 if data is not None else None,
        )
        self._save(turns)

    def end_turn(self, turn_id: str) -> TurnRecord:
        turns = self._load()
        turn = _find(turns, turn_id)
        for state in turn.files.values():
            data = _read(Path(state.path))
            state.after = None if data is None else self._store(data)
        turn.ended = time.time()
        self._save(turns)
        return turn

    # -- reading back --------------------------------------------------------------------------

    def turns(self) -> list[TurnRecord]:
        return self._load()

    def last_turn(self, *, include_undone: bool = False) -> TurnRecord | None:
        candidates = [t for t in self._load() if t.ended and t.changed and (include_undone or not t.undone)]
        return candidates[-1] if candidates else None

    def diff(self, turn: TurnRecord, relative_to: list[Path] | None = None) -> str:
        chunks: list[str] = []
        for state in turn.changed:
            name = _display(Path(state.path), relative_to or [])
            before, after = self._blob(state.before), self._blob(state.after)
            if b"\0" in before or b"\0" in after:
                chunks.append(f"Binary file {name} changed\n")
                continue
            chunks.extend(
                difflib.unified_diff(
                    before.decode("utf-8", "replace").splitlines(keepends=True),
                    after.decode("utf-8", "replace").splitlines(keepends=True),
                    fromfile=f"a/{name}" if state.before else "/dev/null",
                    tofile=f"b/{name}" if state.after else "/dev/null",
                )
            )
        return "".join(chunks)

    # -- undo ----------------------------------------------------------------------------------

    def undo(self, turn_id: str | None = None) -> TurnRecord:
        """Restore the files of a turn (default: the last one). Refuses on later changes."""
        turns = self._load()
        turn = _find(turns, turn_id) if turn_id else self.last_turn()
        if turn is None:
            raise NotFound("There is no agent turn to undo.", "Nothing was changed by the agent yet.")
        turn = _find(turns, turn.id)
        if turn.undone:
            raise EditConflict(f"Turn {turn.id} was already undone.")
        conflicts = [s.path for s in turn.changed if _current_sha(Path(s.path)) != s.after]
        if conflicts:
            raise EditConflict(
                "These files changed after the agent's turn: " + ", ".join(conflicts) + ".",
                "Undo refuses to overwrite that work; restore them by hand (see `assista-odoo diff`).",
            )
        for state in turn.changed:
            self._restore(state)
        turn.undone = True
        self._save(turns)
        return turn

    def _restore(self, state: FileState) -> None:
        path = Path(state.path)
        if state.before is None:
            path.unlink(missing_ok=True)
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.assista-undo")
        tmp.write_bytes(self._blob(state.before))
        if state.mode is not None:
            os.chmod(tmp, state.mode)
        os.replace(tmp, path)

    # -- storage -------------------------------------------------------------------------------

    def _store(self, data: bytes) -> str:
        stream = self.repo.odb.store(IStream(b"blob", len(data), io.BytesIO(data)))
        return str(stream.hexsha.decode())

    def _blob(self, sha: str | None) -> bytes:
        if sha is None:
            return b""
        data: bytes = self.repo.odb.stream(bytes.fromhex(sha)).read()
        return data

    def _load(self) -> list[TurnRecord]:
        if not self.journal.exists():
            return []
        raw = json.loads(self.journal.read_text(encoding="utf-8"))
        return [TurnRecord.model_validate(item) for item in raw]

    def _save(self, turns: list[TurnRecord]) -> None:
        tmp = self.journal.with_suffix(".tmp")
        tmp.write_text(json.dumps([t.model_dump() for t in turns], indent=1), encoding="utf-8")
        os.replace(tmp, self.journal)


def commit_to_user_repo(paths: list[Path], message: str) -> str | None:
    """Opt-in (--auto-commit): commit exactly ``paths`` on the user's current branch."""
    if not paths:
        return None
    try:
        repo = Repo(paths[0].parent, search_parent_directories=True)
    except (InvalidGitRepositoryError, NoSuchPathError):
        return None
    top = Path(repo.working_tree_dir or ".")
    present = [str(p.relative_to(top)) for p in paths if p.exists()]
    gone = [str(p.relative_to(top)) for p in paths if not p.exists()]
    if present:
        repo.index.add(present)
    if gone:
        repo.index.remove(gone, ignore_unmatch=True)
    commit = repo.index.commit(message)
    return str(commit.hexsha)


def _find(turns: list[TurnRecord], turn_id: str) -> TurnRecord:
    for turn in turns:
        if turn.id == turn_id:
            return turn
    raise NotFound(f"No agent turn {turn_id!r}.", "List turns with `assista-odoo diff --list`.")


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def _current_sha(path: Path) -> str | None:
    data = _read(path)
    return None if data is None else blob_sha(data)


def _display(path: Path, roots: list[Path]) -> str:
    for root in roots:
        if path.is_relative_to(root):
            return path.relative_to(root).as_posix()
    return str(path)
