"""What the findings cache is keyed on: our own checking code (no hand-bumped version), the
linters' versions, the configuration and the files each check reads."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from odoo_tools.lint._cache import CODE_ROOT, LintCache, code_digest
from tests.lint.conftest import FIXTURE_ADDONS

# Runs the static checks with a cache, using whichever odoo_tools PYTHONPATH puts first.
SCRIPT = """
import json, sys
from pathlib import Path
import odoo_tools
from odoo_tools.lint import FileDigests, LintCache, lint_addons_sync, load_project
project = load_project([Path(sys.argv[1])])
run = lint_addons_sync(project, project.select([]), ["static"], cache=LintCache(Path(sys.argv[2])),
                       digests=FileDigests())
print(json.dumps({"code": odoo_tools.__file__, "checked": run.checked,
                  "messages": [f.message for f in run.findings if f.code == "missing-access-rule"]}))
"""


def _copy_code(target: Path) -> Path:
    shutil.copytree(CODE_ROOT, target / "odoo_tools", ignore=shutil.ignore_patterns("__pycache__"))
    return target / "odoo_tools"


def test_the_code_digest_follows_every_file_of_our_checking_code(tmp_path: Path) -> None:
    code = _copy_code(tmp_path)
    assert code_digest(code) == code_digest(CODE_ROOT)
    (code / "lint" / "config" / "pylintrc").write_text("[MASTER]\n", encoding="utf-8")  # data counts
    assert code_digest.__wrapped__(code) != code_digest(CODE_ROOT)


def test_a_fixed_check_answers_anew_without_a_manual_version_bump(tmp_path: Path) -> None:
    code = _copy_code(tmp_path / "code")
    addons = tmp_path / "addons"
    shutil.copytree(FIXTURE_ADDONS, addons)

    def run() -> dict[str, object]:
        env = {**os.environ, "PYTHONPATH": str(code.parent), "PYTHONDONTWRITEBYTECODE": "1"}
        argv = [sys.executable, "-c", SCRIPT, str(addons), str(tmp_path / "cache")]
        result = subprocess.run(
            argv, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300, check=True
        )
        payload: dict[str, object] = json.loads(result.stdout)
        assert str(payload["code"]).startswith(str(code))  # the copy ran, not the installed code
        return payload

    first = run()
    assert run()["checked"] == {}  # unchanged code: every answer from the cache
    models = code / "lint" / "_static" / "models.py"
    text = models.read_text(encoding="utf-8")
    assert "only the superuser can use it." in text
    models.write_text(text.replace("only the superuser can use it.", "only the superuser (fixed)."))
    fixed = run()
    assert fixed["checked"] != {} and fixed["messages"] != first["messages"]
    assert all("(fixed)" in str(m) for m in fixed["messages"])  # type: ignore[attr-defined]


def test_the_cache_drops_its_oldest_answers_beyond_its_bound(tmp_path: Path) -> None:
    cache = LintCache(tmp_path, max_per_folder=2)
    keys = [f"ab{n}" for n in range(3)]  # one key prefix: one folder
    for age, key in enumerate(keys):
        cache.put(key, [])
        entry = tmp_path / "lint" / "ab" / f"{key}.json"
        os.utime(entry, (1_000 + age, 1_000 + age))  # written in this order
    assert cache.get(keys[0]) is None  # the oldest went
    assert cache.get(keys[1]) == [] and cache.get(keys[2]) == []
