"""Where each kind of data reference is written in a module, and its one-line breakage: the
sites ``benchmarks/data_refs.py make`` draws its cases from (a pure move out of that script)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

# a field name opening an expression: not one of Odoo's context names (uid, context, parent...)
_CONTEXT = "not|and|or|in|uid|context|context_today|parent|current_company_id|allowed_company_ids|today|now"
_NAME = rf"(?!(?:{_CONTEXT})\b)([a-z_]\w*)\b(?![.(])"

# kind -> (file suffix, regex whose group 1 is the name to break, what it is)
KINDS: dict[str, tuple[str, str]] = {
    "view-model": (".xml", r'<field name="model">([\w.]+)</field>'),
    "action-res-model": (".xml", r'<field name="res_model">([\w.]+)</field>'),
    "binding-model": (".xml", r'name="binding_model_id"\s+ref="([\w.]+)"'),
    "server-model": (".xml", r'name="model_id"\s+ref="([\w.]+)"'),
    "menu-action": (".xml", r'\baction="([\w.]+)"'),  # in a <menuitem> (``_in_menuitem``)
    "menu-parent": (".xml", r'\bparent="([\w.]+)"'),
    "groups": (".xml", r'\bgroups="([\w.]+)"'),
    "percent-id": (".xml", r"%\(([\w.]+)\)d"),
    "eval-ref": (".xml", r"""\bref\(['"]([\w.]+)['"]\)"""),
    "button-method": (".xml", r'<button\b(?=[^>]*\btype="object")[^>]*\bname="([a-z]\w+)"'),
    "acl-model": (".csv", r"^[^,\n]+,[^,\n]*,([\w.]+),"),
    "acl-group": (".csv", r"^[^,\n]+,[^,\n]*,[\w.]+,([\w.]+),"),
    # View expressions (the first name of the expression; not a context name such as uid)
    "expr-modifier": (".xml", r'\b(?:invisible|readonly|required|column_invisible)="(?:not )?' + _NAME),
    "expr-decoration": (".xml", r'\bdecoration-\w+="(?:not )?' + _NAME),
    "view-domain": (".xml", r"\s(?:domain)=\"\[\(\s*'(\w+)'"),
    "filter-domain": (".xml", r"\sfilter_domain=\"\[\(\s*'(\w+)'"),
    "action-domain": (".xml", r"<field name=\"domain\">\[\(\s*'(\w+)'"),
    "context-group-by": (".xml", r"""['"]group_by['"]\s*:\s*['"](\w+)['"]"""),
    "python-domain": (".py", r"""\bdomain\s*=\s*["']?\[\s*\(\s*["'](\w+)["']"""),
}
# Anchors of inheriting views (issue 31, "Apply the inheritance chain"): only when named in --kinds.
_NAMED = r"(?:group|page|filter|div|notebook|separator|span|section|setting|block|header|footer|sheet)"
VIEW_KINDS: dict[str, tuple[str, str]] = {
    "anchor-field": (".xml", r'<field name="(\w+)"(?=[^>]*\bposition=")'),
    "anchor-field-xpath": (".xml", r"""\bexpr="[^"]*?\bfield\[@name=['"](\w+)['"]\]"""),
    "anchor-name": (
        ".xml",
        rf"""(?:\bexpr="[^"]*?\b{_NAMED}\[@name=['"]|<{_NAMED} name=")(\w+)(?=['"][^>]*position=)""",
    ),
    "xpath-path": (".xml", r"""\bexpr="[^"]*/(\w+)(?:\[[^\]"]*\])?"(?=[^>]*position=)"""),
    # in a <template inherit_id=...> (``_in_template``)
    "qweb-path": (
        ".xml",
        r"""\bexpr="[^"]*?(?:@(?:id|name|t-call|t-name)=['"]|hasclass\(['"])([\w.-]+)['"]""",
    ),
}
# 16.0's attrs (the first left side of a domain leaf): only when named in --kinds.
ATTRS_KINDS: dict[str, tuple[str, str]] = {
    "attrs-field": (".xml", r"""\battrs="\{\s*'\w+'\s*:\s*\[\s*\(\s*'(\w+)'"""),
}
SUFFIX = "_zz"


def _data_files(module_dir: Path) -> list[str]:
    manifest = ast.literal_eval((module_dir / "__manifest__.py").read_text(encoding="utf-8"))
    return [f for f in manifest.get("data", []) if (module_dir / f).is_file()]


def _python_files(module_dir: Path) -> list[str]:
    return sorted(p.relative_to(module_dir).as_posix() for p in (module_dir / "models").glob("*.py"))


def sites(module_dir: Path, kinds: frozenset[str] = frozenset()) -> Iterator[tuple[str, str, int, str, str]]:
    """(kind, file, line, old line, new line) for every place a kind is written on one line
    that occurs once in its file (only ``kinds`` when given; the view kinds only when named)."""
    table = {**KINDS, **VIEW_KINDS, **ATTRS_KINDS}
    for rel in _data_files(module_dir) + _python_files(module_dir):
        lines = (module_dir / rel).read_text(encoding="utf-8").splitlines()
        for kind, (suffix, pattern) in table.items():
            if not rel.endswith(suffix) or kind not in (kinds or KINDS):
                continue
            for number, text in enumerate(lines, start=1):
                if kind.startswith("acl") and number == 1:
                    continue  # the header
                match = re.search(pattern, text)
                if match is None or lines.count(text) != 1:
                    continue
                if kind.startswith("menu") and not _in_menuitem(lines, number, match.start()):
                    continue
                if kind == "qweb-path" and not _in_template(lines, number):
                    continue
                start, end = match.span(1)
                yield kind, rel, number, text, text[:start] + match.group(1) + SUFFIX + text[end:]


def _in_template(lines: list[str], number: int) -> bool:
    """Line ``number`` is inside a ``<template ... inherit_id=...>`` element."""
    before = "\n".join(lines[:number])
    opened = before.rfind("<template")
    return opened >= 0 and "</template>" not in before[opened:] and "inherit_id" in before[opened:]


def _in_menuitem(lines: list[str], number: int, column: int) -> bool:
    """The attribute at ``column`` of line ``number`` belongs to a ``<menuitem`` tag."""
    before = "\n".join([*lines[: number - 1], lines[number - 1][:column]])
    opened = before.rfind("<")
    return before.startswith("<menuitem", opened) and ">" not in before[opened:]
