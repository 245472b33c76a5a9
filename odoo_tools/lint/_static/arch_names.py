"""The names a view's arch gives the ORM, checked on the models its nodes belong to: each
``<field name>`` (followed into an x2many field's inline sub-views, on the comodel) and each
``<button type="object">``'s method. One XML file's findings gather in ``XmlFileChecks``."""

from __future__ import annotations

from lxml import etree

from odoo_tools.catalogue import entry
from odoo_tools.findings import Finding
from odoo_tools.index import ModelResolver, attribute_line
from odoo_tools.lint._static.context import StaticContext
from odoo_tools.lint._static.core_answers import method_exists
from odoo_tools.series import series_family

_SUBVIEWS = frozenset({"list", "tree", "form", "kanban", "graph", "pivot", "calendar", "activity"})


class XmlFileChecks:
    def __init__(self, ctx: StaticContext, rel: str, text: str) -> None:
        self.ctx = ctx
        self.rel = rel
        self.lines = text.splitlines()
        self.found: list[Finding] = []
        # (model, depth) -> its candidates: a view of 20,000 specs asks for the same few
        self.candidates: dict[tuple[str, int], tuple[str, ...]] = {}
        self._verdicts: dict[tuple[tuple[str, ...], str], list[bool | None]] = {}

    def verdicts(self, contexts: tuple[str, ...], name: str) -> list[bool | None]:
        """Whether each of ``contexts`` has field ``name`` (asked once per file)."""
        key = (contexts, name)
        if key not in self._verdicts:
            self._verdicts[key] = [self.ctx.resolver.model(m).has_field(name) for m in contexts]
        return self._verdicts[key]

    def line(self, node: etree._Element, attr: str) -> int:
        tag_line = getattr(node, "sourceline", None)
        return attribute_line(self.lines, tag_line if isinstance(tag_line, int) else 0, attr)

    def report(self, code: str, message: str, hint: str, line: int) -> None:
        rule = entry(code)
        if rule.since is None or series_family(self.ctx.series) in rule.series():
            self.found.append(
                self.ctx.finding(code, f"{message}: {rule.why}.", hint, self.rel, line, rule.severity)
            )
            return
        # A series the verdict was not confirmed on (before the rule's ``since``): a warning.
        why = f"Odoo {rule.window()} refuses it at install; {self.ctx.series or 'this series'} was not tried"
        self.found.append(self.ctx.finding(code, f"{message} ({why}).", hint, self.rel, line, "warning"))


def walk_arch(
    out: XmlFileChecks, resolver: ModelResolver, node: etree._Element, contexts: tuple[str, ...]
) -> None:
    for child in node:
        if not isinstance(child.tag, str) or child.get("position") == "attributes":
            continue
        name = child.get("name", "")
        if child.tag == "field" and name:
            verdicts = out.verdicts(contexts, name)
            # an x_ field may be a manual one that data loaded before created (as for records)
            if verdicts and all(v is False for v in verdicts) and not name.startswith("x_"):
                out.report(
                    "view-field-unknown",
                    f'Field "{name}" does not exist in model "{contexts[0]}"'
                    + (f" (nor in {', '.join(contexts[1:])})" if len(contexts) > 1 else ""),
                    "Check the field name (find_model shows the model's fields); a field of a "
                    "module that is not a dependency is not there when this view loads.",
                    out.line(child, "name"),
                )
                continue
            subs = tuple(
                c for m, v in zip(contexts, verdicts, strict=True) if v and (c := resolver.comodel(m, name))
            )
            for grand in child:
                if isinstance(grand.tag, str) and grand.tag in _SUBVIEWS and len(subs) == 1:
                    walk_arch(out, resolver, grand, subs)
        elif child.tag == "button" and child.get("type") == "object" and name and not child.get("special"):
            # a special= button (cancel, save) calls no method: ir.ui.view's _validate_tag_button
            # does not look its name up (l10n_es_partner 19.0's Skip: name="action_skip" special="cancel")
            _button(out, resolver, child, contexts)
            walk_arch(out, resolver, child, contexts)
        elif child.tag == "groupby" and name:
            subs = tuple(c for m in contexts if (c := resolver.comodel(m, name)))
            if len(subs) == 1:
                walk_arch(out, resolver, child, subs)
        else:
            walk_arch(out, resolver, child, contexts)


def _button(
    out: XmlFileChecks, resolver: ModelResolver, button: etree._Element, contexts: tuple[str, ...]
) -> None:
    """``<button type="object" name="m">`` calls method m of the node's model: Odoo validates the
    view against the model's methods at install."""
    name = button.get("name", "")
    if name.startswith("_"):
        out.report(
            "button-method-unknown",
            f'Button calls method "{name}": a private method (its name starts with "_") cannot be '
            "called from a button",
            "Call a public method (one whose name does not start with '_') that calls it.",
            out.line(button, "name"),
        )
        return
    if _leaves_its_anchor(button):
        return  # '..' or an axis: the node it lands in, so its model, is not told here
    verdicts = [method_exists(out.ctx, m, name) for m in contexts]
    if verdicts and all(v is False for v in verdicts):
        out.report(
            "button-method-unknown",
            f'Button calls method "{name}", which model "{contexts[0]}" does not have'
            + (f" (nor {', '.join(contexts[1:])})" if len(contexts) > 1 else ""),
            "Check the method name, or define the method on the model (a public method: a name "
            "starting with '_' cannot be called from a button).",
            out.line(button, "name"),
        )


def _leaves_its_anchor(node: etree._Element) -> bool:
    """``node`` comes with an ``xpath`` spec that may leave the field it names (``/..``,
    ``parent::``): the candidates followed that field into its comodel."""
    for ancestor in node.iterancestors("xpath"):
        expr = ancestor.get("expr", "")
        return ".." in expr or "::" in expr
    return False
