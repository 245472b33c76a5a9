"""MCP tools: Odoo project knowledge (modules, models, fields, xml ids, references, project map).

Thin adapters over ``odoo_tools.index.ProjectIndex``, shared by every tool of a server as
``AppContext.index``. Each tool sends a compact text rendering as its text content (what
a model reads) and the full answer as structured content (its output schema); the resources in
``assista_mcp.server.resources`` serve the very same text.
"""

from __future__ import annotations

from typing import Annotated, Literal, Protocol, TypeVar

from pydantic import BaseModel, Field

from assista_mcp.safety import effects
from assista_mcp.server.context import Ctx, app
from assista_mcp.server.tools._base import ToolSpec
from assista_mcp.server.tools._text import answer as text_answer
from odoo_tools.index import (
    DEFAULT_BUDGET,
    MAX_BUDGET,
    MIN_BUDGET,
    FieldMatches,
    ModelInfo,
    ModuleInfo,
    ModuleSummary,
    ProjectMap,
    References,
    XmlIdInfo,
)


class Renderable(Protocol):
    def render(self) -> str: ...

    def model_dump(self, *, mode: str) -> dict[str, object]: ...


A = TypeVar("A", bound=Renderable)


class ModuleList(BaseModel):
    modules: list[ModuleSummary]
    total: int = Field(description="Number of modules listed")

    def render(self) -> str:
        lines = [f"# {self.total} module(s)"] + ["- " + m.line() for m in self.modules]
        return "\n".join(lines) + "\n"


def answer(result: A) -> A:
    """The compact rendering as text, the whole answer as structured content."""
    return text_answer(result, result.render())


ModuleName = Annotated[str, Field(description="Technical module name (its folder name), e.g. 'sale_stock'.")]
ModelName = Annotated[str, Field(description="Model name, e.g. 'res.partner'.")]


def list_modules(
    ctx: Ctx,
    root: Annotated[
        str | None, Field(description="Only modules in this addons root (its path or folder name).")
    ] = None,
    installable: Annotated[bool | None, Field(description="Only installable (true) or not (false).")] = None,
    depends_on: Annotated[
        str | None, Field(description="Only modules that need this module, directly or indirectly.")
    ] = None,
) -> ModuleList:
    """List the addons found in the addons roots (and the read-only Odoo source, if configured):
    name, version, depends, flags. Use it to see what exists before creating or changing a
    module; filter by root, installable, or the modules that depend on one module."""
    modules = app(ctx).index.list_modules(root, installable, depends_on)
    return answer(ModuleList(modules=modules, total=len(modules)))


def module_info(ctx: Ctx, module: ModuleName) -> ModuleInfo:
    """Everything about one module: manifest, dependencies both ways (and missing ones), data
    files in load order (missing ones flagged), its files, models it defines or extends,
    views, menus, actions, and manifest/parse problems. Same text as odoo://module/{module}."""
    return answer(app(ctx).index.module_info(module))


def find_model(ctx: Ctx, model: ModelName) -> ModelInfo:
    """Where a model is defined, every module that extends it and what each adds, the full
    field list with the module that contributed each field (mixin fields marked 'via'),
    methods with decorators, views, actions, access rules and record rules, all at
    file:line. Use it before adding a field or overriding a method. Same text as
    odoo://model/{model}."""
    return answer(app(ctx).index.find_model(model))


def find_field(
    ctx: Ctx,
    field: Annotated[str, Field(description="Field name, e.g. 'partner_id'.")],
    model: Annotated[str | None, Field(description="Model to look in; omit to search every model.")] = None,
) -> FieldMatches:
    """Every definition of a field (type, comodel, compute, related, store, required,
    selection values) in load order, on one model or on all models."""
    return answer(app(ctx).index.find_field(field, model))


def find_xml_id(
    ctx: Ctx,
    xml_id: Annotated[str, Field(description="xml id, best module-qualified: 'sale.view_order_form'.")],
    module: Annotated[str | None, Field(description="Module to qualify a bare xml id with.")] = None,
) -> XmlIdInfo:
    """Where a record (view, action, menu, group, rule, template...) is defined, whether its
    file is loaded by the manifest, duplicates, and for a view its inheritance chain (root
    first) and the views inheriting it. Use it before writing inherit_id or ref=."""
    return answer(app(ctx).index.find_xml_id(xml_id, module))


def find_references(
    ctx: Ctx,
    target: Annotated[
        str, Field(description="A model ('res.partner'), a field ('res.partner.email') or an xml id.")
    ],
    kind: Annotated[
        Literal["model", "field", "xml_id"] | None,
        Field(description="What the target is; guessed when omitted."),
    ] = None,
    limit: Annotated[int, Field(description="Most references to return.", ge=1, le=2000)] = 200,
) -> References:
    """Where a model, field or xml id is used in Python, XML and CSV files (a guided text
    search, project modules first). Use it before renaming or removing something."""
    return answer(app(ctx).index.find_references(target, kind, limit))


def project_map(
    ctx: Ctx,
    budget: Annotated[
        int,
        Field(
            description="Size limit in tokens (estimated as characters / 4).",
            ge=MIN_BUDGET,
            le=MAX_BUDGET,
        ),
    ] = DEFAULT_BUDGET,
    focus: Annotated[
        list[str] | None, Field(description="Modules you are working on: shown first, in most detail.")
    ] = None,
) -> ProjectMap:
    """A ranked map of the project that fits a token budget (default about 1,000 tokens,
    estimated as characters / 4): the Odoo series, each module with its models and key
    fields (* = required, -> comodel), extended models, views and menus; the focus
    modules first. Read it first in a new task. Same text as odoo://project."""
    return answer(app(ctx).index.project_map(budget, focus))


TOOLS = (
    ToolSpec(list_modules, "List modules", effects.READ),
    ToolSpec(module_info, "Module details", effects.READ),
    ToolSpec(find_model, "Find a model", effects.READ),
    ToolSpec(find_field, "Find a field", effects.READ),
    ToolSpec(find_xml_id, "Find an xml id", effects.READ),
    ToolSpec(find_references, "Find references", effects.READ),
    ToolSpec(project_map, "Project map", effects.READ),
)
