"""17.0 -> 18.0 in Python on products (checked against the 18.0 source): storable products are
``type='consu'`` with ``is_storable``, stock's field, where the module sees stock."""

from __future__ import annotations

import libcst as cst

from odoo_tools.migrate.engine.core_closure import sees_field
from odoo_tools.migrate.engine.python_rules import PythonRule, same_quotes, string_value


class ProductType(PythonRule):
    """``{'type': 'product'}`` -> ``{'type': 'consu', 'is_storable': True}``; ``detailed_type`` is
    ``type`` again; ``('type', '=', 'product')`` in a domain is ``('is_storable', '=', True)``.
    ``is_storable`` is stock's: a module that does not depend on stock gets ``'consu'`` alone."""

    rule = "removed-product-type-product"
    triggers = ("product",)

    @property
    def _storable(self) -> bool:
        return sees_field(self.site.report, "product.template", "is_storable")

    def leave_Dict(self, original: cst.Dict, updated: cst.Dict) -> cst.BaseExpression:
        elements: list[cst.BaseDictElement] = []
        changed = False
        keys = {string_value(e.key) for e in updated.elements if isinstance(e, cst.DictElement)}
        for element in updated.elements:
            if not isinstance(element, cst.DictElement) or not isinstance(element.key, cst.SimpleString):
                elements.append(element)
                continue
            key_node = element.key
            key, value = string_value(key_node), string_value(element.value)
            if key == "detailed_type" and "type" in keys:
                self.site.report.count("removed-detailed-type")
                changed = True
                continue  # 'type' says it already: detailed_type no longer exists
            if key == "detailed_type":
                element = element.with_changes(key=same_quotes(key_node, "type"))
                key, changed = "type", True
                self.site.report.count("removed-detailed-type")
            if key == "type" and value == "product" and isinstance(element.value, cst.SimpleString):
                if not self._storable:
                    elements.append(element.with_changes(value=same_quotes(element.value, "consu")))
                    self.applied()
                    changed = True
                    continue
                comma = (
                    element.comma
                    if isinstance(element.comma, cst.Comma)
                    else cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
                )
                storable = cst.DictElement(
                    key=same_quotes(key_node, "is_storable"),
                    value=cst.Name("True"),
                    comma=_without_comment(element.comma),
                )
                elements.append(element.with_changes(value=same_quotes(element.value, "consu"), comma=comma))
                elements.append(storable)
                self.applied()
                changed = True
                continue
            elements.append(element)
        return updated.with_changes(elements=elements) if changed else updated

    def leave_Tuple(self, original: cst.Tuple, updated: cst.Tuple) -> cst.BaseExpression:
        items = updated.elements
        if len(items) != 3:
            return updated
        name, operator, value = (string_value(item.value) for item in items)
        if name in ("type", "detailed_type") and operator in ("=", "==", "!=") and value == "product":
            first = items[0].value
            assert isinstance(first, cst.SimpleString)
            self.applied()
            if not self._storable:
                consu = (
                    same_quotes(items[2].value, "consu")
                    if isinstance(items[2].value, cst.SimpleString)
                    else None
                )
                return updated.with_changes(
                    elements=[
                        items[0].with_changes(value=same_quotes(first, "type")),
                        items[1],
                        items[2].with_changes(value=consu) if consu is not None else items[2],
                    ]
                )
            flag = "True" if operator != "!=" else "False"
            return updated.with_changes(
                elements=[
                    items[0].with_changes(value=same_quotes(first, "is_storable")),
                    items[1].with_changes(value=same_quotes(items[1].value, "="))
                    if isinstance(items[1].value, cst.SimpleString)
                    else items[1],
                    items[2].with_changes(value=cst.Name(flag)),
                ]
            )
        return updated

    def leave_Comparison(self, original: cst.Comparison, updated: cst.Comparison) -> cst.BaseExpression:
        left = updated.left
        if not (isinstance(left, cst.Attribute) and left.attr.value in ("type", "detailed_type")):
            return updated
        if len(updated.comparisons) != 1 or string_value(updated.comparisons[0].comparator) != "product":
            return updated
        operator = updated.comparisons[0].operator
        if not self._storable:
            comparator = updated.comparisons[0].comparator
            if not isinstance(comparator, cst.SimpleString):
                return updated
            self.applied()
            consu = updated.comparisons[0].with_changes(comparator=same_quotes(comparator, "consu"))
            return updated.with_changes(left=left.with_changes(attr=cst.Name("type")), comparisons=[consu])
        storable = left.with_changes(attr=cst.Name("is_storable"))
        if isinstance(operator, cst.Equal):
            self.applied()
            return storable
        if isinstance(operator, cst.NotEqual):
            self.applied()
            return cst.UnaryOperation(operator=cst.Not(), expression=storable)
        return updated


def _without_comment(comma: cst.Comma | cst.MaybeSentinel) -> cst.Comma | cst.MaybeSentinel:
    """The same comma and line break, without the comment that followed it (it stays once)."""
    if isinstance(comma, cst.Comma) and isinstance(comma.whitespace_after, cst.ParenthesizedWhitespace):
        return comma.with_changes(
            whitespace_after=comma.whitespace_after.with_changes(first_line=cst.TrailingWhitespace())
        )
    return comma
