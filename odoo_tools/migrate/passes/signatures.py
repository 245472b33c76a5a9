"""Core model methods' parameters in one Odoo source, read from its Python by AST (nothing is
imported): what a module's override must accept on that series. Two series' readings tell which
parameter a step took away (``_get_last_sequence(..., lock=True)`` in 16.0, gone in 17.0)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from odoo_tools.migrate.engine.source_cache import cached_reading
from odoo_tools.migrate.engine.step_knowledge import CoreSource
from odoo_tools.series import PackRef
from odoo_tools.sources import python_tree

MAX_BYTES = 2_000_000
READING = 4  # how signatures are read: part of the cache key, raised when the reading changes
# Where BaseModel lives: every model inherits its methods (search, _search, write...)
BASE_MODEL_FILES = ("odoo/models.py", "odoo/orm/models.py")


@dataclass(frozen=True)
class Signature:
    params: tuple[str, ...]  # after self, positional-or-keyword then keyword-only, in order
    defaults: tuple[tuple[str, str], ...] = ()  # (parameter, its literal default as written)
    open_ended: bool = False  # *args or **kwargs: takes whatever it is given
    returns: str = ""  # the return annotation as written ("Domain"), '' when there is none

    def default(self, name: str) -> str | None:
        return dict(self.defaults).get(name)


@dataclass
class CoreMethods:
    methods: dict[tuple[str, str], Signature] = field(default_factory=dict)  # (model, method)
    parents: dict[str, set[str]] = field(default_factory=dict)  # model -> models it inherits

    def knows(self, model: str) -> bool:
        """A model this source's core defines or extends."""
        return model in self.parents

    def lookup(self, model: str, method: str) -> Signature | None:
        """The signature ``model`` gets ``method`` with: its own classes', else a parent's, else
        BaseModel's (registered as model ``base``)."""
        seen: set[str] = set()
        todo = [model]
        while todo:
            current = todo.pop(0)
            if current in seen:
                continue
            seen.add(current)
            if (current, method) in self.methods:
                return self.methods[(current, method)]
            todo += sorted(self.parents.get(current, ()))
        return self.methods.get(("base", method))


@cache
def core_methods(source: CoreSource) -> CoreMethods:
    """Read once per process, and kept in the user's cache folder keyed by the source's Python
    files (names, sizes, times): parsing a whole source takes 10-30 s. A pack is read as it is."""
    if isinstance(source, PackRef):
        return pack_methods(source)
    files = _python_files(source)
    return cached_reading("methods", READING, source, files, lambda: _read(files), _encode, _decode)


class SignatureChanges:
    """Whether a model gets a method with another signature from ``old`` to ``new`` (or on one
    side only): an override of anything else takes the same parameters on both series, so a file
    that defines no such override needs no look. Each (model, method) answered once."""

    def __init__(self, old: CoreMethods, new: CoreMethods) -> None:
        self.old, self.new = old, new
        # a method missing on a side: no model has it there, nothing to compare
        self._names = {name for _, name in old.methods} & {name for _, name in new.methods}
        self._answers: dict[tuple[str, str], bool] = {}

    def changed(self, models: Iterable[str], method: str) -> bool:
        """For any of ``models`` ('' for a model neither series knows: it gets BaseModel's)."""
        if method not in self._names:
            return False
        for model in models:
            answer = self._answers.get((model, method))
            if answer is None:
                answer = self.old.lookup(model, method) != self.new.lookup(model, method)
                self._answers[(model, method)] = answer
            if answer:
                return True
        return False


# core_methods() keeps each reading for the process: one SignatureChanges per pair of them
_CHANGES: dict[tuple[int, int], SignatureChanges] = {}


def signature_changes(old: CoreMethods, new: CoreMethods) -> SignatureChanges:
    changes = _CHANGES.get((id(old), id(new)))
    if changes is None or changes.old is not old or changes.new is not new:
        changes = _CHANGES[(id(old), id(new))] = SignatureChanges(old, new)
    return changes


# What a default of a method looks like in inspect's text when it is no literal ("<function f>",
# "<object object at ...>"): made a name, so the signature parses and that default is not taken
_OPAQUE = re.compile(r"<[^<>]*>")


@cache
def pack_methods(ref: PackRef) -> CoreMethods:
    """``CoreMethods`` of the pack: every model's methods as the registry resolved them (the
    framework's under ``base``, which ``CoreMethods.lookup`` falls back to), ``_inherit`` and
    ``_inherits`` parents as the model's parents."""
    pack = ref.pack
    found = CoreMethods()
    framework = pack.framework_methods
    for name, params in framework.items():
        signature = _signature_of_text(params)
        if signature is not None:
            found.methods[("base", name)] = signature
    for model_name in pack.model_names:
        model = pack.model(model_name)
        if model is None:
            continue
        found.parents[model_name] = {p for p in (*model.inherit, *model.inherits) if p != model_name}
        for method in model.methods.values():
            if not method.modules and framework.get(method.name) == method.params:
                continue  # the framework's, found through ``base``
            signature = _signature_of_text(method.params)
            if signature is not None:
                found.methods[(model_name, method.name)] = signature
    return found


@cache
def _signature_of_text(params: str) -> Signature | None:
    """A ``Signature`` of inspect's text ``(self, vals, *, x=1) -> Domain``; None when it does not
    parse."""
    for text in (params, _OPAQUE.sub("_opaque_", params)):
        try:
            tree = ast.parse(f"def f{text}:\n    pass\n")
        except SyntaxError:
            continue
        function = tree.body[0]
        if isinstance(function, ast.FunctionDef):
            first = [a.arg for a in function.args.posonlyargs + function.args.args][:1]
            if first not in (["self"], ["cls"]):  # a static method: no receiver to leave out
                function.decorator_list.append(ast.Name("staticmethod"))
            return _signature(function)
    return None


def _read(files: list[Path]) -> CoreMethods:
    found = CoreMethods()
    for path in files:
        tree = _parse(path)
        base = any(path.as_posix().endswith(rel) for rel in BASE_MODEL_FILES)
        for node in (tree.body if base else ast.walk(tree)) if tree is not None else ():
            if isinstance(node, ast.ClassDef) and base and node.name == "BaseModel":
                _add_methods(found, "base", node)
            elif isinstance(node, ast.ClassDef) and not base:
                _add_class(found, node)
    return found


def _python_files(source: Path) -> list[Path]:
    files = [source / rel for rel in BASE_MODEL_FILES if (source / rel).is_file()]
    for addons in (source / "odoo" / "addons", source / "addons"):
        if addons.is_dir():
            files += sorted(p for p in addons.glob("*/**/*.py") if "tests" not in p.relative_to(addons).parts)
    return files


def _encode(found: CoreMethods) -> dict[str, Any]:
    return {
        "methods": [[m, f, list(s.params), [list(d) for d in s.defaults], s.open_ended, s.returns]
                    for (m, f), s in found.methods.items()],
        "parents": {m: sorted(p) for m, p in found.parents.items()},
    }  # fmt: skip


def _decode(data: dict[str, Any]) -> CoreMethods:
    """A kept reading back, refused (``ValueError``: read again from the source) unless every
    value has its type and every default is a literal: a default is written into the migrated
    module, and what a cache holds is data, never code."""
    methods = {}
    for m, f, params, defaults, open_ended, returns in data["methods"]:
        pairs = tuple((n, d) for n, d in defaults)
        texts = [m, f, *params, *(part for pair in pairs for part in pair), returns]
        if not all(isinstance(text, str) for text in texts) or not all(is_literal(d) for _n, d in pairs):
            raise ValueError(f"kept signature of {m}.{f} is not a reading of ours")
        methods[(m, f)] = Signature(tuple(params), pairs, bool(open_ended), returns)
    parents = {m: set(p) for m, p in data["parents"].items()}
    if not all(isinstance(name, str) for names in parents.values() for name in names):
        raise ValueError("kept parents are not a reading of ours")
    return CoreMethods(methods=methods, parents=parents)


def _parse(path: Path) -> ast.Module | None:
    return python_tree(path, MAX_BYTES)


def _add_class(found: CoreMethods, node: ast.ClassDef) -> None:
    names: dict[str, list[str]] = {}
    for statement in node.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
            if isinstance(target, ast.Name) and target.id in ("_name", "_inherit"):
                names[target.id] = _strings(statement.value)
    inherit = names.get("_inherit", [])
    model = (names.get("_name") or inherit or [""])[0]
    if not model:
        return
    found.parents.setdefault(model, set()).update(p for p in inherit if p != model)
    _add_methods(found, model, node)


def _strings(node: ast.expr) -> list[str]:
    items = node.elts if isinstance(node, (ast.List, ast.Tuple)) else [node]
    return [i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)]


def _add_methods(found: CoreMethods, model: str, node: ast.ClassDef) -> None:
    for statement in node.body:
        if isinstance(statement, ast.FunctionDef) and not statement.name.startswith("__"):
            signature = _signature(statement)
            known = found.methods.get((model, statement.name))
            # An extension may add parameters to what its base declares: the widest one holds
            if known is None or len(signature.params) > len(known.params):
                found.methods[(model, statement.name)] = signature


def _signature(node: ast.FunctionDef) -> Signature:
    args = node.args
    static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)
    positional = [a.arg for a in args.posonlyargs + args.args][0 if static else 1 :]  # without self / cls
    defaults = list(zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=False))
    defaults += [(a.arg, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=False) if d is not None]
    return Signature(
        params=tuple(positional + [a.arg for a in args.kwonlyargs]),
        # Only literal defaults: one is written into a module's override, where a name of Odoo's
        # own file would not be defined (and a kept reading's defaults are checked the same way)
        defaults=tuple((name, text) for name, value in defaults if is_literal(text := ast.unparse(value))),
        open_ended=args.vararg is not None or args.kwarg is not None,
        returns=ast.unparse(node.returns) if node.returns is not None else "",
    )


def is_literal(text: str) -> bool:
    """``text`` is a Python literal (a default that can be written into a module's override)."""
    try:
        ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return False
    return True
