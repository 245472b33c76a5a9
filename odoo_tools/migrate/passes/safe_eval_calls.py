"""Calls of ``odoo.tools.safe_eval.safe_eval`` when the step changed its parameters, read from the
two series' sources: 18.0's ``(expr, globals_dict=None, locals_dict=None, mode="eval",
nocopy=False, locals_builtins=False, filename=None)`` became 19.0's ``(expr, /, context=None, *,
mode="eval", filename=None)`` (an 18.0 call "got an unexpected keyword argument 'locals_dict'").

The one dict a call gave (either of the two) is the context; ``mode`` and ``filename`` are passed
by keyword. The new context is always updated with what the evaluation creates (18.0's
``nocopy=True``), so ``nocopy=True`` goes; without it an ``exec`` evaluated a copy, which
``dict(...)`` keeps (an ``eval`` creates nothing). Two dicts without ``nocopy=True`` were copied
too: their union is the context (``globals | locals``: a name is looked up in the locals first, as
19.0's own ``make_compute`` does). Builtins are always there (``locals_builtins`` goes). Two dicts
with ``nocopy=True`` (an ``exec`` wrote into the locals one), or arguments that are not all plain,
are a finding at the call's line."""

from __future__ import annotations

import ast
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import libcst as cst
from libcst.metadata import PositionProvider

from odoo_tools.migrate.engine.module_files import ModuleFiles
from odoo_tools.migrate.engine.python_parsing import keep_rewrite, python_modules, transform
from odoo_tools.migrate.engine.python_rules import string_value
from odoo_tools.migrate.engine.report import StepReport
from odoo_tools.sources import python_tree

RULE = "changed-safe-eval-signature"
_OLD = ("expr", "globals_dict", "locals_dict", "mode", "nocopy", "locals_builtins", "filename")
_NO_SPACE = cst.AssignEqual(
    whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")
)


@cache
def _parameters(source: Path) -> tuple[str, ...]:
    """The parameter names of ``safe_eval`` in a source (empty when it cannot be read)."""
    tree = python_tree(source / "odoo" / "tools" / "safe_eval.py")
    if tree is None:
        return ()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == "safe_eval":
            a = node.args
            return tuple(p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs))
    return ()


def changed(old_source: Path, new_source: Path) -> bool:
    old, new = _parameters(old_source), _parameters(new_source)
    return old[: len(_OLD)] == _OLD and new == ("expr", "context", "mode", "filename")


def rewrite_safe_eval_calls(
    files: ModuleFiles, report: StepReport, old_source: Path, new_source: Path
) -> None:
    if not changed(old_source, new_source):
        return
    for rel, module in python_modules(files, lambda _rel, text: "safe_eval" in text):
        if not _imports_safe_eval(module):
            continue
        keep_rewrite(files, rel, module, transform(module, _Calls(report, files.site_path(rel))))


def _imports_safe_eval(module: cst.Module) -> bool:
    """The file binds ``safe_eval`` to the function (``from odoo.tools.safe_eval import
    safe_eval`` or ``from odoo.tools import safe_eval``, without ``as``)."""
    for statement in module.body:
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            if not isinstance(small, cst.ImportFrom) or isinstance(small.names, cst.ImportStar):
                continue
            source = _dotted(small.module) if small.module is not None else ""
            if source in ("odoo.tools.safe_eval", "odoo.tools") and any(
                isinstance(a.name, cst.Name) and a.name.value == "safe_eval" and a.asname is None
                for a in small.names
            ):
                return True
    return False


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return ""


class _Calls(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, report: StepReport, path: str) -> None:
        super().__init__()
        self.report, self.path = report, path

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if not (isinstance(updated.func, cst.Name) and updated.func.value == "safe_eval"):
            return updated
        given = _given(updated.args)
        if given is None or "expr" not in given:
            return self._cannot(
                original, "its arguments are not plain (*args, **kwargs or unknown names)", "warning"
            )
        context = [given[k] for k in ("globals_dict", "locals_dict") if k in given and not _is_none(given[k])]
        nocopy = given.get("nocopy")
        if nocopy is not None and _literal(nocopy.value) not in ("True", "False"):
            return self._cannot(original, "its nocopy is not a literal True or False")
        shared = nocopy is not None and _literal(nocopy.value) == "True"  # evaluated in the caller's dicts
        if len(context) > 1 and shared:
            return self._cannot(
                original,
                "it gives two dicts with nocopy=True (an exec wrote into the second); the new one takes one",
            )
        args = [_positional(given["expr"])]
        if context:
            value = context[0].value
            mode = given.get("mode")
            evaluates = mode is None or string_value(mode.value) == "eval"
            if len(context) > 1:  # copies of both were evaluated, the second's names first
                value = cst.BinaryOperation(_operand(value), cst.BitOr(), _operand(context[1].value))
            elif not shared and not evaluates and not isinstance(value, cst.Dict):
                value = cst.Call(cst.Name("dict"), [cst.Arg(value)])
            args.append(_positional(context[0]).with_changes(value=value))
        for name in ("mode", "filename"):
            if name in given:
                args.append(given[name].with_changes(keyword=cst.Name(name), equal=_equal(given[name])))
        rewritten = updated.with_changes(args=_with_commas(args, updated.args))
        if rewritten.deep_equals(updated):
            return updated  # a call the new signature takes as it is
        self.report.count(RULE)
        return rewritten

    def _cannot(self, node: cst.Call, why: str, severity: str = "error") -> cst.Call:
        line = int(self.get_metadata(PositionProvider, node).start.line)
        self.report.find(
            RULE,
            self.path,
            line,
            f"safe_eval takes (expr, /, context=None, *, mode, filename) in {self.report.target_series}, "
            f"and this call was not rewritten: {why}"
            + ("; it fails there." if severity == "error" else "; check it there."),
            "Pass one dict as the context (updated with what an exec creates), mode and filename by keyword.",
            severity,  # type: ignore[arg-type]
        )
        return node


def _given(args: Sequence[cst.Arg]) -> dict[str, cst.Arg] | None:
    """The call's arguments by 18.0 parameter name (None for *args, **kwargs or an unknown name)."""
    given: dict[str, cst.Arg] = {}
    for index, arg in enumerate(args):
        if arg.star:
            return None
        name = arg.keyword.value if arg.keyword is not None else (_OLD[index] if index < len(_OLD) else "")
        if name not in _OLD or name in given:
            return None
        given[name] = arg
    return given


def _with_commas(args: list[cst.Arg], original: Sequence[cst.Arg]) -> list[cst.Arg]:
    """The original call's layout, position by position: the commas and the space before them of
    its arguments, the last one's (up to the closing parenthesis) for the last (a call keeps at
    most the arguments it had)."""
    laid = [*original[: len(args) - 1], original[-1]]
    return [
        a.with_changes(comma=o.comma, whitespace_after_arg=o.whitespace_after_arg)
        for a, o in zip(args, laid, strict=True)
    ]


def _operand(node: cst.BaseExpression) -> cst.BaseExpression:
    simple = (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.Dict)
    return (
        node
        if isinstance(node, simple) or node.lpar
        else node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    )


def _positional(arg: cst.Arg) -> cst.Arg:
    return arg.with_changes(keyword=None, equal=cst.MaybeSentinel.DEFAULT)


def _equal(arg: cst.Arg) -> cst.AssignEqual:
    return arg.equal if isinstance(arg.equal, cst.AssignEqual) else _NO_SPACE


def _is_none(arg: cst.Arg) -> bool:
    return _literal(arg.value) == "None"


def _literal(node: cst.BaseExpression) -> str:
    return node.value if isinstance(node, cst.Name) else ""
