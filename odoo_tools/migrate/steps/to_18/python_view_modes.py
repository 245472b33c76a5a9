"""17.0 -> 18.0: list views are 'list', never 'tree' (checked against the 18.0 source): in action
dicts, view-type comparisons and loops, view_type/view_mode keywords and (view id, type) pairs."""

from __future__ import annotations

import libcst as cst

from odoo_tools.migrate.engine.python_rules import PythonRule, same_quotes, string_value


def _names_a_view_type(node: cst.BaseExpression) -> bool:
    """``view_type``, ``sub_view_type``, ``self.view_mode``, ``view.type``: a name that holds a
    view type or mode."""
    if isinstance(node, cst.Name):
        return node.value.endswith(("view_type", "view_mode"))
    if isinstance(node, cst.Attribute):
        owner = node.value
        owner_name = owner.value if isinstance(owner, cst.Name) else ""
        return node.attr.value.endswith(("view_type", "view_mode")) or (
            node.attr.value == "type" and owner_name.endswith("view")
        )
    return False


class ListViewMode(PythonRule):
    """Action dicts: ``'view_mode': 'tree,form'``, ``'views': [(False, 'tree')]`` and the
    ``tree_view_ref`` context key say 'list' in 18.0."""

    rule = "removed-view-mode-tree"
    triggers = ("tree",)

    def leave_DictElement(self, original: cst.DictElement, updated: cst.DictElement) -> cst.DictElement:
        key = string_value(updated.key)
        if key == "tree_view_ref" and isinstance(updated.key, cst.SimpleString):
            self.applied()
            return updated.with_changes(key=same_quotes(updated.key, "list_view_ref"))
        if key == "view_mode" and isinstance(updated.value, cst.SimpleString):
            return updated.with_changes(value=self._mode_list(updated.value))
        if key == "views" and isinstance(updated.value, (cst.List, cst.Tuple)):
            views = [
                e.with_changes(value=self._pair(e.value, any_view_id=True)) for e in updated.value.elements
            ]
            return updated.with_changes(value=updated.value.with_changes(elements=views))
        return updated

    def leave_Comparison(self, original: cst.Comparison, updated: cst.Comparison) -> cst.BaseExpression:
        """``view_type == "tree"``, ``view_type in ["tree", "form"]``: a view type read in code
        (get_view's view_type, a view's ``type``) says 'list' in 18.0."""
        if not _names_a_view_type(updated.left):
            return updated
        targets = []
        for target in updated.comparisons:
            comparator = target.comparator
            if isinstance(comparator, cst.SimpleString) and string_value(comparator) == "tree":
                self.applied()
                target = target.with_changes(comparator=same_quotes(comparator, "list"))
            elif isinstance(comparator, cst.List | cst.Tuple | cst.Set):
                target = target.with_changes(comparator=self._modes(comparator))
            targets.append(target)
        return updated.with_changes(comparisons=targets)

    def leave_For(self, original: cst.For, updated: cst.For) -> cst.For:
        """``for sub_view_type in ["tree", "form"]:``."""
        if _names_a_view_type(updated.target) and isinstance(updated.iter, cst.List | cst.Tuple | cst.Set):
            return updated.with_changes(iter=self._modes(updated.iter))
        return updated

    def leave_Arg(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg:
        """``get_view(view_type="tree")``, ``Form(record, view_mode="tree")``-like keywords."""
        keyword = updated.keyword.value if updated.keyword is not None else ""
        value = updated.value
        if keyword in ("view_type", "view_mode") and isinstance(value, cst.SimpleString):
            return updated.with_changes(value=self._mode_list(value))
        return updated

    def leave_Tuple(self, original: cst.Tuple, updated: cst.Tuple) -> cst.BaseExpression:
        return self._pair(updated)

    def leave_List(self, original: cst.List, updated: cst.List) -> cst.BaseExpression:
        return self._pair(updated)

    def _pair(self, pair: cst.BaseExpression, any_view_id: bool = False) -> cst.BaseExpression:
        """``(False, "tree")``, ``[view.id, "tree"]``: a (view id, view type) pair, as get_views()
        and an action's ``views`` take them; in ``views`` any first element is a view id."""
        if not isinstance(pair, cst.Tuple | cst.List) or len(pair.elements) != 2:
            return pair
        first, mode = (e.value for e in pair.elements)
        view_id = any_view_id or (
            (isinstance(first, cst.Name) and first.value in ("False", "None"))
            or isinstance(first, cst.Integer)
            or (isinstance(first, cst.Attribute) and first.attr.value == "id")
        )
        if not view_id or not isinstance(mode, cst.SimpleString) or string_value(mode) != "tree":
            return pair
        self.applied()
        return pair.with_changes(
            elements=[pair.elements[0], pair.elements[1].with_changes(value=same_quotes(mode, "list"))]
        )

    def _mode_list(self, value: cst.SimpleString) -> cst.SimpleString:
        """``"tree,form"`` -> ``"list,form"``: a comma list of view modes."""
        modes = [m.strip() for m in (string_value(value) or "").split(",")]
        if "tree" not in modes:
            return value
        self.applied()
        return same_quotes(value, ",".join("list" if m == "tree" else m for m in modes))

    def _modes(self, modes: cst.List | cst.Tuple | cst.Set) -> cst.BaseExpression:
        elements = []
        for element in modes.elements:
            mode = element.value
            if isinstance(mode, cst.SimpleString) and string_value(mode) == "tree":
                self.applied()
                element = element.with_changes(value=same_quotes(mode, "list"))
            elements.append(element)
        return modes.with_changes(elements=elements)
