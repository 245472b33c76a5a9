"""CLI sub-commands: odoo_cmds (being built)."""

from __future__ import annotations

from typing import Any


def add_parsers(subparsers: Any) -> None:
    """Add this module's sub-commands."""
