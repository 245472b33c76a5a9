"""``Project``: one description of the project whose addons, series and index every reader shares."""

from __future__ import annotations

import threading
from pathlib import Path

from odoo_tools.lint import lint_project
from odoo_tools.project import Project
from odoo_tools.series import Series


def _module(root: Path, name: str, version: str, depends: tuple[str, ...] = ()) -> None:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("", encoding="utf-8")
    manifest = {"name": name, "version": version, "depends": list(depends), "license": "LGPL-3"}
    (folder / "__manifest__.py").write_text(repr(manifest), encoding="utf-8")


def test_the_series_is_read_from_the_own_modules_never_from_odoos_core_beside_them(tmp_path: Path) -> None:
    own, core = tmp_path / "own", tmp_path / "core"
    _module(own, "shop", "17.0.1.0.0")
    for name in ("base", "web", "mail"):
        _module(core, name, "18.0.1.0")  # more core modules than own ones: still not the project's
    info = Project.open([own], [core]).series()
    assert (info.series, info.source, info.value) == ("17.0", "manifests", Series(17))


def test_an_unsupported_series_has_no_value_only_its_name(tmp_path: Path) -> None:
    _module(tmp_path, "old", "15.0.1.0.0")
    info = Project.open([tmp_path]).series()
    assert (info.series, info.value) == ("15.0", None)


def test_addons_and_series_follow_the_disk_and_the_index_is_built_once(tmp_path: Path) -> None:
    project = Project.open([tmp_path], series="18.0")
    assert project.series().source == "setting" and not project.addons().addons
    _module(tmp_path, "later", "17.0.1.0.0")
    assert list(project.addons().addons) == ["later"]
    assert project.series().series == "17.0"
    built = []
    threads = [threading.Thread(target=lambda: built.append(project.index())) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len({id(index) for index in built}) == 1 and built[0] is project.index()
    assert project.index().manifests is project.manifests  # each manifest parsed once for all readers
    assert project.index().module_info("later").name == "later"
    assert project.forget_index() is built[0] and project.index() is not built[0]


def test_lint_reads_the_projects_series_and_shares_its_index(tmp_path: Path) -> None:
    _module(tmp_path, "shop", "16.0.1.0.0")
    project = Project.open([tmp_path])
    linted = lint_project(project)
    assert linted.series == "16.0" and [a.name for a in linted.checkable()] == ["shop"]
    assert linted.index() is project.index()
