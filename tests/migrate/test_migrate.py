"""The migration as a whole: dry runs change nothing, writes stay inside the module, commits."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import git
import pytest

from odoo_tools.errors import InvalidInput, NotFound
from odoo_tools.files import path_locks
from odoo_tools.migrate import migrate, plan_migration
from odoo_tools.migrate._step import migrate_step
from odoo_tools.migrate.engine.module_files import ModuleFiles

from .conftest import snapshot


def test_dry_run_changes_nothing(modules: Path) -> None:
    before = snapshot(modules)
    report = migrate([modules / "v16", modules / "v17", modules / "v18"], "19.0")
    assert snapshot(modules) == before
    assert not report.written and all(m.diff for m in report.modules)


def test_plan_orders_by_dependencies(tmp_path: Path) -> None:
    for name, depends in (("a_base", []), ("z_first", []), ("b_uses_z", ["z_first", "mail"])):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__manifest__.py").write_text(
            f"{{'version': '17.0.1.0.0', 'depends': {depends!r}}}"
        )
    assert [p.name for p in plan_migration([tmp_path], "18.0")] == ["a_base", "z_first", "b_uses_z"]
    (tmp_path / "z_first" / "__manifest__.py").write_text(
        "{'version': '17.0.1.0.0', 'depends': ['b_uses_z']}"
    )
    assert sorted(p.name for p in plan_migration([tmp_path], "18.0")) == ["a_base", "b_uses_z", "z_first"]


@pytest.mark.parametrize(
    ("version", "to", "error"),
    [
        ("1.0", "18.0", InvalidInput),
        ("18.0.1.0.0", "17.0", InvalidInput),
        ("17.0.1.0.0", "eighteen", InvalidInput),
        ("17.0.1.0.0", "21.0", InvalidInput),  # not a series the registry knows
        ("15.0.1.0.0", "17.0", InvalidInput),  # nor as a source: its step's rules were never written
    ],
)
def test_bad_plans_are_refused(tmp_path: Path, version: str, to: str, error: type[Exception]) -> None:
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "__manifest__.py").write_text(f"{{'version': {version!r}}}")
    with pytest.raises(error):
        migrate([tmp_path / "m"], to)


def test_from_series_for_a_version_without_one(tmp_path: Path) -> None:
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "__manifest__.py").write_text("{'version': '1.0'}")
    [module] = migrate([tmp_path / "m"], "18.0", from_series="17.0", write=True).modules
    assert module.from_series == "17.0"
    assert (tmp_path / "m" / "__manifest__.py").read_text() == "{'version': '18.0.1.0.0'}"


def test_not_a_module(tmp_path: Path) -> None:
    with pytest.raises(NotFound):
        migrate([tmp_path], "18.0")


def test_writes_never_leave_the_module(modules: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.xml"
    arch = '<field name="arch" type="xml"><tree/></field>'
    outside.write_text(f'<odoo><record id="v" model="ir.ui.view">{arch}</record></odoo>')
    module = modules / "v17" / "mig_views"
    os.symlink(outside, module / "views" / "linked.xml")
    os.symlink(tmp_path, module / "data" / "linked_folder")
    before = outside.read_bytes()
    [result] = migrate([modules / "v17"], "18.0", write=True).modules
    assert outside.read_bytes() == before
    assert "views/linked.xml" not in result.changed
    assert all(not path.startswith("..") for path in result.changed + result.deleted)
    assert (module / "views" / "linked.xml").is_symlink()


def test_commit_per_module_and_step(modules: Path) -> None:
    repo = git.Repo.init(modules)
    repo.index.add(
        [str(p.relative_to(modules)) for p in modules.rglob("*") if p.is_file() and ".git" not in p.parts]
    )
    repo.index.commit("fixtures")
    (modules / "unrelated.txt").write_text("not part of the migration\n")
    [module] = migrate([modules / "v16"], "18.0", commit=True).modules
    messages = [c.message for c in repo.iter_commits(max_count=3)]
    assert messages == [
        "[MIG] mig_attrs: Migration to 18.0",
        "[MIG] mig_attrs: Migration to 17.0",
        "fixtures",
    ]
    assert [s.commit for s in module.steps] == [c.hexsha for c in repo.iter_commits(max_count=2)][::-1]
    changed = repo.head.commit.stats.files
    assert all(str(path).startswith("v16/mig_attrs/") for path in changed)
    assert repo.untracked_files == ["unrelated.txt"]
    assert not repo.is_dirty(untracked_files=False)


def test_commit_refuses_uncommitted_changes_of_the_module(modules: Path) -> None:
    # They went into the "[MIG] mig_attrs: Migration to 17.0" commit as if the migration made them.
    repo = git.Repo.init(modules)
    repo.index.add(
        [str(p.relative_to(modules)) for p in modules.rglob("*") if p.is_file() and ".git" not in p.parts]
    )
    repo.index.commit("fixtures")
    views = modules / "v16/mig_attrs/views/thing_views.xml"
    views.write_text(views.read_text().replace("<odoo>", "<odoo>\n<!-- a local edit -->", 1))
    before = snapshot(modules / "v16")
    with pytest.raises(InvalidInput, match=r"mig_attrs has uncommitted changes \(v16/mig_attrs/views/thing"):
        migrate([modules / "v16"], "18.0", commit=True)
    assert snapshot(modules / "v16") == before and repo.head.commit.message == "fixtures"
    repo.index.add([str(views.relative_to(modules))])
    with pytest.raises(InvalidInput, match="staged changes"):
        migrate([modules / "v16"], "18.0", commit=True)
    assert snapshot(modules / "v16") == before and repo.head.commit.message == "fixtures"


def test_commit_needs_a_repository(modules: Path) -> None:
    before = snapshot(modules)
    with pytest.raises(InvalidInput):
        migrate([modules / "v18"], "19.0", commit=True)
    assert snapshot(modules) == before


def test_steps_follow_the_registry(tmp_path: Path) -> None:
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "__manifest__.py").write_text("{'version': '16.0.1.0.0'}")
    [planned] = plan_migration([tmp_path / "m"], "20.0")
    steps = [(str(source), str(target)) for source, target in planned.steps]
    assert steps == [("16.0", "17.0"), ("17.0", "18.0"), ("18.0", "19.0"), ("19.0", "20.0")]
    assert plan_migration([tmp_path / "m"], "16.0")[0].steps == []


def test_a_file_changed_meanwhile_is_not_overwritten(modules: Path) -> None:
    """The files are read, migrated in memory, then written: an edit made in between (an editor,
    an agent) is not replaced by a migration of the old text; nothing of the module is written."""
    folder = modules / "v17" / "mig_views"
    files = ModuleFiles.read(folder)
    for source, target in plan_migration([folder], "18.0")[0].steps:
        migrate_step(files, source, target)
    changes = files.changes()
    assert len(changes) > 1
    edited = folder / changes[-1].path
    edited.write_text("# edited by hand meanwhile\n")
    before = snapshot(folder)
    with pytest.raises(InvalidInput, match="changed on disk"):
        files.write(changes)
    assert snapshot(folder) == before


def test_writes_wait_for_the_write_locks(modules: Path) -> None:
    """A write of ours elsewhere (another server, the agent) holding a file's lock delays the
    migration's write until it is released."""
    folder = modules / "v17" / "mig_views"
    manifest = (folder / "__manifest__.py").resolve()
    done = threading.Event()

    def run() -> None:
        migrate([folder], "18.0", write=True)
        done.set()

    with path_locks(manifest):
        worker = threading.Thread(target=run)
        worker.start()
        assert not done.wait(3.0)
        assert "17.0." in manifest.read_text()
    worker.join(30)
    assert done.is_set() and "18.0." in manifest.read_text()


def test_a_python_file_too_deeply_nested_to_parse_is_left_alone(tmp_path: Path) -> None:
    """Python cannot compile it (RecursionError, as Odoo's import would fail) and libcst takes
    minutes on it: it is not read, so no pass crashes or hangs on it, and it is written as it was."""
    module = tmp_path / "deep"
    module.mkdir()
    (module / "__manifest__.py").write_text("{'version': '16.0.1.0.0', 'depends': ['base']}\n")
    deep = "from odoo import fields, tools\n\nX = 1" + " + 1" * 30_000 + "\n"
    (module / "deep.py").write_text(deep)
    [migrated] = migrate([module], "17.0", write=True).modules
    assert (module / "deep.py").read_text() == deep
    assert "version': '17.0.1.0.0'" in (module / "__manifest__.py").read_text()
    assert "deep.py" not in migrated.changed
