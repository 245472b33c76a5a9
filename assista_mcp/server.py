"""build_server(settings): the ONE registry of tools, resources and prompts.

MCP hosts, our own agent (in-process ``Client(server)``) and tests all talk to what this builds.
"""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer

from assista_mcp import __version__, prompts, resources
from assista_mcp.context import AppContext
from assista_mcp.errors_mw import ClearErrors
from assista_mcp.settings import Settings
from assista_mcp.tools import files, knowledge, lint, odoo

INSTRUCTIONS = """\
assista-odoo: tools for building Odoo addons.
- Paths are relative to an addons root (list_directory "." shows the roots' contents).
- Read before you write: project_map, list_modules, module_info, find_model, find_field,
  find_xml_id and find_references tell you how the project is built; read_file and grep show code.
- Edit with edit_file (exact old_text -> new_text) or apply_patch; write_file for new files.
- Validate after every edit: check_module / lint_module (fast, static), then install_module,
  upgrade_module and test_module (a real Odoo) when one is configured. Findings come back as
  data at file:line with a hint; fix them and check again.
"""

REGISTRARS = (
    files.register,
    knowledge.register,
    lint.register,
    odoo.register,
    resources.register,
    prompts.register,
)


def build_server(settings: Settings, ctx: AppContext | None = None) -> MCPServer:
    ctx = ctx or AppContext(settings)
    server: MCPServer = MCPServer(
        "assista-odoo",
        title="assista-odoo",
        instructions=INSTRUCTIONS,
        version=__version__,
        log_level="WARNING",
        middleware=[ClearErrors()],
    )
    for register in REGISTRARS:
        register(server, ctx)
    return server
