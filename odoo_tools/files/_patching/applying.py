"""apply_patch: validate every hunk of every file first, then write them all (or nothing).

Plans are computed in memory while holding the locks of every path the patch touches; only
then are files written: every new content is staged beside its target, then one journaled
commit renames them in place (``_journal``), so even a kill -9 leaves all files changed or none.
If a step fails part-way, the files already changed get their old bytes back.
"""

from __future__ import annotations

import contextlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from odoo_tools.errors import EditConflict, InvalidInput, NotFound
from odoo_tools.files._journal import CommitFailed, Step, commit, discard
from odoo_tools.files._locks import path_locks
from odoo_tools.files._models import ApplyPatchResult, PatchedFile
from odoo_tools.files._patching.hunks import apply_hunks
from odoo_tools.files._patching.parser import FilePatch, parse_patch
from odoo_tools.files._patching.targets import Action, action_of, candidates
from odoo_tools.files._textio import TextFile, decode_text, read_regular_file
from odoo_tools.files._writing import make_parents
from odoo_tools.storage import atomic_write_bytes, stage_bytes
from odoo_tools.workspace import Resolved, Workspace


@dataclass
class _Plan:
    patch: FilePatch
    action: Action
    source: Resolved | None  # the existing file (modify, delete, rename)
    target: Resolved | None  # where the new content goes (modify, create, rename)
    new_text: str = ""
    original: TextFile | None = None
    raw: bytes = b""  # the source's bytes and mode, to restore them if a later write fails
    mode: int | None = None

    def summary(self) -> PatchedFile:
        added = sum(tag == "+" for h in self.patch.hunks for tag, _ in h.lines)
        removed = sum(tag == "-" for h in self.patch.hunks for tag, _ in h.lines)
        shown = self.target or self.source
        assert shown is not None
        return PatchedFile(
            path=shown.rel,
            action=self.action,
            source=self.source.rel if self.action == "rename" and self.source else None,
            hunks=len(self.patch.hunks),
            added=added,
            removed=removed,
        )


def apply_patch(ws: Workspace, patch: str, *, dry_run: bool = False) -> ApplyPatchResult:
    """Apply a unified diff to the files it names; all files change, or none."""
    if not patch.strip():
        raise InvalidInput("The patch is empty.", "Send the text of a unified diff.")
    plans = [_plan(ws, item) for item in parse_patch(patch)]
    paths = _touched(plans)
    with path_locks(*paths):
        for plan in plans:
            _compute(plan)
        if not dry_run:
            _write_all(ws, plans)
    return ApplyPatchResult(dry_run=dry_run, files=[p.summary() for p in plans])


def _plan(ws: Workspace, item: FilePatch) -> _Plan:
    if item.binary:
        raise InvalidInput(
            f"{item.label}: binary patches are not supported.", "Write the file with write_file(base64)."
        )
    if item.old_path is None and item.new_path is None:
        raise InvalidInput("A file patch names /dev/null on both sides.", "Fix its --- and +++ lines.")
    action = action_of(item)
    if item.old_path is None:
        return _Plan(item, action, None, _new_target(ws, item, item.new_path or ""))
    if item.new_path is None:
        return _Plan(item, action, _existing(ws, item, item.old_path), None)
    if action == "modify":
        source = _existing(ws, item, item.new_path, item.old_path)
        return _Plan(item, action, source, source)
    source = _existing(ws, item, item.old_path)
    return _Plan(item, action, source, _new_target(ws, item, item.new_path))


def _existing(ws: Workspace, item: FilePatch, *paths: str) -> Resolved:
    path = paths[0]
    for candidate in (c for p in paths for c in candidates(p, item.git)):
        with contextlib.suppress(NotFound):
            found = ws.resolve(candidate, purpose="write")
            if found.path.is_dir():
                raise InvalidInput(f"{found.rel!r} is a folder; a patch changes files.")
            return found
    raise EditConflict(
        f"{path}: the patch changes this file but it does not exist. Nothing was written.",
        "Check the path (relative to an addons root) or mark it as a new file (--- /dev/null).",
    )


def _new_target(ws: Workspace, item: FilePatch, path: str) -> Resolved:
    target = ws.resolve(path, purpose="write", must_exist=False)
    if target.path.exists():
        raise EditConflict(
            f"{target.rel}: the patch creates this file but it already exists. Nothing was written.",
            "Diff against the existing file instead of /dev/null, or delete it first.",
        )
    return target


def _touched(plans: list[_Plan]) -> list[Path]:
    seen: set[Path] = set()
    for plan in plans:
        for resolved in _ends(plan):
            if resolved.path in seen:
                raise InvalidInput(
                    f"{resolved.rel} appears in more than one section of the patch.",
                    "Give each file one diff section (merge its hunks).",
                )
            seen.add(resolved.path)
    written = {p.target.path: p.target.rel for p in plans if p.target is not None}
    for path, rel in written.items():
        folder = next((f for f in path.parents if f in written), None)
        if folder is not None:  # staged side by side, the two could not both be written
            raise InvalidInput(
                f"{written[folder]!r} is a file, not a folder: the patch also writes {rel!r} inside it.",
                "Write the file or the folder, not both.",
            )
    return sorted(seen)


def _ends(plan: _Plan) -> list[Resolved]:
    if plan.source is not None and plan.target is not None and plan.source.path == plan.target.path:
        return [plan.source]
    return [r for r in (plan.source, plan.target) if r is not None]


def _compute(plan: _Plan) -> None:
    label = plan.target or plan.source
    assert label is not None
    if plan.source is not None:
        plan.raw = read_regular_file(plan.source.path, plan.source.rel)
        plan.mode = stat.S_IMODE(os.stat(plan.source.path).st_mode)
        plan.original = decode_text(plan.raw, plan.source.rel)
    before = plan.original.text if plan.original else ""
    plan.new_text = apply_hunks(before, plan.patch.hunks, label.rel)
    if plan.action == "delete" and plan.new_text:
        raise EditConflict(
            f"{label.rel}: the patch deletes this file but it has lines the patch does not remove. "
            "Nothing was written.",
            "Regenerate the patch against the file's current content.",
        )


def _write_all(ws: Workspace, plans: list[_Plan]) -> None:
    """Stage every new content, then commit all renames and deletions through one journal."""
    steps: list[Step] = []
    try:
        for plan in plans:
            steps.extend(_stage(ws, plan))
        commit(ws, _journal_dir(ws, plans), steps)
    except CommitFailed as failed:
        _undo(plans, steps[: failed.done])
        raise EditConflict(
            f"Writing the patch failed ({failed.cause}); the files already written were restored.",
            "Check permissions and free space, then apply the patch again.",
        ) from failed.cause
    except OSError as exc:
        discard(steps)
        raise EditConflict(
            f"Writing the patch failed ({exc}); no file was changed.",
            "Check permissions and free space, then apply the patch again.",
        ) from exc
    except BaseException:
        discard(steps)
        raise


def _stage(ws: Workspace, plan: _Plan) -> list[Step]:
    steps = []
    if plan.target is not None:
        newline = plan.original.newline if plan.original else "\n"
        data = TextFile(plan.new_text, newline).encode(plan.new_text)
        make_parents(ws, plan.target)
        temp = stage_bytes(plan.target.path, data, mode=plan.patch.new_mode)
        steps.append(Step("replace", plan.target.path, temp))
    if plan.action in ("delete", "rename") and plan.source is not None:
        steps.append(Step("delete", plan.source.path))
    return steps


def _journal_dir(ws: Workspace, plans: list[_Plan]) -> Path:
    """The root of the first file the patch touches (recovery looks in every writable root)."""
    first = plans[0].target or plans[0].source
    assert first is not None
    return first.root.path


def _undo(plans: list[_Plan], done: list[Step]) -> None:
    """Put back what the steps carried out before one failed: old bytes, no new files."""
    originals = {p.source.path: p for p in plans if p.source is not None}
    for step in reversed(done):
        with contextlib.suppress(OSError):
            plan = originals.get(step.path)
            if plan is None:
                os.unlink(step.path)  # created by the patch
            else:
                atomic_write_bytes(step.path, plan.raw, mode=plan.mode)
