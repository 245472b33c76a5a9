"""Values for a core field the step removed, given where the model is written in the code:
``env["stock.move"].create({"name": ..., ...})`` fails on 19.0 ("Invalid field 'name' in
'stock.move'"), mostly in tests building their data. The key goes (a warning at its line), unless
the module declares that field on that model itself (then the value is its own)."""

from __future__ import annotations

import re

import libcst as cst
from libcst.metadata import PositionProvider

from odoo_tools.index import FieldDef, parse_python
from odoo_tools.lint import RemovedField, core_difference, core_graph, core_model_fields
from odoo_tools.migrate.engine.core_closure import manifest_depends
from odoo_tools.migrate.engine.module_files import ModuleFiles
from odoo_tools.migrate.engine.python_parsing import keep_rewrite, python_modules, transform
from odoo_tools.migrate.engine.python_rules import dotted, same_quotes, string_value, with_values_mapped
from odoo_tools.migrate.engine.report import StepReport
from odoo_tools.migrate.passes.record_models import BoundModels, model_of

RULE = "removed-core-field-value"
WRITING = ("create", "write", "new")
_STRINGS = re.compile(r"[\"']([\w.]+)[\"']")  # the plain strings of a file ("stock.move", "name")


def drop_removed_values(files: ModuleFiles, report: StepReport) -> None:
    removed = core_difference(f"{report.source}", f"{report.target}").removed_fields
    if not removed:
        return

    fields_of: dict[str, dict[str, FieldDef]] = {}  # core_model_fields of the source, read once

    def wanted(_rel: str, text: str) -> bool:
        """A value goes only under a string key naming a removed field, in the values of a model
        named in the file (env["stock.move"], or a name bound to it) that lost a field, or nested
        under a string key naming a relational field of such a model: a cheap look at the strings
        of the text spares walking the trees of the files without."""
        if not any(f"{w}(" in text for w in WRITING):
            return False
        strings = set(_STRINGS.findall(text))
        todo, seen = [m for m in strings if m in removed], set()
        while todo:
            model = todo.pop()
            if model in seen:
                continue
            seen.add(model)
            if any(name in strings for name in removed.get(model, ())):
                return True
            if model not in fields_of:
                fields_of[model] = core_model_fields(f"{report.source}", model)
            todo += [f.comodel for name, f in fields_of[model].items() if name in strings and f.comodel]
        return False

    if not any(rel.endswith(".py") and wanted(rel, text) for rel, text in files.texts.items()):
        return  # spares reading every file's fields below
    renamed = _renamed_with_id(removed, f"{report.source}", f"{report.target}")
    # a module outside the core it depends on may declare the field again (its own migration
    # does: OCA account_usability for account_template_active): the values stay, with a warning
    core = core_graph(f"{report.source}").depends
    outside = [name for name in manifest_depends(files) or [] if name not in core]
    declared: set[tuple[str, str]] = set()
    for rel, text in files.texts.items():
        if rel.endswith(".py"):
            for model in parse_python(text.encode(), rel, files.name).models:
                declared.update((model.model, f.name) for f in model.fields)
    for rel, module in python_modules(files, wanted):
        bound = BoundModels()
        module.visit(bound)
        dropper = _Dropper(removed, declared, report, files.site_path(rel), bound.certain())
        dropper.renamed, dropper.outside = renamed, outside
        keep_rewrite(files, rel, module, transform(module, dropper))


def _renamed_with_id(
    removed: dict[str, dict[str, RemovedField]], old: str, new: str
) -> dict[tuple[str, str], str]:
    """(model, field) -> its new name, for a removed field whose model gained ``<field>_id`` of
    the same type and comodel (17.0's mail.tracking.value field -> field_id, 19.0's sale and
    purchase lines' product_uom -> product_uom_id): Odoo's renames, the value's meaning kept."""
    found: dict[tuple[str, str], str] = {}
    for model, fields in removed.items():
        before: dict[str, FieldDef] | None = None
        for name, field in fields.items():
            after = core_model_fields(new, model).get(f"{name}_id")
            if after is None or (after.type, after.comodel) != (field.type, field.comodel):
                continue
            before = core_model_fields(old, model) if before is None else before
            if f"{name}_id" not in before:
                found[(model, name)] = f"{name}_id"
    return found


class _Dropper(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(
        self,
        removed: dict[str, dict[str, RemovedField]],
        declared: set[tuple[str, str]],
        report: StepReport,
        path: str,
        bound: dict[str, str],
    ) -> None:
        super().__init__()
        self.removed, self.declared, self.report, self.path = removed, declared, report, path
        self.bound = bound
        self.renamed: dict[tuple[str, str], str] = {}
        self.outside: list[str] = []  # the module's dependencies outside the core

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = updated.func
        if not (isinstance(func, cst.Attribute) and func.attr.value in WRITING and updated.args):
            return updated
        model = model_of(func.value, self.bound)
        gone = {name for name in self.removed.get(model, {}) if (model, name) not in self.declared}
        if not gone:
            return updated
        return with_values_mapped(updated, lambda values: self._kept(values, model, gone, original))

    def _kept(self, values: cst.Dict, model: str, gone: set[str], call: cst.Call) -> cst.Dict:
        elements = list(values.elements)
        kept: list[cst.BaseDictElement] = []
        for element in elements:
            key = element.key if isinstance(element, cst.DictElement) else None
            name = string_value(key) if key is not None else None
            if name and name not in gone and isinstance(element, cst.DictElement):
                element = element.with_changes(value=self._nested(element.value, model, name, call))
            renamed = (model, str(name)) in self.renamed and isinstance(key, cst.SimpleString)
            if name in gone and renamed and isinstance(element, cst.DictElement):
                kept.append(self._renamed_key(element, model, str(name), call))
                continue
            if name in gone and self.outside:
                self._say_kept(model, str(name), call)
            elif name in gone:
                line = self.get_metadata(PositionProvider, call).start.line
                self.report.count(RULE)
                self.report.find(
                    RULE, self.path, line,
                    f"Field {name} of {model} was removed from Odoo in {self.report.target_series}: its "
                    "value was dropped from these values (the create/write would fail on it).",
                    f"Check what replaced {model}.{name} in {self.report.target_series} and set that "
                    "if the code needs it.",
                )  # fmt: skip
                continue
            kept.append(element)
        if kept and len(kept) < len(elements) and elements[-1] not in kept:
            kept[-1] = kept[-1].with_changes(comma=elements[-1].comma)
        return values.with_changes(elements=kept)

    def _say_kept(self, model: str, name: str, call: cst.Call) -> None:
        line = self.get_metadata(PositionProvider, call).start.line
        self.report.find(
            RULE, self.path, line,
            f"Field {name} of {model} was removed from Odoo in {self.report.target_series}; the value "
            f"was kept, as {', '.join(self.outside)} (outside the core) may declare it again.",
            f"Drop the value unless a dependency declares {model}.{name} on {self.report.target_series}.",
        )  # fmt: skip

    def _renamed_key(
        self, element: cst.DictElement, model: str, name: str, call: cst.Call
    ) -> cst.DictElement:
        key = element.key
        assert isinstance(key, cst.SimpleString)
        new_name = self.renamed[(model, name)]
        line = self.get_metadata(PositionProvider, call).start.line
        self.report.count(RULE)
        self.report.find(
            RULE, self.path, line,
            f"Field {name} of {model} is {new_name} in {self.report.target_series} (the same "
            f"{'relation' if self.removed[model][name].comodel else 'type'}): the key was renamed.",
            f"Other uses of {model}.{name} in the module need the new name too.",
        )  # fmt: skip
        return element.with_changes(key=same_quotes(key, new_name))

    def _nested(self, value: cst.BaseExpression, model: str, name: str, call: cst.Call) -> cst.BaseExpression:
        """The records a relational value creates: ``[(0, 0, {...})]``, ``[Command.create({...})]``
        -> their values, for the field's comodel."""
        comodel = core_model_fields(f"{self.report.source}", model).get(name)
        target = comodel.comodel if comodel is not None else ""
        gone = {n for n in self.removed.get(target, {}) if (target, n) not in self.declared}
        if not gone or not isinstance(value, (cst.List, cst.Tuple)):
            return value
        elements = []
        for element in value.elements:
            item = element.value
            third = item.elements[2] if isinstance(item, cst.Tuple) and len(item.elements) == 3 else None
            if isinstance(item, cst.Tuple) and third is not None and isinstance(third.value, cst.Dict):
                kept = third.with_changes(value=self._kept(third.value, target, gone, call))
                item = item.with_changes(elements=[*item.elements[:2], kept])
            elif isinstance(item, cst.Call) and dotted(item.func) == "Command.create" and len(item.args) == 1:
                inner = item.args[0].value
                if isinstance(inner, cst.Dict):
                    item = item.with_changes(
                        args=[item.args[0].with_changes(value=self._kept(inner, target, gone, call))]
                    )
            elements.append(element.with_changes(value=item))
        return value.with_changes(elements=elements)
