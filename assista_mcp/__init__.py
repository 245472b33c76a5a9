"""assista-odoo: the MCP server, the bundled agent and the CI gate for Odoo addon developers."""

from odoo_tools import __version__  # written once, there (pyproject.toml reads it too)

__all__ = ["__version__"]
