"""Adopting the gate on an existing repository (--baseline, --new-only) and `check PATH...` without
--addons-path, the way linters take paths (the README's pre-commit hook on a subfolder layout)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import git
import yaml

from tests.lint.conftest import REPO, run_cli
from tests.lint.test_static_checks import _module

OLD = (
    "from odoo import models\n\n\nclass A(models.Model):\n    _inherit = 'res.partner'\n\n"
    "    def a(self):\n        return undefined_a\n"
)


def _repo(root: Path) -> Path:
    _module(root / "src" / "addons", "shop", ["base"], [], {"models.py": OLD})
    (root / "src" / "addons" / "shop" / "__init__.py").write_text("from . import models\n", encoding="utf-8")
    repo = git.Repo.init(root)
    repo.git.add(A=True)
    repo.git.commit(
        m="old code",
        author="t <t@example.com>",
        env={"GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@e"},
    )
    return root


def _check(root: Path, *args: str) -> tuple[int, dict[str, object]]:
    result = run_cli(["check", "--checks", "flake8", "--format", "json", *args], root, root.parent / "cache")
    return result.returncode, json.loads(result.stdout)


def _undefined(payload: dict[str, object]) -> list[int]:
    return sorted(f["line"] for f in payload["findings"] if f["code"] == "F821")  # type: ignore[attr-defined]


def test_baseline_hides_known_findings_across_line_shifts(tmp_path: Path) -> None:
    root = _repo(tmp_path / "r")
    baseline = root / "baseline.json"
    code, first = _check(root, "--baseline", str(baseline))
    assert code == 0 and baseline.is_file() and first["findings"] == []
    models = root / "src" / "addons" / "shop" / "models.py"
    # Unrelated lines added above the known problem, and one new problem below.
    text = models.read_text().replace("class A", "# a comment\n# another\n\n\nclass A")
    models.write_text(text + "\n    def b(self):\n        return undefined_b\n")
    code, later = _check(root, "--baseline", str(baseline))
    assert code == 1 and _undefined(later) == [15]
    (note,) = [n for n in later["notes"] if "known finding(s) hidden" in n]  # type: ignore[attr-defined]
    assert not note.endswith(": 0 known finding(s) hidden")
    code, _ = _check(root, "--baseline", str(baseline), "--update-baseline")
    assert code == 0 and _check(root, "--baseline", str(baseline))[0] == 0


def test_new_only_reports_only_changed_lines(tmp_path: Path) -> None:
    root = _repo(tmp_path / "r")
    models = root / "src" / "addons" / "shop" / "models.py"
    models.write_text(models.read_text() + "\n    def b(self):\n        return undefined_b\n")
    code, payload = _check(root, "--new-only", "--base", "HEAD")
    assert code == 1 and _undefined(payload) == [11]
    assert any("on lines unchanged" in n for n in payload["notes"])  # type: ignore[attr-defined]
    code, everything = _check(root)
    assert _undefined(everything) == [8, 11]


def test_paths_without_addons_path(tmp_path: Path) -> None:
    root = _repo(tmp_path / "r")
    module = root / "src" / "addons" / "shop"
    for target in ([], [str(root)], [str(module)], [str(module / "models.py")], [str(module.parent)]):
        code, payload = _check(root, *target)
        assert (code, payload["modules"]) == (1, ["shop"]), target
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run_cli(["check", str(empty)], tmp_path, tmp_path / "cache")
    assert result.returncode == 2 and "No Odoo module found in" in result.stderr + result.stdout
    assert str(empty) in result.stderr + result.stdout


def test_a_mistyped_path_is_a_usage_error_not_ok(tmp_path: Path) -> None:
    root = _repo(tmp_path / "r")
    module = root / "src" / "addons" / "shop"
    for target in ([str(tmp_path / "nonexistent")], [str(module), str(module / "modles.py")]):
        result = run_cli(["check", *target], tmp_path, tmp_path / "cache")
        out = result.stderr + result.stdout
        assert result.returncode == 2 and "No such file or folder" in out, out
        assert target[-1] in out and "ok:" not in out


def test_readme_pre_commit_hook_works_with_modules_in_a_subfolder(tmp_path: Path) -> None:
    root = _repo(tmp_path / "r")
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    hook = next(h for h in hooks if h["id"] == "assista-odoo-check")
    argv = shlex.split(hook["entry"])[1:] + list(hook["args"])
    staged = ["src/addons/shop/models.py", "setup.py"]
    (root / "setup.py").write_text("print('not a module')\n", encoding="utf-8")
    result = run_cli([*argv, "--checks", "flake8", *staged], root, tmp_path / "cache")
    assert result.returncode == 1 and "F821" in result.stdout, result.stdout + result.stderr
    only_setup = run_cli([*argv, "--checks", "flake8", "setup.py"], root, tmp_path / "cache")
    assert only_setup.returncode == 0, only_setup.stdout + only_setup.stderr
