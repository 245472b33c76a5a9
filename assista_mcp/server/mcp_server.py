"""build_server(settings): the ONE registry of tools, resources and prompts.

MCP hosts, our own agent (in-process ``Client(server)``) and tests all talk to what this builds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from mcp.server.mcpserver import MCPServer

from assista_mcp import __version__
from assista_mcp.config.settings import Settings
from assista_mcp.safety.effects import UNKNOWN, ToolEffect
from assista_mcp.server import prompts, resources
from assista_mcp.server.clear_errors import ClearErrors
from assista_mcp.server.context import AppContext
from assista_mcp.server.tools import files, files_write, knowledge, lint, lint_baseline, migrate, odoo
from assista_mcp.server.tools._base import ToolSpec

INSTRUCTIONS = """\
assista-odoo: tools for building Odoo addons.
- Paths are relative to an addons root (list_directory "." shows the roots' contents).
- Read before you write: project_map, list_modules, module_info, find_model, find_field,
  find_xml_id and find_references tell you how the project is built; read_file and grep show code.
- Edit with edit_file (exact old_text -> new_text) or apply_patch; write_file for new files.
- Validate after every edit: check_module / lint_module (fast, static), then install_module,
  upgrade_module and test_module (a real Odoo) when one is configured. Findings come back as
  data at file:line with a hint; fix them and check again.
- Parameters are named after what they hold: path/module for one, paths/modules for several.
"""

TOOLS: tuple[ToolSpec, ...] = (
    *files.TOOLS,
    *files_write.TOOLS,
    *knowledge.TOOLS,
    *lint.TOOLS,
    *lint_baseline.TOOLS,
    *odoo.TOOLS,
    *migrate.TOOLS,
    *prompts.TOOLS,
)
# What each of our tools does, by name: derived from the specs (the agent's approvals read it).
EFFECTS: Mapping[str, ToolEffect] = {spec.name: spec.effect for spec in TOOLS}
if len(EFFECTS) != len(TOOLS):  # pragma: no cover - a spec listed twice is a bug
    raise RuntimeError("two tool specs have the same name")


def tool_effect(name: str) -> ToolEffect:
    """The declared effect of our tool ``name``; an unknown name is ``OTHER`` (always asks)."""
    return EFFECTS.get(name, UNKNOWN)


def build_server(
    settings: Settings, context: AppContext | None = None, *, extra_tools: Sequence[ToolSpec] = ()
) -> MCPServer[AppContext]:
    """The server; ``extra_tools`` adds tools after ours (test servers)."""
    context = context or AppContext(settings)
    server: MCPServer[AppContext] = MCPServer(
        "assista-odoo",
        title="assista-odoo",
        instructions=INSTRUCTIONS,
        version=__version__,
        log_level="WARNING",
        tools=[spec.build() for spec in (*TOOLS, *extra_tools)],
        lifespan=context.lifespan,
        middleware=[ClearErrors()],
    )
    odoo.register_resources(server)
    resources.register(server, context)
    prompts.register(server)
    return server
