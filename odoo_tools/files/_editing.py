"""edit_file: a list of old_text -> new_text replacements, applied in order, all or nothing.

Every edit is matched against the text as the previous edits left it, in memory; only when all
of them matched is the file written (atomically, under its lock). A failing edit raises
EditConflict naming it, and the file keeps its old bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from odoo_tools.errors import EditConflict, InvalidInput
from odoo_tools.files._diffs import unified_diff
from odoo_tools.files._locks import path_locks
from odoo_tools.files._matching import find_unique
from odoo_tools.files._models import EditApplied, EditFileResult
from odoo_tools.files._textio import read_text_file
from odoo_tools.storage import atomic_write_bytes
from odoo_tools.workspace import Workspace

MAX_EDITS = 100


@dataclass(frozen=True)
class Edit:
    old_text: str
    new_text: str


def edit_file(ws: Workspace, path: str, edits: Sequence[Edit], *, dry_run: bool = False) -> EditFileResult:
    """Apply ``edits`` to one file; returns the unified diff (and writes unless ``dry_run``)."""
    _validate(edits)
    target = ws.resolve(path, purpose="write")
    if target.path.is_dir():
        raise InvalidInput(f"{target.rel!r} is a folder.", "edit_file changes one file; give its path.")
    with path_locks(target.path):
        original = read_text_file(target.path, target.rel)
        text = original.text
        applied: list[EditApplied] = []
        for index, edit in enumerate(edits, start=1):
            label = _label(target.rel, index, len(edits))
            try:
                match = find_unique(text, _lf(edit.old_text), _lf(edit.new_text), label)
            except EditConflict as exc:
                raise EditConflict(f"{exc.message} Nothing was written.", exc.hint) from None
            text = text[: match.start] + match.replacement + text[match.end :]
            applied.append(EditApplied(index=index, line=match.line, strategy=match.strategy))
        changed = text != original.text
        if changed and not dry_run:
            atomic_write_bytes(target.path, original.encode(text))
    return EditFileResult(
        path=target.rel,
        dry_run=dry_run,
        changed=changed,
        edits=applied,
        diff=unified_diff(target.rel, original.text, text),
    )


def _validate(edits: Sequence[Edit]) -> None:
    if not edits:
        raise InvalidInput("No edits given.", "Pass a list of {old_text, new_text}.")
    if len(edits) > MAX_EDITS:
        raise InvalidInput(f"{len(edits)} edits in one call; the limit is {MAX_EDITS}.", "Split them up.")
    for index, edit in enumerate(edits, start=1):
        if not edit.old_text.strip():
            raise InvalidInput(
                f"Edit {index}: old_text is empty.",
                "Quote the lines to replace; to create or replace a whole file use write_file.",
            )
        if edit.old_text == edit.new_text:
            raise InvalidInput(f"Edit {index}: old_text and new_text are identical.", "Nothing to change.")


def _lf(text: str) -> str:
    return text.replace("\r\n", "\n")


def _label(rel: str, index: int, total: int) -> str:
    return f"{rel}, edit {index} of {total}" if total > 1 else rel
