"""16.0 -> 17.0: a method decorated with ``@ormcache`` has no ``clear_cache`` any more. In 16.0
``self._method.clear_cache(model)`` cleared the registry's whole ormcache
(``model.pool._clear_cache()``, 16.0's odoo/tools/cache.py); 17.0's ormcache dropped the attribute
and its deprecation text names the way: ``registry.clear_cache()``, which clears the 'default'
cache, where every 16.0 ``@ormcache`` keeps its values (16.0's has no cache name). The old call
fails with "'function' object has no attribute 'clear_cache'" (OCA auth_api_key's 17.0 port made
the same change by hand)."""

from __future__ import annotations

import libcst as cst
import libcst.matchers as m

from odoo_tools.migrate.engine.python_rules import PythonRule

# the model argument as modules write it: ``self``, ``cls``, ``self.env[...]`` (another name may
# be any object with a clear_cache of its own)
_MODEL = m.Name("self") | m.Name("cls") | m.Subscript(value=m.Attribute(attr=m.Name("env")))


class OrmcacheClear(PythonRule):
    """``x._method.clear_cache(model)`` becomes ``model.env.registry.clear_cache()``
    (``self.env[...]`` as the model: ``self.env.registry.clear_cache()``)."""

    rule = "removed-ormcache-clear-cache"
    triggers = ("clear_cache",)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = updated.func
        if not (
            m.matches(func, m.Attribute(value=m.Attribute(), attr=m.Name("clear_cache")))
            and len(updated.args) >= 1
            and all(a.keyword is None and not a.star for a in updated.args)
            and m.matches(updated.args[0].value, _MODEL)
        ):
            return updated
        model = updated.args[0].value
        env = model.value if isinstance(model, cst.Subscript) else cst.Attribute(model, cst.Name("env"))
        self.applied()
        registry = cst.Attribute(env, cst.Name("registry"))
        return cst.Call(func=cst.Attribute(registry, cst.Name("clear_cache")))
