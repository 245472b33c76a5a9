"""Plain, typed library code for Odoo addon work: sandboxed files, addon knowledge, validation.

This package never imports ``assista_mcp``, ``mcp`` or ``litellm`` (a test enforces it), so the
CI gate and third-party code can use it without the MCP server or the agent.
"""

__version__ = "0.1.0"  # the distribution's version (pyproject.toml reads it here)
