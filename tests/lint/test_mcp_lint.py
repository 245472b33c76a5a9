"""The lint tools through MCP, as a host or our agent calls them."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import git
import pytest
from mcp import Client

from tests.lint.conftest import run_cli
from tests.lint.test_adoption import OLD
from tests.lint.test_static_checks import _module

pytestmark = pytest.mark.anyio


async def test_tools_are_listed_read_only_with_output_schema(
    server_for: Callable[..., Any], addons: Path
) -> None:
    async with Client(server_for(addons)) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    for name in ("lint_module", "check_module"):
        tool = tools[name]
        assert tool.annotations is not None and tool.annotations.read_only_hint is True
        assert tool.annotations.destructive_hint is False and tool.annotations.idempotent_hint is True
        assert tool.output_schema is not None and "findings" in tool.output_schema["properties"]
        assert tool.description and "cache" in (tools["lint_module"].description or "")


async def test_check_module_returns_findings_then_answers_from_cache(
    server_for: Callable[..., Any], addons: Path
) -> None:
    async with Client(server_for(addons)) as client:
        first = await client.call_tool("check_module", {"module": "library_broken", "min_severity": "error"})
        assert not first.is_error
        data = first.structured_content
        assert data is not None and data["passed"] is False and data["from_cache"] == []
        codes = {(f["code"], f["path"], f.get("line")) for f in data["findings"]}
        assert ("removed-attrs", "library_broken/views/library_review_views.xml", 9) in codes
        assert all(f["severity"] == "error" for f in data["findings"])
        assert "below error left out" in data["note"]
        second = await client.call_tool("check_module", {"module": "library_broken", "min_severity": "error"})
        again = second.structured_content
        assert again is not None and sorted(again["from_cache"]) == sorted(
            f"{check}:library_broken" for check in ("pylint", "flake8", "oca-hooks", "static")
        )
        assert again["findings"] == data["findings"]


async def test_lint_module_many_modules_selected_checks_and_limit(
    server_for: Callable[..., Any], addons: Path
) -> None:
    async with Client(server_for(addons)) as client:
        result = await client.call_tool(
            "lint_module",
            {
                "modules": ["library_broken", "library_loan/models"],
                "checks": ["oca-hooks", "static"],
                "limit": 1,
            },
        )
    data = result.structured_content
    assert data is not None and data["modules"] == ["library_broken", "library_loan"]
    assert data["checks"] == ["oca-hooks", "static"] and data["passed"] is False
    assert len(data["findings"]) == 1 and "showing 1 of" in data["note"]


async def test_paths_outside_the_sandbox_and_unknown_modules_are_errors(
    server_for: Callable[..., Any], addons: Path
) -> None:
    async with Client(server_for(addons)) as client:
        escape = await client.call_tool("lint_module", {"modules": ["../../etc/passwd"]})
        assert escape.is_error
        unknown = await client.call_tool("check_module", {"module": "library_nothing"})
        assert unknown.is_error and "list_modules" in unknown.content[0].text  # type: ignore[union-attr]
        bad_check = await client.call_tool("lint_module", {"modules": "library_base", "checks": ["eslint"]})
        assert bad_check.is_error


def _legacy_repo(root: Path) -> Path:
    """A git repository whose addons root is its top: one module with a known problem, committed,
    and a baseline recorded by ``check`` (as CI does once when adopting the gate)."""
    _module(root, "shop", ["base"], [], {"models.py": OLD})
    (root / "shop" / "__init__.py").write_text("from . import models\n", encoding="utf-8")
    repo = git.Repo.init(root)
    repo.git.add(A=True)
    repo.git.commit(m="old", author="t <t@e>", env={"GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@e"})
    result = run_cli(["check", "--baseline", "baseline.json"], root, root.parent / "cache")
    assert result.returncode == 0 and (root / "baseline.json").is_file(), result.stdout + result.stderr
    models = root / "shop" / "models.py"  # lines added above the known problem, a new one below
    text = models.read_text().replace("class A", "# a comment\n# another\n\n\nclass A")
    models.write_text(text + "\n    def b(self):\n        return undefined_b\n")
    return root


def _error_lines(result: Any) -> list[int]:
    data = result.structured_content
    assert not result.is_error and data is not None, result.content
    return sorted(f["line"] for f in data["findings"] if f["severity"] == "error")


async def test_lint_tools_take_the_ci_baseline_and_new_only(
    server_for: Callable[..., Any], tmp_path: Path
) -> None:
    """The same adoption as check --baseline / --new-only --base: only what is new is returned."""
    root = _legacy_repo(tmp_path / "repo")
    async with Client(server_for(root)) as client:
        everything = await client.call_tool("lint_module", {"module": "shop", "checks": ["flake8"]})
        known_hidden = await client.call_tool(
            "lint_module", {"module": "shop", "checks": ["flake8"], "baseline": "baseline.json"}
        )
        checked = await client.call_tool(
            "check_module", {"module": "shop", "baseline": "baseline.json", "min_severity": "error"}
        )
        changed = await client.call_tool(
            "lint_module", {"module": "shop", "checks": ["flake8"], "new_only": True, "base": "HEAD"}
        )
    assert _error_lines(everything) == [12, 15]
    assert _error_lines(known_hidden) == [15] and known_hidden.structured_content["passed"] is False
    note = known_hidden.structured_content["note"]
    assert "baseline.json:" in note and "known finding(s) hidden" in note and ": 0 known" not in note
    assert _error_lines(checked) == [15]
    assert _error_lines(changed) == [15] and "new-only:" in changed.structured_content["note"]


async def test_lint_adoption_bad_input_is_a_clear_error(
    server_for: Callable[..., Any], tmp_path: Path
) -> None:
    root = _legacy_repo(tmp_path / "repo")
    (tmp_path / "outside.json").write_text((root / "baseline.json").read_text())
    async with Client(server_for(root)) as client:
        missing = await client.call_tool("lint_module", {"module": "shop", "baseline": "nope.json"})
        outside = await client.call_tool("check_module", {"module": "shop", "baseline": "../outside.json"})
        lone_base = await client.call_tool("lint_module", {"module": "shop", "base": "HEAD"})
        bad_base = await client.call_tool(
            "lint_module", {"module": "shop", "checks": ["flake8"], "new_only": True, "base": "no-such-ref"}
        )
    assert missing.is_error and "save_lint_baseline" in missing.content[0].text  # type: ignore[union-attr]
    assert outside.is_error
    assert lone_base.is_error and "new_only" in lone_base.content[0].text  # type: ignore[union-attr]
    assert bad_base.is_error and "no-such-ref" in bad_base.content[0].text  # type: ignore[union-attr]


async def test_save_lint_baseline_records_what_lint_and_check_then_hide(
    server_for: Callable[..., Any], tmp_path: Path
) -> None:
    """The write side of check --baseline FILE --update-baseline, as an edit tool: what it records,
    lint_module and the CLI gate both read back."""
    root = tmp_path / "addons"
    _module(root, "shop", ["base"], [], {"models.py": OLD})
    (root / "shop" / "__init__.py").write_text("from . import models\n", encoding="utf-8")
    async with Client(server_for(root)) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        saved = await client.call_tool("save_lint_baseline", {"baseline": "known.json"})
        escape = await client.call_tool("save_lint_baseline", {"baseline": "../escape.json"})
        models = root / "shop" / "models.py"
        models.write_text(models.read_text() + "\n    def b(self):\n        return undefined_b\n")
        after = await client.call_tool(
            "lint_module", {"module": "shop", "checks": ["flake8"], "baseline": "known.json"}
        )
    annotations = tools["save_lint_baseline"].annotations
    assert annotations is not None and annotations.read_only_hint is False
    data = saved.structured_content
    assert not saved.is_error and data is not None and data["modules"] == ["shop"] and data["recorded"] > 0
    assert (root / "known.json").is_file()
    assert escape.is_error and not (tmp_path / "escape.json").exists()
    assert _error_lines(after) == [11]
    gate = run_cli(
        ["check", "--checks", "flake8", "--format", "json", "--baseline", "known.json"], root, tmp_path / "c"
    )
    assert gate.returncode == 1
    lines = [f["line"] for f in json.loads(gate.stdout)["findings"] if f["severity"] == "error"]
    assert lines == [11]


async def test_finding_text_names_each_rule_once(server_for: Callable[..., Any], addons: Path) -> None:
    async with Client(server_for(addons)) as client:
        result = await client.call_tool("check_module", {"module": "library_broken", "checks": ["static"]})
    text = "\n".join(block.text for block in result.content if block.type == "text")
    assert "[static removed-attrs] " in text
    labels = re.findall(r"\[([^\]\n]+)\] ", text)
    assert labels and all(len(set(label.split()[1:])) == len(label.split()[1:]) for label in labels), labels
