"""Manifest parsing: literal only, typed, malformed manifests become findings."""

from __future__ import annotations

from pathlib import Path

from odoo_tools.addons._manifest import ManifestCache, find_manifest_file, parse_manifest_text, read_manifest

REPO = Path(__file__).resolve().parents[2]


def test_reads_a_real_fixture_manifest() -> None:
    result = read_manifest(REPO / "fixtures" / "addons" / "library_loan")
    m = result.manifest
    assert result.findings == []
    assert (m.module, m.title, m.version, m.license) == (
        "library_loan",
        "Library Loans",
        "18.0.1.0.0",
        "LGPL-3",
    )
    assert m.depends == ("library_base",)
    assert m.data[0] == "security/ir.model.access.csv"
    assert m.file == "library_loan/__manifest__.py"
    assert m.installable and not m.auto_install and m.parsed


def test_defaults_follow_odoo() -> None:
    m = parse_manifest_text("{'name': 'X'}", "x", "x/__manifest__.py").manifest
    assert (m.version, m.installable, m.application, m.depends, m.category) == (
        "1.0",
        True,
        False,
        (),
        "Uncategorized",
    )
    assert m.auto_install_triggers is None


def test_auto_install_forms() -> None:
    def triggers(value: str) -> frozenset[str] | None:
        text = "{'depends': ['a', 'b'], 'auto_install': " + value + "}"
        return parse_manifest_text(text, "m", "m/__manifest__.py").manifest.auto_install_triggers

    assert triggers("True") == frozenset({"a", "b"})
    assert triggers("['a']") == frozenset({"a"})
    assert triggers("[]") == frozenset()
    assert triggers("False") is None


def test_auto_install_trigger_outside_depends_is_a_finding() -> None:
    result = parse_manifest_text("{'depends': ['a'], 'auto_install': ['z']}", "m", "m/__manifest__.py")
    assert [f.code for f in result.findings] == ["manifest-auto-install"]
    assert "z" in result.findings[0].message


def test_code_is_never_executed(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    text = f"{{'name': __import__('os').system('touch {marker}')}}"
    result = parse_manifest_text(text, "m", "m/__manifest__.py")
    assert not marker.exists()
    assert [f.code for f in result.findings] == ["manifest-bad-value"]
    assert "'name'" in result.findings[0].message
    assert result.manifest.parsed  # the other keys still count


def test_syntax_error_is_a_finding_with_line() -> None:
    result = parse_manifest_text("{\n 'name': 'x',\n 'depends': [\n}", "m", "m/__manifest__.py")
    assert not result.manifest.parsed and not result.manifest.installable
    (finding,) = result.findings
    assert finding.code == "manifest-syntax" and finding.path == "m/__manifest__.py"
    assert finding.line is not None and finding.severity == "error"


def test_not_a_dict_is_a_finding() -> None:
    result = parse_manifest_text("['name']", "m", "m/__manifest__.py")
    assert [f.code for f in result.findings] == ["manifest-not-dict"]


def test_wrong_types_name_the_key() -> None:
    text = "{'depends': 'base', 'data': ['a.xml', 3], 'version': 1.0}"
    result = parse_manifest_text(text, "m", "m/__manifest__.py")
    messages = " ".join(f.message for f in result.findings)
    assert {f.code for f in result.findings} == {"manifest-bad-type"}
    assert "'depends'" in messages and "'data'" in messages and "'version'" in messages
    assert result.manifest.depends == () and result.manifest.data == ("a.xml",)
    assert result.manifest.version == "1.0"


def test_legacy_openerp_manifest(tmp_path: Path) -> None:
    module = tmp_path / "old"
    module.mkdir()
    (module / "__openerp__.py").write_text("{'name': 'Old', 'depends': ['base']}", encoding="utf-8")
    assert find_manifest_file(module) == module / "__openerp__.py"
    result = read_manifest(module)
    assert result.manifest.depends == ("base",) and result.manifest.file == "old/__openerp__.py"


def test_undecodable_manifest_is_a_finding(tmp_path: Path) -> None:
    module = tmp_path / "bin"
    module.mkdir()
    (module / "__manifest__.py").write_bytes(b"{'name': '\xff\xfe'}")
    result = read_manifest(module)
    assert [f.code for f in result.findings] == ["manifest-unreadable"]


def test_manifest_cache_rereads_only_changed_manifests(tmp_path: Path) -> None:
    module = tmp_path / "m"
    module.mkdir()
    manifest = module / "__manifest__.py"
    manifest.write_text("{'name': 'One'}", encoding="utf-8")
    cache = ManifestCache()
    first = cache.read(module)
    assert cache.read(module) is first  # unchanged stat: the same object, nothing parsed
    manifest.write_text("{'name': 'Two!'}", encoding="utf-8")
    assert cache.read(module).manifest.title == "Two!"
