"""Tests that put the registry in test mode themselves: 19.0 moved that to the test case (read
from the two series' sources); custom 18.0 autovacuum_message_attachment's setUp failed on
"'Registry' object has no attribute 'enter_test_mode'"."""

from __future__ import annotations

from pathlib import Path

import pytest

from odoo_tools.migrate import migrate
from odoo_tools.series import Series

OLD_REGISTRY = (
    "class Registry:\n    def enter_test_mode(self, cr, test_readonly_enabled=True):\n        pass\n"
)
NEW_COMMON = (
    "class BaseCase:\n"
    "    def registry_enter_test_mode(self, *, cr=None, register_cleanup=True):\n        pass\n"
)


def _source(root: Path, major: int, registry: str, common: str) -> Path:
    for folder in ("modules", "tests", "orm"):
        (root / "odoo" / folder).mkdir(parents=True)
    (root / "odoo" / "release.py").write_text(f"version_info = ({major}, 0, 0, 'final', 0, '')\n")
    (root / "odoo" / "modules" / "registry.py").write_text(registry)
    (root / "odoo" / "tests" / "common.py").write_text(common)
    (root / "addons").mkdir()
    return root


@pytest.fixture
def sources(tmp_path: Path) -> dict[Series, Path]:
    return {
        Series(18): _source(tmp_path / "odoo18", 18, OLD_REGISTRY, ""),
        Series(19): _source(tmp_path / "odoo19", 19, "class Registry:\n    pass\n", NEW_COMMON),
    }


TEST = """from odoo import api
from odoo.tests import common


class TestVacuum(common.TransactionCase):
    def tearDown(self):
        self.registry.leave_test_mode()
        super().tearDown()

    def test_cleanup(self):
        self.addCleanup(self.registry.leave_test_mode)

    def setUp(self):
        super().setUp()
        self.registry.enter_test_mode(self.env.cr)
        self.env = api.Environment(self.registry.test_cr, self.env.uid, self.env.context)
"""


def _module(root: Path, rel: str, text: str) -> Path:
    module = root / "mine"
    (module / rel).parent.mkdir(parents=True)
    (module / "__manifest__.py").write_text("{'version': '18.0.1.0.0', 'depends': ['base']}\n")
    (module / rel).write_text(text)
    return module


def test_the_test_enters_and_leaves_test_mode_through_the_test_case(
    tmp_path: Path, sources: dict[Series, Path]
) -> None:
    module = _module(tmp_path, "tests/test_vacuum.py", TEST)
    [migrated] = migrate([module], "19.0", odoo_sources=sources, write=True).modules
    assert (module / "tests" / "test_vacuum.py").read_text() == TEST.replace(
        "self.registry.leave_test_mode", "self.registry_leave_test_mode"
    ).replace(
        "self.registry.enter_test_mode(self.env.cr)",
        "self.registry_enter_test_mode(cr=self.env.cr, register_cleanup=False)",
    ).replace("api.Environment(self.registry.test_cr,", "api.Environment(self.env.cr,")
    assert migrated.rules_applied["moved-registry-test-mode"] == 4
    assert not [f for f in migrated.findings if f.code == "moved-registry-test-mode"]


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (TEST.replace("enter_test_mode(self.env.cr)", "enter_test_mode(other_cr)"), 16),  # whose cursor?
        (TEST.replace("enter_test_mode(self.env.cr)", "enter_test_mode(self.env.cr, False)"), 15),
        (TEST + "\n    def other(self, registry):\n        registry.enter_test_mode(self.cr)\n", 19),
        (TEST + "\n    def other(self):\n        self.addCleanup(self.registry.enter_test_mode)\n", 19),
    ],
)
def test_what_cannot_be_followed_is_an_error(
    tmp_path: Path, sources: dict[Series, Path], text: str, line: int
) -> None:
    module = _module(tmp_path, "tests/test_vacuum.py", text)
    [migrated] = migrate([module], "19.0", odoo_sources=sources, write=True).modules
    found = [(f.line, f.severity) for f in migrated.findings if f.code == "moved-registry-test-mode"]
    assert (line, "error") in found


def test_outside_tests_or_with_the_same_sources_nothing_changes(
    tmp_path: Path, sources: dict[Series, Path]
) -> None:
    module = _module(tmp_path, "models/vacuum.py", TEST)
    migrate([module], "19.0", odoo_sources=sources, write=True)
    assert (module / "models" / "vacuum.py").read_text() == TEST
    again = _module(tmp_path / "again", "tests/test_vacuum.py", TEST)
    migrate(
        [again],
        "19.0",
        odoo_sources={Series(18): sources[Series(18)], Series(19): sources[Series(18)]},
        write=True,
    )
    assert (again / "tests" / "test_vacuum.py").read_text() == TEST
