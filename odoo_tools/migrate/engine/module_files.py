"""A module's files in memory while it is migrated: read once (never through a symlink, never
outside the module's folder), changed step by step, written back only on request."""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass, field
from pathlib import Path

from odoo_tools.errors import InvalidInput, SandboxViolation
from odoo_tools.files import path_locks, unified_diff
from odoo_tools.sources import parse_source
from odoo_tools.storage import atomic_write_text, read_capped

TEXT_SUFFIXES = (".py", ".xml", ".csv", ".js", ".scss", ".css")
MAX_BYTES = 2_000_000
MAX_PYTHON_DEPTH = 200  # syntax levels; libcst fails near 400 (one recursion per level)
SKIPPED_FOLDERS = {".git", "__pycache__", "node_modules"}


@dataclass
class FileChange:
    path: str  # relative to the module folder
    before: str | None  # None: created
    after: str | None  # None: deleted


@dataclass
class ModuleFiles:
    name: str
    folder: Path
    texts: dict[str, str] = field(default_factory=dict)  # relative posix path -> text
    other_files: list[str] = field(default_factory=list)  # not read (binary, too big): only deletable
    original: dict[str, str] = field(default_factory=dict)
    deleted: set[str] = field(default_factory=set)
    # Python files left as they are because they nest too deeply for the passes: path -> why
    too_deep: dict[str, str] = field(default_factory=dict)

    @classmethod
    def read(cls, folder: Path) -> ModuleFiles:
        folder = folder.resolve()
        if not folder.is_dir():
            raise InvalidInput(f"{folder} is not a folder.")
        module = cls(folder.name, folder)
        for current, folders, names in os.walk(folder, followlinks=False):
            folders[:] = sorted(f for f in folders if f not in SKIPPED_FOLDERS and not f.startswith("."))
            for name in sorted(names):
                path = Path(current) / name
                rel = path.relative_to(folder).as_posix()
                if path.is_symlink():
                    continue
                # A FIFO, socket or device is no file to read, but its name is taken: listed with
                # the unread files, a new file never goes there and old migrations/ still go.
                text = _read_text(path) if path.suffix in TEXT_SUFFIXES else None
                too_deep = _too_deep(text) if text is not None and path.suffix == ".py" else None
                if too_deep is not None:
                    module.too_deep[rel] = too_deep
                elif text is not None:
                    module.texts[rel] = text
                    continue
                module.other_files.append(rel)
        module.original = dict(module.texts)
        return module

    def site_path(self, rel: str) -> str:
        return f"{self.name}/{rel}"

    def delete_folder(self, rel_folder: str) -> list[str]:
        prefix = rel_folder.rstrip("/") + "/"
        gone = [p for p in [*self.texts, *self.other_files] if p.startswith(prefix) and p not in self.deleted]
        self.deleted.update(gone)
        for path in gone:
            self.texts.pop(path, None)
        return gone

    def changes(
        self, since: dict[str, str] | None = None, deleted_before: set[str] | None = None
    ) -> list[FileChange]:
        """What differs from ``since`` (the files as read, by default)."""
        base = self.original if since is None else since
        result = [
            FileChange(path, base[path], text)
            for path, text in sorted(self.texts.items())
            if path in base and base[path] != text
        ]
        result += [FileChange(path, None, self.texts[path]) for path in sorted(set(self.texts) - set(base))]
        previously = deleted_before or set()
        result += [FileChange(path, base.get(path), None) for path in sorted(self.deleted - previously)]
        return result

    def diff(self, changes: list[FileChange]) -> str:
        parts = []
        for change in changes:
            rel = _quoted(self.site_path(change.path))
            if change.after is None and change.before is None:
                parts.append(f"deleted {rel}\n")
                continue
            parts.append(
                unified_diff(
                    rel,
                    change.before or "",
                    change.after or "",
                    created=change.before is None,
                    deleted=change.after is None,
                )
            )
        return "".join(parts)

    def write(self, changes: list[FileChange]) -> list[str]:
        """Apply ``changes`` inside the module folder; returns the paths written or removed.

        Under the same cross-process locks as every other write of ours (an editor's server, an
        agent), and only when every file is still as it was read: a file changed on disk since
        then would be overwritten with a migration of its old text, so nothing is written."""
        paths = {change.path: self._inside(change.path) for change in changes}
        with path_locks(*paths.values()):
            changed = [
                c.path
                for c in changes
                if not (c.before is None and c.after is None)  # an unread file deleted: nothing to lose
                and _on_disk(paths[c.path]) != c.before
            ]
            if changed:
                raise InvalidInput(
                    f"{self.name}: {', '.join(changed)} changed on disk while it was migrated; "
                    "nothing was written",
                    hint="Run the migration again on the files as they are now.",
                )
            return self._apply(changes, paths)

    def _apply(self, changes: list[FileChange], paths: dict[str, Path]) -> list[str]:
        done = []
        for change in changes:
            path = paths[change.path]
            if change.after is None:
                if path.exists() or path.is_symlink():
                    path.unlink()
                    _remove_empty_parents(path.parent, self.folder)
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                atomic_write_text(path, change.after)
            done.append(change.path)
        return done

    def _inside(self, rel: str) -> Path:
        """The file ``rel`` of the module, refused if it or a folder on its way is a symlink or
        leaves the module folder (the tree may be hostile)."""
        path = self.folder / rel
        current = self.folder
        for part in Path(rel).parts:
            if part in ("..", "") or os.path.isabs(part):
                raise SandboxViolation(f"{rel} leaves the module {self.name}")
            current = current / part
            if current.is_symlink():
                raise SandboxViolation(f"{self.name}/{rel} goes through a symlink; nothing was written there")
        if os.path.commonpath([os.path.realpath(path.parent), str(self.folder)]) != str(self.folder):
            raise SandboxViolation(f"{rel} leaves the module {self.name}")
        return path


def _quoted(path: str) -> str:
    """``path`` for a diff's header, quoted with C escapes as git quotes it when it holds a
    control character: a newline in a file's name would start a line of its own."""
    if all(char.isprintable() for char in path):
        return path
    escaped = path.encode("unicode_escape").decode("ascii").replace('"', '\\"')
    return f'"{escaped}"'


def _too_deep(text: str) -> str | None:
    """Why a Python file is left as it is (None: it is not): nested deeper than Python itself
    can compile (RecursionError, MemoryError: Odoo cannot import it either), or deeper than
    ``MAX_PYTHON_DEPTH`` (a valid 2,900-term ``1 + 1 + ...``: libcst's deep_clone and visitors
    recurse once per level, and take minutes on it). Every pass would crash on such a file."""
    try:
        tree = parse_source(text)
    except (RecursionError, MemoryError):
        return "Python cannot compile it: it nests deeper than Python's parser allows"
    except (SyntaxError, ValueError):
        return None  # the rule passes say what they cannot parse
    deepest = 0
    stack: list[tuple[ast.AST, int]] = [(tree, 0)]
    while stack and deepest <= MAX_PYTHON_DEPTH:  # a loop: the tree's depth is the problem
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    if deepest > MAX_PYTHON_DEPTH:
        return f"its syntax nests over {MAX_PYTHON_DEPTH} levels deep, more than the rewriting handles"
    return None


def _read_text(path: Path) -> str | None:
    """A regular file's UTF-8 text up to ``MAX_BYTES``; None for anything else. Opened without
    blocking and without following a link: a FIFO put there would hang the run (and its locks)."""
    try:
        data = read_capped(path, MAX_BYTES, follow_links=False)
        return data.decode("utf-8") if data is not None else None
    except (OSError, UnicodeDecodeError):
        return None


def _on_disk(path: Path) -> str | None:
    """The file's text now (None: absent; a file that is not text never equals a read text)."""
    if not os.path.lexists(path):
        return None
    text = _read_text(path)
    return "\0not text" if text is None else text


def _remove_empty_parents(folder: Path, top: Path) -> None:
    while folder != top and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent
