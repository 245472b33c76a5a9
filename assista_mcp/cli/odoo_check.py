"""``assista-odoo check --install [--test]``: real Odoo runs as a producer of the CI gate.

Each selected module is installed (and with ``--test`` its tests run) in its own disposable
database cloned from the dependencies template, so one broken module does not hide the others.
The findings join the lint findings in every report format; ``--no-cache`` (shared with the lint
producer: "use no cache") starts each run from an empty database instead.
"""

from __future__ import annotations

import argparse
import asyncio
from typing import TYPE_CHECKING

from assista_mcp.cli.common import add_odoo_flags
from odoo_tools.addons import Addon
from odoo_tools.findings import Finding

if TYPE_CHECKING:
    from assista_mcp.cli.check_context import CheckContext
    from odoo_tools.runs import Action, OdooRunner


class OdooProducer:
    def add_flags(self, parser: argparse.ArgumentParser) -> None:
        group = parser.add_argument_group(
            "odoo runs (need odoo-bin and PostgreSQL; see `assista-odoo doctor`)"
        )
        group.add_argument(
            "--install", action="store_true", help="install each module in a real Odoo (disposable database)"
        )
        group.add_argument(
            "--test", action="store_true", help="also run each module's tests (implies --install)"
        )
        group.add_argument("--demo", action="store_true", help="with --install: load demo data")
        add_odoo_flags(parser)

    def units(self, args: argparse.Namespace, addons: list[Addon]) -> int:
        return len(addons) if _enabled(args) else 0

    def produce(self, ctx: CheckContext) -> list[Finding]:
        if not _enabled(ctx.args):
            return []
        # Imported here: a check without --install must not pay for the runner at start.
        from assista_mcp.config.odoo_config import runner_config
        from odoo_tools.runs import OdooRunner

        action: Action = "test" if ctx.args.test else "install"
        ctx.checks.append(f"odoo-{action}")
        ctx.tools.append("odoo")
        runner = OdooRunner(runner_config(ctx.settings))
        use_cache = False if getattr(ctx.args, "no_cache", False) else None
        try:
            return asyncio.run(_run_all(runner, action, ctx, use_cache))
        finally:
            runner.wait_idle()  # each drop overlapped the next module's run


async def _run_all(
    runner: OdooRunner, action: Action, ctx: CheckContext, use_cache: bool | None
) -> list[Finding]:
    findings: list[Finding] = []
    for addon in ctx.addons:
        result = await runner.validate(action, [addon.name], demo=ctx.args.demo, use_cache=use_cache)
        findings += [_owned(f, addon.name) for f in result.findings]
        ctx.advance(f"odoo-{action}:{addon.name}", 1)
    return findings


def _enabled(args: argparse.Namespace) -> bool:
    return bool(getattr(args, "install", False) or getattr(args, "test", False))


def _owned(finding: Finding, module: str) -> Finding:
    """Findings without a module (a timeout, odoo-bin's exit) belong to the module being run."""
    return finding if finding.module else finding.model_copy(update={"module": module})
