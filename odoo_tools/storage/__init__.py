"""One way to store: atomic file writes (durable or not), JSON files, and one bounded cache of
file digests.

The face of the package: every name is imported from here (``from odoo_tools.storage import ...``).
"""

from odoo_tools.storage._atomic import (
    JOURNAL_NAME,
    JOURNAL_PREFIX,
    LEGACY_TEMP_NAME,
    atomic_write_bytes,
    atomic_write_json,
    atomic_write_text,
    fsync_dir,
    reserved_name,
    stage_bytes,
    stale_temp,
    temp_path_for,
    temp_prefix,
    writer_alive,
)
from odoo_tools.storage._digests import FILE_DIGESTS, UNREADABLE, FileDigests, StatCache, digest_bytes
from odoo_tools.storage._folders import (
    CACHE_DIR_VARIABLE,
    NotPrivate,
    default_cache_dir,
    default_data_dir,
    private_folder,
    shared_cache_dir,
    use_cache_dir,
    user_private_folder,
)
from odoo_tools.storage._reading import (
    MAX_SOURCE_BYTES,
    capped_lines,
    read_capped,
    read_capped_text,
    read_private,
    write_private,
)

__all__ = [
    "CACHE_DIR_VARIABLE",
    "FILE_DIGESTS",
    "JOURNAL_NAME",
    "JOURNAL_PREFIX",
    "LEGACY_TEMP_NAME",
    "MAX_SOURCE_BYTES",
    "UNREADABLE",
    "FileDigests",
    "NotPrivate",
    "StatCache",
    "atomic_write_bytes",
    "atomic_write_json",
    "atomic_write_text",
    "capped_lines",
    "default_cache_dir",
    "default_data_dir",
    "digest_bytes",
    "fsync_dir",
    "private_folder",
    "read_capped",
    "read_capped_text",
    "read_private",
    "reserved_name",
    "shared_cache_dir",
    "stage_bytes",
    "stale_temp",
    "temp_path_for",
    "temp_prefix",
    "use_cache_dir",
    "user_private_folder",
    "write_private",
    "writer_alive",
]
