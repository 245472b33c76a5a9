"""Sandboxed file operations over the addons roots: the library behind the MCP file tools.

Every function takes a ``Workspace`` first and a path relative to an addons root; results are
pydantic models (``odoo_tools.files._models``); failures raise ``odoo_tools.errors`` errors.

Names are imported on first use (PEP 562): the linters' config reader needs only
``compile_linear`` and does not pay for the pydantic models, the journal and the patching.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from odoo_tools.lazy_names import first_use_getattr

if TYPE_CHECKING:
    from odoo_tools.files._diffs import unified_diff
    from odoo_tools.files._editing import Edit, edit_file
    from odoo_tools.files._journal import Recovery, recover_interrupted_writes
    from odoo_tools.files._linear import compile_linear
    from odoo_tools.files._listing import file_info, list_directory, search_files
    from odoo_tools.files._locks import path_locks
    from odoo_tools.files._models import (
        ApplyPatchResult,
        CreateFolderResult,
        DeleteFileResult,
        EditFileResult,
        FileInfoResult,
        GrepResult,
        ListDirectoryResult,
        MoveFileResult,
        ReadFileResult,
        SearchFilesResult,
        WriteFileResult,
    )
    from odoo_tools.files._moving import delete_file, move_file
    from odoo_tools.files._patching import PatchTargets, apply_patch, parse_patch, patch_targets
    from odoo_tools.files._reading import LineRange, read_files
    from odoo_tools.files._searching import grep
    from odoo_tools.files._writing import create_folder, write_file
    from odoo_tools.storage import atomic_write_bytes

_WHERE = {
    "ApplyPatchResult": "odoo_tools.files._models",
    "CreateFolderResult": "odoo_tools.files._models",
    "DeleteFileResult": "odoo_tools.files._models",
    "Edit": "odoo_tools.files._editing",
    "EditFileResult": "odoo_tools.files._models",
    "FileInfoResult": "odoo_tools.files._models",
    "GrepResult": "odoo_tools.files._models",
    "LineRange": "odoo_tools.files._reading",
    "ListDirectoryResult": "odoo_tools.files._models",
    "MoveFileResult": "odoo_tools.files._models",
    "PatchTargets": "odoo_tools.files._patching",
    "ReadFileResult": "odoo_tools.files._models",
    "Recovery": "odoo_tools.files._journal",
    "SearchFilesResult": "odoo_tools.files._models",
    "WriteFileResult": "odoo_tools.files._models",
    "apply_patch": "odoo_tools.files._patching",
    "atomic_write_bytes": "odoo_tools.storage",
    "compile_linear": "odoo_tools.files._linear",
    "create_folder": "odoo_tools.files._writing",
    "delete_file": "odoo_tools.files._moving",
    "edit_file": "odoo_tools.files._editing",
    "file_info": "odoo_tools.files._listing",
    "grep": "odoo_tools.files._searching",
    "list_directory": "odoo_tools.files._listing",
    "move_file": "odoo_tools.files._moving",
    "parse_patch": "odoo_tools.files._patching",
    "patch_targets": "odoo_tools.files._patching",
    "path_locks": "odoo_tools.files._locks",
    "read_files": "odoo_tools.files._reading",
    "recover_interrupted_writes": "odoo_tools.files._journal",
    "search_files": "odoo_tools.files._listing",
    "unified_diff": "odoo_tools.files._diffs",
    "write_file": "odoo_tools.files._writing",
}

__all__ = [
    "ApplyPatchResult",
    "CreateFolderResult",
    "DeleteFileResult",
    "Edit",
    "EditFileResult",
    "FileInfoResult",
    "GrepResult",
    "LineRange",
    "ListDirectoryResult",
    "MoveFileResult",
    "PatchTargets",
    "ReadFileResult",
    "Recovery",
    "SearchFilesResult",
    "WriteFileResult",
    "apply_patch",
    "atomic_write_bytes",
    "compile_linear",
    "create_folder",
    "delete_file",
    "edit_file",
    "file_info",
    "grep",
    "list_directory",
    "move_file",
    "parse_patch",
    "patch_targets",
    "path_locks",
    "read_files",
    "recover_interrupted_writes",
    "search_files",
    "unified_diff",
    "write_file",
]


__getattr__ = first_use_getattr(globals(), _WHERE)
