"""Sandboxed file operations over the addons roots: the library behind the MCP file tools.

Every function takes a ``Workspace`` first and a path relative to an addons root; results are
pydantic models (``odoo_tools.files._models``); failures raise ``odoo_tools.errors`` errors.
"""

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
