"""Tests that put the registry in test mode themselves, when the step moved that from the
registry to the test case (read from the two series' sources): 18.0's
``registry.enter_test_mode(cr)`` / ``leave_test_mode()`` / ``registry.test_cr`` became 19.0's
``BaseCase.registry_enter_test_mode(cr=..., register_cleanup=True)`` /
``registry_leave_test_mode()``, and the registry keeps no test cursor ("'Registry' object has no
attribute 'enter_test_mode'", custom 18.0 autovacuum_message_attachment).

In a test file, ``self.registry.enter_test_mode(X)`` becomes
``self.registry_enter_test_mode(cr=X, register_cleanup=False)`` (the test leaves test mode itself,
as it did), ``self.registry.leave_test_mode`` (called, or given to ``addCleanup``) becomes
``self.registry_leave_test_mode``, and
``self.registry.test_cr`` the cursor the file entered test mode with, when it always enters with
one and the same ``self.cr`` or ``self.env.cr``. Any other use is an error finding at its line."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import libcst as cst
from libcst.metadata import PositionProvider

from odoo_tools.migrate.engine.module_files import ModuleFiles
from odoo_tools.migrate.engine.python_parsing import keep_rewrite, python_modules, transform
from odoo_tools.migrate.engine.python_rules import dotted
from odoo_tools.migrate.engine.report import StepReport
from odoo_tools.storage import read_capped_text

RULE = "moved-registry-test-mode"
_TEST_CURSORS = ("self.cr", "self.env.cr")
_REGISTRY = "self.registry"


@cache
def _defines(path: Path, pattern: str) -> bool:
    text = read_capped_text(path)
    return text is not None and re.search(pattern, text, re.MULTILINE) is not None


def moved(old_source: Path, new_source: Path) -> bool:
    old_registry, new_registry = (s / "odoo" / "modules" / "registry.py" for s in (old_source, new_source))
    new_orm = new_source / "odoo" / "orm" / "registry.py"
    return (
        _defines(old_registry, r"^    def enter_test_mode\(self, cr\b")
        and not _defines(new_registry, r"^    def enter_test_mode\(")
        and not _defines(new_orm, r"^    def enter_test_mode\(")
        and _defines(
            new_source / "odoo" / "tests" / "common.py", r"^    def registry_enter_test_mode\(self, \*, cr\b"
        )
    )


def rewrite_registry_test_mode(
    files: ModuleFiles, report: StepReport, old_source: Path, new_source: Path
) -> None:
    if not moved(old_source, new_source):
        return
    for rel, module in python_modules(files, lambda rel, text: _is_test(rel) and "_test_mode" in text):
        entered = {dotted(c.args[0].value) for c in _enter_calls(module) if len(c.args) == 1}
        cursor = next(iter(entered)) if len(entered) == 1 and entered <= set(_TEST_CURSORS) else None
        rewriter = _TestMode(report, files.site_path(rel), cursor)
        keep_rewrite(files, rel, module, transform(module, rewriter))


def _is_test(rel: str) -> bool:
    return rel.startswith("tests/") or "/tests/" in rel


def _enter_calls(module: cst.Module) -> list[cst.Call]:
    found: list[cst.Call] = []

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            if dotted(node.func) == f"{_REGISTRY}.enter_test_mode":
                found.append(node)

    module.visit(Calls())
    return found


class _TestMode(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, report: StepReport, path: str, cursor: str | None) -> None:
        super().__init__()
        self.report, self.path, self.cursor = report, path, cursor
        self.called: set[int] = set()  # the attributes that are called (the call rewrites them)

    def visit_Call(self, node: cst.Call) -> None:
        self.called.add(id(node.func))

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        name = dotted(updated.func)
        if name == f"{_REGISTRY}.enter_test_mode":
            keyword = updated.args[0].keyword if len(updated.args) == 1 else None
            if (
                len(updated.args) != 1
                or updated.args[0].star
                or (keyword is not None and keyword.value != "cr")
            ):
                return self._cannot(
                    original, "enter_test_mode is called with other arguments than the cursor"
                )
            cursor = updated.args[0].with_changes(keyword=cst.Name("cr"), equal=_NO_SPACE, comma=_COMMA)
            cleanup = cst.Arg(cst.Name("False"), keyword=cst.Name("register_cleanup"), equal=_NO_SPACE)
            return self._done(
                updated.with_changes(func=_self("registry_enter_test_mode"), args=[cursor, cleanup])
            )
        if name == f"{_REGISTRY}.leave_test_mode":
            return self._done(updated.with_changes(func=_self("registry_leave_test_mode")))
        if name.endswith((".enter_test_mode", ".leave_test_mode")):
            return self._cannot(original, f"{name} is not the test's own registry")
        return updated

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        name = dotted(original)
        if name == f"{_REGISTRY}.leave_test_mode" and id(original) not in self.called:
            return self._done(_self("registry_leave_test_mode"))  # addCleanup(self.registry.leave_test_mode)
        if name.endswith((".enter_test_mode", ".leave_test_mode")) and id(original) not in self.called:
            return self._cannot(original, f"{name} is passed on, not called")
        if original.attr.value != "test_cr" or not dotted(original.value).endswith("registry"):
            return updated
        if self.cursor is None or dotted(original.value) != _REGISTRY:
            return self._cannot(original, "the registry keeps no test cursor, and the file enters test mode "
                                "with no one cursor of the test")  # fmt: skip
        return self._done(cst.parse_expression(self.cursor))

    def _done(self, node: cst.BaseExpression) -> cst.BaseExpression:
        self.report.count(RULE)
        return node

    def _cannot(self, node: cst.BaseExpression, why: str) -> cst.BaseExpression:
        self.report.find(
            RULE,
            self.path,
            int(self.get_metadata(PositionProvider, node).start.line),
            f"the registry's test mode is the test case's in {self.report.target_series} "
            "(registry_enter_test_mode(cr=...), registry_leave_test_mode()), and this was not "
            f"rewritten: {why}.",
            "Use the test case's registry_enter_test_mode / registry_leave_test_mode and its cursor.",
            "error",
        )
        return node


def _self(method: str) -> cst.Attribute:
    return cst.Attribute(cst.Name("self"), cst.Name(method))


_NO_SPACE = cst.AssignEqual(
    whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")
)
_COMMA = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
