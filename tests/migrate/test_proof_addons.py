"""The proof's addons path: a private folder of links to the migrated modules and their dependency
closure, nothing else, removed without touching what the links lead to."""

from __future__ import annotations

import os
from pathlib import Path

from odoo_tools.addons import discover_addons
from odoo_tools.migrate import proof_addons


def _module(root: Path, name: str, depends: list[str], version: str = "18.0.1.0.0") -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "__manifest__.py").write_text(repr({"name": name, "version": version, "depends": depends}))
    return folder


def test_only_the_migrated_modules_and_their_dependencies_are_linked(tmp_path: Path) -> None:
    repo, other, core = tmp_path / "repo", tmp_path / "other", tmp_path / "core"
    study = _module(repo, "study", ["dep_beside", "dep_other", "base", "nowhere"])
    _module(repo, "dep_beside", ["dep_deep"])
    _module(repo, "dep_deep", ["base"])
    _module(repo, "sibling", ["base"], "17.0.1.0.0")  # not needed: never on the path
    _module(other, "dep_other", ["base"])
    _module(core, "base", [])
    with proof_addons() as links:
        linked = links.fill({"study": study}, [other, repo], core_roots=[core])
        assert sorted(linked) == ["dep_beside", "dep_deep", "dep_other", "study"]  # no core, no sibling
        assert sorted(os.listdir(links.folder)) == sorted(linked)
        assert oct(links.folder.stat().st_mode & 0o777) == "0o700"
        # the runner follows these links (and only in a folder it was told we made)
        assert sorted(discover_addons([links.folder], linked_roots=[links.folder]).addons) == sorted(linked)
        assert discover_addons([links.folder]).addons == {}
        folder = links.folder
    assert not folder.exists()
    assert sorted(p.name for p in repo.iterdir()) == ["dep_beside", "dep_deep", "sibling", "study"]
    assert (repo / "study/__manifest__.py").is_file()


def test_the_migrated_module_wins_over_a_copy_earlier_on_the_path(tmp_path: Path) -> None:
    study = _module(tmp_path / "repo", "study", ["base"])
    _module(tmp_path / "configured", "study", ["base"], "17.0.1.0.0")
    with proof_addons() as links:
        assert links.fill({"study": study}, [tmp_path / "configured", study.parent]) == {"study": study}


def test_a_dependency_linked_out_of_its_root_is_not_followed(tmp_path: Path) -> None:
    """An addons tree is hostile: a module folder that is a symlink leaving its root stays out."""
    repo = tmp_path / "repo"
    study = _module(repo, "study", ["secret"])
    _module(tmp_path / "elsewhere", "secret", [])
    (repo / "secret").symlink_to(tmp_path / "elsewhere" / "secret")
    with proof_addons() as links:
        assert links.fill({"study": study}, [repo]) == {"study": study}
