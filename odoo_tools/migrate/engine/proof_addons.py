"""The addons path of a proof: a private folder of links to the migrated modules and their
dependency closure, and nothing else.

Odoo reads every manifest of its addons path before any install: a sibling the run did not touch,
still at the old series, made every install fail (``Invalid version '17.0.1.0.0'``) although the
migrated module itself was fine. Migrating one module of a repository at a time is OCA's workflow,
so the proof sees only what the migrated modules need.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path

from odoo_tools.addons import Addon, AddonSet, discover_addons


class ProofAddons:
    """A folder of ``<module> -> <module folder>`` links that only this process writes: made by
    ``mkdtemp`` (mode 0700, a fresh name), filled once, emptied link by link at the end."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.linked: dict[str, Path] = {}

    def fill(
        self, migrated: Mapping[str, Path], roots: Sequence[Path], core_roots: Sequence[Path] = ()
    ) -> dict[str, Path]:
        """Link the ``migrated`` modules (name -> folder) and every module they depend on, found in
        ``roots`` (first copy wins, as on Odoo's addons path; a migrated module wins over any
        copy). Modules of ``core_roots`` are left out: the runner puts Odoo's own folders on the
        path itself. A dependency found nowhere is left to the install to report."""
        core = {os.path.realpath(root) for root in core_roots}
        found = discover_addons([r for r in roots if os.path.realpath(r) not in core])
        chosen = {
            name: addon for name, addon in found.addons.items() if os.path.realpath(addon.root) not in core
        }
        own = discover_addons(list(dict.fromkeys(folder.parent for folder in migrated.values())))
        for name, folder in migrated.items():
            addon = own.addons.get(name)
            if addon is not None and os.path.realpath(addon.path) == os.path.realpath(folder):
                chosen[name] = addon
        addons = AddonSet(addons=chosen)
        for name in sorted(addons.closure(migrated)):
            self._link(name, addons.addons[name])
        return dict(self.linked)

    def _link(self, name: str, addon: Addon) -> None:
        # The discovered folder (a symlink only when it stays inside its root), resolved: the link
        # leads straight to the module, never through a link an addons tree could change later.
        target = Path(os.path.realpath(addon.path))
        os.symlink(target, self.folder / name, target_is_directory=True)
        self.linked[name] = target

    def remove(self) -> None:
        """Only the links this object made, then the (then empty) folder: never what they lead to."""
        for name in self.linked:
            link = self.folder / name
            if link.is_symlink():
                link.unlink()
        self.linked.clear()
        with suppress(OSError):  # something else was put there: left as it is, not guessed at
            self.folder.rmdir()


@contextmanager
def proof_addons() -> Iterator[ProofAddons]:
    """An empty private folder of links, removed on exit."""
    made = ProofAddons(Path(tempfile.mkdtemp(prefix="assista-prove-")))
    try:
        yield made
    finally:
        made.remove()
