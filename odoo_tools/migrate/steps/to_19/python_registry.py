"""18.0 -> 19.0: ``from odoo import registry`` fails (19.0's ``odoo`` is a namespace package
without the function; 18.0's own ``odoo.registry`` warned "Use directly
odoo.modules.registry.Registry"). Where every use of the imported name in the file is a call with
the database name, ``registry(db)`` becomes ``Registry(db)`` imported from odoo.modules.registry,
as 19.0's own addons write it (bus/websocket.py, delivery/models/delivery_carrier.py). A file
that rebinds the name, passes it around or calls it without the database name (18.0 read the
current thread's) gets a finding instead."""

from __future__ import annotations

import ast

import libcst as cst

from odoo_tools.migrate.engine.python_rules import PythonRule, dotted

_NEW_IMPORT = "from odoo.modules.registry import Registry\n"


class OdooRegistry(PythonRule):
    rule = "removed-odoo-registry"
    triggers = ("registry",)

    def visit_Module(self, node: cst.Module) -> None:
        self._imported = any(_imports_registry(small) for small in _top_smalls(node))
        self._safe = self._imported and _only_called_with_db(node.code)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if self._safe and isinstance(updated.func, cst.Name) and updated.func.value == "registry":
            self.applied()
            return updated.with_changes(func=cst.Name("Registry"))
        return updated

    def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
        if not self._imported:
            return updated
        body: list[cst.BaseStatement] = []
        for statement, before in zip(updated.body, original.body, strict=True):
            smalls = statement.body if isinstance(statement, cst.SimpleStatementLine) else ()
            if not (len(smalls) == 1 and _imports_registry(smalls[0])):
                body.append(statement)
                continue
            if not self._safe:
                self.find(
                    before,
                    "odoo.registry is gone in Odoo 19.0: importing it fails when Odoo loads this file.",
                    "Import Registry from odoo.modules.registry and call Registry(dbname).",
                    "error",
                )
                body.append(statement)
                continue
            assert isinstance(statement, cst.SimpleStatementLine)
            body += _import_lines(statement)
        return updated.with_changes(body=body)


def _top_smalls(module: cst.Module) -> list[cst.BaseSmallStatement]:
    return [s for st in module.body if isinstance(st, cst.SimpleStatementLine) for s in st.body]


def _imports_registry(small: cst.BaseSmallStatement) -> bool:
    return (
        isinstance(small, cst.ImportFrom)
        and not small.relative
        and dotted(small.module or cst.Name("")) == "odoo"
        and not isinstance(small.names, cst.ImportStar)
        and any(_is_registry(alias) for alias in small.names)
    )


def _is_registry(alias: cst.ImportAlias) -> bool:
    return isinstance(alias.name, cst.Name) and alias.name.value == "registry" and alias.asname is None


def _import_lines(statement: cst.SimpleStatementLine) -> list[cst.BaseStatement]:
    """The ``from odoo import ...`` line without registry (gone when nothing is left), then the
    import of Registry."""
    old = statement.body[0]
    assert isinstance(old, cst.ImportFrom) and not isinstance(old.names, cst.ImportStar)
    kept = [alias for alias in old.names if not _is_registry(alias)]
    lines: list[cst.BaseStatement] = []
    if kept:
        kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        lines.append(statement.with_changes(body=[old.with_changes(names=kept)]))
    new = cst.parse_statement(_NEW_IMPORT)
    lines.append(new if kept else new.with_changes(leading_lines=statement.leading_lines))
    return lines


def _only_called_with_db(code: str) -> bool:
    """Every ``registry`` of the file is the imported function called with one positional
    argument, and nothing else binds the name or ``Registry``."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return False
    calls = {
        id(node.func)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and len(node.args) == 1
        and not node.keywords
        and not isinstance(node.args[0], ast.Starred)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == "registry" and id(node) not in calls:
            return False
        if isinstance(node, ast.Name) and node.id == "Registry":
            return False  # already a name of the file: Registry(db) could mean something else
        if isinstance(node, ast.arg) and node.arg in ("registry", "Registry"):
            return False
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.name in (
            "registry",
            "Registry",
        ):
            return False
        if isinstance(node, ast.alias) and _rebinds(node):
            return False
    imports = [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.ImportFrom) and any(a.name == "registry" for a in n.names)
    ]
    return len(imports) == 1 and imports[0].module == "odoo" and imports[0].level == 0


def _rebinds(alias: ast.alias) -> bool:
    """An import of another thing as registry or Registry (the plain ``registry`` is the one)."""
    bound = (alias.asname or alias.name) in ("registry", "Registry")
    return bound and not (alias.name == "registry" and alias.asname is None)
