"""18.0 -> 19.0: the group fields were renamed (read in odoo/addons/base/models of both series):
``groups_id`` is ``group_ids`` on res.users, menus, views and the window, server and report
actions (only ir.embedded.actions keeps it in 19.0), and res.groups' ``users`` is ``user_ids``
(the same ``res_groups_users_rel`` table)."""

from __future__ import annotations

import re

import libcst as cst

from odoo_tools.migrate.engine.python_rules import (
    PythonRule,
    dotted,
    same_quotes,
    string_value,
    with_values_mapped,
)
from odoo_tools.migrate.steps.to_19.python import EnvShortcuts, GroupsId, SqlConstraints
from odoo_tools.migrate.steps.to_19.python_env_attributes import EnvAttributes
from odoo_tools.migrate.steps.to_19.python_fields_helpers import FieldsHelpers
from odoo_tools.migrate.steps.to_19.python_registry import OdooRegistry

_PATH = re.compile(r"^\w+(\.\w+)+$")  # a dotted field path: related=, mapped(), depends, domains
_GROUP_USERS = re.compile(r"\b(group_ids|groups_id|groups_ids|groups)\.users\b")


class GroupRenames(GroupsId):
    """Every ``groups_id`` of the module's code, when the module declares no field of that name
    itself and never touches ir.embedded.actions (then only what is surely a user's, as before);
    ``users`` of a group: a path segment after a group field, the values written to a group, an
    attribute read on one."""

    triggers: tuple[str, ...] = ("groups_id", "users")

    @property
    def _everywhere(self) -> bool:
        return (
            "groups_id" not in self.site.report.own_fields and not self.site.report.mentions_embedded_actions
        )

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        if updated.attr.value == "groups_id" and self._everywhere:
            self.applied()
            return updated.with_changes(attr=cst.Name("group_ids"))
        if updated.attr.value == "users" and _groupish(updated.value):
            self.site.report.count("renamed-groups-users")
            return updated.with_changes(attr=cst.Name("user_ids"))
        return super().leave_Attribute(original, updated)

    def leave_SimpleString(self, original: cst.SimpleString, updated: cst.SimpleString) -> cst.BaseExpression:
        value = string_value(updated)
        if value is None:
            return updated
        new = value
        if self._everywhere and (value == "groups_id" or _PATH.match(value)):
            new = re.sub(r"\bgroups_id\b", "group_ids", new)
        if _PATH.match(new):
            new = _GROUP_USERS.sub(r"\1.user_ids", new)
        if new == value:
            return updated
        self.site.report.count("renamed-groups-users" if "groups_id" not in value else self.rule)
        return same_quotes(updated, new)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        updated = super().leave_Call(original, updated)  # type: ignore[assignment]
        func = updated.func if isinstance(updated, cst.Call) else None
        if not (isinstance(func, cst.Attribute) and func.attr.value in ("create", "write") and updated.args):
            return updated
        return with_values_mapped(updated, self._group_users) if _groupish(func.value) else updated

    def _group_users(self, values: cst.Dict) -> cst.Dict:
        elements = []
        for element in values.elements:
            key = element.key if isinstance(element, cst.DictElement) else None
            if isinstance(key, cst.SimpleString) and string_value(key) == "users":
                element = element.with_changes(key=same_quotes(key, "user_ids"))
                self.site.report.count("renamed-groups-users")
            elements.append(element)
        return values.with_changes(elements=elements)


def _groupish(node: cst.BaseExpression) -> bool:
    """A record that is surely a group: ``env.ref("base.group_user")``, ``self.group_manager``,
    ``env["res.groups"]...``."""
    while isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
        if node.func.attr.value == "ref" and node.args:
            text = string_value(node.args[0].value) or ""
            return ".group_" in text or text.startswith("group_")
        node = node.func.value  # sudo(), with_context(), browse()...
    if isinstance(node, cst.Subscript) and len(node.slice) == 1:
        index = node.slice[0].slice
        return isinstance(index, cst.Index) and string_value(index.value) == "res.groups"
    last = dotted(node).rsplit(".", 1)[-1].lower()
    return last.startswith("group") or last.endswith("_group")


RULES_19: tuple[type[PythonRule], ...] = (
    SqlConstraints,
    EnvShortcuts,
    GroupRenames,
    FieldsHelpers,
    OdooRegistry,
    EnvAttributes,
)
