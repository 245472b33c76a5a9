"""``assista-odoo migrate`` and the ``migrate_module`` MCP tool: the same migration, two faces."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from assista_mcp.cli import main
from assista_mcp.safety.effects import Effect
from assista_mcp.server.mcp_server import tool_effect
from odoo_tools.migrate import plan_migration

from .conftest import snapshot


def test_cli_dry_run_prints_the_diff_and_changes_nothing(
    modules: Path, capsys: pytest.CaptureFixture[str], isolated_env: Path
) -> None:
    before = snapshot(modules)
    code = main(["migrate", str(modules / "v17"), "--to", "18.0"])
    out = capsys.readouterr().out
    assert code == 0  # warnings and infos only: nothing blocks
    assert '-            <tree string="Notes">' in out and '+            <list string="Notes">' in out
    assert "mig_views: 17.0 -> 18.0 (dry run, nothing written)" in out
    assert "warning: mig_views/models/note.py:35: [removed-name-search]" in out
    assert snapshot(modules) == before


def test_cli_write_and_json(modules: Path, capsys: pytest.CaptureFixture[str], isolated_env: Path) -> None:
    code = main(["migrate", str(modules / "v16"), "--to", "17.0", "--write", "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0  # name_get() is left to a person, as a warning: 17.0 only ignores the override
    [module] = report["modules"]
    assert module["written"] and module["steps"][0]["rules_applied"]["removed-attrs"] == 4
    assert module["deleted"] == ["migrations/16.0.1.0.1/post-migrate.py"]
    assert "attrs=" not in (modules / "v16/mig_attrs/views/thing_views.xml").read_text()
    found = [(f["code"], f["severity"]) for f in module["steps"][0]["findings"]]
    assert found == [("removed-name-get", "warning")]


def test_cli_error_findings_exit_1(
    modules: Path, capsys: pytest.CaptureFixture[str], isolated_env: Path
) -> None:
    views = modules / "v16/mig_attrs/views/thing_views.xml"
    views.write_text(views.read_text().replace("('state', '!=', 'draft')", "('name', 'ilike', 'x')"))
    assert main(["migrate", str(modules / "v16"), "--to", "17.0", "--no-diff"]) == 1
    assert "error: mig_attrs/views/thing_views.xml:14: [removed-attrs]" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv",
    [
        ["migrate", "{v17}", "--to", "eighteen"],
        ["migrate", "{missing}", "--to", "18.0"],
        ["migrate", "{v17}", "--to", "18.0", "--prove"],
        ["migrate", "{v17}", "--to", "16.0"],
        ["migrate", "{v17}", "--to", "18.0", "--write", "--commit"],
    ],
)
def test_cli_usage_errors_exit_2_without_traceback(
    modules: Path, capsys: pytest.CaptureFixture[str], isolated_env: Path, argv: list[str]
) -> None:
    before = snapshot(modules)
    words = [w.format(v17=modules / "v17", missing=modules / "nowhere") for w in argv]
    assert _exit_code(words) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.strip()
    assert snapshot(modules) == before


def test_cli_says_once_what_was_not_checked_and_which_source_was_missing(
    modules: Path, capsys: pytest.CaptureFixture[str], isolated_env: Path, tmp_path: Path
) -> None:
    old = tmp_path / "odoo16"  # the modules' series' source: its release.py says 16.0
    (old / "odoo").mkdir(parents=True)
    (old / "odoo-bin").write_text("")
    (old / "odoo/release.py").write_text("version_info = (16, 0, 0, 'final', 0, '')\n")
    argv = ["migrate", str(modules / "v16"), str(modules / "v17"), "--to", "18.0", "--no-diff"]
    assert main([*argv, "--from-odoo-path", str(old)]) == 0
    out = capsys.readouterr().out.splitlines()
    not_checked = [line for line in out if line.startswith("not checked")]
    sources_only = (
        "group and unit categories, safe_eval calls, tests' registry test mode, transient-only class "
        "attributes, imports of core addon names the step removed"
    )
    assert not_checked == [
        "not checked (16.0 -> 17.0, mig_attrs): Odoo 17.0's own upgrade_code scripts (needs the 17.0 source)",
        f"not checked (16.0 -> 17.0, mig_attrs): {sources_only} (needs the 16.0 and 17.0 sources: 17.0 "
        "not given)",
        "not checked (17.0 -> 18.0, every module): Odoo 18.0's own upgrade_code scripts (needs the 18.0 "
        "source)",
        f"not checked (17.0 -> 18.0, every module): {sources_only} (needs the 17.0 and 18.0 sources: "
        "17.0 and 18.0 not given)",
    ]  # on both steps the two bundled full packs stand in for the sources (one source alone is not used)
    assert "not proved, every module: not installed nor tested on 18.0 (--write --prove)" in out
    assert not any(line.startswith("  not ") for line in out)  # not repeated under each module
    assert out[-1] == "2 module(s) to 18.0 (dry run): 0 with errors, 2 with warnings"


def test_cli_a_module_already_at_the_target_is_said_so(
    modules: Path, capsys: pytest.CaptureFixture[str], isolated_env: Path
) -> None:
    before = snapshot(modules)
    assert main(["migrate", str(modules / "v17"), str(modules / "v18"), "--to", "18.0", "--no-diff"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "mig_constraints: already 18.0, nothing to migrate" in out
    assert "not proved, mig_views: not installed nor tested on 18.0 (--write --prove)" in out
    assert snapshot(modules) == before


def test_a_proof_whose_tests_did_not_load_says_no_test_ran() -> None:
    from assista_mcp.cli.migrate import render
    from odoo_tools.migrate import MigrationReport, ModuleMigration, Proof, StepOutcome

    step = StepOutcome(source="18.0", target="19.0", rules_applied={"version-bump": 1})
    first = "auditlog/tests/test_auditlog.py:7: ImportError: cannot import name 'name_boolean_group'"
    proof = Proof(verdict="tests-failed", installed=True, first_failure=first)
    module = ModuleMigration(
        module="auditlog", path="/x/auditlog", from_series="18.0", to_series="19.0", steps=[step], proof=proof
    )
    out = render(MigrationReport(to_series="19.0", written=True, modules=[module])).splitlines()
    assert "  proof: tests-failed, no test ran" in out  # was "tests 0/0 passed"
    assert f"      first failure: {first}" in out
    module.proof = Proof(verdict="passed", installed=True)
    out = render(MigrationReport(to_series="19.0", written=True, modules=[module])).splitlines()
    assert "  proof: passed, it has no tests" in out  # was "tests 0/0 passed" too


def test_cli_from_only_fills_in_versions_that_do_not_say_their_series(
    modules: Path, capsys: pytest.CaptureFixture[str], isolated_env: Path
) -> None:
    # A repository with a '1.0' module of 18.0 beside a 17.0 one: --from 18.0 moved the 17.0 one
    # to 19.0 without its 17.0 -> 18.0 step (<tree> left in its views).
    repo = modules / "v17"
    odd = repo / "mig_odd"
    odd.mkdir()
    (odd / "__manifest__.py").write_text("{'name': 'Odd', 'version': '1.0', 'depends': ['base']}\n")
    argv = ["migrate", str(repo), "--to", "19.0", "--from", "18.0", "--format", "json"]
    main(argv)
    steps = {
        m["module"]: [s["target"] for s in m["steps"]] for m in json.loads(capsys.readouterr().out)["modules"]
    }
    assert steps == {"mig_odd": ["19.0"], "mig_views": ["18.0", "19.0"]}


def test_cli_no_diff_leaves_the_diff_out_of_json_too(
    modules: Path, capsys: pytest.CaptureFixture[str], isolated_env: Path
) -> None:
    argv = ["migrate", str(modules / "v17"), "--to", "18.0", "--format", "json"]
    main(argv)
    [full] = json.loads(capsys.readouterr().out)["modules"]
    main([*argv, "--no-diff"])
    [summary] = json.loads(capsys.readouterr().out)["modules"]
    assert "<list" in full["diff"] and "diff" not in summary  # 12.8 kB for 13 server-tools modules
    assert summary == {key: value for key, value in full.items() if key != "diff"}


def test_cli_unreadable_manifest_is_a_usage_error_and_writes_nothing(
    modules: Path, capsys: pytest.CaptureFixture[str], isolated_env: Path
) -> None:
    # Read with its default version, a broken manifest was reported as one whose version does not
    # say its series, and its dependencies as none.
    (modules / "v16/mig_attrs/__manifest__.py").write_text("{'name': 'Attrs', 'version': '16.0.1.0.0',\n")
    before = snapshot(modules)
    assert main(["migrate", str(modules / "v16"), "--to", "17.0", "--write"]) == 2
    err = capsys.readouterr().err
    assert "mig_attrs/__manifest__.py is not valid Python" in err and "Nothing was migrated" in err
    assert "does not say its series" not in err and "Traceback" not in err
    assert snapshot(modules) == before


def _exit_code(words: list[str]) -> int | str | None:
    """main's answer, or argparse's exit code for what argparse itself refuses."""
    try:
        return main(words)
    except SystemExit as exc:
        return exc.code


@pytest.mark.anyio
async def test_mcp_tool_dry_run_then_write(server_for: Callable[..., Any], modules: Path) -> None:
    roots = modules / "v17"
    before = snapshot(modules)
    async with Client(server_for(roots)) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        dry = await client.call_tool("migrate_module", {"module": "mig_views", "to_series": "18.0"})
        assert snapshot(modules) == before
        written = await client.call_tool(
            "migrate_module", {"module": "mig_views", "to_series": "18.0", "write": True}
        )
        outside = await client.call_tool(
            "migrate_module", {"module": "../v16/mig_attrs", "to_series": "17.0"}
        )
    tool = tools["migrate_module"]
    assert tool.meta == {"assista-odoo/effect": "run_code"}  # runs Odoo's upgrade_code scripts
    assert (
        tool.annotations
        and tool.annotations.destructive_hint is True
        and tool.annotations.read_only_hint is False
    )
    assert not dry.is_error and not dry.structured_content["written"]
    [module] = dry.structured_content["modules"]
    assert (
        module["steps"][0]["rules_applied"]["replaced-oe-chatter"] == 1
        and "+                <chatter/>" in module["diff"]
    )
    assert not written.is_error and "<list" in (roots / "mig_views/views/note_views.xml").read_text()
    assert outside.is_error  # outside the addons roots: refused, nothing read or written
    assert (modules / "v16/mig_attrs/views/thing_views.xml").read_bytes() == before[
        "v16/mig_attrs/views/thing_views.xml"
    ]


@pytest.mark.anyio
async def test_mcp_tool_takes_the_series_a_version_does_not_say(
    server_for: Callable[..., Any], modules: Path
) -> None:
    manifest = modules / "v17/mig_views/__manifest__.py"
    manifest.write_text(manifest.read_text().replace("17.0.1.2.0", "1.2.0"))
    async with Client(server_for(modules / "v17")) as client:
        unsaid = await client.call_tool("migrate_module", {"module": "mig_views", "to_series": "18.0"})
        said = await client.call_tool(
            "migrate_module", {"module": "mig_views", "to_series": "18.0", "from_series": "17.0"}
        )
    assert unsaid.is_error and "from_series" in str(unsaid.content)
    [module] = said.structured_content["modules"]
    assert module["from_series"] == "17.0" and "+                <chatter/>" in module["diff"]


@pytest.mark.anyio
async def test_mcp_tool_warns_of_a_dependency_beside_the_module_left_in_the_old_series(
    server_for: Callable[..., Any], modules: Path
) -> None:
    child = modules / "v17/mig_child"
    child.mkdir()
    (child / "__manifest__.py").write_text(
        "{'name': 'Child', 'version': '17.0.1.0.0', 'depends': ['mig_views']}\n"
    )
    async with Client(server_for(modules / "v17")) as client:
        alone = await client.call_tool("migrate_module", {"module": "mig_child", "to_series": "18.0"})
        both = await client.call_tool(
            "migrate_module", {"modules": ["mig_child", "mig_views"], "to_series": "18.0"}
        )
    [module] = alone.structured_content["modules"]
    [finding] = module["steps"][0]["findings"]
    assert (finding["code"], finding["severity"], finding["path"]) == (
        "dependency-not-migrated", "warning", "mig_child/__manifest__.py"
    )  # fmt: skip
    assert "depends on mig_views (17.0), beside it and not migrated in this run" in finding["message"]
    ordered = both.structured_content["modules"]
    assert [m["module"] for m in ordered] == ["mig_views", "mig_child"]
    assert not ordered[1]["steps"][0]["findings"]


def test_effect_names_the_module_folders_only_when_writing() -> None:
    assert tool_effect("migrate_module").paths({"module": "a", "to_series": "18.0"}).written == ()
    assert tool_effect("migrate_module").paths({"modules": ["a", "b"], "write": True}).written == ("a", "b")
    assert tool_effect("migrate_module").call_effect({"module": "a", "write": True}) is Effect.RUN_CODE


def test_the_server_registers_migrate_module_without_loading_the_rules() -> None:
    # Every MCP host starts the server; libcst and the rule tables load on the first migration only
    # (they added about 150 modules and 0.15 s to each start).
    code = (
        "import sys\n"
        "from assista_mcp.server.mcp_server import build_server\n"
        "rules = ('libcst', 'odoo_tools.migrate.steps', 'odoo_tools.migrate.passes',"
        " 'odoo_tools.migrate.engine.python_rules')\n"
        "print(sorted(m for m in sys.modules if m.startswith(rules)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert result.stdout.strip() == "[]"


def test_a_dependency_named_as_a_path_is_never_read(tmp_path: Path) -> None:
    """The manifest is the module's, maybe hostile: a depends entry that is a path ('../x', '/x')
    or a symlink beside the module is no folder to read (it disclosed the version of any manifest
    on the disk in the dependency-not-migrated warning)."""
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "__manifest__.py").write_text("{'name': 'secret', 'version': '15.0.9.9.9'}\n")
    repo = tmp_path / "repo"
    (repo / "mod").mkdir(parents=True)
    (repo / "linked").symlink_to(secret)
    depends = ["base", "../secret", str(secret), "linked"]
    (repo / "mod" / "__manifest__.py").write_text(f"{{'version': '16.0.1.0.0', 'depends': {depends!r}}}\n")
    [planned] = plan_migration([repo / "mod"], "17.0")
    assert planned.left_behind == ()
