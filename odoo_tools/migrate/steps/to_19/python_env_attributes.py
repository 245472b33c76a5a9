"""18.0 -> 19.0: an Environment's attributes are read-only (19.0 odoo/orm/environments.py
``__setattr__``: "Attribute 'context' is read-only, call `env()` instead"). ``cr``, ``uid``,
``su``, ``context`` and ``transaction`` are set when the environment is made, so assigning one
always raises; ``user``, ``company``, ``companies``, ``lang``, ``tz`` (cached properties) raise
once they were read, as any request or test has. The request's environment has 19.0's own setter,
``request.update_env(context=...)`` (odoo/http.py): ``request.env.context = ctx`` becomes that
call. Any other assignment is a finding: the code meant a new environment (``with_context``,
``with_company``), which is for a person to place."""

from __future__ import annotations

import libcst as cst

from odoo_tools.migrate.engine.python_rules import PythonRule, dotted

_SET_AT_CREATION = frozenset({"cr", "uid", "su", "context", "transaction"})
_CACHED = frozenset({"user", "company", "companies", "lang", "tz", "registry", "cache"})


class EnvAttributes(PythonRule):
    rule = "read-only-env-attribute"
    triggers = ("env.",)

    def leave_Assign(self, original: cst.Assign, updated: cst.Assign) -> cst.BaseSmallStatement:
        if len(updated.targets) != 1:
            return updated
        target = dotted(updated.targets[0].target)
        owner, _, attr = target.rpartition(".")
        if not (owner == "env" or owner.endswith(".env")) or attr not in _SET_AT_CREATION | _CACHED:
            return updated
        if target == "request.env.context":
            self.applied()
            call = cst.Call(
                func=cst.parse_expression("request.update_env"),
                args=[cst.Arg(updated.value, keyword=cst.Name("context"), equal=_EQUAL)],
            )
            return cst.Expr(call, semicolon=updated.semicolon)
        surely = attr in _SET_AT_CREATION
        self.find(
            original,
            f"Assigning {target} raises AttributeError on Odoo 19.0 (an Environment's attributes are "
            + ("read-only)." if surely else "read-only once read)."),
            "Make a new environment instead: records.with_context(...), with_company(...), with_user(...), "
            "or env(context=...).",
            "error" if surely else "warning",
        )
        return updated


_EQUAL = cst.AssignEqual(
    whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")
)
