"""assista-odoo: the MCP server, the bundled agent and the CI gate for Odoo addon developers."""

__version__ = "0.1.0"
