"""The lint producer of ``assista-odoo check``: pylint-odoo, flake8 or ruff, the OCA hooks and
the static checks over the selected modules, with the findings cache."""

from __future__ import annotations

import argparse

from assista_mcp.cli.check_context import CheckContext
from assista_mcp.cli.common import positive_int
from odoo_tools.addons import Addon
from odoo_tools.findings import Finding
from odoo_tools.lint import CHECKS, LintCache, StoredDigests, lint_addons_sync


class LintProducer:
    def add_flags(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--checks",
            metavar="NAME[,NAME...]",
            help=f"which checks to run (default: all of {','.join(CHECKS)})",
        )
        parser.add_argument(
            "--jobs", type=positive_int, metavar="N", help="parallel linter processes (default: cores)"
        )
        parser.add_argument(
            "--no-cache", action="store_true", help="ignore and do not write the findings cache"
        )
        parser.add_argument(
            "--profile",
            choices=("auto", "default", "oca"),
            default="auto",
            help="severity grading: default (error = breaks install/upgrade/runtime or security), "
            "oca (OCA's mandatory checks are errors); auto: oca when the repository has OCA's "
            "configuration (.pylintrc-mandatory, OCA pre-commit), else default",
        )

    def units(self, args: argparse.Namespace, addons: list[Addon]) -> int:
        return len(addons) * len(_checks(args))

    def produce(self, ctx: CheckContext) -> list[Finding]:
        checks = _checks(ctx.args)
        ctx.checks.extend(checks)
        for check in checks:
            if check == "flake8":  # runs what each repository lints Python with: ruff or flake8
                ctx.tools.extend(sorted({ctx.project.config_for(a).python_linter for a in ctx.addons}))
            else:
                ctx.tools.append(check)
        cache_dir = None if ctx.args.no_cache else ctx.settings.cache_dir
        digests = StoredDigests(cache_dir, ctx.project.roots)  # a fresh process re-reads only edits
        run = lint_addons_sync(
            ctx.project,
            ctx.addons,
            checks,
            cache=LintCache(cache_dir),
            digests=digests,
            jobs=ctx.args.jobs,
            on_progress=ctx.advance,
        )
        digests.save()
        ctx.missing_tools.extend(run.missing_tools)
        return run.findings


def _checks(args: argparse.Namespace) -> list[str]:
    from odoo_tools.lint import validate_checks

    raw = getattr(args, "checks", None)
    return list(validate_checks([c.strip() for c in raw.split(",") if c.strip()] if raw else None))
