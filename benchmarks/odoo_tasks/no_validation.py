"""``--no-validation`` of the benchmark: the agent without our validation tools.

Loaded with ``assista-odoo run --plugin benchmarks.odoo_tasks.no_validation`` (and ``--no-validate``
for the post-turn checks): every tool that checks, lints, installs or tests a module is denied, and
the model reads why. Comparing a run with and without this plugin measures what the tools add.
"""

from __future__ import annotations

from assista_mcp.agent.loop.hooks import Denial, PendingCall, hookimpl

VALIDATION_TOOLS = frozenset(
    {"check_module", "lint_module", "install_module", "upgrade_module", "test_module", "odoo_doctor"}
)


@hookimpl
def before_tool_call(call: PendingCall) -> Denial | None:
    if call.name in VALIDATION_TOOLS:
        return Denial(reason=f"{call.name} is not available in this run: validate by reading the code.")
    return None
