"""The project file and the user's trust in it (like direnv's ``allow``).

``assista-odoo.toml`` (or ``[tool.assista-odoo]`` in ``pyproject.toml``) in the working folder may
come from a cloned repository or have been written by a model. Until the user runs ``assista-odoo
trust``, which records the file's sha256 in the user data folder, the settings that run code,
reach the network, touch other databases or widen the sandbox are ignored (and the CLI says so);
its other settings still apply. Any change to the file makes it untrusted again.

Trust is keyed on the file as found: its path (folder resolved, the file itself not) and its
bytes. A project file that is a symbolic link is not read at all: a repository could otherwise
link to a file the user trusted elsewhere and inherit that trust (with relative paths resolved in
the repository). Relative paths in a project file resolve against the file's own folder.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from odoo_tools.errors import ConfigError, InvalidInput
from odoo_tools.storage import atomic_write_bytes, read_capped

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

OWN_FILE = "assista-odoo.toml"
PYPROJECT = "pyproject.toml"
TRUST_FILE = "trusted-project-files.json"
# A real project file is a few KB; a sparse multi-GiB one in a cloned repository must not be read whole.
MAX_PROJECT_FILE_BYTES = 1 << 20


@dataclass
class ProjectFile:
    path: Path
    table: dict[str, Any]
    trusted: bool
    ignored: list[str] = field(default_factory=list)
    linked: bool = False  # a symbolic link: not read, nothing of it applies

    @property
    def folder(self) -> Path:
        """Where its relative paths lead from: the file's own folder."""
        return self.path.parent.absolute()

    def keep_untrusted(self, values: dict[str, Any], needs_trust: set[str]) -> dict[str, Any]:
        """``values`` minus what an untrusted file may not set; addons roots outside its folder go."""
        kept = {k: v for k, v in values.items() if k not in needs_trust}
        self.ignored = sorted(k for k in values if k in needs_trust)
        if "addons_paths" in kept:
            folder = self.path.parent.resolve()
            inside = [p for p in kept["addons_paths"] if Path(p).resolve().is_relative_to(folder)]
            if len(inside) < len(kept["addons_paths"]):
                self.ignored.append("addons_path entries outside " + str(folder))
            kept["addons_paths"] = inside
            if not inside:
                del kept["addons_paths"]
        return kept

    def ignored_note(self) -> list[str]:
        if self.linked:
            return [
                f"ignored {self.path}: it is a symbolic link, so none of its settings apply (a "
                "repository could link to a project file you trusted elsewhere). Replace it with a "
                "copy of the file, review it, then run `assista-odoo trust`."
            ]
        if not self.ignored:
            return []
        return [
            f"ignored {', '.join(self.ignored)} from {self.path}: the file is not trusted (a cloned "
            f"repository or a model may have written it). Review it, then run "
            f"`assista-odoo trust {self.path}` to apply them."
        ]


def read_project_file(cwd: Path, home: Path) -> ProjectFile | None:
    own, pyproject = cwd / OWN_FILE, cwd / PYPROJECT
    path = own if _present(own) else pyproject if _present(pyproject) else None
    if path is None:
        return None
    if path.is_symlink():
        return ProjectFile(path, {}, trusted=False, linked=True) if path == own or _has_table(path) else None
    try:
        data = read_capped(path, MAX_PROJECT_FILE_BYTES)
    except OSError as exc:  # a pipe or device in its place (never read: it would block)
        raise ConfigError(f"Project settings file {path} cannot be read: {exc.strerror}.") from exc
    if data is None:
        raise ConfigError(
            f"Project settings file {path} is larger than {MAX_PROJECT_FILE_BYTES} bytes: not read "
            "(a real one is a few KB)."
        )
    try:
        document = tomllib.loads(data.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"Project settings file in {cwd} is not valid TOML: {exc}.") from exc
    table = document if path == own else document.get("tool", {}).get("assista-odoo", {})
    if not isinstance(table, dict) or not table:
        return None
    return ProjectFile(path, table, TrustStore(home).is_trusted(path, data))


def _present(path: Path) -> bool:
    return path.is_symlink() or path.is_file()


def _has_table(pyproject: Path) -> bool:
    """A linked pyproject.toml names our table (it is then worth saying it was not read)."""
    try:
        data = read_capped(pyproject, MAX_PROJECT_FILE_BYTES) if pyproject.is_file() else None
        return data is not None and b"assista-odoo" in data
    except OSError:
        return False


def trust_key(file: Path) -> str:
    """The file as found: its absolute path with the folder resolved, the name itself not."""
    absolute = file.absolute()
    return str(Path(os.path.realpath(absolute.parent)) / absolute.name)


def default_project_file(cwd: Path) -> Path:
    own = cwd / OWN_FILE
    return own if own.is_file() or not (cwd / PYPROJECT).is_file() else cwd / PYPROJECT


class TrustStore:
    """Trusted project files: absolute path -> sha256 of the bytes the user reviewed."""

    def __init__(self, home: Path) -> None:
        self.path = home / TRUST_FILE

    def is_trusted(self, file: Path, data: bytes) -> bool:
        return not file.is_symlink() and self._load().get(trust_key(file)) == _digest(data)

    def trust(self, file: Path) -> str:
        if file.is_symlink():
            raise InvalidInput(
                f"{file} is a symbolic link; a project file is trusted as found, never through a link.",
                "Trust the file it points to, or replace the link with a copy.",
            )
        digest = _digest(file.read_bytes())
        self._save({**self._load(), trust_key(file): digest})
        return digest

    def revoke(self, file: Path) -> bool:
        entries = self._load()
        found = entries.pop(trust_key(file), None) is not None
        self._save(entries)
        return found

    def entries(self) -> dict[str, str]:
        return self._load()

    def _load(self) -> dict[str, str]:
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (ValueError, UnicodeDecodeError) as exc:
            raise ConfigError(
                f"The trust list {self.path} is damaged ({exc}).",
                "Delete it and run `assista-odoo trust` again for each project you trust.",
            ) from exc
        return {str(k): str(v) for k, v in raw.items()} if isinstance(raw, dict) else {}

    def _save(self, entries: dict[str, str]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        text = json.dumps(entries, indent=2, sort_keys=True) + "\n"
        atomic_write_bytes(self.path, text.encode("utf-8"), mode=0o600)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
