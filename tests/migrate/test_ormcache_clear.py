"""16.0 -> 17.0: ``self._method.clear_cache(model)`` of an ``@ormcache`` method fails on 17.0
("'function' object has no attribute 'clear_cache'"); it becomes ``registry.clear_cache()``,
through the migrate CLI. A clear_cache of something that is no model call stays."""

from __future__ import annotations

from pathlib import Path

from assista_mcp.cli import main

CODE = """from odoo import models, tools


class ApiKey(models.Model):
    _name = "x.key"
    _description = "Key"

    @tools.ormcache("key")
    def _retrieve(self, key):
        return self.search([("key", "=", key)]).id

    def write(self, vals):
        self._retrieve.clear_cache(self.env[self._name])
        self._retrieve.clear_cache(self)
        return super().write(vals)

    def unrelated(self, lru):
        lru.clear_cache()
        self.client.clear_cache(42)
        self.client.clear_cache(lru)
"""


def test_ormcache_clear_cache_becomes_the_registry_s(tmp_path: Path) -> None:
    module = tmp_path / "x_key"
    (module / "models").mkdir(parents=True)
    (module / "__manifest__.py").write_text("{'name': 'x', 'version': '16.0.1.0.0', 'depends': ['base']}\n")
    (module / "__init__.py").write_text("from . import models\n")
    (module / "models" / "__init__.py").write_text("from . import key\n")
    (module / "models" / "key.py").write_text(CODE)
    assert main(["migrate", str(module), "--to", "17.0", "--write", "--no-diff"]) == 0
    code = (module / "models" / "key.py").read_text()
    assert code.count("        self.env.registry.clear_cache()\n") == 2
    assert "_retrieve.clear_cache" not in code
    assert "lru.clear_cache()" in code and "self.client.clear_cache(42)" in code
    assert "self.client.clear_cache(lru)" in code
