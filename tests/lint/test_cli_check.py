"""``assista-odoo check`` end to end, in a child process as CI runs it."""

from __future__ import annotations

import json
import re
import shutil
import sys
import xml.etree.ElementTree as ET
from importlib import metadata
from pathlib import Path

import jsonschema
import pytest

from tests.lint.conftest import FIXTURE_ADDONS, REPO, run_cli

SARIF_SCHEMA = Path(__file__).parent / "sarif-schema-2.1.0.json"


def test_readme_main_job_command(tmp_path: Path) -> None:
    # Exactly the README's `.venv/bin/assista-odoo check --addons-path fixtures/addons` (the
    # installed console script next to this interpreter), from the repo root.
    script = Path(sys.executable).parent / "assista-odoo"
    assert script.is_file(), "install the project first: bash scripts/install.sh"
    args = ["check", "--addons-path", "fixtures/addons"]
    result = run_cli(args, REPO, tmp_path / "cache", command=[str(script)])
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert "fixtures/addons/library_broken/views/library_review_views.xml:9" in result.stdout
    assert "removed-attrs" in result.stdout and "missing-access-rule" in result.stdout
    assert re.search(r"FAILED: 3 module\(s\), \d+ error\(s\)", result.stdout)
    failing = {
        line.split("/")[2]
        for line in result.stdout.splitlines()
        if ": error [" in line and "fixtures/addons/" in line
    }
    assert failing == {"library_broken"}


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Every format for the same tree, from one warm cache."""
    base = tmp_path_factory.mktemp("formats")
    addons = base / "addons"
    shutil.copytree(FIXTURE_ADDONS, addons)
    out: dict[str, str] = {}
    for fmt in ("json", "junit", "sarif", "github", "text"):
        target = base / f"report.{fmt}"
        result = run_cli(
            ["check", "--addons-path", str(addons), "--format", fmt, "--output", str(target)],
            cwd=base,
            cache=base / "cache",
        )
        assert result.returncode == 1, result.stderr
        assert f"{fmt} report written to" in result.stdout
        out[fmt] = target.read_text(encoding="utf-8")
    return out


def test_json_report(reports: dict[str, str]) -> None:
    payload = json.loads(reports["json"])
    assert payload["failed"] is True and payload["modules"] == [
        "library_base",
        "library_broken",
        "library_loan",
    ]
    assert payload["summary"]["modules_with_errors"] == ["library_broken"]
    codes = {(f["code"], f["file"], f.get("line")) for f in payload["findings"]}
    assert ("removed-attrs", "addons/library_broken/views/library_review_views.xml", 9) in codes


def test_sarif_report_is_valid_sarif_2_1_0(reports: dict[str, str]) -> None:
    payload = json.loads(reports["sarif"])
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    jsonschema.validate(payload, schema)
    static = next(run for run in payload["runs"] if run["tool"]["driver"]["name"] == "static")
    result = next(r for r in static["results"] if r["ruleId"] == "removed-attrs")
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "addons/library_broken/views/library_review_views.xml"
    assert location["region"]["startLine"] == 9 and result["level"] == "error"
    rule_ids = [rule["id"] for rule in static["tool"]["driver"]["rules"]]
    assert all(rule_ids[r["ruleIndex"]] == r["ruleId"] for r in static["results"])


def test_sarif_satisfies_the_validators_rules(reports: dict[str, str]) -> None:
    # SARIF1001 (name distinct from id), SARIF2005 (tool version), SARIF2017 (a region per location).
    payload = json.loads(reports["sarif"])
    for run in payload["runs"]:
        driver = run["tool"]["driver"]
        assert driver["version"][:1].isdigit() and driver["semanticVersion"] == driver["version"]
        assert "pypi.org/project/assista-odoo" not in json.dumps(driver)
        assert all(rule.get("name") != rule["id"] for rule in driver["rules"])
        for result in run["results"]:
            for location in result.get("locations", []):
                assert location["physicalLocation"]["region"]["startLine"] >= 1
    static = next(run for run in payload["runs"] if run["tool"]["driver"]["name"] == "static")
    named = {rule["id"]: rule.get("name") for rule in static["tool"]["driver"]["rules"]}
    assert named["removed-attrs"] == "RemovedAttrs"


def test_sarif_validation_can_fail(reports: dict[str, str]) -> None:
    payload = json.loads(reports["sarif"])
    first = next(run for run in payload["runs"] if run["results"])
    first["results"][0]["level"] = "fatal"
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(payload, schema)


def test_junit_report_parses_back(reports: dict[str, str]) -> None:
    root = ET.fromstring(reports["junit"])
    suite = root.find("testsuite")
    assert suite is not None
    cases = {case.get("name"): case for case in suite.iter("testcase")}
    assert len(cases) == 3 * 4 and suite.get("tests") == "12"
    assert cases["library_broken.static"].find("failure") is not None
    assert cases["library_base.static"].find("failure") is None
    failing = {name for name, case in cases.items() if case.find("failure") is not None}
    # Style (flake8) is info by default and pylint's missing-file is merged into static's finding.
    assert failing == {"library_broken.static"}
    assert suite.get("failures") == "1"
    failure = cases["library_broken.static"].find("failure")
    assert failure is not None and "library_review_views.xml:9" in (failure.text or "")


def test_github_annotations(reports: dict[str, str]) -> None:
    lines = reports["github"].splitlines()
    annotation = re.compile(r"^::(error|warning|notice) file=[^,]+(,line=\d+(,col=\d+)?)?,title=[^:]+::.+$")
    note = re.compile(r"^::notice title=[^:]+::.+$")  # the run's notes (configuration used...)
    bad = [line for line in lines[:-1] if not annotation.match(line) and not note.match(line)]
    assert bad == []
    assert any(
        line.startswith("::error file=addons/library_broken/views/library_review_views.xml,line=9,")
        for line in lines
    )
    assert all("\n" not in line for line in lines)


def test_text_report_has_hints(reports: dict[str, str]) -> None:
    assert "hint: Use the domain-free attributes" in reports["text"]


def test_fail_on_warning_and_a_clean_module(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    args = ["check", "--addons-path", str(FIXTURE_ADDONS), "library_base", "--checks", "flake8,static"]
    clean = run_cli(args, cwd=tmp_path, cache=cache)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert clean.stdout.strip().splitlines()[-1].startswith("ok: 1 module(s), 0 error(s), 0 warning(s)")
    # A cosmetic OCA finding (lower-case XML header) is an info: it fails only --fail-on info.
    addons = tmp_path / "addons"
    shutil.copytree(FIXTURE_ADDONS, addons)
    view = addons / "library_loan" / "views" / "library_loan_views.xml"
    view.write_text(view.read_text().replace('encoding="UTF-8"', 'encoding="utf-8"', 1))
    loan = ["check", "--addons-path", str(addons), "library_loan", "--checks", "oca-hooks"]
    assert run_cli(loan, cwd=tmp_path, cache=cache).returncode == 0
    assert run_cli([*loan, "--fail-on", "warning"], cwd=tmp_path, cache=cache).returncode == 0
    assert run_cli([*loan, "--fail-on", "info"], cwd=tmp_path, cache=cache).returncode == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["check"], "No Odoo module found"),
        (["check", "--addons-path", "/nonexistent/addons"], "is not a folder"),
        (["check", "--addons-path", str(FIXTURE_ADDONS), "--shard", "3/2"], "Bad --shard"),
        (["check", "--addons-path", str(FIXTURE_ADDONS), "--shard", "x"], "Bad --shard"),
        (
            ["check", "--addons-path", str(FIXTURE_ADDONS), "--checks", "pylint,eslint"],
            "Unknown check(s): eslint",
        ),
        (["check", "--addons-path", str(FIXTURE_ADDONS), "no_such_module"], "neither a module"),
    ],
)
def test_usage_errors_exit_2_with_a_message(tmp_path: Path, args: list[str], message: str) -> None:
    result = run_cli(args, cwd=tmp_path, cache=tmp_path / "cache")
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_shards_partition_the_modules(tmp_path: Path) -> None:
    seen: list[list[str]] = []
    for index in (1, 2):
        result = run_cli(
            [
                "check",
                "--addons-path",
                str(FIXTURE_ADDONS),
                "--checks",
                "flake8",
                "--format",
                "json",
                "--shard",
                f"{index}/2",
            ],
            cwd=tmp_path,
            cache=tmp_path / "cache",
        )
        seen.append(json.loads(result.stdout)["modules"])
    assert seen == [["library_base", "library_loan"], ["library_broken"]]


def test_ruff_findings_fail_the_flake8_junit_case_and_have_their_own_sarif_run(tmp_path: Path) -> None:
    # 18.0 without a linter configuration lints Python with ruff, as OCA's template does.
    addons = tmp_path / "addons"
    shutil.copytree(FIXTURE_ADDONS / "library_base", addons / "library_base")
    model = addons / "library_base" / "models" / "library_book.py"
    model.write_text(model.read_text() + "\n\nVALUE = undefined_name_zz\n")
    base = ["check", "--addons-path", str(addons), "--checks", "flake8"]
    junit = run_cli([*base, "--format", "junit"], tmp_path, tmp_path / "cache")
    assert junit.returncode == 1, junit.stderr
    suites = ET.fromstring(junit.stdout)
    [case] = [c for c in suites.iter("testcase") if c.get("name") == "library_base.flake8"]
    failure = case.find("failure")
    assert failure is not None and "F821" in (failure.text or "") and suites.get("failures") == "1"
    sarif = run_cli([*base, "--format", "sarif"], tmp_path, tmp_path / "cache")
    runs = {run["tool"]["driver"]["name"]: run for run in json.loads(sarif.stdout)["runs"]}
    assert set(runs) == {"ruff"}  # no empty flake8 run beside it
    assert runs["ruff"]["tool"]["driver"]["version"] == metadata.version("ruff")
    assert [r["ruleId"] for r in runs["ruff"]["results"]] == ["F821"]
