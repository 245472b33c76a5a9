"""Discovery across roots and the dependency graph."""

from __future__ import annotations

from pathlib import Path

import pytest

from odoo_tools.addons._discovery import AddonSet, discover_addons, odoo_core_roots, odoo_source_from_bin
from odoo_tools.errors import NotFound


def make_module(root: Path, name: str, depends: list[str], **extra: object) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    manifest = {"name": name.title(), "version": "18.0.1.0.0", "depends": depends, **extra}
    (folder / "__manifest__.py").write_text(repr(manifest), encoding="utf-8")
    return folder


def test_discovers_fixture_addons(addons: Path) -> None:
    found = discover_addons([addons])
    assert found.names() == ["library_base", "library_broken", "library_loan"]
    loan = found.get("library_loan")
    assert loan.root == addons.resolve() and not loan.readonly
    assert loan.rel(loan.path / "models") == "library_loan/models"
    assert found.findings == [] and found.duplicates == []


def test_folders_without_manifest_and_hidden_folders_are_not_addons(tmp_path: Path) -> None:
    make_module(tmp_path, "real", [])
    (tmp_path / "not_a_module").mkdir()
    make_module(tmp_path, ".hidden", [])
    (tmp_path / "file.py").write_text("", encoding="utf-8")
    assert discover_addons([tmp_path]).names() == ["real"]


def test_unknown_module_raises_not_found(tmp_path: Path) -> None:
    with pytest.raises(NotFound, match="nope"):
        discover_addons([tmp_path]).get("nope")


def test_first_root_wins_and_duplicate_is_reported(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    make_module(first, "dup", [])
    make_module(second, "dup", ["base"])
    found = discover_addons([first, second])
    assert found.get("dup").root == first.resolve()
    assert [(d.name, d.ignored) for d in found.duplicates] == [("dup", (second / "dup").resolve())]
    assert [f.code for f in found.findings] == ["duplicate-module"]


def test_odoo_source_roots_are_readonly_and_come_last(tmp_path: Path) -> None:
    odoo = tmp_path / "odoo_src"
    make_module(odoo / "odoo" / "addons", "base", [])
    make_module(odoo / "addons", "web", ["base"], auto_install=True)
    make_module(odoo / "addons", "mine", ["base"])
    (odoo / "odoo" / "release.py").write_text("version_info = (18, 0, 0, 'final', 0, '')\n", encoding="utf-8")
    (odoo / "odoo-bin").write_text("#!/usr/bin/env python3\n", encoding="utf-8")
    project = tmp_path / "project"
    make_module(project, "mine", ["web"])
    roots = odoo_core_roots(odoo)
    assert roots == [odoo / "odoo" / "addons", odoo / "addons"]
    assert odoo_source_from_bin(odoo / "odoo-bin") == odoo.resolve()
    assert odoo_source_from_bin(project / "mine" / "__manifest__.py") is None
    found = discover_addons([project], roots)
    assert found.get("base").readonly and found.get("web").readonly
    assert not found.get("mine").readonly and found.get("mine").depends == ("web",)


@pytest.fixture
def graph(tmp_path: Path) -> AddonSet:
    make_module(tmp_path, "base", [])
    make_module(tmp_path, "web", ["base"], auto_install=True)
    make_module(tmp_path, "mail", ["base", "web"])
    make_module(tmp_path, "sale", ["mail"])
    make_module(tmp_path, "stock", ["mail"])
    make_module(tmp_path, "sale_stock", ["sale", "stock"], auto_install=True)
    make_module(tmp_path, "sale_extra", ["sale", "ghost"])
    make_module(tmp_path, "loop_a", ["loop_b"])
    make_module(tmp_path, "loop_b", ["loop_a"])
    make_module(tmp_path, "above_loop", ["loop_a", "base"])
    make_module(tmp_path, "never", ["base"], auto_install=True, installable=False)
    return discover_addons([tmp_path])


def test_closure(graph: AddonSet) -> None:
    assert graph.closure(["sale"]) == {"sale", "mail", "web", "base"}
    assert "ghost" not in graph.closure(["sale_extra"])
    assert "ghost" in graph.closure(["sale_extra"], keep_missing=True)


def test_auto_install_expansion(graph: AddonSet) -> None:
    assert graph.closure(["base"], auto_install=True) == {"base", "web"}
    sale_and_stock = graph.auto_install_expansion(["sale", "stock"])
    assert "sale_stock" in sale_and_stock and "never" not in sale_and_stock
    assert "sale_stock" not in graph.auto_install_expansion(["sale"])


def test_reverse_dependencies(graph: AddonSet) -> None:
    assert graph.reverse_dependencies("sale", transitive=False) == {"sale_stock", "sale_extra"}
    assert graph.reverse_dependencies("mail") == {"sale", "stock", "sale_stock", "sale_extra"}


def test_missing_dependencies(graph: AddonSet) -> None:
    assert graph.missing_dependencies() == {"sale_extra": ["ghost"]}
    assert graph.missing_dependencies(["sale"]) == {}
    assert graph.missing_dependencies(["sale_extra"]) == {"sale_extra": ["ghost"]}


def test_cycles(graph: AddonSet) -> None:
    assert graph.cycles() == [["loop_a", "loop_b"]]
    codes = sorted(f.code for f in graph.graph_findings())
    assert codes == ["dependency-cycle", "missing-dependency"]


def test_install_order(graph: AddonSet) -> None:
    order = graph.install_order(["sale_stock"])
    assert order == ["base", "web", "mail", "sale", "stock", "sale_stock"]
    whole = graph.install_order()
    assert whole[-3:] == ["above_loop", "loop_a", "loop_b"]  # cycles and what sits on them go last
    assert whole.index("base") == 0 and set(whole) == set(graph.addons)


def test_self_loop_is_a_cycle(tmp_path: Path) -> None:
    make_module(tmp_path, "selfish", ["selfish"])
    assert discover_addons([tmp_path]).cycles() == [["selfish"]]


def test_malformed_manifest_is_listed_with_a_finding(tmp_path: Path) -> None:
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "__manifest__.py").write_text("{'name': 'Bad',", encoding="utf-8")
    found = discover_addons([tmp_path])
    assert "bad" in found and not found.get("bad").installable
    assert [(f.code, f.path) for f in found.findings] == [("manifest-syntax", "bad/__manifest__.py")]


def test_symlinked_module_outside_the_root_is_not_followed(tmp_path: Path) -> None:
    root, outside = tmp_path / "root", tmp_path / "outside"
    make_module(outside, "elsewhere", [])
    make_module(root, "inside", [])
    (root / "linked_out").symlink_to(outside / "elsewhere")
    (root / "linked_in").symlink_to(root / "inside")
    assert discover_addons([root]).names() == ["inside", "linked_in"]
