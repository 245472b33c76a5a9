"""Map the absolute paths Odoo prints to (module, path relative to the addons root).

Odoo may run on another machine or in a container (recorded logs say ``/srv/addons``), so a path
outside our roots still maps when one of its segments is a module we were asked about, or a
module that exists in one of our roots.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath


@dataclass(frozen=True)
class AddonPath:
    module: str
    rel: str  # relative to the addons root: "<module>/views/x.xml"
    local: Path | None  # the file on this machine, when it exists


class PathMapper:
    def __init__(self, roots: Sequence[Path], modules: Sequence[str]) -> None:
        self.roots = [Path(r) for r in roots]
        self._real_roots = [(root, root.resolve()) for root in self.roots]  # resolved once, not per frame
        self.modules = set(modules)
        self._known: dict[str, bool] = {}

    def map(self, raw: str) -> AddonPath | None:
        """The addon file behind ``raw``, or None for framework / library files."""
        path = PurePosixPath(raw.replace("\\", "/"))
        real = _resolved(raw)
        for root, real_root in self._real_roots:
            if real is not None and real.is_relative_to(real_root):
                rel = PurePosixPath(real.relative_to(real_root).as_posix())
                if len(rel.parts) >= 2:
                    return self._found(root, rel)
        parts = path.parts
        for i, part in enumerate(parts[:-1]):
            if self.is_addon(part) and not _inside_python_library(parts[:i]):
                rel = PurePosixPath(*parts[i:])
                return self._found(self._root_of(part), rel)
        return None

    def map_relative(self, module_rel: str) -> AddonPath | None:
        """Odoo also prints ``<module>/<file>`` (``loading lab_demo/views/x.xml``)."""
        parts = PurePosixPath(module_rel).parts
        if len(parts) >= 2 and self.is_addon(parts[0]):
            return self._found(self._root_of(parts[0]), PurePosixPath(module_rel))
        return None

    def _found(self, root: Path | None, rel: PurePosixPath) -> AddonPath:
        local = root / Path(*rel.parts) if root is not None else None
        return AddonPath(rel.parts[0], rel.as_posix(), local if local and local.is_file() else None)

    def is_addon(self, name: str) -> bool:
        """A module under validation, or one that exists in our roots."""
        if name in self.modules:
            return True
        if name not in self._known:
            self._known[name] = self._root_of(name) is not None
        return self._known[name]

    def module_dir(self, module: str) -> Path | None:
        """The folder of one of our modules on this machine."""
        root = self._root_of(module)
        return root / module if root is not None else None

    def _root_of(self, module: str) -> Path | None:
        for root in self.roots:
            if (root / module / "__manifest__.py").is_file():
                return root
        return None


def _resolved(raw: str) -> Path | None:
    try:
        return Path(raw).resolve()
    except (OSError, RuntimeError):  # a symlink loop
        return None


def _inside_python_library(prefix: tuple[str, ...]) -> bool:
    """Installed packages (site-packages) are libraries, never the user's addons."""
    joined = "/".join(prefix)
    return "site-packages" in joined or "dist-packages" in joined
