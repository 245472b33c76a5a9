"""Where a module writes what some Odoo series removed or renamed: every kind of the series
registry's API change table (``odoo_tools.series.API_CHANGES``) found in XML elements, Python
files and CSV file names. Nothing here knows a series: ``deprecations`` weighs each use against
the project's one."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import get_args

from lxml import etree

from odoo_tools.index import attribute_line
from odoo_tools.lint._framework_imports import guarded_imports
from odoo_tools.series import API_CHANGES, Kind
from odoo_tools.sources import python_tree

# kind -> {what is written: the element it must be on ("" for any)}
_OLD: dict[str, dict[str, str]] = {
    kind: {c.old: c.element for c in API_CHANGES if c.kind == kind} for kind in get_args(Kind)
}
_FA_CLASS = re.compile(r"(?<![\w-])fa-[\w-]+")


@dataclass(frozen=True)
class Use:
    kind: Kind
    name: str  # the ``old`` of the API change it matches
    line: int
    inline: bool = False  # inside an inline sub-view of a view arch (Odoo does not validate those)
    # The element's own source line when an inheriting view's spec adds it: where it lands in the
    # combined arch (a sub-view or not) decides ``inline`` better than the spec's path (view_landing).
    added_at: int = 0


def element_uses(
    element: etree._Element, line: int, lines: list[str], in_arch: bool, inline: bool, added_at: int = 0
) -> list[Use]:
    """The uses carried by one XML element (``in_arch``: inside a view's arch; ``added_at``: its
    source line when an inheriting view's spec adds it)."""
    tag = str(element.tag)
    uses = []
    if in_arch:
        for name, on in sorted(_OLD["xml-attribute"].items()):
            if element.get(name) is not None and on in ("", tag):
                at = attribute_line(lines, line, name)
                uses.append(Use("xml-attribute", name, at, inline, added_at))
        if tag in _OLD["xml-element"]:
            uses.append(Use("xml-element", tag, line, inline))
    uses += [
        Use("qweb-directive", name, attribute_line(lines, line, name))
        for name in sorted(_OLD["qweb-directive"])
        if element.get(name) is not None
    ]
    for attribute in ("class", "icon"):
        if "fa" in _OLD["icon-class"] and _fontawesome(element.get(attribute) or "", attribute):
            uses.append(Use("icon-class", "fa", attribute_line(lines, line, attribute)))
    if tag == "field":
        uses += _field_uses(element, line)
    if tag == "record" and element.get("model") in _OLD["model"]:
        uses.append(Use("model", element.get("model", ""), line))
    return uses


def _fontawesome(value: str, attribute: str) -> bool:
    """``class="fa fa-user"`` or ``icon="fa-user"`` (a button's icon)."""
    words = value.split()
    if attribute == "icon":
        return bool(words) and words[0].startswith("fa-")
    return "fa" in words and any(_FA_CLASS.fullmatch(word) for word in words)


def _field_uses(element: etree._Element, line: int) -> list[Use]:
    uses = []
    if element.get("file") and element.get("type") in _OLD["xml-data"]:
        uses.append(Use("xml-data", element.get("type", ""), line))
    parent = element.getparent()
    if (
        element.get("name") == "view_mode"
        and parent is not None
        and parent.get("model") == "ir.actions.act_window"
    ):
        modes = [mode.strip() for mode in (element.text or "").split(",")]
        uses += [Use("view-mode", mode, line) for mode in modes if mode in _OLD["view-mode"]]
    return uses


def csv_uses(rel: str) -> list[Use]:
    """A CSV data file named after a model (``account.group.csv``, ``account.group-us.csv``)."""
    stem = PurePosixPath(rel).stem.split("-", 1)[0]
    return [Use("model", stem, 1)] if stem in _OLD["model"] else []


def python_uses(path: Path) -> list[Use]:
    """Route keywords, calls and attributes, imports and model class attributes in one Python file.

    A python-call ``old`` is matched as written: a dotted one (``registry.clear_cache``,
    ``odoo.tools.ustr``) as the end of an attribute chain or as an import; a plain name
    (``user_has_groups``) as an attribute (``x.old``); ``name=`` (``group_operator=``) as a
    keyword argument. One with a space describes a change no scan finds. An import whose ImportError
    a ``try`` catches is no use: the module's fallback runs on a series without the name."""
    tree = python_tree(path)
    if tree is None:
        return []  # the linters (and the index) report a file that does not parse
    uses = []
    skipped = guarded_imports(tree) | _super_of_itself(tree)
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            uses += _route_uses(node)
        elif isinstance(node, ast.ClassDef):
            uses += _class_attribute_uses(node)
        uses += [Use("python-call", name, line) for name, line in _call_names(node)]
    return uses


def _super_of_itself(tree: ast.Module) -> set[int]:
    """``super().name_get()`` inside ``def name_get``: it runs only when the override is called, and
    whatever calls a removed method is found by itself (hr_employee_attendance_report_leaves 18.0
    keeps a name_get override that nothing in Odoo 18.0 calls: it installs and runs)."""
    found = set()
    for function in ast.walk(tree):
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(function):
                if (
                    isinstance(node, ast.Attribute)
                    and node.attr == function.name
                    and isinstance(node.value, ast.Call)
                    and _tail_name(node.value.func) == "super"
                ):
                    found.add(id(node))
    return found


def _call_names(node: ast.AST) -> list[tuple[str, int]]:
    """The python-call ``old`` values ``node`` writes, with their lines."""
    calls = _OLD["python-call"]
    if isinstance(node, ast.Attribute):
        chain = _chain(node)
        return [(old, node.lineno) for old in calls if chain == old or chain.endswith("." + old)]
    if isinstance(node, ast.keyword) and f"{node.arg}=" in calls:
        return [(f"{node.arg}=", node.value.lineno)]
    if isinstance(node, ast.ImportFrom) and node.module:
        return [
            (f"{node.module}.{a.name}", node.lineno) for a in node.names if f"{node.module}.{a.name}" in calls
        ]
    return []


def _chain(node: ast.expr) -> str:
    """``self.env.registry.clear_cache`` -> "self.env.registry.clear_cache"; a call or subscript
    inside the chain cuts it there."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return ".".join(reversed(parts))


def _route_uses(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[Use]:
    uses = []
    for decorator in node.decorator_list:
        if isinstance(decorator, ast.Call) and _tail_name(decorator.func) == "route":
            uses += [
                Use("route-argument", keyword.arg, keyword.value.lineno)
                for keyword in decorator.keywords
                if keyword.arg in _OLD["route-argument"]
            ]
    return uses


def _class_attribute_uses(node: ast.ClassDef) -> list[Use]:
    """``_rec_names_search = [...]``: the list form a later series writes as a tuple."""
    return [
        Use("model-attribute", target.id, statement.lineno)
        for statement in node.body
        if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.List)
        for target in statement.targets
        if isinstance(target, ast.Name) and target.id in _OLD["model-attribute"]
    ]


def _tail_name(node: ast.expr) -> str:
    """``http.route`` -> ``route``; ``self.env.registry`` -> ``registry``."""
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""
