"""Units of measure categories, when the target series has none (19.0: ``uom.category`` is gone,
a unit has a ``relative_uom_id`` instead, and units sharing a reference unit are what a category
was: ``uom.uom._has_common_reference``). Told by the two series' sources: the units of an old
category (``uom.uom_categ_length``) that all reach one root unit through ``relative_uom_id`` on
the target (``uom.product_uom_millimeter``) are, with the units made from them since, the units
``('id', 'child_of', root)`` finds (``relative_uom_id`` is the parent of ``uom.uom``'s tree).

A domain leaf ``(path.category_id, '=', env.ref('uom.<category>').id)`` becomes
``(path or 'id', 'child_of', env.ref('uom.<root>').id)``, also when the category comes to the leaf
through names, attributes or methods of the file (``uom_category_values``); any other reference
to a gone category fails on the target (an unknown external id) and is an error finding at its
line."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import libcst as cst
from libcst.metadata import ParentNodeProvider, PositionProvider
from lxml import etree

from odoo_tools.migrate.engine.module_files import ModuleFiles
from odoo_tools.migrate.engine.python_parsing import keep_rewrite, metadata_of, python_modules, transform
from odoo_tools.migrate.engine.python_rules import same_quotes, string_value
from odoo_tools.migrate.engine.report import StepReport
from odoo_tools.migrate.passes.uom_category_values import CarriedCategories, carried_categories
from odoo_tools.sources import xml_root

RULE = "removed-uom-category"
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=True, huge_tree=False)


@cache
def _records(source: Path) -> dict[str, tuple[str, dict[str, str]]]:
    """The uom module's data records: xml id -> (model, field name -> ref or text)."""
    found: dict[str, tuple[str, dict[str, str]]] = {}
    folder = source / "addons" / "uom" / "data"
    for path in sorted(folder.glob("*.xml")) if folder.is_dir() else []:
        root = xml_root(path, _PARSER)
        if root is None:
            continue
        for record in root.iter("record"):
            xml_id, model = record.get("id"), record.get("model")
            if xml_id and model in ("uom.uom", "uom.category"):
                fields = {str(f.get("name")): str(f.get("ref") or f.text or "") for f in record.iter("field")}
                found[xml_id.removeprefix("uom.")] = (str(model), fields)
    return found


@cache
def category_roots(old_source: Path, new_source: Path) -> tuple[frozenset[str], dict[str, str]]:
    """The old series' unit categories the target has no more (``uom.X`` ids), and of those the
    root unit their units all reach on the target."""
    old, new = _records(old_source), _records(new_source)
    if not old or any(model == "uom.category" for model, _ in new.values()):
        return frozenset(), {}
    gone = frozenset(f"uom.{key}" for key, (model, _) in old.items() if model == "uom.category")
    roots: dict[str, set[str]] = {}
    for key, (model, fields) in old.items():
        category = fields.get("category_id", "")
        if model == "uom.uom" and category:
            roots.setdefault(f"uom.{category.removeprefix('uom.')}", set()).add(_root(key, new))
    return gone, {
        category: f"uom.{next(iter(found))}"
        for category, found in roots.items()
        if category in gone and len(found) == 1 and "" not in found
    }


def _root(unit: str, new: dict[str, tuple[str, dict[str, str]]]) -> str:
    """The unit ``relative_uom_id`` leads to from ``unit`` on the target ('' when it is gone)."""
    seen: set[str] = set()
    while unit in new and unit not in seen:
        seen.add(unit)
        parent = new[unit][1].get("relative_uom_id", "").removeprefix("uom.")
        if not parent:
            return unit
        unit = parent
    return ""


def rewrite_uom_categories(
    files: ModuleFiles, report: StepReport, old_source: Path, new_source: Path
) -> None:
    gone, roots = category_roots(old_source, new_source)
    if not gone:
        return
    for rel, module in python_modules(files, lambda _rel, text: any(category in text for category in gone)):
        wrapper = metadata_of(module)
        elsewhere = "\n".join(text for other, text in files.texts.items() if other != rel)
        carried = carried_categories(wrapper.module, wrapper.resolve(ParentNodeProvider), roots, elsewhere)
        rewriter = _Rewriter(gone, roots, report, files.site_path(rel), carried)
        keep_rewrite(files, rel, module, transform(wrapper.module, rewriter, wrapper))


class _Rewriter(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(
        self,
        gone: frozenset[str],
        roots: dict[str, str],
        report: StepReport,
        path: str,
        carried: CarriedCategories,
    ) -> None:
        super().__init__()
        self.gone, self.roots, self.report, self.path = gone, roots, report, path
        self.carried = carried
        # a gone category's string: (id, line, severity), told at the module's end unless rewritten
        self.pending: dict[int, tuple[str, int, str]] = {}

    def leave_Tuple(self, original: cst.Tuple, updated: cst.Tuple) -> cst.BaseExpression:
        return self._leaf(original, updated)

    def leave_List(self, original: cst.List, updated: cst.List) -> cst.BaseExpression:
        return self._leaf(original, updated)

    def _leaf(self, original: cst.Tuple | cst.List, updated: cst.Tuple | cst.List) -> cst.BaseExpression:
        if len(updated.elements) != 3:
            return updated
        if id(original.elements[2].value) in self.carried.leaves:
            return self._carried_leaf(original, updated)
        path, operator, value = (e.value for e in updated.elements)
        field, op = string_value(path), string_value(operator)
        ref = _ref_id(value)
        if (
            field is None
            or op != "="
            or ref is None
            or not (field == "category_id" or field.endswith(".category_id"))
        ):
            return updated
        category = string_value(ref.args[0].value)
        if category not in self.roots or not isinstance(path, cst.SimpleString):
            return updated
        assert isinstance(operator, cst.SimpleString) and isinstance(ref.args[0].value, cst.SimpleString)
        root = self.roots[category]
        new_path = field.removesuffix("category_id").removesuffix(".") or "id"
        new_ref = ref.with_changes(
            args=[ref.args[0].with_changes(value=same_quotes(ref.args[0].value, root))]
        )
        new_value = _with_ref(value, new_ref)
        elements = list(updated.elements)
        elements[0] = elements[0].with_changes(value=same_quotes(path, new_path))
        elements[1] = elements[1].with_changes(value=same_quotes(operator, "child_of"))
        elements[2] = elements[2].with_changes(value=new_value)
        self.report.count(RULE)
        original_ref = _ref_id(original.elements[2].value)
        if original_ref is not None:
            self.pending.pop(id(original_ref.args[0].value), None)
        self._find(
            self._line(original),
            f"{category}'s units are, in {self.report.target_series}, the units whose reference unit chain "
            f"reaches {root}: the leaf ({field!r}, '=', ...) became ({new_path!r}, 'child_of', {root}).",
            "Check that the module meant the units of that category.",
            "warning",
        )
        return updated.with_changes(elements=elements)

    def _carried_leaf(
        self, original: cst.Tuple | cst.List, updated: cst.Tuple | cst.List
    ) -> cst.BaseExpression:
        path, operator = updated.elements[0].value, updated.elements[1].value
        field = string_value(path)
        assert isinstance(path, cst.SimpleString) and isinstance(operator, cst.SimpleString) and field
        new_path = field.removesuffix("category_id").removesuffix(".") or "id"
        elements = list(updated.elements)
        elements[0] = elements[0].with_changes(value=same_quotes(path, new_path))
        elements[1] = elements[1].with_changes(value=same_quotes(operator, "child_of"))
        self.report.count(RULE)
        self._find(
            self._line(original),
            f"the leaf ({field!r}, '=', ...) compares a unit category, gone in {self.report.target_series}: "
            f"the value is now the category's reference unit, and the leaf ({new_path!r}, 'child_of', ...).",
            "Check that the module meant the units of that category.",
            "warning",
        )
        return updated.with_changes(elements=elements)

    def leave_SimpleString(self, original: cst.SimpleString, updated: cst.SimpleString) -> cst.BaseExpression:
        value = string_value(original)
        root = self.carried.refs.get(id(original))
        if value is not None and root is not None:
            self.report.count(RULE)
            self._find(
                self._line(original),
                f"the unit category {value} is gone in {self.report.target_series}; its units are the units "
                f"whose reference unit chain reaches {root}, which stands for it here (every use of the "
                "value in this file keeps, returns or tests it, or compares its id in a category_id leaf, "
                "now child_of).",
                "Check that the module meant the units of that category.",
                "warning",
            )
            return same_quotes(updated, root)
        if value in self.gone:
            self.pending[id(original)] = (value, self._line(original), "error")
        return updated

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        """``env.ref("uom.X", raise_if_not_found=False)`` does not fail: it returns None."""
        quiet = any(a.keyword is not None and a.keyword.value == "raise_if_not_found" for a in original.args)
        key = id(original.args[0].value) if original.args else 0
        if quiet and key in self.pending:
            value, line, _ = self.pending[key]
            self.pending[key] = (value, line, "warning")
        return updated

    def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
        for value, line, severity in self.pending.values():
            fails = "referring to it fails there" if severity == "error" else "it is not found there"
            self._find(
                line,
                f"the unit category {value} is gone in {self.report.target_series} (units of measure have no "
                f"category: a unit has a reference unit, relative_uom_id); {fails}.",
                "Compare units with uom._has_common_reference(other), or find a category's units with "
                "('id', 'child_of', <its reference unit>).",
                severity,
            )
        return updated

    def _line(self, node: cst.CSTNode) -> int:
        return int(self.get_metadata(PositionProvider, node).start.line)

    def _find(self, line: int, message: str, hint: str, severity: str) -> None:
        self.report.find(RULE, self.path, line, message, hint, severity)  # type: ignore[arg-type]


def _ref_id(node: cst.BaseExpression) -> cst.Call | None:
    """``<...>.ref("x")`` of ``<...>.ref("x").id``."""
    if not (isinstance(node, cst.Attribute) and node.attr.value == "id" and isinstance(node.value, cst.Call)):
        return None
    call = node.value
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value == "ref" and len(call.args) == 1):
        return None
    return call if isinstance(call.args[0].value, cst.SimpleString) else None


def _with_ref(value: cst.BaseExpression, ref: cst.Call) -> cst.BaseExpression:
    assert isinstance(value, cst.Attribute)
    return value.with_changes(value=ref)
