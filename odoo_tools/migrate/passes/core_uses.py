"""Where a module names a core model or one of its fields: its views (the view's model, and the
sub-views of relational fields on their comodel), its data records, ``@api.depends`` /
``onchange`` / ``constrains`` names and ``related=`` paths, ``_inherit``, comodels,
``self.env["x"]`` and, in the methods of a class whose model is certain, ``self.<name>`` and the
keys of ``self.write/create({...})``, ``self.mapped("a.b")``.

A name is resolved on the source series (the module as it was written): a field's comodel comes
from the module's own declaration or the core list of that series. Where the model is not
certain (an xpath leaving a field, an unknown comodel), nothing is collected."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from lxml import etree

from odoo_tools.index import FieldDef, ModelClass, parse_python
from odoo_tools.lint import core_model_fields

_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=True, huge_tree=False)
_FIELD_STEP = re.compile(r"""field\[@name=['"](\w+)['"]\]""")


@dataclass(frozen=True)
class Use:
    model: str
    name: str  # a field name; "" when the use is of the model itself
    path: str  # module-relative
    line: int
    how: str  # view, record, depends, related, code, inherit, comodel, env, view-model, record-model


@dataclass
class ModuleModels:
    """The module's own model classes (as parsed from its Python files) and the source series."""

    series: str
    classes: list[tuple[str, ModelClass]] = field(default_factory=list)  # (module-relative path, class)

    def declared(self, model: str) -> dict[str, FieldDef]:
        return {f.name: f for path, cls in self.classes if cls.model == model for f in cls.fields}

    def defines(self, model: str) -> bool:
        return any(cls.defines and cls.model == model for _, cls in self.classes)

    def comodel(self, model: str, name: str) -> str:
        own = self.declared(model).get(name)
        if own is not None and own.comodel:
            return own.comodel
        core = core_model_fields(self.series, model).get(name)
        return core.comodel if core is not None else ""


def read_models(texts: dict[str, str], module: str, series: str) -> ModuleModels:
    models = ModuleModels(series)
    for rel, text in sorted(texts.items()):
        if rel.endswith(".py") and not rel.startswith(("migrations/", "upgrades/", "tests/")):
            data = parse_python(text.encode("utf-8"), rel, module)
            models.classes.extend((rel, cls) for cls in data.models)
    return models


def python_uses(texts: dict[str, str], models: ModuleModels) -> list[Use]:
    uses: list[Use] = []
    for rel, cls in models.classes:
        uses += [Use(parent, "", rel, cls.inherit_line or cls.line, "inherit") for parent in cls.inherit]
        uses += [Use(target, "", rel, cls.inherits_line or cls.line, "inherit") for target, _ in cls.inherits]
        for fdef in cls.fields:
            if fdef.comodel:
                uses.append(Use(fdef.comodel, "", rel, fdef.line, "comodel"))
            if fdef.related:
                uses += _path_uses(models, cls.model, fdef.related, rel, fdef.line, "related")
        for method in cls.methods:
            for kind, line, names in method.field_names:
                for name in names:
                    uses += _path_uses(models, cls.model, name, rel, line, kind)
    for rel, text in sorted(texts.items()):
        if rel.endswith(".py") and not rel.startswith(("migrations/", "upgrades/")):
            uses += _code_uses(rel, text, models)
    return uses


def _path_uses(models: ModuleModels, model: str, path: str, rel: str, line: int, how: str) -> list[Use]:
    """Each name of a dotted path on the model it is read on, while that model is known."""
    uses = []
    current = model
    for name in path.split("."):
        if not current or not name.isidentifier():
            break
        uses.append(Use(current, name, rel, line, how))
        current = models.comodel(current, name)
    return uses


def _code_uses(rel: str, text: str, models: ModuleModels) -> list[Use]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    uses: list[Use] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and _is_env(node.value):
            key = node.slice
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                uses.append(Use(key.value, "", rel, node.lineno, "env"))
    certain = {cls.line: cls.model for path, cls in models.classes if path == rel and _certain(cls)}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.lineno in certain:
            model = certain[node.lineno]
            for method in node.body:
                if isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef):
                    uses += _method_uses(method, model, rel, models)
    return uses


def _certain(cls: ModelClass) -> bool:
    """The class's records are of its model only (not an abstract mixin others inherit)."""
    return cls.kind != "abstract" and not cls.opaque


def _is_env(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "env"


def _method_uses(
    method: ast.FunctionDef | ast.AsyncFunctionDef, model: str, rel: str, models: ModuleModels
) -> list[Use]:
    selves = {"self"}
    for node in ast.walk(method):  # ``for rec in self`` (or self.filtered(...), self.sudo()...)
        if isinstance(node, ast.For) and isinstance(node.target, ast.Name) and _on_self(node.iter, selves):
            selves.add(node.target.id)
    called = {id(n.func) for n in ast.walk(method) if isinstance(n, ast.Call)}
    uses: list[Use] = []
    for node in ast.walk(method):
        if isinstance(node, ast.Attribute) and _is_self(node.value, selves) and id(node) not in called:
            if not node.attr.startswith("_") and node.attr not in ("env", "ids", "id"):
                uses.append(Use(model, node.attr, rel, node.lineno, "code"))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and _is_self(node.func.value, selves)
        ):
            uses += _call_uses(node, node.func.attr, model, rel, models)
    return uses


def _call_uses(node: ast.Call, method: str, model: str, rel: str, models: ModuleModels) -> list[Use]:
    first = node.args[0] if node.args else None
    if method in ("write", "create", "update") and isinstance(first, ast.Dict):
        return [
            Use(model, key.value, rel, key.lineno, "code")
            for key in first.keys
            if isinstance(key, ast.Constant) and isinstance(key.value, str) and key.value.isidentifier()
        ]
    if (
        method in ("mapped", "filtered", "sorted")
        and isinstance(first, ast.Constant)
        and isinstance(first.value, str)
    ):
        return _path_uses(models, model, first.value, rel, first.lineno, "code")
    return []


def _is_self(node: ast.expr, selves: set[str]) -> bool:
    return isinstance(node, ast.Name) and node.id in selves


def _on_self(node: ast.expr, selves: set[str]) -> bool:
    if _is_self(node, selves):
        return True
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("filtered", "sorted", "sudo", "with_context", "with_company", "with_user")
        and _is_self(node.func.value, selves)
    )


def xml_uses(rel: str, text: str, models: ModuleModels) -> list[Use]:
    try:
        root = etree.fromstring(text.encode("utf-8"), _PARSER)
    except etree.XMLSyntaxError:
        return []
    uses: list[Use] = []
    for record in root.iter("record"):
        kind = record.get("model")
        if kind == "ir.ui.view":
            named = record.find("field[@name='model']")
            arch = record.find("field[@name='arch']")
            model = (named.text or "").strip() if named is not None else ""
            if named is not None and model:
                uses.append(Use(model, "", rel, _line(named), "view-model"))
                if arch is not None:
                    _walk(arch, model, rel, models, uses)
        elif kind:
            uses.append(Use(kind, "", rel, _line(record), "record-model"))
            uses += [
                Use(kind, str(f.get("name")), rel, _line(f), "record")
                for f in record.findall("field")
                if f.get("name")
            ]
    return uses


def _line(element: etree._Element) -> int:
    line = element.sourceline
    return line if isinstance(line, int) else 0


def _walk(node: etree._Element, model: str, rel: str, models: ModuleModels, uses: list[Use]) -> None:
    for child in node:
        if not isinstance(child.tag, str):
            continue
        name = child.get("name") or ""
        position = child.get("position")
        if child.tag == "xpath":
            inside = _xpath_model(child.get("expr") or "", position, model, models)
            if inside:
                _walk(child, inside, rel, models, uses)
        elif position is not None:  # a spec: its name is an anchor of the parent view
            if position == "attributes":
                continue
            inside = models.comodel(model, name) if child.tag == "field" and position == "inside" else model
            if inside:
                _walk(child, inside, rel, models, uses)
        elif child.tag == "field" and name:
            uses.append(Use(model, name, rel, _line(child), "view"))
            comodel = models.comodel(model, name)
            if comodel:  # its sub-views (list, form, kanban) are on the comodel
                _walk(child, comodel, rel, models, uses)
        elif child.tag == "groupby":
            comodel = models.comodel(model, name)
            if comodel:
                _walk(child, comodel, rel, models, uses)
        else:
            _walk(child, model, rel, models, uses)


def _xpath_model(expr: str, position: str | None, model: str, models: ModuleModels) -> str:
    """The model an xpath's content is on: the comodel of each ``field[@name=x]`` step the path goes
    below (or into, with position inside); "" when that cannot be told."""
    steps = [s for s in re.split(r"/+", expr.strip()) if s]
    if any(s == ".." or "::" in s for s in steps):
        return ""
    current = model
    for i, step in enumerate(steps):
        found = _FIELD_STEP.search(step)
        if found and (i < len(steps) - 1 or position == "inside"):
            current = models.comodel(current, found.group(1))
            if not current:
                return ""
    return current
