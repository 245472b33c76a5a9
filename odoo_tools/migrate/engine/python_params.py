"""Parameter and argument lists of functions edited as they are written: a parameter or an
argument taken out or added keeps the layout around it (one a line stays one a line, the line
break before the closing parenthesis stays), and what names a body already uses."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import libcst as cst


class UsedNames(cst.CSTVisitor):
    """The names a function body uses as variables, read or bound (not attributes, not keyword
    arguments' names): a parameter added under one of them would hide the module's own
    (``from datetime import date``) or take the body's assignments."""

    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()
        self._not_variables: set[int] = set()

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._not_variables.add(id(node.attr))

    def visit_Arg(self, node: cst.Arg) -> None:
        if node.keyword is not None:
            self._not_variables.add(id(node.keyword))

    def visit_Name(self, node: cst.Name) -> None:
        if id(node) not in self._not_variables:
            self.names.add(node.value)


def names_in(body: cst.BaseSuite) -> set[str]:
    used = UsedNames()
    body.visit(used)
    return used.names


def without(params: Sequence[cst.Param], gone: dict[str, str | None]) -> list[cst.Param]:
    kept = [p for p in params if p.name.value not in gone]
    if kept and params and params[-1].name.value in gone:
        last = params[-1]
        kept[-1] = kept[-1].with_changes(comma=last.comma, whitespace_after_param=last.whitespace_after_param)
    return kept


_Listed = TypeVar("_Listed", cst.Param, cst.Arg)
_NO_SPACE = cst.SimpleWhitespace("")
EQUAL = cst.AssignEqual(whitespace_before=_NO_SPACE, whitespace_after=_NO_SPACE)


def takes_exactly(params: cst.Parameters, names: tuple[str, ...]) -> bool:
    """An override declaring the old core parameters, in order, and nothing open-ended (``*args``,
    ``**kwargs`` already take whatever Odoo adds)."""
    if isinstance(params.star_arg, cst.Param) or params.star_kwarg is not None:
        return False
    declared = tuple(p.name.value for p in (*params.params, *params.kwonly_params))
    return declared[1:] == names if declared[:1] in (("self",), ("cls",)) else False


def followed_by(
    items: Sequence[_Listed], new: list[_Listed], opening: cst.BaseParenthesizableWhitespace
) -> list[_Listed]:
    """``items`` (parameters or arguments) and then ``new``, laid out as the others: each takes the
    comma between the last two, or, after a lone first one on its own line (``opening``, the space
    after the opening parenthesis), a comma and that line break; the last one takes what led to the
    closing parenthesis (a trailing comma, the newline before it)."""
    result = list(items)
    if not result or not new:
        return result + new
    last = result[-1]
    closing, closing_space = last.comma, _space_after(last)
    between = result[-2].comma if len(result) > 1 else cst.MaybeSentinel.DEFAULT
    if not isinstance(between, cst.Comma):
        after = opening if isinstance(opening, cst.ParenthesizedWhitespace) else cst.SimpleWhitespace(" ")
        between = cst.Comma(whitespace_after=after)
    result[-1] = _with_space_after(last.with_changes(comma=between), cst.SimpleWhitespace(""))
    for item in new[:-1]:
        result.append(item.with_changes(comma=between))
    result.append(_with_space_after(new[-1].with_changes(comma=closing), closing_space))
    return result


def _space_after(item: cst.Param | cst.Arg) -> cst.BaseParenthesizableWhitespace:
    return item.whitespace_after_param if isinstance(item, cst.Param) else item.whitespace_after_arg


def _with_space_after(item: _Listed, space: cst.BaseParenthesizableWhitespace) -> _Listed:
    if isinstance(item, cst.Param):
        return item.with_changes(whitespace_after_param=space)
    return item.with_changes(whitespace_after_arg=space)


def is_docstring(statement: cst.BaseStatement) -> bool:
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and len(statement.body) == 1
        and isinstance(statement.body[0], cst.Expr)
        and isinstance(statement.body[0].value, cst.SimpleString | cst.ConcatenatedString)
    )
