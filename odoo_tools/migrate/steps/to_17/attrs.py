"""Odoo 16 ``attrs``/``states`` domains as the Python expressions Odoo 17 reads in view attributes.

A domain leaf ``('state', '=', 'draft')`` becomes ``state == 'draft'``; prefix ``&``/``|``/``!``
become ``and``/``or``/``not``. Values keep the developer's own spelling (their source text).
What has no faithful expression (``like``, ``child_of``, a value that is not a literal or a
field) raises ``Untranslatable``: a person decides, the rule only reports it.
"""

from __future__ import annotations

import ast
import re

_COMPARISONS = {"=": "==", "==": "==", "!=": "!=", "<>": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
_MEMBERSHIP = {"in": "in", "not in": "not in"}
OR, AND, NOT = "|", "&", "!"
MAX_OPERATOR_DEPTH = 400  # prefix operators inside one another (a real domain has a few)
# ``%(module.xml_id)d`` in a view file: ir.ui.view replaces it by the record's id when it reads the
# arch from the file, in 16.0 and 17.0 alike (a regular expression over the whole arch text), so
# the reference stays as it was written inside the new expression (OCA l10n_br_base's
# ``('country_id', '!=', %(base.br)d)``)
_XMLID_REFERENCE = re.compile(r"%\((?P<xmlid>[\w.]+)\)[ds]")
_PLACEHOLDER = "__assista_xmlid_{}__"


class Untranslatable(ValueError):
    pass


def attrs_expressions(source: str) -> dict[str, str]:
    """``{'invisible': [...], 'readonly': [...]}`` as ``{'invisible': 'expr', ...}``."""
    references: list[str] = []

    def hold(match: re.Match[str]) -> str:  # a name in the domain while it is read, then itself again
        references.append(match.group(0))
        return _PLACEHOLDER.format(len(references) - 1)

    if "__assista_xmlid_" in source:  # the rule's own spelling, never a field's: not ours to read
        raise Untranslatable("attrs holds a name this rule keeps for its own use")
    source = _XMLID_REFERENCE.sub(hold, source)
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except SyntaxError as exc:
        raise Untranslatable(f"attrs is not a Python literal: {exc.msg}") from exc
    except (RecursionError, MemoryError, ValueError) as exc:
        raise Untranslatable("attrs nests too deeply to be read") from exc
    if not isinstance(tree.body, ast.Dict):
        raise Untranslatable("attrs is not a dictionary")
    text = source.strip()
    result: dict[str, str] = {}
    for key, value in zip(tree.body.keys, tree.body.values, strict=True):
        if not isinstance(key, ast.Constant) or not isinstance(key.value, str):
            raise Untranslatable("an attrs key is not a string")
        try:
            result[key.value] = domain_expression(value, text)
        except (RecursionError, MemoryError) as exc:  # within the operators' cap, still too deep
            raise Untranslatable("the domain nests too deeply to be translated") from exc
    for index, reference in enumerate(references):
        result = {key: value.replace(_PLACEHOLDER.format(index), reference) for key, value in result.items()}
    return result


def domain_expression(node: ast.expr, text: str) -> str:
    """The expression of one domain (a list or tuple of leaves and operators), or a constant."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (bool, int)):
        return "True" if node.value else "False"
    if not isinstance(node, (ast.List, ast.Tuple)):
        raise Untranslatable("a domain is not a list")
    items = list(node.elts)
    if not items:
        return "True"
    expressions: list[str] = []
    position = 0
    while position < len(items):
        expression, position = _term(items, position, text)
        expressions.append(expression)
    return " and ".join(_wrap(e, "and") for e in expressions) if len(expressions) > 1 else expressions[0]


def _term(items: list[ast.expr], position: int, text: str, depth: int = 0) -> tuple[str, int]:
    if position >= len(items):
        raise Untranslatable("a domain operator misses its operands")
    if depth > MAX_OPERATOR_DEPTH:  # 3,000 prefix operators: a RecursionError here
        raise Untranslatable(f"its operators nest over {MAX_OPERATOR_DEPTH} deep")
    item = items[position]
    if isinstance(item, ast.Constant) and item.value in (OR, AND):
        left, after = _term(items, position + 1, text, depth + 1)
        right, end = _term(items, after, text, depth + 1)
        word = "or" if item.value == OR else "and"
        return f"{_wrap(left, word)} {word} {_wrap(right, word)}", end
    if isinstance(item, ast.Constant) and item.value == NOT:
        operand, end = _term(items, position + 1, text, depth + 1)
        return f"not {_wrap(operand, 'not')}", end
    return _leaf(item, text), position + 1


def _wrap(expression: str, context: str) -> str:
    """Parentheses where the operator inside binds weaker than the one around."""
    inner = _top_operator(expression)
    weaker = {"and": ("or",), "or": (), "not": ("or", "and")}[context]
    return f"({expression})" if inner in weaker else expression


def _top_operator(expression: str) -> str:
    node = ast.parse(expression, mode="eval").body
    if isinstance(node, ast.BoolOp):
        return "and" if isinstance(node.op, ast.And) else "or"
    return ""


def _leaf(item: ast.expr, text: str) -> str:
    if isinstance(item, ast.Constant) and isinstance(item.value, (bool, int)):
        return "True" if item.value else "False"  # (1, '=', 1) style leaves
    if not isinstance(item, (ast.Tuple, ast.List)) or len(item.elts) != 3:
        raise Untranslatable("a domain leaf is not (field, operator, value)")
    name_node, operator_node, value_node = item.elts
    if not (isinstance(name_node, ast.Constant) and isinstance(name_node.value, str)):
        raise Untranslatable("a domain leaf's field is not a name")
    if not (isinstance(operator_node, ast.Constant) and isinstance(operator_node.value, str)):
        raise Untranslatable("a domain leaf's operator is not a string")
    name, operator = name_node.value, operator_node.value.lower()
    if not all(part.isidentifier() for part in name.split(".")):
        raise Untranslatable(f"'{name}' is not a field name")
    value = _value(value_node, text)
    if isinstance(value_node, ast.Constant) and value_node.value in (False, None) and operator in ("=", "=="):
        return f"not {name}"
    if (
        isinstance(value_node, ast.Constant)
        and value_node.value in (False, None)
        and operator in ("!=", "<>")
    ):
        return name
    if isinstance(value_node, ast.Constant) and value_node.value is True and operator in ("=", "=="):
        return name
    if isinstance(value_node, ast.Constant) and value_node.value is True and operator in ("!=", "<>"):
        return f"not {name}"
    if operator in _COMPARISONS:
        return f"{name} {_COMPARISONS[operator]} {value}"
    if operator in _MEMBERSHIP:
        if not isinstance(value_node, (ast.List, ast.Tuple, ast.Name, ast.Attribute, ast.Call)):
            raise Untranslatable(f"'{operator}' needs a list, not {value}")
        return f"{name} {_MEMBERSHIP[operator]} {value}"
    raise Untranslatable(f"the operator '{operator}' has no Python expression")


def _value(node: ast.expr, text: str) -> str:
    allowed = (ast.Constant, ast.List, ast.Tuple, ast.Name, ast.Attribute, ast.Call, ast.UnaryOp)
    if not isinstance(node, allowed):
        raise Untranslatable("a domain value is not a literal, a field or a call")
    segment = ast.get_source_segment(text, node)
    return segment if segment is not None else ast.unparse(node)


def states_expression(states: str) -> str:
    """``states="draft,sent"`` as the condition that hides the element."""
    names = [s.strip() for s in states.split(",") if s.strip()]
    if not names:
        raise Untranslatable("states names no state")
    if len(names) == 1:
        return f"state != {names[0]!r}"
    return f"state not in ({', '.join(repr(n) for n in names)})"


def combine_or(first: str, second: str) -> str:
    return f"{_wrap(first, 'or')} or {_wrap(second, 'or')}"
