"""Thin MCP adapters over ``odoo_tools``. Their docstrings are what a model reads."""
