"""16.0 -> 17.0 in Python: what cannot be rewritten safely, said at its line."""

from __future__ import annotations

import ast

import libcst as cst

from odoo_tools.migrate.engine.python_rules import (
    PythonRule,
    VariableNames,
    class_model,
    dotted,
    is_field_call,
    without_args,
    without_statements,
)
from odoo_tools.migrate.steps.to_17.python_caches import OrmcacheClear
from odoo_tools.migrate.steps.to_17.python_modifiers import ModifiersAttribute
from odoo_tools.migrate.steps.to_17.python_onchange import OnchangeSpec
from odoo_tools.migrate.steps.to_17.python_patch import PatchMethod
from odoo_tools.migrate.steps.to_17.python_search import SearchCount
from odoo_tools.migrate.steps.to_17.python_transfer import RoundTrip


class NameGet(PythonRule):
    """17.0 no longer calls ``name_get`` for the display name (the same id as the static check)."""

    rule = "removed-name-get"
    triggers = ("name_get",)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if node.name.value == "name_get":
            self.find_change(node)


class FieldStates(PythonRule):
    """A field's ``states=`` parameter is gone in 17.0 (an "unknown parameter" warning, and the
    readonly it gave is lost: a draft-only editable field stays readonly everywhere). The common
    form, ``readonly=True, states={'draft': [('readonly', False)]}``, moves to the module's views
    as ``readonly="state != 'draft'"`` (``moved_modifiers`` below); anything else is said at its
    line."""

    rule = "removed-field-states"
    triggers = ("states",)

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._models: list[str] = []  # the model of each enclosing class ('' when unsure)
        self._assigned = 0

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._models.append(class_model(node))

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
        self._models.pop()
        return updated

    def visit_Assign(self, node: cst.Assign) -> None:
        self._assigned += 1

    def visit_Call(self, node: cst.Call) -> None:
        if not self._assigned and _states_arg(node) is not None:
            self._cannot(node)

    def leave_Assign(self, original: cst.Assign, updated: cst.Assign) -> cst.Assign:
        self._assigned -= 1
        call, targets = updated.value, updated.targets
        if not isinstance(call, cst.Call) or _states_arg(call) is None:
            return updated
        model = self._models[-1] if self._models else ""
        name = targets[0].target if len(targets) == 1 else None
        readonly = _readonly_by_state(call)
        if not model or not isinstance(name, cst.Name) or readonly is None:
            self._cannot(original.value)
            return updated
        moved = ("states", "readonly") if readonly else ("states",)
        dropped = [i for i, a in enumerate(call.args) if a.keyword and a.keyword.value in moved]
        if readonly:
            self.site.report.moved_modifiers[(model, name.value)] = {"readonly": readonly}
        self.applied()
        return updated.with_changes(value=without_args(call, dropped))

    def _cannot(self, node: cst.CSTNode) -> None:
        self.find(
            node,
            "The field parameter states= is ignored since Odoo 17.0.",
            "Remove states= and put readonly=\"state != 'draft'\" (or required=...) on the field "
            "in its views.",
        )


def _states_arg(call: cst.Call) -> cst.Arg | None:
    if not is_field_call(call):
        return None
    return next((a for a in call.args if a.keyword is not None and a.keyword.value == "states"), None)


def _readonly_by_state(call: cst.Call) -> str | None:
    """The view expression ``readonly=`` and ``states=`` meant together (``""``: always what
    ``readonly=`` said, nothing for the views); None when states= sets anything but readonly or
    is not a literal."""
    values: dict[str, object] = {}
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value in ("states", "readonly"):
            try:
                values[arg.keyword.value] = ast.literal_eval(cst.Module([]).code_for_node(arg.value))
            except (ValueError, SyntaxError):
                return None
    base, states = values.get("readonly", False), values.get("states")
    if not isinstance(base, bool) or not isinstance(states, dict):
        return None
    differ: list[str] = []
    for state, changes in states.items():
        if not isinstance(state, str) or not isinstance(changes, (list, tuple)):
            return None
        for change in changes:
            if not (isinstance(change, (list, tuple)) and len(change) == 2 and change[0] == "readonly"):
                return None
            if bool(change[1]) != base and state not in differ:
                differ.append(state)
    if not differ:
        return ""
    if len(differ) == 1:
        return f"state {'!=' if base else '=='} {differ[0]!r}"
    listed = ", ".join(repr(s) for s in differ)
    return f"state {'not in' if base else 'in'} ({listed})"


class HookEnv(VariableNames, PythonRule):
    """17.0 calls the manifest's init and uninstall hooks with ``env``; 16.0 passed
    ``(cr, registry)`` (``(cr)`` to pre_init_hook). The hook takes ``env``, its own
    ``env = api.Environment(cr, SUPERUSER_ID, {})`` goes, and its old arguments are read from env
    (whatever the module named the second one: ``registry``, ``_``...)."""

    rule = "changed-hook-signature"
    triggers = ("_hook",)
    HOOKS = ("pre_init_hook", "post_init_hook", "uninstall_hook")
    OLD_ARGUMENTS = ("cr", "registry")  # what 16.0 passed, read from env now
    ENVIRONMENTS = ("api.Environment", "Environment", "odoo.api.Environment")

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self._inside = 0
        self._old: dict[str, str] = {}  # the hook's parameter name -> what env holds it as
        # the env = Environment(...) lines, removed by their block; kept here by id with the node
        # itself, so no later node can take a freed line's id and be removed in its place
        self._gone: dict[int, cst.SimpleStatementLine] = {}

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if self._inside:
            self._inside += 1
            return
        params = node.params.params
        named_as_hook = node.name.value in self.HOOKS or node.name.value.endswith("_hook")
        if named_as_hook and 1 <= len(params) <= 2 and params[0].name.value in ("cr", "_cr"):
            self._inside = 1
            self._old = {p.name.value: old for p, old in zip(params, self.OLD_ARGUMENTS, strict=False)}
            self._old.pop("_", None)  # an unused argument: nothing reads it

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        if not self._inside:
            return updated
        self._inside -= 1
        if self._inside:
            return updated
        self.applied()
        return updated.with_changes(params=updated.params.with_changes(params=[cst.Param(cst.Name("env"))]))

    def leave_SimpleStatementLine(
        self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine | cst.RemovalSentinel:
        statement = updated.body[0] if len(updated.body) == 1 else None
        if self._inside and isinstance(statement, cst.Assign) and isinstance(statement.value, cst.Call):
            targets = [dotted(t.target) for t in statement.targets]
            if targets == ["env"] and dotted(statement.value.func) in self.ENVIRONMENTS:
                self._gone[id(updated)] = updated
        return updated

    def leave_IndentedBlock(
        self, original: cst.IndentedBlock, updated: cst.IndentedBlock
    ) -> cst.IndentedBlock:
        return without_statements(updated, self._gone)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        """A test calling the hook itself: ``post_init_hook(self.env.cr, self.env.registry)`` ->
        ``post_init_hook(self.env)``."""
        name = dotted(updated.func).rsplit(".", 1)[-1]
        first = updated.args[0].value if updated.args else None
        hook_call = (name in self.HOOKS or name.endswith("_hook")) and len(updated.args) in (1, 2)
        if hook_call and isinstance(first, cst.Attribute) and first.attr.value == "cr":
            self.applied()
            return updated.with_changes(args=[cst.Arg(first.value)])
        return updated

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        if self._inside and updated.value in self._old and self.is_variable(original):
            return cst.Attribute(value=cst.Name("env"), attr=cst.Name(self._old[updated.value]))
        return updated


class ConcurrencyCheckField(PythonRule):
    """``models.BaseModel.CONCURRENCY_CHECK_FIELD`` is gone in 17.0; modules read it to list the
    magic field names to skip. The name it held keeps that list as it was."""

    rule = "removed-concurrency-check-field"
    triggers = ("CONCURRENCY_CHECK_FIELD",)

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        if updated.attr.value != "CONCURRENCY_CHECK_FIELD":
            return updated
        self.applied()
        return cst.SimpleString('"__last_update"')


RULES_17: tuple[type[PythonRule], ...] = (
    NameGet,
    FieldStates,
    HookEnv,
    ConcurrencyCheckField,
    PatchMethod,
    SearchCount,
    RoundTrip,
    ModifiersAttribute,
    OnchangeSpec,
    OrmcacheClear,
)
