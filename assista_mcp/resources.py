"""MCP resources for the project's knowledge. Each has a tool returning the same text:

| resource | tool |
|---|---|
| ``odoo://project`` | ``project_map`` (default budget) |
| ``odoo://module/{name}`` | ``module_info`` |
| ``odoo://model/{name}`` | ``find_model`` |

(``odoo://guidelines/{version}`` lives in ``assista_mcp.prompts``.)
"""

from __future__ import annotations

from collections.abc import Callable

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError

from assista_mcp.context import AppContext
from assista_mcp.tools.knowledge import project_index
from odoo_tools.errors import AssistaError, NotFound


def _text(produce: Callable[[], str]) -> str:
    """Our errors become resource errors that carry the message and hint (no traceback in logs)."""
    try:
        return produce()
    except NotFound as exc:
        raise ResourceNotFoundError(str(exc)) from exc
    except AssistaError as exc:
        raise ResourceError(str(exc)) from exc


def register(server: MCPServer, ctx: AppContext) -> None:
    """Add the knowledge resources to the server."""

    @server.resource(
        "odoo://project",
        name="project",
        title="Project map",
        description="Modules, models and key fields, views and menus, within about 1,000 tokens.",
        mime_type="text/markdown",
    )
    def project_resource() -> str:
        return _text(lambda: project_index(ctx).project_map().render())

    @server.resource(
        "odoo://module/{name}",
        name="module",
        title="Odoo module",
        description="Manifest, dependencies both ways, data files, models, views, menus of one module.",
        mime_type="text/markdown",
    )
    def module_resource(name: str) -> str:
        return _text(lambda: project_index(ctx).module_info(name).render())

    @server.resource(
        "odoo://model/{name}",
        name="model",
        title="Odoo model",
        description="Definition, extensions, fields with their modules, methods, views, access of one model.",
        mime_type="text/markdown",
    )
    def model_resource(name: str) -> str:
        return _text(lambda: project_index(ctx).find_model(name).render())
