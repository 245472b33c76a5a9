"""Tasks mined from two released wheels of one module (benchmarks/odoo_tasks/wheels.py): the patches
are those of an addons folder, FAIL_TO_PASS are the changed tests, the module before is rebuilt from
the cached older wheel (checked by sha256), and a wheel's hostile member is refused."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from benchmarks.odoo_tasks import wheels
from benchmarks.odoo_tasks.tasks_io import apply_patch, build_before, load_task, save_task
from benchmarks.odoo_tasks.wheel_diff import unpack_module

MANIFEST = "{'name': 'Bench Isbn', 'version': '%s', 'depends': ['base'], 'license': 'AGPL-3'}"
TEST = "class TestBook:\n    def test_title(self):\n        pass\n"
NEW_TEST = TEST + "\n    def test_isbn(self):\n        assert True\n"


def _wheel(folder: Path, version: str, model: str, test: str, readme: str = "") -> Path:
    path = folder / f"odoo_addon_bench_isbn-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        base = "odoo/addons/bench_isbn/"
        archive.writestr(base + "__manifest__.py", MANIFEST % version)
        archive.writestr(base + "models/book.py", model)
        archive.writestr(base + "tests/test_book.py", test)
        archive.writestr(base + "i18n/fr.po", f"# {version}\n")
        if readme:
            archive.writestr(base + "readme/HISTORY.md", readme)
    return path


def test_two_releases_make_a_task_rebuilt_from_the_older_wheel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache, newest = tmp_path / "cache", tmp_path / "newest"
    cache.mkdir()
    newest.mkdir()
    old = _wheel(cache, "18.0.1.0.0.2", "title = 1\n", TEST)
    new = _wheel(newest, "18.0.1.0.1", "title = 1\nisbn = 2\n", NEW_TEST, "- Check the ISBN of a book\n")
    made = wheels.task_of("18.0", "bench_isbn", old, new)
    assert not isinstance(made, str)
    task, code_patch, test_patch = made
    assert task.fail_to_pass == ["TestBook.test_isbn"] and task.pass_to_pass == ["TestBook.test_title"]
    assert (task.commit, task.parent) == (
        "odoo-addon-bench_isbn==18.0.1.0.1",
        "odoo-addon-bench_isbn==18.0.1.0.0.2",
    )
    assert "Check the ISBN of a book" in task.statement
    assert "+isbn = 2" in code_patch and "a/bench_isbn/models/book.py" in code_patch
    assert "i18n" not in code_patch and "tests/" not in code_patch
    assert "b/bench_isbn/tests/test_book.py" in test_patch
    save_task(task, code_patch, test_patch, tmp_path / "tasks")
    monkeypatch.setenv("ASSISTA_BENCH_WHEELS", str(cache))
    stored = load_task(tmp_path / "tasks" / task.id)
    addons = tmp_path / "addons"
    build_before(stored, addons)
    assert (addons / "bench_isbn" / "models" / "book.py").read_text() == "title = 1\n"
    assert apply_patch(addons, stored.code_patch()) is None
    assert apply_patch(addons, stored.test_patch()) is None
    assert "isbn = 2" in (addons / "bench_isbn" / "models" / "book.py").read_text()
    # A different wheel under the recorded name is not used.
    old.write_bytes(old.read_bytes() + b"\0")
    with pytest.raises(SystemExit, match="sha256"):
        build_before(stored, tmp_path / "again")


def test_releases_without_a_test_change_make_no_task(tmp_path: Path) -> None:
    old = _wheel(tmp_path, "18.0.1.0.0", "title = 1\n", TEST)
    (tmp_path / "n").mkdir()
    new = _wheel(tmp_path / "n", "18.0.1.0.1", "title = 3\n", TEST)
    assert wheels.task_of("18.0", "bench_isbn", old, new) == "code+tests"


def test_a_wheel_member_leaving_the_module_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "odoo_addon_bench_isbn-18.0.1.0.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("odoo/addons/bench_isbn/__manifest__.py", "{}")
        archive.writestr("odoo/addons/bench_isbn/../../../../escaped.py", "x = 1\n")
    with pytest.raises(ValueError, match="leaves the module folder"):
        unpack_module(path, "bench_isbn", tmp_path / "out")
    assert not (tmp_path / "escaped.py").exists() and not (tmp_path.parent / "escaped.py").exists()


def test_the_miner_says_a_missing_wheel_folder_in_one_line(tmp_path: Path) -> None:
    assert wheels.main(["--series", "18.0", "--wheels", str(tmp_path / "none")]) == 2
