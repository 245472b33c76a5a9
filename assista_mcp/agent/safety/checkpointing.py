"""Checkpoints for agent turns: snapshot every file a write tool is about to touch.

``CheckpointHooks``: on the first write of a user turn it begins a checkpoint turn, records the
"before" bytes of each path the call writes or deletes as the effects registry names them (both
ends of a move, every file under a folder that is moved or deleted, every file of a patch) and
ends the turn when the loop emits its ``end`` event, whatever the outcome (final answer, step cap,
error, Ctrl-C). The snapshots live in a private store under ``Settings.home``; the user's
repository is only written with ``--auto-commit``.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from git import Repo
from git.exc import GitError, InvalidGitRepositoryError, NoSuchPathError

from assista_mcp.agent.events import StreamEvent
from assista_mcp.agent.loop.tool_calls import Denial, PendingCall
from assista_mcp.agent.safety import checkpoint_dirs
from assista_mcp.config.settings import Settings
from assista_mcp.safety.effects import PathEffects
from odoo_tools.checkpoints import CheckpointStore, FileState, TurnRecord, commit_to_user_repo, user_repo
from odoo_tools.errors import AssistaError, NotFound
from odoo_tools.workspace import Workspace

LABEL_WIDTH = 120
Emit = Callable[[StreamEvent], None]
CHECKPOINT_TOOL = "checkpoint"


def store_dir(settings: Settings, workspace: Workspace | None = None) -> Path:
    """``<home>/checkpoints/<sha1 of the sorted writable roots>[:16]``: one store per project."""
    roots = sorted(str(p) for p in (workspace or settings.workspace()).writable_roots)
    digest = hashlib.sha1("\n".join(roots).encode("utf-8")).hexdigest()[:16]
    return settings.home / "checkpoints" / digest


def open_store(settings: Settings, workspace: Workspace | None = None) -> CheckpointStore:
    return CheckpointStore(store_dir(settings, workspace))


class CheckpointHooks:
    """A built-in plugin (see ``plugins.py``): registered after the user's plugins and validation."""

    on_loop_thread = True  # the turn must be closed before the run ends, on the loop's thread

    def __init__(self, store: CheckpointStore, workspace: Workspace, *, auto_commit: bool = False) -> None:
        self.store = store
        self.workspace = workspace
        self.auto_commit = auto_commit
        self.emit: Emit = lambda event: None
        self.last: TurnRecord | None = None
        self.session_id = ""
        self.label = ""
        self.turn_id: str | None = None
        self.pending: PendingCall | None = None

    def session_start(self, session_id: str) -> None:
        self.session_id = session_id

    def session_end(self, session_id: str) -> None:
        self.finish_turn(announce=False)  # e.g. chat left while a turn was open

    def before_model_call(self, messages: list[dict[str, Any]]) -> None:
        users = [m for m in messages if m.get("role") == "user" and isinstance(m.get("content"), str)]
        if users and self.turn_id is None:
            self.label = " ".join(users[-1]["content"].split())[:LABEL_WIDTH]

    def before_tool_call(self, call: PendingCall) -> PendingCall | Denial:
        """The call as the plugins left it, kept for ``before_write``: nothing is read before the
        mode and the user allowed it (a denied call would still have its files copied, a FIFO
        among them freezing the agent)."""
        self.pending = call
        return call

    async def before_write(self, touched_paths: set[str]) -> None:
        """The allowed call is about to write: record its files as they are now."""
        call, self.pending = self.pending, None
        if call is not None:
            self._record(call)

    def _record(self, call: PendingCall) -> None:
        paths = call.paths
        files = list(dict.fromkeys(self._files_of(paths)))
        new_dirs = self._new_folders(files, paths.folders)
        if files or new_dirs:
            if self.turn_id is None:
                self.turn_id = self.store.begin_turn(self.label, self.session_id).id
            for path in files:
                self.store.record_before_write(self.turn_id, path)
            checkpoint_dirs.remember(self.store.state_dir, self.turn_id, new_dirs)

    def on_event(self, event: StreamEvent) -> None:
        if event.type == "end":  # a turn cut short (step cap, error, Ctrl-C) is closed quietly
            self.finish_turn(announce=False)

    def finish_turn(self, *, announce: bool = True) -> TurnRecord | None:
        """Record the files' new state; say so (and --auto-commit) when ``announce``."""
        if self.turn_id is None:
            return None
        turn_id, self.turn_id = self.turn_id, None
        try:
            turn = self.store.end_turn(turn_id)
        except (OSError, AssistaError) as exc:
            self._say(f"The checkpoint of this turn could not be completed: {exc}", error=True)
            return None
        self.last = turn
        if turn.changed and announce:
            commits = self._commit(turn) if self.auto_commit else []
            files = [self.workspace.relative(Path(s.path)) for s in turn.changed]
            self._say(
                f"checkpoint {turn.id}: {len(files)} file(s) changed; `assista-odoo undo` (or /undo) "
                "restores them, `assista-odoo diff` shows the change.",
                data={"turn_id": turn.id, "files": files, "commits": commits},
            )
        return turn

    def _say(self, text: str, *, error: bool = False, data: dict[str, Any] | None = None) -> None:
        if error:
            self.emit(StreamEvent(type="error", text=text))
            return
        self.emit(StreamEvent(type="tool_result", tool_name=CHECKPOINT_TOOL, text=text, data=data))

    # -- internals -------------------------------------------------------------------------------
    def _files_of(self, paths: PathEffects) -> Iterable[Path]:
        """Every file the call may change: under deleted folders, and a moved folder's new places."""
        for user_path in (*paths.deleted, *paths.written):
            resolved = self._resolve(user_path)
            yield from _files_under(resolved) if resolved is not None else ()
        for source, destination in paths.moved:
            old, new = self._resolve(source), self._resolve(destination)
            if old is not None and new is not None and old.is_dir() and not old.is_symlink():
                yield from (new / path.relative_to(old) for path in _files_under(old))

    def _new_folders(self, files: list[Path], folders: tuple[str, ...]) -> list[Path]:
        """Folders this call may create: for new files, and create_folder's own."""
        marks = list(files)
        for folder in folders:
            resolved = self._resolve(folder)
            if resolved is not None:
                marks.append(resolved / "x")  # so that the folder itself counts among the missing
        found: dict[Path, None] = {}
        for path in marks:
            root = self.workspace.root_of(path)
            for new in checkpoint_dirs.missing_folders(path, root.path) if root else []:
                found.setdefault(new)
        return list(found)

    def _resolve(self, user_path: str) -> Path | None:
        try:
            return self.workspace.resolve(user_path, purpose="write", must_exist=False).path
        except AssistaError:
            return None  # the tool refuses this path too, so it changes nothing

    def _commit(self, turn: TurnRecord) -> list[str]:
        message = (
            f"assista-odoo agent: {turn.label or 'agent turn'}\n\n"
            f"Made by the assista-odoo agent (session {turn.session_id}, checkpoint {turn.id}); "
            "undo with `assista-odoo undo`."
        )
        commits: list[str] = []
        for root in self.workspace.writable_roots:
            mine = [s for s in turn.changed if Path(s.path).is_relative_to(root)]
            why_not = _cannot_commit(root, mine) if mine else None
            if why_not:
                self._say(f"--auto-commit skipped for {root}: {why_not}", error=True)
            elif mine:
                sha = commit_to_user_repo([Path(s.path) for s in mine], message)
                commits += [sha] if sha else []
        return commits


def _files_under(path: Path) -> Iterable[Path]:
    """The path itself, or every file below a folder (links not followed)."""
    if not path.is_dir() or path.is_symlink():
        yield path
        return
    for folder, dirs, files in os.walk(path):
        dirs.sort()
        for name in sorted(files):
            yield Path(folder) / name


def _cannot_commit(root: Path, states: list[FileState]) -> str | None:
    """Why the user's repository should not get an automatic commit now (None: it may)."""
    try:
        repo = user_repo(root)
    except (InvalidGitRepositoryError, NoSuchPathError):
        return "not inside a git repository."
    try:
        if repo.head.is_detached:
            return "HEAD is detached."
        if not repo.head.is_valid():
            return None  # no commit yet: the agent's is the first
        if repo.index.diff("HEAD"):
            return "changes are already staged; they would end up in the agent's commit."
        dirty = [s.path for s in states if s.before != _head_blob(repo, Path(s.path))]
    except (GitError, ValueError) as exc:
        return f"git: {exc}"
    if dirty:
        return f"{', '.join(dirty)} had uncommitted changes of yours before the turn; commit them first."
    return None


def _head_blob(repo: Repo, path: Path) -> str | None:
    rel = path.relative_to(Path(repo.working_tree_dir or ".").resolve()).as_posix()
    try:
        return str(repo.head.commit.tree[rel].hexsha)
    except KeyError:
        return None


# -- undo / diff, shared by the CLI (`assista-odoo undo|diff`) and chat (`/undo`, `/diff`) --------


def undo_turn(store: CheckpointStore, workspace: Workspace, turn_id: str | None = None) -> str:
    """Restore a turn's files (default: the last one); raises EditConflict / NotFound."""
    turn = store.undo(turn_id)
    lines = [f"  {_verb(s.before, s.after)} {workspace.relative(Path(s.path))}" for s in turn.changed]
    folders = checkpoint_dirs.remove_empty(store.state_dir, turn.id)
    lines += [f"  removed the empty folder {workspace.relative(f)} (the turn created it)" for f in folders]
    head = f"Undid turn {turn.id} ({turn.label or 'no label'}): restored {len(turn.changed)} file(s)."
    return "\n".join([head, *lines])


def diff_turn(store: CheckpointStore, workspace: Workspace, turn_id: str | None = None) -> str:
    turn = _pick(store, turn_id)
    head = f"# turn {turn.id}{' (undone)' if turn.undone else ''}: {turn.label or 'no label'}\n"
    return head + store.diff(turn, relative_to=list(workspace.writable_roots))


def list_turns(store: CheckpointStore) -> str:
    rows = []
    for turn in reversed(store.turns()):
        if not turn.ended or not turn.changed:
            continue
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(turn.started))
        state = "undone" if turn.undone else "active"
        rows.append(f"{turn.id}  {when}  {state:<6}  {len(turn.changed):>3} file(s)  {turn.label[:60]}")
    return "\n".join(rows) if rows else "No agent turn has changed files yet."


def _pick(store: CheckpointStore, turn_id: str | None) -> TurnRecord:
    if turn_id:
        found = [t for t in store.turns() if t.id == turn_id]
        if found:
            return found[0]
        raise NotFound(f"No agent turn {turn_id!r}.", "List turns with `assista-odoo diff --list`.")
    turn = store.last_turn(include_undone=True)
    if turn is None:
        raise NotFound("No agent turn has changed files yet.", "Run the agent first (assista-odoo run).")
    return turn


def _verb(before: str | None, after: str | None) -> str:
    if before is None:
        return "removed (the turn created it)"
    if after is None:
        return "recreated (the turn deleted it)"
    return "restored"
