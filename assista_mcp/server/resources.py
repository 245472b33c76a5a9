"""MCP resources for the project's knowledge. Each has a tool returning the same text:

| resource | tool |
|---|---|
| ``odoo://project`` | ``project_map`` (default budget) |
| ``odoo://module/{module}`` | ``module_info`` |
| ``odoo://model/{model}`` | ``find_model`` |

(``odoo://guidelines/{series}`` lives in ``assista_mcp.server.prompts``.)
"""

from __future__ import annotations

from collections.abc import Callable

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError

from assista_mcp.server.context import AppContext, Ctx, app
from odoo_tools.errors import AssistaError, NotFound


def resource_text(produce: Callable[[], str]) -> str:
    """Our errors become resource errors that carry the message and hint (no traceback in logs)."""
    try:
        return produce()
    except NotFound as exc:
        raise ResourceNotFoundError(str(exc)) from exc
    except AssistaError as exc:
        raise ResourceError(str(exc)) from exc


def register(server: MCPServer, context: AppContext) -> None:
    """Add the knowledge resources to the server."""

    @server.resource(
        "odoo://project",
        name="project",
        title="Project map",
        description="Modules, models and key fields, views and menus, within about 1,000 tokens.",
        mime_type="text/markdown",
    )
    def project_resource() -> str:
        # The SDK injects no Context into a resource without URI variables: use the server's own.
        return resource_text(lambda: context.index.project_map().render())

    server.resource(
        "odoo://module/{module}",
        name="module",
        title="Odoo module",
        description="Manifest, dependencies both ways, data files, models, views, menus of one module.",
        mime_type="text/markdown",
    )(module_resource)
    server.resource(
        "odoo://model/{model}",
        name="model",
        title="Odoo model",
        description="Definition, extensions, fields with their modules, methods, views, access of one model.",
        mime_type="text/markdown",
    )(model_resource)


def module_resource(module: str, ctx: Ctx) -> str:
    return resource_text(lambda: app(ctx).index.module_info(module).render())


def model_resource(model: str, ctx: Ctx) -> str:
    return resource_text(lambda: app(ctx).index.find_model(model).render())
