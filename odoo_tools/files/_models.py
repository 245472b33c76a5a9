"""Pydantic results of the file tools: what a model (or any caller) gets back, as data."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

EntryKind = Literal["file", "folder", "symlink", "other"]


class FileContent(BaseModel):
    """One file of a read_file call. ``error`` is set (and ``content`` is None) when it was not read."""

    path: str = Field(description="Path relative to its addons root (as given when it was not found).")
    content: str | None = Field(default=None, description="The text (or base64) that was read.")
    encoding: Literal["utf-8", "base64"] = "utf-8"
    start_line: int | None = Field(default=None, description="First line returned (1-based).")
    end_line: int | None = Field(default=None, description="Last line returned (1-based).")
    total_lines: int | None = Field(default=None, description="Lines in the whole file.")
    size: int | None = Field(default=None, description="File size in bytes.")
    truncated: bool = Field(default=False, description="True when the output cap cut this file.")
    error: str | None = Field(default=None, description="Why this file was not read (the rest still was).")


class ReadFileResult(BaseModel):
    files: list[FileContent]
    note: str | None = Field(default=None, description="What was cut by the cap and how to read the rest.")


class WriteFileResult(BaseModel):
    path: str
    created: bool = Field(description="True when the file did not exist before.")
    bytes_written: int
    lines: int


class EditApplied(BaseModel):
    index: int = Field(description="1-based position of the edit in the request.")
    line: int = Field(description="Line where old_text was found (1-based, in the text at that step).")
    strategy: Literal["exact", "whitespace"] = Field(
        description="'exact' match, or 'whitespace' (indentation/spacing ignored, file indentation kept)."
    )


class EditFileResult(BaseModel):
    path: str
    dry_run: bool
    changed: bool
    edits: list[EditApplied]
    diff: str = Field(description="Unified diff of the change (nothing written when dry_run).")


class PatchedFile(BaseModel):
    path: str
    action: Literal["modify", "create", "delete", "rename"]
    source: str | None = Field(default=None, description="Old path, for renames.")
    hunks: int
    added: int
    removed: int


class ApplyPatchResult(BaseModel):
    dry_run: bool
    files: list[PatchedFile]


class DirEntry(BaseModel):
    path: str = Field(description="Path relative to its addons root.")
    kind: EntryKind
    size: int | None = Field(default=None, description="Bytes, for files.")
    depth: int = Field(description="1 for direct children of the listed folder.")


class ListDirectoryResult(BaseModel):
    path: str
    entries: list[DirEntry]
    tree: str | None = Field(default=None, description="Indented tree view, when asked for.")
    truncated: bool = False
    note: str | None = None


class SearchFilesResult(BaseModel):
    pattern: str
    matches: list[str] = Field(description="Matching paths, relative to their addons root.")
    truncated: bool = False
    note: str | None = None


class GrepMatch(BaseModel):
    path: str
    line: int
    text: str
    before: list[str] = Field(default_factory=list, description="Context lines before the match.")
    after: list[str] = Field(default_factory=list, description="Context lines after the match.")


class GrepResult(BaseModel):
    pattern: str
    matches: list[GrepMatch]
    files_searched: int
    files_matched: int
    truncated: bool = False
    note: str | None = None


class CreateFolderResult(BaseModel):
    path: str
    created: bool = Field(description="False when the folder already existed.")


class MoveFileResult(BaseModel):
    source: str
    destination: str
    overwritten: bool


class DeleteFileResult(BaseModel):
    path: str
    kind: EntryKind
    files_deleted: int


class FileInfoResult(BaseModel):
    path: str
    kind: EntryKind
    size: int
    modified: str = Field(description="Last modification time, ISO 8601 UTC.")
    mode: str = Field(description="Permission bits, octal (e.g. '0o644').")
    binary: bool | None = Field(default=None, description="For files: True when not valid UTF-8 text.")
    lines: int | None = Field(default=None, description="For text files: number of lines.")
    readonly: bool = Field(
        description="True when it cannot be written: it lies in a read-only root, or the system "
        "refuses (permissions, a read-only folder)."
    )
    root: str = Field(description="The addons root it lies in.")
