"""Fixtures for tests/odoo: PostgreSQL with a per-test prefix, the stand-in odoo-bin."""

from __future__ import annotations

from tests.odoo.runner_support import pg, stub_odoo_bin

__all__ = ["pg", "stub_odoo_bin"]
