"""Checkpoints and undo for agent turns, kept in a private git object database.

Before the first write of a turn to a file, its bytes (or its absence) are stored as a blob in a
private bare repository under the user's data dir; at the end of the turn the new state is
recorded too. Undo restores the "before" state byte for byte, but only when every file is still
exactly as the turn left it: work someone did after the turn is never overwritten. The user's own
repository, branch, index and stash are never touched (``commit_to_user_repo`` is opt-in).
"""

from __future__ import annotations

import hashlib
import io
import os
import time
import uuid
from pathlib import Path

from git import Repo
from git.exc import InvalidGitRepositoryError, NoSuchPathError
from gitdb import IStream
from pydantic import BaseModel, Field

from odoo_tools.errors import EditConflict, NotFound
from odoo_tools.files import path_locks, unified_diff
from odoo_tools.storage import atomic_write_bytes, atomic_write_json, private_folder

MAX_TURNS = 500


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
        # Private: the store keeps copies of the files a turn edits (git objects are 0444), a
        # 0600 odoo.conf among them, and the data folder above may be open to other accounts.
        self.state_dir = private_folder(state_dir)
        git_dir = state_dir / "objects.git"
        self.repo = Repo(git_dir) if git_dir.exists() else Repo.init(git_dir, bare=True)
        # One small file per turn: a write in a long-lived project costs the same as in a new one.
        self.turns_dir = state_dir / "turns"
        self.turns_dir.mkdir(exist_ok=True)

    # -- recording ---------------------------------------------------------------------------

    def begin_turn(self, label: str = "", session_id: str = "") -> TurnRecord:
        turn = TurnRecord(id=uuid.uuid4().hex[:12], label=label, session_id=session_id, started=time.time())
        self._save(turn)
        self._prune()
        return turn

    def record_before_write(self, turn_id: str, path: Path) -> None:
        """Snapshot ``path`` unless this turn already did (the first state is the one to restore)."""
        turn = self._load_one(turn_id)
        key = str(path)
        if key in turn.files:
            return
        data = _read(path)
        turn.files[key] = FileState(
            path=key,
            before=None if data is None else self._store(data),
            mode=os.stat(path).st_mode & 0o7777 if data is not None else None,
        )
        self._save(turn)

    def end_turn(self, turn_id: str) -> TurnRecord:
        turn = self._load_one(turn_id)
        for state in turn.files.values():
            data = _read(Path(state.path))
            state.after = None if data is None else self._store(data)
        turn.ended = time.time()
        self._save(turn)
        return turn

    # -- reading back --------------------------------------------------------------------------

    def turns(self) -> list[TurnRecord]:
        """Every kept turn, oldest first."""
        return [self._read_turn(f) for f in self._turn_files()]

    def last_turn(self, *, include_undone: bool = False) -> TurnRecord | None:
        for turn_file in reversed(self._turn_files()):
            turn = self._read_turn(turn_file)
            if turn.ended and turn.changed and (include_undone or not turn.undone):
                return turn
        return None

    def diff(self, turn: TurnRecord, relative_to: list[Path] | None = None) -> str:
        chunks: list[str] = []
        for state in turn.changed:
            name = _display(Path(state.path), relative_to or [])
            before, after = self._blob(state.before), self._blob(state.after)
            if b"\0" in before or b"\0" in after:
                chunks.append(f"Binary file {name} changed\n")
                continue
            chunks.append(
                unified_diff(
                    name,
                    before.decode("utf-8", "replace"),
                    after.decode("utf-8", "replace"),
                    created=state.before is None,
                    deleted=state.after is None,
                )
            )
        return "".join(chunks)

    # -- undo ----------------------------------------------------------------------------------

    def undo(self, turn_id: str | None = None) -> TurnRecord:
        """Restore the files of a turn (default: the last one). Refuses on later changes."""
        turn = self._load_one(turn_id) if turn_id else self.last_turn()
        if turn is None:
            raise NotFound("There is no agent turn to undo.", "Nothing was changed by the agent yet.")
        if turn.undone:
            raise EditConflict(f"Turn {turn.id} was already undone.")
        with path_locks(*(Path(s.path) for s in turn.changed)):  # no write slips between check and restore
            conflicts = [s.path for s in turn.changed if _current_sha(Path(s.path)) != s.after]
            if conflicts:
                raise EditConflict(
                    "These files changed after the agent's turn: " + ", ".join(conflicts) + ".",
                    "Undo refuses to overwrite that work; restore them by hand (see `assista-odoo diff`).",
                )
            for state in turn.changed:
                self._restore(state)
        turn.undone = True
        self._save(turn)
        return turn

    def _restore(self, state: FileState) -> None:
        path = Path(state.path)
        if state.before is None:
            if not path.is_dir():  # a folder made there since is not ours to remove
                path.unlink(missing_ok=True)
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(path, self._blob(state.before), mode=state.mode)

    # -- storage -------------------------------------------------------------------------------

    def _store(self, data: bytes) -> str:
        stream = self.repo.odb.store(IStream(b"blob", len(data), io.BytesIO(data)))
        return str(stream.hexsha.decode())

    def _blob(self, sha: str | None) -> bytes:
        if sha is None:
            return b""
        data: bytes = self.repo.odb.stream(bytes.fromhex(sha)).read()
        return data

    def _turn_files(self) -> list[Path]:
        # Names start with the start time in nanoseconds: sorting them orders the turns.
        return sorted(self.turns_dir.glob("*.json"))

    def _read_turn(self, turn_file: Path) -> TurnRecord:
        return TurnRecord.model_validate_json(turn_file.read_text(encoding="utf-8"))

    def _turn_file(self, turn: TurnRecord) -> Path:
        return self.turns_dir / f"{int(turn.started * 1e9):020d}-{turn.id}.json"

    def _load_one(self, turn_id: str) -> TurnRecord:
        # Compared as text, never as a glob: `undo --turn '*'` must not pick some other turn.
        found = [f for f in self._turn_files() if f.name.endswith(f"-{turn_id}.json")]
        if not found:
            raise NotFound(f"No agent turn {turn_id!r}.", "List turns with `assista-odoo diff --list`.")
        return self._read_turn(found[0])

    def _save(self, turn: TurnRecord) -> None:
        # Durable: undo must survive a crash; the unique temporary name lets two processes save.
        atomic_write_json(self._turn_file(turn), turn, durable=True)

    def _prune(self) -> None:
        """Keep the newest MAX_TURNS turns; older ones can no longer be undone."""
        for old in self._turn_files()[:-MAX_TURNS]:
            old.unlink(missing_ok=True)


# Our own git commands in the user's repository never run what the repository configures: a
# .git/config with core.fsmonitor, a hook, or a signing program would otherwise run a command
# chosen by whoever wrote them (the agent's model included) at the end of a turn.
SAFE_GIT_OPTIONS = ("core.fsmonitor=false", "core.hooksPath=/dev/null", "commit.gpgSign=false")


class PlantedGitDir(InvalidGitRepositoryError):
    """A git directory found among the files instead of a checkout's ``.git``."""


def user_repo(path: Path) -> Repo:
    """The git repository around ``path``, its commands run with ``SAFE_GIT_OPTIONS``.

    Only a checkout's own repository (a ``.git`` folder, or one a ``.git`` file leads to in
    another ``.git``): any folder holding HEAD, objects/ and refs/ passes for a git directory, so
    a tree can carry one (a pull request can commit it) whose config runs commands that no
    ``-c`` option covers (core.fsmonitor with core.worktree, filters, hooks). Raises
    ``PlantedGitDir`` for such a folder unless ``GIT_DIR`` names it.
    """
    repo = Repo(path, search_parent_directories=True)
    if ".git" not in Path(repo.git_dir).parts and not os.environ.get("GIT_DIR"):
        raise PlantedGitDir(
            f"{repo.git_dir} is a git directory inside the files, not a checkout's .git: not used"
        )
    repo.git.set_persistent_git_options(c=list(SAFE_GIT_OPTIONS))
    return repo


def commit_to_user_repo(paths: list[Path], message: str) -> str | None:
    """Opt-in (--auto-commit): commit exactly ``paths`` on the user's current branch.

    ``git commit --only`` records just these paths; anything else the user staged stays staged.
    """
    if not paths:
        return None
    try:
        repo = user_repo(paths[0].parent)
    except (InvalidGitRepositoryError, NoSuchPathError):
        return None
    top = Path(repo.working_tree_dir or ".")
    rel = [str(p.relative_to(top)) for p in paths]
    new = [r for r, p in zip(rel, paths, strict=True) if p.exists() and not _tracked(repo, r)]
    if new:
        repo.git.add("--intent-to-add", "--", *new)
    known = [r for r, p in zip(rel, paths, strict=True) if p.exists() or _tracked(repo, r)]
    if not known:
        return None
    repo.git.commit("-m", message, "--only", "--", *known)
    return str(repo.head.commit.hexsha)


def _tracked(repo: Repo, rel: str) -> bool:
    return bool(repo.git.ls_files("--", rel).strip())


def _read(path: Path) -> bytes | None:
    """The file's bytes; None when there is no file there (absent, or a folder now)."""
    try:
        return path.read_bytes()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None


def _current_sha(path: Path) -> str | None:
    data = _read(path)
    return None if data is None else blob_sha(data)


def _display(path: Path, roots: list[Path]) -> str:
    for root in roots:
        if path.is_relative_to(root):
            return path.relative_to(root).as_posix()
    return str(path)
