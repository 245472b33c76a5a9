"""The code-quality gate runs as part of the suite: ruff, mypy --strict, the dependency rule."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FORBIDDEN_IN_ODOO_TOOLS = ("assista_mcp", "mcp", "litellm")


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=600)


def test_ruff_is_clean() -> None:
    result = _run(sys.executable, "-m", "ruff", "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_is_clean() -> None:
    result = _run(sys.executable, "-m", "mypy")
    assert result.returncode == 0, result.stdout + result.stderr


def _imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_odoo_tools_imports_nothing_from_mcp_litellm_or_assista_mcp() -> None:
    offenders = {
        str(path.relative_to(REPO)): sorted(_imported_roots(path) & set(FORBIDDEN_IN_ODOO_TOOLS))
        for path in (REPO / "odoo_tools").rglob("*.py")
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_dependency_rule_check_detects_a_violation(tmp_path: Path) -> None:
    # The rule above must be able to fail: an import of mcp is seen.
    sample = tmp_path / "bad.py"
    sample.write_text("import mcp.types\nfrom litellm import completion\n", encoding="utf-8")
    assert _imported_roots(sample) & set(FORBIDDEN_IN_ODOO_TOOLS) == {"mcp", "litellm"}
