"""A broken symlink in a module: no finding points outside the repository (ruff named the link's
target, /nonexistent, in SARIF and GitHub annotations) and a linter's message keeps to one line
(pylint's F0010 carried the OS error on a second line, breaking one-finding-per-line formats)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assista_mcp.cli import main
from odoo_tools.addons import discover_addons
from odoo_tools.lint._configs import config_for_root
from odoo_tools.lint._pylint import split_messages


def _module(root: Path) -> Path:
    module = root / "m"
    (module / "models").mkdir(parents=True)
    manifest = {"name": "m", "version": "17.0.1.0.0", "depends": ["base"], "license": "LGPL-3"}
    (module / "__manifest__.py").write_text(repr(manifest) + "\n")
    (module / "__init__.py").write_text("from . import models\n")
    (module / "models" / "__init__.py").write_text("")
    (module / "models" / "dead.py").symlink_to("/nonexistent")
    (module / "models" / "gone.py").symlink_to("missing.py")  # inside, to nothing
    (module / "models" / "broken.py").write_text("def f(:\n    pass\n")
    return module


@pytest.mark.parametrize("output", ["github", "sarif", "text"])
def test_a_broken_link_is_a_finding_inside_the_repository(
    tmp_path: Path, isolated_env: Path, capsys: pytest.CaptureFixture[str], output: str
) -> None:
    _module(tmp_path / "addons")
    code = main(["check", "--addons-path", str(tmp_path / "addons"), "--no-cache", "--format", output])
    out = capsys.readouterr().out
    assert code == 1
    assert "/nonexistent" not in out and "missing.py" not in out
    assert "m/models/dead.py" in out and "m/models/gone.py" in out
    assert "m/models/broken.py" in out  # the rest of the module is linted
    if output == "github":
        lines = [line for line in out.splitlines() if not line.startswith("assista-odoo check:")]
        assert all(line.startswith("::") for line in lines), out
    if output == "sarif":
        uris = [
            location["physicalLocation"]["artifactLocation"]["uri"]
            for run in json.loads(out)["runs"]
            for result in run["results"]
            for location in result.get("locations", [])
        ]
        assert uris and all(not uri.startswith("/") and ".." not in uri for uri in uris), uris


def test_a_pylint_message_on_two_lines_is_one_line(tmp_path: Path) -> None:
    module = _module(tmp_path / "addons")
    addon = discover_addons([tmp_path / "addons"]).addons["m"]
    message = {
        "symbol": "parse-error",
        "messageId": "F0010",
        "type": "fatal",
        "absolutePath": str(module / "models" / "x.py"),
        "line": 1,
        "column": 0,
        "message": "error while code parsing: Unable to load file x.py:\n[Errno 13] Permission denied",
    }
    [finding] = split_messages([message], [addon], config_for_root(addon.root, None, "17.0"))["m"]
    assert (
        finding.message == "error while code parsing: Unable to load file x.py: [Errno 13] Permission denied"
    )
