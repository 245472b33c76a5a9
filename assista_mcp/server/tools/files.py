"""MCP tools: the sandboxed file tools (thin adapters over ``odoo_tools.files``).

The docstrings and parameter descriptions below are what a model reads when it picks a tool.
Reading and searching tools live here; writing tools in ``files_write``.
"""

from __future__ import annotations

import contextlib
from typing import Annotated, Literal

from anyio.from_thread import check_cancelled
from pydantic import Field

from assista_mcp.safety import effects
from assista_mcp.server.context import Ctx, app
from assista_mcp.server.tools import files_write
from assista_mcp.server.tools._base import ToolSpec, one_or_many
from assista_mcp.server.tools._text import answer, grep_text, read_text
from odoo_tools import files
from odoo_tools.errors import InvalidInput
from odoo_tools.files import (
    FileInfoResult,
    GrepResult,
    ListDirectoryResult,
    ReadFileResult,
    SearchFilesResult,
)

PathArg = files_write.PathArg
Excludes = Annotated[
    list[str] | None,
    Field(description="Glob patterns to skip, e.g. ['*.po', 'static/**']. .git, __pycache__, node_modules "
          "are always skipped."),
]  # fmt: skip

FolderArg = Annotated[
    str,
    Field(
        description="Folder relative to an addons root; '.' means all your addons roots. The read-only "
        "Odoo source is reached by naming one of its modules (e.g. 'sale') or its absolute path."
    ),
]


def read_file(
    ctx: Ctx,
    path: Annotated[str | None, Field(description="The file to read (relative to an addons root).")] = None,
    paths: Annotated[
        list[str] | str | None,
        Field(description="Several files to read in one call, instead of path."),
    ] = None,
    offset: Annotated[int | None, Field(description="First line to return (1-based).", ge=1)] = None,
    limit: Annotated[int | None, Field(description="How many lines to return from offset.", ge=0)] = None,
    head: Annotated[int | None, Field(description="Return only the first N lines.", ge=0)] = None,
    tail: Annotated[int | None, Field(description="Return only the last N lines.", ge=0)] = None,
    line_numbers: Annotated[bool, Field(description="Prefix each line with its number.")] = False,
    encoding: Annotated[
        Literal["utf-8", "base64"],
        Field(description="'utf-8' for text (binary files are refused); 'base64' for raw bytes."),
    ] = "utf-8",
) -> ReadFileResult:
    """Read one file (path) or several (paths), as text (UTF-8).

    Use it before editing a file, and to read many related files at once (model, views,
    security). A file that cannot be read gets an `error` entry; the others are still read.
    When no file could be read, the call is an error naming why for each.
    Output is capped at about 200 KB per call: `note` then says what was cut and which
    `offset` reads on. Ranges apply to every file in the call.
    """
    selection = files.LineRange(offset=offset, limit=limit, head=head, tail=tail)
    chosen = one_or_many(path, paths, "path")
    ws = app(ctx).workspace
    result = files.read_files(ws, chosen, lines=selection, line_numbers=line_numbers, encoding=encoding)
    if result.files and all(read.error for read in result.files):  # nothing read: a tool error
        if len(result.files) == 1:
            raise InvalidInput(result.files[0].error or "")
        why = "; ".join(f"{read.path}: {read.error}" for read in result.files)
        raise InvalidInput(f"No file could be read: {why}")
    return answer(result, read_text(result))


def list_directory(
    ctx: Ctx,
    path: FolderArg = ".",
    depth: Annotated[int, Field(description="Levels: 1 = direct children, 0 = all.", ge=0)] = 1,
    exclude: Excludes = None,
    tree: Annotated[bool, Field(description="Also return an indented tree view.")] = False,
) -> ListDirectoryResult:
    """List a folder's files and subfolders with sizes (optionally recursive, as a tree).

    Start here to see what modules exist ('.') or how a module is laid out. Symlinks are
    listed, never followed.
    """
    return files.list_directory(app(ctx).workspace, path, depth=depth, exclude=exclude or (), tree=tree)


def search_files(
    ctx: Ctx,
    pattern: Annotated[
        str,
        Field(
            description="Glob on names, e.g. '*.xml', 'ir.model.access.csv'; with a '/' it matches the "
            "path from the searched folder or the root: 'views/*.xml', '*/models/*.py', '**/tests/*.py'."
        ),
    ],
    path: FolderArg = ".",
    exclude: Excludes = None,
) -> SearchFilesResult:
    """Find files and folders by name (glob). Use grep to search inside files."""
    return files.search_files(
        app(ctx).workspace, pattern, path, exclude=exclude or (), stop=_stop_if_cancelled
    )


def grep(
    ctx: Ctx,
    pattern: Annotated[
        str,
        Field(
            description="Regular expression searched in each line (Python syntax without lookarounds "
            "or backreferences: it runs in linear time, on RE2)."
        ),
    ],
    path: Annotated[str, Field(description="A file, or a folder as for list_directory.")] = ".",
    include: Annotated[
        list[str] | None, Field(description="Only files matching these globs, e.g. ['*.py', '*.xml'].")
    ] = None,
    exclude: Excludes = None,
    context: Annotated[int, Field(description="Lines of context before and after.", ge=0, le=10)] = 0,
    ignore_case: Annotated[bool, Field(description="Match case-insensitively.")] = False,
    max_matches: Annotated[int, Field(description="Stop after this many matches.", ge=1, le=2000)] = 200,
) -> GrepResult:
    """Search file contents with a regular expression; returns file:line matches.

    Use it to find where a model, field, method or xml id is defined or used. Binary files
    are skipped; results are capped (see `truncated` and `note`).
    """
    result = files.grep(
        app(ctx).workspace, pattern, path, include=include or (), exclude=exclude or (), context=context,
        ignore_case=ignore_case, max_matches=max_matches, stop=_stop_if_cancelled,
    )  # fmt: skip
    return answer(result, grep_text(result))


def _stop_if_cancelled() -> None:
    """Raise the cancellation when the MCP call was cancelled, so a long search stops working."""
    with contextlib.suppress(RuntimeError):  # not called from a worker thread: nothing to cancel
        check_cancelled()


def file_info(ctx: Ctx, path: PathArg) -> FileInfoResult:
    """Size, modification time, permissions, line count and whether a file is binary."""
    return files.file_info(app(ctx).workspace, path)


TOOLS = (
    ToolSpec(read_file, "Read files", effects.READ),
    ToolSpec(list_directory, "List a folder", effects.READ),
    ToolSpec(search_files, "Find files by name", effects.READ),
    ToolSpec(grep, "Search file contents", effects.READ),
    ToolSpec(file_info, "File details", effects.READ),
)
