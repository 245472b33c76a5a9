"""The code-quality gate runs as part of the suite: ruff, mypy --strict, the dependency rule."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

REPO = Path(__file__).resolve().parent.parent
PACKAGES = (
    "odoo_tools.runs",
    "odoo_tools.addons",
    "odoo_tools.files",
    "odoo_tools.index",
    "odoo_tools.lint",
    "odoo_tools.lint.reporters",
    "odoo_tools.odoo_log",
    "odoo_tools.series",
    "odoo_tools.migrate",
    "assista_mcp.cli",
    "assista_mcp.agent.terminal",
    "assista_mcp.agent.safety",
    "assista_mcp.agent.loop",
    "assista_mcp.agent.model",
    "assista_mcp.server.tools",
    "assista_mcp.config",
    "assista_mcp.safety",
)


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=600)


def test_ruff_is_clean() -> None:
    result = _run(sys.executable, "-m", "ruff", "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_is_clean() -> None:
    result = _run(sys.executable, "-m", "mypy")
    assert result.returncode == 0, result.stdout + result.stderr


def test_import_contracts_are_kept() -> None:
    # cli -> agent -> server -> safety | config, no cycles, faces only: see [tool.importlinter].
    result = _run(str(Path(sys.executable).with_name("lint-imports")), "--no-cache")
    assert result.returncode == 0, result.stdout + result.stderr


def test_import_contracts_catch_a_violation(tmp_path: Path) -> None:
    # The contracts must be able to fail: odoo_tools importing the server, a private module reached into.
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    contracts = pyproject[pyproject.index("[tool.importlinter]") :]
    # The tiny tree has none of the imports the real config ignores: do not report them as stale.
    relaxed = '[[tool.importlinter.contracts]]\nunmatched_ignore_imports_alerting = "none"'
    (tmp_path / "pyproject.toml").write_text(contracts.replace("[[tool.importlinter.contracts]]", relaxed))
    for package in PACKAGES:
        folder = tmp_path / package.replace(".", "/")
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "__init__.py").touch()
    (tmp_path / "odoo_tools" / "runs" / "_pg.py").touch()
    (tmp_path / "assista_mcp" / "agent" / "events.py").touch()
    for name in (
        "stdio_transport",
        "http_transport",
        "sdk_adapter",
        "http_guard",
        "http_limits",
        "prompts",
        "resources",
        "context",
    ):
        (tmp_path / "assista_mcp" / "server" / f"{name}.py").touch()
    # odoo_tools' floors: every module the contracts name is there (as a package, or a file beside
    # it); series (low) reaching up into lint breaks them
    for contract in tomllib.loads(pyproject)["tool"]["importlinter"]["contracts"]:
        for container in contract.get("containers", []) if contract["type"] == "layers" else []:
            for layer in contract["layers"]:
                for name in layer.replace(":", "|").split("|"):
                    module = tmp_path / container.replace(".", "/") / name.strip(" ()").replace(".", "/")
                    if not module.is_dir():
                        module.parent.mkdir(parents=True, exist_ok=True)
                        module.with_suffix(".py").touch()
    (tmp_path / "odoo_tools" / "series" / "__init__.py").write_text("import odoo_tools.lint\n")
    (tmp_path / "odoo_tools" / "process.py").write_text("import assista_mcp.server.mcp_server\n")
    (tmp_path / "assista_mcp" / "server" / "mcp_server.py").write_text("from odoo_tools.runs._pg import x\n")
    result = subprocess.run(
        [str(Path(sys.executable).with_name("lint-imports")), "--no-cache"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(tmp_path)},
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert "no MCP, no LiteLLM, no server BROKEN" in result.stdout
    assert "used through their faces BROKEN" in result.stdout
    assert "odoo_tools floors: each package imports only the floors below it BROKEN" in result.stdout
