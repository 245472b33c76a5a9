"""MCP tools that change files: write, edit, patch, create folders, move, delete.

Each one goes through the sandbox for writing and takes the per-file lock, so two clients
changing one file at once lose no update.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from assista_mcp.safety import effects
from assista_mcp.server.context import Ctx, app
from assista_mcp.server.tools._base import ToolSpec
from odoo_tools import files
from odoo_tools.files import (
    ApplyPatchResult,
    CreateFolderResult,
    DeleteFileResult,
    EditFileResult,
    MoveFileResult,
    WriteFileResult,
)

PathArg = Annotated[str, Field(description="Path relative to an addons root, e.g. 'my_module/models/x.py'.")]
DryRun = Annotated[bool, Field(description="Only show the diff; write nothing.")]


class TextEdit(BaseModel):
    old_text: str = Field(description="Text to replace, copied from the file; enough lines to be unique.")
    new_text: str = Field(description="Replacement text ('' deletes old_text).")


def write_file(
    ctx: Ctx,
    path: PathArg,
    content: Annotated[str, Field(description="The whole new content of the file.")],
    encoding: Annotated[
        Literal["utf-8", "base64"], Field(description="'utf-8' text, or 'base64' for binary content.")
    ] = "utf-8",
    overwrite: Annotated[bool, Field(description="Replace the file if it exists.")] = True,
) -> WriteFileResult:
    """Create a file or replace its whole content (atomically; missing folders are created).

    Prefer edit_file or apply_patch to change part of an existing file. An existing file
    keeps its permissions.
    """
    return files.write_file(app(ctx).workspace, path, content, encoding=encoding, overwrite=overwrite)


def edit_file(
    ctx: Ctx,
    path: PathArg,
    edits: Annotated[
        list[TextEdit], Field(description="Replacements applied in order, each to the previous result.")
    ],
    dry_run: DryRun = False,
) -> EditFileResult:
    """Replace exact text in one file: a list of {old_text, new_text}, all applied or none.

    Each old_text must match exactly one place. If no exact match exists, a match ignoring
    indentation and spacing is tried and new_text is re-indented to the file. When old_text
    matches several places or none, nothing is written and the error says where it matched
    or shows the closest region. Returns the unified diff.
    """
    requested = [files.Edit(e.old_text, e.new_text) for e in edits]
    return files.edit_file(app(ctx).workspace, path, requested, dry_run=dry_run)


def apply_patch(
    ctx: Ctx,
    patch: Annotated[
        str,
        Field(
            description="A unified diff (as `git diff` or `diff -u` print it); may change, create "
            "(--- /dev/null), delete (+++ /dev/null) or rename several files."
        ),
    ],
    dry_run: DryRun = False,
) -> ApplyPatchResult:
    """Apply a unified diff to one or many files: every hunk is checked first, then all files
    are written, or none. A hunk that does not apply is named (file and hunk) with the line
    where it differs; read the file again and regenerate the patch."""
    return files.apply_patch(app(ctx).workspace, patch, dry_run=dry_run)


def create_folder(ctx: Ctx, path: PathArg) -> CreateFolderResult:
    """Create a folder and any missing parents. Does nothing if it already exists."""
    return files.create_folder(app(ctx).workspace, path)


def move_file(
    ctx: Ctx,
    source: Annotated[str, Field(description="File or folder to move (relative to an addons root).")],
    destination: Annotated[str, Field(description="Its full new path (not just the target folder).")],
    overwrite: Annotated[bool, Field(description="Replace an existing destination file.")] = False,
) -> MoveFileResult:
    """Move or rename a file or folder. Refuses to replace an existing file unless overwrite."""
    return files.move_file(app(ctx).workspace, source, destination, overwrite=overwrite)


def delete_file(
    ctx: Ctx,
    path: PathArg,
    recursive: Annotated[bool, Field(description="Needed to delete a folder and its contents.")] = False,
) -> DeleteFileResult:
    """Delete a file, or a folder with recursive=true. This cannot be undone by this tool."""
    return files.delete_file(app(ctx).workspace, path, recursive=recursive)


TOOLS = (
    ToolSpec(write_file, "Write a file", effects.WRITES_WHOLE),
    ToolSpec(edit_file, "Edit a file", effects.WRITES),
    ToolSpec(apply_patch, "Apply a patch", effects.PATCHES),
    ToolSpec(create_folder, "Create a folder", effects.CREATES_FOLDERS),
    ToolSpec(move_file, "Move or rename", effects.MOVES),
    ToolSpec(delete_file, "Delete a file or folder", effects.DELETES),
)
