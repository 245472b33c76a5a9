"""Python rewrites through libcst: the concrete syntax tree keeps every comment, quote and blank
line, so only the rewritten expressions change. Each rule is one transformer with a rule id."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import dropwhile
from typing import TYPE_CHECKING

import libcst as cst
from libcst.metadata import PositionProvider

from odoo_tools.migrate.engine.python_parsing import parsed, transform
from odoo_tools.migrate.engine.report import Site
from odoo_tools.series import api_change

if TYPE_CHECKING:
    pass


class PythonRule(cst.CSTTransformer):
    """A rewrite (or a finding where rewriting is unsafe) of one Python file."""

    METADATA_DEPENDENCIES = (PositionProvider,)
    rule = ""
    # Words one of which the file must hold for the rule to matter: a file without any is not
    # parsed again for this rule (parsing with positions is most of the cost).
    triggers: tuple[str, ...] = ()

    def __init__(self, site: Site) -> None:
        super().__init__()
        self.site = site

    def line(self, node: cst.CSTNode) -> int:
        return int(self.get_metadata(PositionProvider, node).start.line)

    def applied(self, times: int = 1) -> None:
        self.site.report.count(self.rule, times)

    def find_change(self, node: cst.CSTNode, change_id: str = "") -> None:
        """A use of the series registry's change ``change_id`` (default: ``self.rule``), said in
        the registry's words."""
        change = api_change(change_id or self.rule)
        self.site.report.find(
            change.id, self.site.path, self.line(node), change.message, change.hint, change.severity
        )

    def find(self, node: cst.CSTNode, message: str, hint: str, severity: str = "warning") -> None:
        self.site.report.find(self.rule, self.site.path, self.line(node), message, hint, severity)  # type: ignore[arg-type]


class VariableNames(cst.CSTTransformer):
    """Tells the names that are variables read or written from those that only look like one: a
    parameter's own name, a keyword argument's name, an attribute (``x.cr`` is not ``cr``).
    Rules that replace a variable (a hook's ``cr``, an override's dropped parameter) use it."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self._not_variables: set[int] = set()

    def is_variable(self, name: cst.Name) -> bool:
        return id(name) not in self._not_variables

    def visit_Param(self, node: cst.Param) -> None:
        self._not_variables.add(id(node.name))

    def visit_Arg(self, node: cst.Arg) -> None:
        if node.keyword is not None:
            self._not_variables.add(id(node.keyword))

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._not_variables.add(id(node.attr))


def string_value(node: cst.BaseExpression) -> str | None:
    """The value of a plain string literal (not an f-string, not concatenated)."""
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def same_quotes(original: cst.SimpleString, value: str) -> cst.SimpleString:
    """A string literal for ``value`` written with ``original``'s prefix and quotes."""
    quote = original.quote
    prefix = original.prefix
    escaped = value.replace("\\", "\\\\").replace(quote[0], "\\" + quote[0]) if len(quote) == 1 else value
    return cst.SimpleString(f"{prefix}{quote}{escaped}{quote}")


def dotted(node: cst.BaseExpression) -> str:
    """``self.env.user`` for an attribute chain of names, '' for anything else."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted(node.value)
        return f"{base}.{node.attr.value}" if base else ""
    return ""


def attribute_chain(base: cst.BaseExpression, names: Sequence[str]) -> cst.BaseExpression:
    for name in names:
        base = cst.Attribute(value=base, attr=cst.Name(name))
    return base


def without_args(call: cst.Call, dropped: Sequence[int]) -> cst.Call:
    """``call`` with the arguments at ``dropped`` removed, commas kept right."""
    kept = [arg for position, arg in enumerate(call.args) if position not in dropped]
    if kept and call.args and len(call.args) - 1 in dropped:
        kept[-1] = kept[-1].with_changes(comma=call.args[-1].comma)
    return call.with_changes(args=kept)


def class_model(node: cst.ClassDef) -> str:
    """The model a class defines (``_name``) or extends (one ``_inherit``); '' when not literal."""
    found: dict[str, str] = {}
    for statement in node.body.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if isinstance(small, cst.Assign) and len(small.targets) == 1:
                target = small.targets[0].target
                value = small.value
                if isinstance(value, cst.List) and len(value.elements) == 1:
                    value = value.elements[0].value
                text = string_value(value)
                if isinstance(target, cst.Name) and text:
                    found[target.value] = text
    return found.get("_name") or found.get("_inherit", "")


def with_values_mapped(call: cst.Call, change: Callable[[cst.Dict], cst.Dict]) -> cst.Call:
    """``call`` (a ``create``/``write``/``new``) with ``change`` applied to the values it writes:
    its first argument when a dict, each dict of it when a list or tuple of them."""
    if not call.args:
        return call
    values = call.args[0].value
    if isinstance(values, cst.Dict):
        new_values: cst.BaseExpression = change(values)
    elif isinstance(values, (cst.List, cst.Tuple)):
        elements = [
            e.with_changes(value=change(e.value)) if isinstance(e.value, cst.Dict) else e
            for e in values.elements
        ]
        new_values = values.with_changes(elements=elements)
    else:
        return call
    return call.with_changes(args=[call.args[0].with_changes(value=new_values), *call.args[1:]])


def without_statements(block: cst.IndentedBlock, gone: Mapping[int, cst.BaseStatement]) -> cst.IndentedBlock:
    """``block`` without the statements ``gone`` holds (by id; the rule keeps each node there so no
    later node takes its id). The comment lines above a gone statement speak of what follows and go
    to the next statement (``pass`` when none is left)."""
    if not any(id(statement) in gone for statement in block.body):
        return block
    body: list[cst.BaseStatement] = []
    comments: list[cst.EmptyLine] = []
    for statement in block.body:
        if id(statement) in gone and isinstance(
            statement, cst.SimpleStatementLine | cst.BaseCompoundStatement
        ):
            comments += [line for line in statement.leading_lines if line.comment is not None]
            continue
        if comments and isinstance(statement, cst.SimpleStatementLine | cst.BaseCompoundStatement):
            statement = statement.with_changes(leading_lines=[*statement.leading_lines, *comments])
            comments = []
        body.append(statement)
    return block.with_changes(body=body or [cst.SimpleStatementLine([cst.Pass()], leading_lines=comments)])


ImportChange = Callable[[cst.Import | cst.ImportFrom], cst.Import | cst.ImportFrom | None]


def with_imports_changed(module: cst.Module, change: ImportChange) -> cst.Module:
    """``module`` with each of its top-level import lines passed through ``change`` (the import
    with fewer names, or None: the line goes). A line that goes leaves the blank lines as they
    were around it (the more of the two sides), and its comments to the next statement."""
    body: list[cst.BaseStatement] = []
    carried: list[cst.EmptyLine] | None = None  # the leading lines of the lines that went
    for statement in module.body:
        line = statement.body if isinstance(statement, cst.SimpleStatementLine) else ()
        if len(line) == 1 and isinstance(line[0], cst.Import | cst.ImportFrom):
            changed = change(line[0])
            if changed is None:
                carried = [*(carried or ()), *statement.leading_lines]
                continue
            if changed is not line[0]:
                statement = statement.with_changes(body=[changed])
        if carried is not None:
            lines = _spaced([*carried, *statement.leading_lines], carried, statement.leading_lines)
            if not body and module.header and module.header[-1].comment is None:
                # the header's own blank line already parts it from the first statement
                lines = list(dropwhile(lambda line: line.comment is None, lines))
            statement = statement.with_changes(leading_lines=lines)
            carried = None
        body.append(statement)
    return module.with_changes(body=body)


def without_aliases(
    statement: cst.Import | cst.ImportFrom, gone: Callable[[cst.ImportAlias], bool]
) -> cst.Import | cst.ImportFrom | None:
    """The import without the names ``gone`` says (None: none is left)."""
    if isinstance(statement.names, cst.ImportStar):
        return statement
    names = [alias for alias in statement.names if not gone(alias)]
    if len(names) == len(statement.names):
        return statement
    if not names:
        return None
    if isinstance(statement, cst.Import) or statement.lpar is None:  # no parentheses: no comma may end it
        names[-1] = names[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return statement.with_changes(names=names)


def _spaced(
    lines: list[cst.EmptyLine], gone: list[cst.EmptyLine], kept: Sequence[cst.EmptyLine]
) -> list[cst.EmptyLine]:
    """``lines`` with blank ones dropped from the start until no more are left than either side had."""
    most = max(sum(line.comment is None for line in gone), sum(line.comment is None for line in kept))
    lines = list(lines)
    while sum(line.comment is None for line in lines) > most:
        lines.remove(next(line for line in lines if line.comment is None))
    return lines


def is_field_call(call: cst.Call) -> bool:
    """``fields.Char(...)`` and the like."""
    return isinstance(call.func, cst.Attribute) and dotted(call.func.value) == "fields"


def rewrite_python(text: str, rules: Sequence[type[PythonRule]], site: Site) -> str:
    """``text`` after each rule in turn; a file libcst cannot parse is left as it is, with a finding."""
    wanted = [rule for rule in rules if not rule.triggers or any(word in text for word in rule.triggers)]
    if not wanted:
        return text
    try:
        module = parsed(text)
    except cst.ParserSyntaxError as exc:
        site.report.find(
            "python-syntax",
            site.path,
            exc.raw_line,
            f"cannot be parsed: {exc.message}",
            "Fix the syntax error; the file was not migrated.",
            severity="error",
        )
        return text
    rewritten = module
    for rule in wanted:
        rewritten = transform(rewritten, rule(site))
    # a file no rule changed stays as read: libcst's code drops a last lone carriage return
    return text if rewritten is module or rewritten.deep_equals(module) else rewritten.code
