"""What the view expression check knows while it reads one XML file: the models a node may belong
to (``Sees``), and the file's findings, lines and field lookups (``ViewExprFile``), with the models
an inheriting view's node may land in, cached per file."""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from odoo_tools.catalogue import entry
from odoo_tools.findings import Finding
from odoo_tools.index import X2MANY, ModelResolver, attribute_line
from odoo_tools.lint._static.context import StaticContext
from odoo_tools.series import is_before, series_family, view_context_names

MAX_CANDIDATES = 64  # models an inheriting view's node may belong to; more: not judged


@dataclass(frozen=True)
class Sees:
    """The models a node may belong to (one when certain) and the model of the view around an
    inline sub-view (what ``parent.`` names), '' when there is none or it is not certain."""

    models: tuple[str, ...]
    parent: str = ""
    form: str = ""  # the model of the form the node is in, not in an inline sub-view (Odoo checks
    # the Python domains of the fields a form lets the user edit), '' when not or not certain


class ViewExprFile:
    def __init__(self, ctx: StaticContext, rel: str, text: str) -> None:
        self.ctx, self.rel, self.lines = ctx, rel, text.splitlines()
        self.resolver: ModelResolver = ctx.resolver
        self.found: list[Finding] = []
        self._candidates: dict[tuple[str, int], tuple[str, ...]] = {}
        self.context_names = view_context_names(ctx.series)
        # attrs: the 16.0 language; 17.0 refuses the attribute itself (the deprecation check says so)
        self.reads_attrs = ctx.series is None or is_before(ctx.series, "17.0")
        self.in_forms: set[tuple[str, str]] = set()  # (model, field) a form shows without a domain

    def line(self, node: etree._Element, attr: str) -> int:
        tag_line = node.sourceline if isinstance(node.sourceline, int) else 0
        return attribute_line(self.lines, tag_line, attr) if attr else tag_line

    def report(self, code: str, message: str, node: etree._Element, attr: str) -> None:
        rule, line = entry(code), self.line(node, attr)
        if rule.since is None or series_family(self.ctx.series) in rule.series():
            text = f"{message}: {rule.why}."
            self.found.append(self.ctx.finding(code, text, rule.hint, self.rel, line, rule.severity))
            return
        why = f"Odoo {rule.window()} refuses it at install; {self.ctx.series or 'this series'} was not tried"
        self.found.append(self.ctx.finding(code, f"{message} ({why}).", rule.hint, self.rel, line, "warning"))

    def absent(self, models: tuple[str, ...], name: str) -> bool:
        """No model of ``models`` has field ``name`` (each one certain)."""
        return bool(models) and all(self.resolver.model(m).has_field(name) is False for m in models)

    def candidates(self, model: str, depth: int = 2) -> tuple[str, ...]:
        key = (model, depth)
        if key not in self._candidates:
            found = self._uncached(model, depth)
            self._candidates[key] = found if len(found) <= MAX_CANDIDATES else ()
        return self._candidates[key]

    def _uncached(self, model: str, depth: int) -> tuple[str, ...]:
        comodels = [
            located.item.comodel or self.resolver.comodel(model, name) or ""
            for name, located in self.resolver.model(model).fields.items()
            if located.item.type in X2MANY
        ]
        comodels = [c for c in comodels if not self.resolver.outside_closure(c)]
        if any(not c for c in comodels):
            return ()  # an inline sub-view of an unknown comodel could hold anything
        found = [model, *comodels]
        if depth > 1:
            for comodel in comodels:
                deeper = self.candidates(comodel, depth - 1) if comodel != model else (model,)
                if not deeper:
                    return ()
                found.extend(deeper)
        return tuple(dict.fromkeys(found))
