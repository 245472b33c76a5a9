"""Every code odoo_tools writes into a finding or a rule count, read from its source.

A code reaches a finding through ``Finding(code=...)`` or through helpers that pass a parameter on
to it (``ctx.finding(code, ...)``, ``report.find(rule, ...)``, ``report.count(rule)``,
``failure_for_all(..., code, ...)``...). The helpers are found, not listed: a function whose
parameter reaches a code position makes that parameter a code position of its calls, until no
more are found. At each code position a string literal, a module constant (``RULE``,
``kinds.XML_SYNTAX``, an imported name) or either branch of a conditional is a code; a class's
``rule = ...`` (migrate's Python rules) is one too. What is computed at run time (an API change's
id, a code chosen from a table) is left to the runtime test beside this one.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "odoo_tools"
CODE_SHAPE = re.compile(r"^[a-z][a-z0-9_]*([-:][a-z0-9_.*]+)*$")


def _modules() -> dict[str, ast.Module]:
    return {
        ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts): ast.parse(path.read_text("utf-8"))
        for path in sorted(PACKAGE.rglob("*.py"))
    }


def _constants(trees: dict[str, ast.Module]) -> dict[tuple[str, str], str]:
    found = {}
    for name, tree in trees.items():
        for node in tree.body:
            if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.Constant):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Name) and isinstance(node.value.value, str):
                        found[(name, target.id)] = node.value.value
    return found


def _imports(module: str, tree: ast.Module) -> dict[str, tuple[str, str]]:
    """Local name -> (module, name) for ``from x import NAME``; (module, "") for a module alias."""
    names: dict[str, tuple[str, str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                local = alias.asname or alias.name
                names[local] = (node.module, alias.name)
                names.setdefault(f"{local}.", (f"{node.module}.{alias.name}", ""))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                names[f"{alias.asname or alias.name}."] = (alias.name, "")
    return names


def _called(node: ast.Call) -> str:
    func = node.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _params(func: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    names = [a.arg for a in (*func.args.posonlyargs, *func.args.args)]
    return names[1:] if names[:1] in (["self"], ["cls"]) else names


def _argument(call: ast.Call, params: tuple[str, ...], wanted: str) -> ast.expr | None:
    for keyword in call.keywords:
        if keyword.arg == wanted:
            return keyword.value
    index = params.index(wanted) if wanted in params else -1
    return call.args[index] if 0 <= index < len(call.args) else None


def _positions(trees: dict[str, ast.Module]) -> dict[str, set[tuple[tuple[str, ...], str]]]:
    """Function name -> (the parameters of one function of that name, one that reaches a code)."""
    positions: dict[str, set[tuple[tuple[str, ...], str]]] = defaultdict(set)
    positions["Finding"].add((("code",), "code"))
    positions["count"].add((("rule", "times"), "rule"))  # StepReport.count: a rule's count is keyed by code
    defs = [
        d
        for t in trees.values()
        for d in ast.walk(t)
        if isinstance(d, ast.FunctionDef | ast.AsyncFunctionDef)
    ]
    changed = True
    while changed:
        changed = False
        for func in defs:
            params = tuple(_params(func))
            for call in (c for c in ast.walk(func) if isinstance(c, ast.Call)):
                for callee, wanted in list(positions.get(_called(call), ())):
                    arg = _argument(call, callee, wanted)
                    if (
                        isinstance(arg, ast.Name)
                        and arg.id in params
                        and (params, arg.id) not in positions[func.name]
                    ):
                        positions[func.name].add((params, arg.id))
                        changed = True
    return positions


def emitted_codes() -> dict[str, set[str]]:
    """Code -> the modules that write it."""
    trees = _modules()
    constants = _constants(trees)
    positions = _positions(trees)
    found: dict[str, set[str]] = defaultdict(set)
    for module, tree in trees.items():
        imports = _imports(module, tree)

        def resolve(expr: ast.expr | None) -> list[str]:
            if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
                return [expr.value]
            if isinstance(expr, ast.IfExp):
                return resolve(expr.body) + resolve(expr.orelse)
            if isinstance(expr, ast.Name):
                source = imports.get(expr.id, (module, expr.id))  # noqa: B023 - read in this loop turn
                return [constants[source]] if source in constants else []
            if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
                alias = imports.get(f"{expr.value.id}.", ("", ""))[0]  # noqa: B023
                return [constants[(alias, expr.attr)]] if (alias, expr.attr) in constants else []
            return []

        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                for params, wanted in positions.get(_called(node), ()):
                    for code in resolve(_argument(node, params, wanted)):
                        found[code].add(module)
            elif isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, ast.Assign) and [getattr(t, "id", "") for t in item.targets] == [
                        "rule"
                    ]:
                        for code in resolve(item.value):
                            found[code].add(module)
    return {code: modules for code, modules in found.items() if code and CODE_SHAPE.match(code)}
