"""Relations a step turned around between two core models, read in both series' field lists: 16.0's
``stock.move.scrap_ids`` (one2many) and ``stock.scrap.move_id`` (many2one) are 17.0's
``stock.move.scrap_id`` (many2one) and ``stock.scrap.move_ids`` (one2many). Reading either still
gives the same records as a recordset, so a read is renamed; only where the code certainly holds
records of that model (``move_id`` is a field of many other models): ``self`` in a class of it,
names only ever bound to its records, relational fields followed from such records."""

from __future__ import annotations

import functools

import libcst as cst
from libcst.metadata import PositionProvider

from odoo_tools.index import parse_python
from odoo_tools.lint import core_difference, core_model_fields
from odoo_tools.migrate.engine.module_files import ModuleFiles
from odoo_tools.migrate.engine.python_parsing import keep_rewrite, python_modules, transform
from odoo_tools.migrate.engine.python_rules import class_model, same_quotes, string_value
from odoo_tools.migrate.engine.report import StepReport
from odoo_tools.migrate.passes.record_models import BoundModels, FieldFollower

RULE = "swapped-relation"
_TURNED = {"One2many": "Many2one", "Many2one": "One2many"}


@functools.cache
def swapped_relations(old: str, new: str) -> dict[tuple[str, str], str]:
    """(model, old field) -> new field, for two core models whose one relation between them (a
    one2many and its many2one) the step removed on both sides and gave back turned around: each
    model gained exactly one field to the other, of the type the other side had."""
    removed = core_difference(old, new).removed_fields
    found: dict[tuple[str, str], str] = {}
    for model, fields in removed.items():
        for name, field in fields.items():
            other = field.comodel
            towards = [f for f in fields.values() if f.comodel == other]
            back = [f for f in removed.get(other, {}).values() if f.comodel == model]
            if field.type not in _TURNED or len(towards) != 1 or len(back) != 1:
                continue
            gained, gained_back = _gained(old, new, model, other), _gained(old, new, other, model)
            if (
                back[0].type == _TURNED[field.type]
                and len(gained) == 1
                and len(gained_back) == 1
                and gained[0][1] == back[0].type
                and gained_back[0][1] == field.type
            ):
                found[(model, name)] = gained[0][0]
    return found


def _gained(old: str, new: str, model: str, comodel: str) -> list[tuple[str, str]]:
    """(name, type) of the fields to ``comodel`` that ``model`` has in ``new`` and not in ``old``."""
    before = core_model_fields(old, model)
    return [
        (name, f.type)
        for name, f in core_model_fields(new, model).items()
        if f.comodel == comodel and name not in before
    ]


def rename_swapped_relations(files: ModuleFiles, report: StepReport) -> None:
    old, new = f"{report.source}", f"{report.target}"
    swapped = swapped_relations(old, new)
    if not swapped:
        return
    names = {name for _model, name in swapped}
    declared = {
        (model.model, f.name)
        for rel, text in files.texts.items()
        if rel.endswith(".py")
        for model in parse_python(text.encode(), rel, files.name).models
        for f in model.fields
    }
    for rel, module in python_modules(files, lambda _rel, text: any(n in text for n in names)):
        follower = FieldFollower(old)
        bound = BoundModels(loops=True)
        module.visit(bound)
        renamer = _Renamer(swapped, report, files.site_path(rel), follower, bound.certain(follower))
        renamer.declared = declared
        keep_rewrite(files, rel, module, transform(module, renamer))


class _Renamer(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(
        self,
        swapped: dict[tuple[str, str], str],
        report: StepReport,
        path: str,
        follower: FieldFollower,
        bound: dict[str, str],
    ) -> None:
        super().__init__()
        self.swapped, self.report, self.path = swapped, report, path
        self.follower, self.bound = follower, bound
        self._classes: list[str] = []
        self.declared: set[tuple[str, str]] = set()  # (model, field) the module declares itself

        self._written: set[int] = set()  # the attributes assigned to (original nodes)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._classes.append(class_model(node))

    def visit_Assign(self, node: cst.Assign) -> None:
        self._written |= {id(t.target) for t in node.targets}

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._written.add(id(node.target))

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._written.add(id(node.target))

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
        self._classes.pop()
        return updated

    def _model(self, node: cst.BaseExpression) -> str:
        return self.follower(node, self.bound, self._classes[-1] if self._classes else "")

    def _new_name(self, model: str, name: str) -> str | None:
        if (model, name) in self.declared:
            return None
        return self.swapped.get((model, name))

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        name = original.attr.value
        if not any(name == old for _model, old in self.swapped):
            return updated
        model = self._model(original.value)
        new_name = self._new_name(model, name)
        if new_name is None:
            return updated
        if id(original) in self._written:
            self._say_written(original, model, name, new_name)
            return updated
        self._say(original, model, name, new_name)
        return updated.with_changes(attr=cst.Name(new_name))

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        """``moves.mapped("scrap_ids.name")``: each part of the path, on the model it reads."""
        func = original.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "mapped" and len(original.args) == 1):
            return updated
        path = original.args[0].value
        text = string_value(path)
        if not isinstance(path, cst.SimpleString) or not text:
            return updated
        model, parts = self._model(func.value), text.split(".")
        new_parts = []
        for part in parts:
            new_name = self._new_name(model, part)
            if new_name is not None:
                self._say(original, model, part, new_name)
            new_parts.append(new_name or part)
            model = self.follower.follow(model, [part])
        if new_parts == parts:
            return updated
        new_path = same_quotes(path, ".".join(new_parts))
        return updated.with_changes(args=[updated.args[0].with_changes(value=new_path)])

    def _say(self, node: cst.CSTNode, model: str, name: str, new_name: str) -> None:
        old_type = core_model_fields(f"{self.report.source}", model)[name].type
        holds = "one record at most" if old_type == "One2many" else "several records"
        self.report.count(RULE)
        self.report.find(
            RULE, self.path, self.get_metadata(PositionProvider, node).start.line,
            f"{model}.{name} ({old_type}) is {new_name} ({_TURNED[old_type]}) in "
            f"{self.report.target_series}: the relation was turned around; renamed.",
            f"A {_TURNED[old_type].lower()} holds {holds}: "
            "check what the code does with it (assertions on .ids, .id, writes).",
        )  # fmt: skip

    def _say_written(self, node: cst.CSTNode, model: str, name: str, new_name: str) -> None:
        self.report.find(
            RULE, self.path, self.get_metadata(PositionProvider, node).start.line,
            f"{model}.{name} is gone in {self.report.target_series}: the relation was turned around "
            f"({new_name} now). The value written here was left as it is.",
            f"Write the relation from the other side, or give {new_name} the value it takes.",
            severity="error",
        )  # fmt: skip
