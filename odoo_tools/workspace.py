"""The sandbox: every path a tool reads or writes resolves inside an addons root.

Containment is decided on fully resolved paths (``os.path.realpath``: symlinks followed, ``..``
collapsed) compared component by component, never by string prefix, so a sibling folder
``addons2`` next to root ``addons`` is out of reach. Read-only roots (an Odoo source used for
knowledge) can be read but never written.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from odoo_tools.errors import ConfigError, InvalidInput, NotFound, SandboxViolation
from odoo_tools.storage import default_data_dir, reserved_name

Purpose = Literal["read", "write"]
MAX_PATH_CHARS = 4096


@dataclass(frozen=True)
class Root:
    path: Path  # resolved, absolute
    readonly: bool = False


@dataclass(frozen=True)
class Resolved:
    """A path checked against the sandbox. ``path`` is absolute and fully resolved."""

    path: Path
    root: Root
    rel: str  # POSIX path relative to the root ("." for the root itself)


class Workspace:
    """One or more addons roots (writable) plus optional read-only roots."""

    def __init__(
        self,
        roots: Sequence[Path | str],
        readonly_roots: Sequence[Path | str] = (),
        *,
        private_dir: Path | None = None,
    ) -> None:
        """``private_dir``: the user's own data folder, where writes record what they journal."""
        self.private_dir = private_dir or default_data_dir()
        if not roots:
            raise ConfigError(
                "No addons path configured.",
                "Pass --addons-path DIR[,DIR...], set ASSISTA_ADDONS_PATH, or give --odoo-config.",
            )
        self.roots: tuple[Root, ...] = tuple(
            [_make_root(r, readonly=False) for r in roots]
            + [_make_root(r, readonly=True) for r in readonly_roots]
        )

    @property
    def writable_roots(self) -> tuple[Path, ...]:
        return tuple(r.path for r in self.roots if not r.readonly)

    def resolve(
        self,
        user_path: str,
        *,
        purpose: Purpose = "read",
        must_exist: bool = True,
        follow_symlinks: bool = True,
    ) -> Resolved:
        """Resolve a tool path (relative to a root, or absolute inside one) or raise.

        With ``follow_symlinks=False`` a symlink named by the last component is returned itself
        (its folder resolved and checked), for deleting or moving the link, never its target.
        """
        _validate_text(user_path)
        candidates = self._candidates(user_path, purpose)
        # A relative path belongs to the first root where it exists (as Odoo picks modules).
        chosen = next((c for c in candidates if os.path.lexists(c[1])), None)
        if chosen is None:
            if candidates and all(not _inside(_realpath(raw), root.path) for root, raw in candidates):
                # Outside whether it exists or not: the answer never tells what exists out there.
                raise SandboxViolation(
                    f"{user_path!r} resolves outside the addons roots.",
                    "Only files under the configured addons paths can be used.",
                )
            if must_exist:
                raise NotFound(
                    f"No such file or folder: {user_path!r}.",
                    "Use list_directory or search_files to find the right path "
                    "(paths are relative to an addons root).",
                )
            chosen = self._first_creatable(candidates)
        root, raw = chosen
        link = None if follow_symlinks else _final_link(raw)
        real = link or _realpath(raw)
        if not _inside(real, root.path):
            raise SandboxViolation(
                f"{user_path!r} resolves outside the addons roots.",
                "Only files under the configured addons paths can be used.",
            )
        if purpose == "write":
            self._check_writable(root, user_path)
            _check_not_reserved(user_path, real)
        found = None if link is not None else _stat(real)  # a link itself: its target is never opened
        if found is not None:
            _check_kind(found, user_path)
            if stat.S_ISREG(found.st_mode) and found.st_nlink > 1:
                raise SandboxViolation(
                    f"{user_path!r} is a hard link shared with another file (link count > 1).",
                    "Its bytes may belong to a file outside the roots; copy it instead of linking.",
                )
        elif link is None and purpose == "write":
            self._check_parent(real, root, user_path)
        return Resolved(path=real, root=root, rel=_rel(real, root.path))

    def relative(self, real: Path) -> str:
        """Display form of a resolved path: relative to its root when inside one."""
        for root in self.roots:
            if _inside(real, root.path):
                return _rel(real, root.path)
        return str(real)

    def root_of(self, real: Path) -> Root | None:
        return next((r for r in self.roots if _inside(real, r.path)), None)

    # -- internals -------------------------------------------------------------------------

    def _candidates(self, user_path: str, purpose: Purpose) -> list[tuple[Root, Path]]:
        given = Path(user_path)
        if given.is_absolute():
            # The lexical form must sit in a root before anything is resolved.
            norm = Path(os.path.normpath(given))
            for root in self.roots:
                if _inside(norm, root.path) or _inside(_realpath(norm), root.path):
                    return [(root, norm)]
            raise SandboxViolation(
                f"{user_path!r} is outside the addons roots.",
                "Use a path relative to an addons root: " + ", ".join(str(r.path) for r in self.roots),
            )
        roots = self.roots if purpose == "read" else tuple(r for r in self.roots if not r.readonly)
        if not roots:
            raise SandboxViolation("No writable addons root.", "Configure a writable --addons-path.")
        return [(root, root.path / given) for root in roots]

    def _first_creatable(self, candidates: list[tuple[Root, Path]]) -> tuple[Root, Path]:
        for root, raw in candidates:
            parent = _nearest_existing(raw)
            if parent is not None and parent.is_dir() and _inside(_realpath(parent), root.path):
                return root, raw
        return candidates[0]

    def _check_writable(self, root: Root, user_path: str) -> None:
        if root.readonly:
            raise SandboxViolation(
                f"{user_path!r} is in a read-only root ({root.path}).",
                "The Odoo source is knowledge only; write your change in an addons root.",
            )

    def _check_parent(self, real: Path, root: Root, user_path: str) -> None:
        parent = _nearest_existing(real)
        if parent is None or not _inside(_realpath(parent), root.path):
            raise SandboxViolation(
                f"The folder for {user_path!r} resolves outside the addons roots.",
                "Create files only inside an addons root.",
            )
        if not parent.is_dir():
            raise InvalidInput(f"{user_path!r}: {parent.name!r} is a file, not a folder.")


def _check_not_reserved(user_path: str, real: Path) -> None:
    if reserved_name(Path(user_path).name) or reserved_name(real.name):
        raise SandboxViolation(
            f"{user_path!r} is a name reserved for assista-odoo's own journals and staged files "
            "(.assista-journal-*.json, .<name>.<pid>-<hex>.tmp).",
            "Choose another file name.",
        )


def _make_root(value: Path | str, *, readonly: bool) -> Root:
    path = Path(value).expanduser()
    if not path.is_dir():
        raise ConfigError(f"Addons path {str(value)!r} is not a folder.", "Check --addons-path.")
    return Root(path=_realpath(path.absolute()), readonly=readonly)


def _validate_text(user_path: str) -> None:
    if not isinstance(user_path, str) or not user_path.strip():
        raise InvalidInput("Empty path.", "Give a path relative to an addons root, e.g. 'my_module'.")
    if "\x00" in user_path:
        raise InvalidInput("The path contains a NUL byte.", "Remove it.")
    try:
        user_path.encode("utf-8")
    except UnicodeEncodeError as exc:  # lone surrogates: no file name to map them to, os calls crash
        raise InvalidInput("The path is not valid Unicode (lone surrogate).", "Send UTF-8 text.") from exc
    if len(user_path) > MAX_PATH_CHARS:
        raise InvalidInput(f"The path is longer than {MAX_PATH_CHARS} characters.", "Shorten it.")
    if any(len(part.encode("utf-8", "surrogateescape")) > 255 for part in user_path.split("/")):
        raise InvalidInput("A path component is longer than 255 bytes.", "Shorten it.")


def _realpath(path: Path) -> Path:
    try:
        real = os.path.realpath(path)
    except OSError as exc:  # symlink loops, too-long names
        if exc.errno in (errno.ELOOP, errno.ENAMETOOLONG):
            raise InvalidInput(f"Cannot resolve {path}: {exc.strerror}.") from exc
        raise
    # Non-strict realpath stops at a symlink loop and returns a path that is still a link.
    if os.path.islink(real):
        raise InvalidInput(f"Cannot resolve {path}: symbolic link loop.", "Remove or fix the link.")
    return Path(real)


def _final_link(raw: Path) -> Path | None:
    """The symlink ``raw`` names (its folder resolved), or None when the last part is no link."""
    if raw.name in ("", ".", ".."):
        return None
    candidate = _realpath(raw.parent) / raw.name
    return candidate if os.path.islink(candidate) else None


def _inside(path: Path, root: Path) -> bool:
    # Component-wise, never a bare string prefix: "/a/addons2" is not inside "/a/addons". Both
    # are normalized absolute paths, so comparing up to a separator is exact (and much cheaper
    # than Path.is_relative_to on the hot path of every tool call).
    text, base = str(path), str(root)
    return text == base or text.startswith(base if base.endswith("/") else base + "/")


def _rel(real: Path, root: Path) -> str:
    """POSIX path of ``real`` below ``root`` ("." for the root itself); ``real`` is inside it."""
    text, base = str(real), str(root)
    return text[len(base) :].lstrip("/") or "."


def _stat(path: Path) -> os.stat_result | None:
    try:
        return os.stat(path)
    except (OSError, ValueError):
        return None


def _nearest_existing(path: Path) -> Path | None:
    for candidate in (path, *path.parents):
        if os.path.lexists(candidate):
            return candidate
    return None


def _check_kind(found: os.stat_result, user_path: str) -> None:
    mode = found.st_mode
    if stat.S_ISDIR(mode) or stat.S_ISREG(mode):
        return
    raise SandboxViolation(
        f"{user_path!r} is a device, FIFO or socket.", "Only regular files and folders can be used."
    )
