"""A related field of another type than the field it reads (odoo-ls OLS03017).

Odoo sets a related field up when it builds the registry and raises ``TypeError: Type of related
field ... is inconsistent with ...`` when the two types differ (``fields.py``, ``_setup_related_full``,
the same on 17.0, 18.0 and 19.0; probed on the 18.0 lab): the install fails. Only Odoo's own field
classes are compared (``Image`` is a ``binary`` field); a field class of a module (its type is not
known here) is never judged.
"""

from __future__ import annotations

from odoo_tools.catalogue import entry
from odoo_tools.findings import Finding
from odoo_tools.lint._static.context import StaticContext
from odoo_tools.series import series_family

CODE = "related-type-mismatch"
# The index's class name -> Odoo's field type, for Odoo's field classes only
_ODOO_TYPES = {
    "Boolean": "boolean",
    "Integer": "integer",
    "Float": "float",
    "Monetary": "monetary",
    "Char": "char",
    "Text": "text",
    "Html": "html",
    "Date": "date",
    "Datetime": "datetime",
    "Binary": "binary",
    "Image": "binary",
    "Selection": "selection",
    "Many2one": "many2one",
    "One2many": "one2many",
    "Many2many": "many2many",
    "Reference": "reference",
    "Many2oneReference": "many2one_reference",
    "Json": "json",
    "Properties": "properties",
    "PropertiesDefinition": "properties_definition",
}


def check_related_types(ctx: StaticContext) -> list[Finding]:
    found: list[Finding] = []
    resolver = ctx.resolver
    for data in ctx.files():
        for cls in data.models if data.kind == "python" else ():
            for fdef in cls.fields:
                own = _ODOO_TYPES.get(fdef.type)
                if not fdef.related or own is None:
                    continue
                end = resolver.follow(cls.model, fdef.related)
                located = resolver.model(end[0]).fields.get(end[1]) if end else None
                other = _ODOO_TYPES.get(located.item.type) if located is not None else None
                if end is None or other is None or other == own:
                    continue
                message = f"Field {fdef.name} ({own}) is related to {end[0]}.{end[1]}, a {other} field"
                found.append(_finding(ctx, message, data.path, fdef.line))
    return found


def _finding(ctx: StaticContext, message: str, path: str, line: int) -> Finding:
    rule = entry(CODE)
    if rule.since is None or series_family(ctx.series) in rule.series():
        return ctx.finding(CODE, f"{message}: {rule.why}.", rule.hint, path, line, rule.severity)
    tried = f"{ctx.series or 'this series'} was not tried"
    why = f"Odoo {rule.window()} refuses it when it builds the registry; {tried}"
    return ctx.finding(CODE, f"{message} ({why}).", rule.hint, path, line, "warning")
