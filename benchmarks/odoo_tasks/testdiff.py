"""Which test methods a commit adds or changes: compared as parsed code, not as text lines.

A test is ``<file stem>.<Class>.<method>``; Odoo's log names it ``Class.method``, which is what the
judge matches (``log_name``)."""

from __future__ import annotations

import ast


def methods_of(source: str) -> dict[str, str]:
    """``Class.method`` -> a dump of its code, for each ``test*`` method of each class in ``source``.

    A class inheriting a changed helper is not traced: only the methods whose own code changed count."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return {}
    found: dict[str, str] = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        helpers = [
            ast.dump(item)
            for item in node.body
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and not item.name.startswith("test")
        ]
        for item in node.body:
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and item.name.startswith("test"):
                # A changed setUp/helper changes what each test of the class does.
                found[f"{node.name}.{item.name}"] = ast.dump(item) + "".join(helpers)
    return found


def changed_methods(before: dict[str, str], after: dict[str, str]) -> tuple[list[str], list[str]]:
    """(new or changed tests, unchanged tests) of one test file; removed tests are neither."""
    changed = sorted(name for name, code in after.items() if before.get(name) != code)
    same = sorted(name for name, code in after.items() if before.get(name) == code)
    return changed, same
